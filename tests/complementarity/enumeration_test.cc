#include "coulomb/complementarity/enumeration.h"

#include <gtest/gtest.h>

#include "tests/support/known_lcps.h"
#include "tests/support/lcp_assertions.h"

namespace coulomb {
namespace {

TEST(Enumeration, FindsEveryIsolatedSolution) {
  // M = −I, q = (1, 1): each z_i ∈ {0, 1} independently → 4 solutions.
  LcpProblem p;
  p.M = -Eigen::MatrixXd::Identity(2, 2);
  p.q = Eigen::Vector2d(1, 1);
  const LcpEnumeration all = EnumerateLcpSolutions(p);
  ASSERT_EQ(all.status, LcpStatus::kSolved);
  EXPECT_EQ(all.solutions.size(), 4u);
  EXPECT_TRUE(all.exhaustive);
  for (const Eigen::VectorXd& z : all.solutions) EXPECT_TRUE(CertifyLcp(p, z).Passes());
}

TEST(Enumeration, ProvesInfeasibility) {
  const LcpProblem p = testing::InfeasiblePsd();
  const LcpEnumeration all = EnumerateLcpSolutions(p);
  EXPECT_EQ(all.status, LcpStatus::kNoSolution);
  EXPECT_TRUE(all.exhaustive);
  EXPECT_EQ(all.bases_checked, 4);
  const LcpResult r = SolveEnumeration(p);
  EXPECT_EQ(r.status, LcpStatus::kNoSolution);
}

TEST(Enumeration, ContinuumIsFlagged) {
  // CPS 2009 Remark 4.1.14: M = [[1, 1], [1, 1]], q = (−1, −1): all z ≥ 0 with z1 + z2 = 1.
  LcpProblem p;
  p.M = Eigen::MatrixXd::Ones(2, 2);
  p.q = Eigen::Vector2d(-1, -1);
  const LcpEnumeration all = EnumerateLcpSolutions(p);
  EXPECT_EQ(all.status, LcpStatus::kSolved);
  EXPECT_TRUE(all.has_continuum);
  for (const Eigen::VectorXd& z : all.solutions) EXPECT_NEAR(z.sum(), 1.0, 1e-12);
}

TEST(Enumeration, RefusesLargeProblems) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(25, 25);
  p.q = -Eigen::VectorXd::Ones(25);
  EXPECT_EQ(SolveEnumeration(p).status, LcpStatus::kBadInput);
}

}  // namespace
}  // namespace coulomb
