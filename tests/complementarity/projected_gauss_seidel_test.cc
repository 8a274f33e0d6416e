#include "coulomb/complementarity/projected_gauss_seidel.h"

#include <gtest/gtest.h>

#include "coulomb/complementarity/lemke.h"
#include "tests/support/lcp_assertions.h"
#include "tests/support/random_lcp.h"

namespace coulomb {
namespace {

using testing::IsCertifiedSolution;

TEST(ProjectedGaussSeidel, ConvergesOnSymmetricPositiveDefinite) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const LcpProblem p = testing::MakeDiagonallyDominantLcp(60, seed);
    const LcpResult pgs = SolveProjectedGaussSeidel(p);
    ASSERT_TRUE(IsCertifiedSolution(p, pgs));
    // Unique solution (SPD): the pivoting method must find the same z.
    const LcpResult lemke = SolveLemke(p);
    EXPECT_LT((pgs.z - lemke.z).lpNorm<Eigen::Infinity>(), 1e-8);
  }
}

TEST(ProjectedGaussSeidel, OverRelaxationAlsoConverges) {
  const LcpProblem p = testing::MakeDiagonallyDominantLcp(40, 9);
  ProjectedGaussSeidelParams params;
  params.omega = 1.3;
  EXPECT_TRUE(IsCertifiedSolution(p, SolveProjectedGaussSeidel(p, params)));
}

TEST(ProjectedGaussSeidel, ZeroDiagonalIsNotApplicable) {
  const auto system = testing::MakeRandomContactSystem(4, 1);
  const LcpProblem p = testing::MakeStewartTrinkleLcp(system, 4, 0.5);  // λ rows: M_ii = 0
  const LcpResult r = SolveProjectedGaussSeidel(p);
  EXPECT_EQ(r.status, LcpStatus::kNotApplicable);
  EXPECT_NE(r.message.find("positive diagonal"), std::string::npos);
}

TEST(ProjectedGaussSeidel, SweepLimitIsReportedHonestly) {
  const LcpProblem p = testing::MakeSymmetricPsdLcp(30, 30, 2);
  ProjectedGaussSeidelParams params;
  params.max_sweeps = 2;
  params.check_every = 1;
  const LcpResult r = SolveProjectedGaussSeidel(p, params);
  EXPECT_EQ(r.status, LcpStatus::kIterationLimit);
  EXPECT_FALSE(r.certificate.Passes());
}

}  // namespace
}  // namespace coulomb
