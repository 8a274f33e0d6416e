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

// w0 = w1 = z0 + z1 − 1, w2 = z0 − z1 − 0.5, w3 = z1 + q3; z2 and z3 act on nothing. By hand:
// z0 + z1 = 1 (z1 alone gives w2 = −1.5), so w2 ≥ 0 ⇔ z1 ≤ 0.25 and w3 ≥ 0 ⇔ z1 ≥ −q3. Every
// solution lies inside the continuum of the singular blocks, never at their minimum-norm points
// (z0 = z1 = 0.5 gives w2 = −0.5), which is all enumeration used to test ("undecided").
LcpProblem SingularBlocksOnly(double q3) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Zero(4, 4);
  p.M.topLeftCorner(2, 2).setOnes();
  p.M.row(2).head(2) << 1, -1;
  p.M(3, 1) = 1;
  p.q = Eigen::Vector4d(-1, -1, -0.5, q3);
  return p;
}

TEST(Enumeration, ASingularBlockIsDecidedOverItsWholeContinuum) {
  const LcpProblem feasible = SingularBlocksOnly(-0.1);  // z1 ∈ [0.1, 0.25]
  const LcpEnumeration some = EnumerateLcpSolutions(feasible);
  ASSERT_EQ(some.status, LcpStatus::kSolved);
  EXPECT_TRUE(some.exhaustive) << some.undecided_blocks;
  for (const Eigen::VectorXd& z : some.solutions) {
    EXPECT_TRUE(CertifyLcp(feasible, z).Passes()) << z.transpose();
    EXPECT_GE(z[1], 0.1 - 1e-9);
    EXPECT_LE(z[1], 0.25 + 1e-9);
  }
  const LcpEnumeration none = EnumerateLcpSolutions(SingularBlocksOnly(-0.3));  // z1 ≥ 0.3
  EXPECT_EQ(none.status, LcpStatus::kNoSolution) << none.message;
  EXPECT_TRUE(none.exhaustive);
}

TEST(Enumeration, RefusesLargeProblems) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(25, 25);
  p.q = -Eigen::VectorXd::Ones(25);
  EXPECT_EQ(SolveEnumeration(p).status, LcpStatus::kBadInput);
}

}  // namespace
}  // namespace coulomb
