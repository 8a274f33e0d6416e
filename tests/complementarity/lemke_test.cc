#include "coulomb/complementarity/lemke.h"

#include <gtest/gtest.h>

#include "coulomb/complementarity/enumeration.h"
#include "coulomb/io/lcp_file.h"
#include "tests/support/build_paths.h"
#include "tests/support/known_lcps.h"
#include "tests/support/lcp_assertions.h"
#include "tests/support/random_lcp.h"

namespace coulomb {
namespace {

using testing::IsCertifiedSolution;

TEST(Lemke, TrivialWhenQNonnegative) {
  LcpProblem p;
  p.M = -Eigen::MatrixXd::Identity(3, 3);  // even a bad M: z = 0 solves it
  p.q = Eigen::Vector3d(0, 1, 2);
  const LcpResult r = SolveLemke(p);
  EXPECT_TRUE(IsCertifiedSolution(p, r));
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.z.norm(), 0.0);
}

TEST(Lemke, TwoByTwoAnalytic) {
  const LcpProblem p = testing::Deudeu();
  const LcpResult r = SolveLemke(p);
  ASSERT_TRUE(IsCertifiedSolution(p, r));
  EXPECT_NEAR(r.z[0], 4.0 / 3.0, 1e-14);
  EXPECT_NEAR(r.z[1], 7.0 / 3.0, 1e-14);
}

TEST(Lemke, InfeasibleCopositivePlusEndsOnRayAndEnumerationAgrees) {
  const LcpProblem p = testing::InfeasiblePsd();
  const LcpResult r = SolveLemke(p);
  EXPECT_EQ(r.status, LcpStatus::kSecondaryRay);
  EXPECT_FALSE(r.certificate.Passes());
  EXPECT_EQ(SolveEnumeration(p).status, LcpStatus::kNoSolution);
}

TEST(Lemke, DegenerateZeroRowsOfQ) {
  // Half the rows of q are 0 (as the s⁻ rows of paper 1's LCP): ties from the first pivot.
  const LcpProblem base = testing::MakePMatrixLcp(12, 7);
  LcpProblem p = base;
  for (int i = 0; i < 12; i += 2) p.q[i] = 0;
  EXPECT_TRUE(IsCertifiedSolution(p, SolveLemke(p)));
}

TEST(Lemke, DuplicatedRowsAndColumns) {
  // A duplicated contact: rows/columns 0 and 1 identical, M singular but PSD.
  Eigen::MatrixXd B = Eigen::MatrixXd::Random(6, 6);
  B.row(1) = B.row(0);
  LcpProblem p;
  p.M = B * B.transpose();
  p.q = Eigen::VectorXd::Constant(6, -1.0);
  p.q[1] = p.q[0];
  const LcpResult r = SolveLemke(p);
  ASSERT_TRUE(IsCertifiedSolution(p, r));
}

TEST(Lemke, MurtyExponentialExample) {
  // Murty's triangular example (1988, ch. 6): unit diagonal, 2 below it, q = −e. Triangular with
  // a positive diagonal makes it a P-matrix, so the solution is unique; enumeration finds it.
  const int n = 8;
  LcpProblem p;
  p.M = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    p.M(i, i) = 1;
    for (int j = 0; j < i; ++j) p.M(i, j) = 2;
  }
  p.q = -Eigen::VectorXd::Ones(n);
  const LcpResult r = SolveLemke(p);
  ASSERT_TRUE(IsCertifiedSolution(p, r));
  const LcpEnumeration all = EnumerateLcpSolutions(p);
  ASSERT_EQ(all.solutions.size(), 1u);  // P-matrix: unique
  EXPECT_LT((all.solutions[0] - r.z).lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(Lemke, RestartsAreDeterministicBySeed) {
  const LcpProblem p = testing::MakeStrictlyCopositiveLcp(40, 3);
  LemkeParams params;
  params.seed = 99;
  const LcpResult a = SolveLemke(p, params);
  const LcpResult b = SolveLemke(p, params);
  EXPECT_EQ(a.iterations, b.iterations);
  EXPECT_EQ(a.z, b.z);  // bit-identical
}

TEST(Lemke, PivotCapIsReported) {
  const LcpProblem p = testing::MakePMatrixLcp(30, 5);
  LemkeParams params;
  params.max_pivots = 3;
  params.max_restarts = 0;
  const LcpResult r = SolveLemke(p, params);
  EXPECT_EQ(r.status, LcpStatus::kIterationLimit);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_FALSE(r.message.empty());
}

TEST(Lemke, StewartTrinkleContactLcpsAreProcessedForAnyFriction) {
  // Anitescu–Potra: the velocity-level LCP is Lemke-processable for every μ ≥ 0. Redundant
  // corner contacts make it degenerate; the tolerant lexicographic rule must not ray.
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto system = testing::MakeRandomContactSystem(12, seed);
    for (double mu : {0.0, 0.3, 1.0}) {
      const LcpProblem p = testing::MakeStewartTrinkleLcp(system, 4, mu);
      EXPECT_TRUE(IsCertifiedSolution(p, SolveLemke(p))) << "seed " << seed << " mu " << mu;
    }
  }
}

TEST(Lemke, AReusedWorkspaceGivesEachProblemItsOwnCertifiedAnswer) {
  // One workspace and one result across problems of different sizes and kinds, as a Data keeps
  // them from step to step: each answer passes the certificate of its own problem, and equals a
  // fresh solve's bit for bit (the workspace is storage, never state).
  LemkeWorkspace workspace;
  LcpResult reused;
  for (const int contacts : {12, 3, 12, 7}) {
    const auto system = testing::MakeRandomContactSystem(contacts, 40 + contacts);
    for (double mu : {0.0, 0.6}) {
      const LcpProblem p = testing::MakeStewartTrinkleLcp(system, 4, mu);
      SolveLemke(p, {}, workspace, reused);
      const LcpResult fresh = SolveLemke(p);
      ASSERT_TRUE(IsCertifiedSolution(p, reused)) << contacts << " contacts, mu " << mu;
      EXPECT_EQ(reused.z, fresh.z);
      EXPECT_EQ(reused.iterations, fresh.iterations);
    }
  }
  const LcpProblem trivial = testing::Deudeu();
  SolveLemke(trivial, {}, workspace, reused);
  EXPECT_TRUE(IsCertifiedSolution(trivial, reused));
  EXPECT_NEAR(reused.z[0], 4.0 / 3.0, 1e-14);
}

TEST(Lemke, ScalingPreservesSolutionsOfBadlyScaledProblems) {
  // Rows scaled by 1e6 and 1e-6: LCP(Dq, DMD) is equivalent; the certificate is unscaled.
  LcpProblem p = testing::MakePMatrixLcp(20, 11);
  Eigen::VectorXd d = Eigen::VectorXd::Ones(20);
  for (int i = 0; i < 20; ++i) d[i] = i % 2 ? 1e3 : 1e-3;
  p.M = d.asDiagonal() * p.M * d.asDiagonal();
  p.q = d.cwiseProduct(p.q);
  EXPECT_TRUE(IsCertifiedSolution(p, SolveLemke(p)));
}

// The velocity LCP of the Ability hand at rest with fingers on their joint stops: each finger's
// limit row and its contact with the palm block one motion, so the principal block of the
// answer's support is singular (two zero singular values). Lemke's path ends right, but reading
// z off that basis amplified rounding to 1.3e-10 > 1e-10; the answer must certify, checked
// afresh here on the file's data.
TEST(Lemke, HyperstaticContactSetWithASingularBasisCertifies) {
  const Expected<LcpProblem> read =
      ReadLcpFile(std::string(testing::SourceDir()) +
                  "/tests/complementarity/data/ability_hand_hyperstatic.json");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  const LcpProblem& p = read.value();
  const LcpResult r = SolveLemke(p);
  ASSERT_TRUE(IsCertifiedSolution(p, r));
  std::vector<int> support;
  for (int i = 0; i < p.size(); ++i) {
    if (r.z[i] > r.w[i]) support.push_back(i);
  }
  const auto k = static_cast<Eigen::Index>(support.size());
  Eigen::MatrixXd block(k, k);
  for (Eigen::Index a = 0; a < k; ++a) {
    for (Eigen::Index b = 0; b < k; ++b) block(a, b) = p.M(support[a], support[b]);
  }
  Eigen::FullPivLU<Eigen::MatrixXd> lu(block);
  lu.setThreshold(1e-12);
  EXPECT_LT(lu.rank(), k) << "the fixture no longer has a singular basis";
}

TEST(Lemke, BadInputIsAValue) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(2, 3);
  p.q = Eigen::Vector2d(1, 1);
  const LcpResult r = SolveLemke(p);
  EXPECT_EQ(r.status, LcpStatus::kBadInput);
  EXPECT_NE(r.message.find("not square"), std::string::npos);
  p.M = Eigen::MatrixXd::Identity(2, 2);
  p.q[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(SolveLemke(p).status, LcpStatus::kBadInput);
}

}  // namespace
}  // namespace coulomb
