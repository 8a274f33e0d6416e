#include "coulomb/io/fclib_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "coulomb/formulations/trinkle/trinkle_generator.h"
#include "tests/support/lcp_assertions.h"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

TEST(FclibFile, GeneratedProblemRoundTripsExactly) {
  trinkle::GeneratorRequest request;
  request.num_sliding = 5;
  request.num_rolling = 5;
  const auto g = trinkle::GenerateTrinkleProblem(request, 7);
  ASSERT_TRUE(g.has_value());
  FrictionContactProblem p = trinkle::MakeFrictionContactProblem(g->problem, 1e-3);
  p.name = "generated 5/5";
  const fs::path path = fs::temp_directory_path() / "coulomb_fclib_roundtrip.hdf5";
  fs::remove(path);
  ASSERT_FALSE(WriteFclibLocal(p, path.string()).has_value());
  EXPECT_TRUE(WriteFclibLocal(p, path.string()).has_value());  // refuses to overwrite
  const auto back = ReadFclibLocal(path.string());
  ASSERT_TRUE(back.ok()) << back.error().ToString();
  EXPECT_EQ(Eigen::MatrixXd(back.value().W - p.W).norm(), 0.0);
  EXPECT_EQ(back.value().q, p.q);
  EXPECT_EQ(back.value().mu, p.mu);
  EXPECT_EQ(back.value().name, "generated 5/5");
  fs::remove(path);
}

TEST(FclibFile, ReadsTheFclibTestProblem) {
  const std::string path = testing::SharedData("fclib/local_problem_test.hdf5");
  if (!fs::exists(path)) GTEST_SKIP() << "no shared data";
  const auto p = ReadFclibLocal(path);
  ASSERT_TRUE(p.ok()) << p.error().ToString();
  // data/README.md: "Boxes Stack", 48 contacts, W 144 × 144.
  EXPECT_EQ(p.value().num_contacts(), 48);
  EXPECT_EQ(p.value().W.rows(), 144);
  const Eigen::MatrixXd W(p.value().W);
  EXPECT_LT((W - W.transpose()).lpNorm<Eigen::Infinity>(), 1e-9 * W.lpNorm<Eigen::Infinity>());
}

TEST(FclibFile, BadFilesAreErrors) {
  EXPECT_FALSE(ReadFclibLocal("/nonexistent.hdf5").ok());
  const fs::path text = fs::temp_directory_path() / "coulomb_not_hdf5.hdf5";
  std::ofstream(text) << "hello";
  const auto r = ReadFclibLocal(text.string());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().reason.find("not an HDF5 file"), std::string::npos);
  fs::remove(text);
}

}  // namespace
}  // namespace coulomb
