// Random LCPs by matrix class, up to n = 200: every solver whose theory covers the class must
// certify, and where the solution is unique (P-matrices) all of them must agree.

#include <gtest/gtest.h>

#include <tuple>

#include "coulomb/complementarity/enumeration.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "tests/support/lcp_assertions.h"
#include "tests/support/random_lcp.h"

namespace coulomb {
namespace {

using testing::IsCertifiedSolution;

class RandomSuite : public ::testing::TestWithParam<int> {};

TEST_P(RandomSuite, PMatrixAllSolversCertifyAndAgree) {
  const int n = GetParam();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const LcpProblem p = testing::MakePMatrixLcp(n, 100 * n + seed);
    const LcpResult reference = SolveLcp(p, LcpSolverKind::kLemke);
    ASSERT_TRUE(IsCertifiedSolution(p, reference));
    for (const LcpSolverKind kind :
         {LcpSolverKind::kFeasibleInteriorPoint, LcpSolverKind::kMehrotra,
          LcpSolverKind::kFischerBurmeister, LcpSolverKind::kPortfolio}) {
      const LcpResult r = SolveLcp(p, kind);
      ASSERT_TRUE(IsCertifiedSolution(p, r));
      EXPECT_LT((r.z - reference.z).lpNorm<Eigen::Infinity>(),
                1e-7 * (1 + reference.z.lpNorm<Eigen::Infinity>()))
          << ToString(kind) << " seed " << seed;
    }
  }
}

TEST_P(RandomSuite, SymmetricPsdPivotingAndInteriorPointCertify) {
  const int n = GetParam();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const LcpProblem p = testing::MakeSymmetricPsdLcp(n, std::max(1, n / 2), 200 * n + seed);
    for (const LcpSolverKind kind :
         {LcpSolverKind::kLemke, LcpSolverKind::kMehrotra, LcpSolverKind::kPortfolio}) {
      EXPECT_TRUE(IsCertifiedSolution(p, SolveLcp(p, kind))) << ToString(kind) << " seed " << seed;
    }
    // z is not unique here (rank-deficient M), but for a symmetric PSD M every solution has
    // the same M z (CPS Thm 3.1.7): compare that across a pivoting and an interior method.
    const LcpResult a = SolveLcp(p, LcpSolverKind::kLemke);
    const LcpResult b = SolveLcp(p, LcpSolverKind::kMehrotra);
    EXPECT_LT((p.M * (a.z - b.z)).lpNorm<Eigen::Infinity>(),
              1e-7 * (1 + p.q.lpNorm<Eigen::Infinity>()));
  }
}

TEST_P(RandomSuite, StrictlyCopositiveLemkeCertifies) {
  const int n = GetParam();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const LcpProblem p = testing::MakeStrictlyCopositiveLcp(n, 300 * n + seed);
    EXPECT_TRUE(IsCertifiedSolution(p, SolveLcp(p, LcpSolverKind::kLemke))) << "seed " << seed;
    EXPECT_TRUE(IsCertifiedSolution(p, SolveLcp(p, LcpSolverKind::kPortfolio))) << "seed " << seed;
  }
}

TEST_P(RandomSuite, ProjectedGaussSeidelOnSymmetricPositiveDefinite) {
  const int n = GetParam();
  const LcpProblem p = testing::MakeDiagonallyDominantLcp(n, 400 * n);
  const LcpResult pgs = SolveLcp(p, LcpSolverKind::kProjectedGaussSeidel);
  ASSERT_TRUE(IsCertifiedSolution(p, pgs));
  const LcpResult lemke = SolveLcp(p, LcpSolverKind::kLemke);
  EXPECT_LT((pgs.z - lemke.z).lpNorm<Eigen::Infinity>(),
            1e-7 * (1 + lemke.z.lpNorm<Eigen::Infinity>()));
}

INSTANTIATE_TEST_SUITE_P(Sizes, RandomSuite, ::testing::Values(10, 50, 100, 200));

TEST(SmallRandomSuite, EveryEnumeratedSolutionCertifiesAndLemkeFindsOne) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const LcpProblem p = testing::MakeStrictlyCopositiveLcp(8, seed);
    const LcpEnumeration all = EnumerateLcpSolutions(p);
    ASSERT_EQ(all.status, LcpStatus::kSolved);  // strictly copositive ⇒ solvable
    for (const Eigen::VectorXd& z : all.solutions) EXPECT_TRUE(CertifyLcp(p, z).Passes());
    const LcpResult lemke = SolveLcp(p, LcpSolverKind::kLemke);
    ASSERT_TRUE(IsCertifiedSolution(p, lemke));
    // Lemke's answer is one of the enumerated solutions.
    bool found = false;
    for (const Eigen::VectorXd& z : all.solutions) {
      found = found ||
              (z - lemke.z).lpNorm<Eigen::Infinity>() < 1e-8 * (1 + z.lpNorm<Eigen::Infinity>());
    }
    EXPECT_TRUE(found) << "seed " << seed;
  }
}

TEST(SmallRandomSuite, PaperOnePyramidLcpsPortfolioMatchesGroundTruth) {
  // Paper 1's LCP (nonsymmetric, zero diagonals, q = 0 rows): the portfolio must certify every
  // instance that has a solution and must never "solve" one that enumeration proves has none.
  int solvable = 0, proven_unsolvable = 0;
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    const auto system = testing::MakeRandomContactSystem(3, seed);
    for (double mu : {0.2, 0.6, 1.0}) {
      const LcpProblem p = testing::MakeTrinklePyramidLcp(system, 1, mu, seed);  // n = 11
      const LcpEnumeration truth = EnumerateLcpSolutions(p);
      const LcpResult r = SolveLcp(p, LcpSolverKind::kPortfolio);
      if (truth.status == LcpStatus::kSolved) {
        ++solvable;
        EXPECT_TRUE(IsCertifiedSolution(p, r)) << "seed " << seed << " mu " << mu;
      } else if (truth.status == LcpStatus::kNoSolution) {
        ++proven_unsolvable;
        EXPECT_FALSE(r.solved());
        EXPECT_EQ(r.status, LcpStatus::kNoSolution);
      }
    }
  }
  EXPECT_GT(solvable, 0);
  RecordProperty("solvable", solvable);
  RecordProperty("proven_unsolvable", proven_unsolvable);
}

}  // namespace
}  // namespace coulomb
