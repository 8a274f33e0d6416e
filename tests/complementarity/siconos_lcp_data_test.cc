// Every LCP file of Siconos' test collection: certified by the portfolio, or shown unsolvable
// by enumeration. The files are in data/siconos/LCP.

#include <gtest/gtest.h>

#include <filesystem>

#include "coulomb/complementarity/enumeration.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/io/lcp_file.h"
#include "tests/support/lcp_assertions.h"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

TEST(SiconosLcpData, EveryFileIsCertifiedOrProvenUnsolvable) {
  const fs::path dir = testing::DataFile("siconos/LCP");
  ASSERT_TRUE(fs::is_directory(dir)) << "missing from data/";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".dat") continue;
    ++files;
    const Expected<LcpProblem> problem = ReadLcpFile(entry.path().string());
    ASSERT_TRUE(problem.ok()) << problem.error().ToString();
    const LcpResult r = SolveLcp(problem.value(), LcpSolverKind::kPortfolio);
    if (r.solved()) {
      EXPECT_TRUE(testing::IsCertifiedSolution(problem.value(), r));
      continue;
    }
    ASSERT_LE(problem.value().size(), 20) << entry.path() << " unsolved and too large to enumerate";
    const LcpEnumeration truth = EnumerateLcpSolutions(problem.value());
    EXPECT_EQ(truth.status, LcpStatus::kNoSolution)
        << entry.path() << ": portfolio failed (" << r.message << ") but enumeration found "
        << truth.solutions.size() << " solutions";
  }
  EXPECT_EQ(files, 14);
}

TEST(SiconosLcpData, SparseBlockFileMatchesItsDenseTwin) {
  const std::string dense = testing::DataFile("siconos/LCP/lcp_trivial.dat");
  const std::string block = testing::DataFile("siconos/LCP/lcp_trivial_block.dat");
  ASSERT_TRUE(fs::exists(dense) && fs::exists(block)) << "missing from data/";
  const auto a = ReadLcpFile(dense);
  const auto b = ReadLcpFile(block);
  ASSERT_TRUE(a.ok() && b.ok());
  // Both store diag(1..9) with q = −e (read independently: one column-major dense, one SBM).
  Eigen::MatrixXd expected = Eigen::VectorXd::LinSpaced(9, 1, 9).asDiagonal();
  EXPECT_EQ(b.value().M, expected);
  EXPECT_EQ(b.value().q, -Eigen::VectorXd::Ones(9));
  EXPECT_EQ(a.value().M.diagonal(), expected.diagonal());
}

TEST(SiconosLcpData, MurtyFileIsReadColumnMajor) {
  const std::string path = testing::DataFile("siconos/LCP/lcp_exp_murty.dat");
  ASSERT_TRUE(fs::exists(path)) << "missing from data/";
  const auto p = ReadLcpFile(path);
  ASSERT_TRUE(p.ok());
  // The file prints columns: Murty's matrix is then upper triangular (data README).
  EXPECT_EQ(p.value().M(0, 5), 2.0);
  EXPECT_EQ(p.value().M(5, 0), 0.0);
}

}  // namespace
}  // namespace coulomb
