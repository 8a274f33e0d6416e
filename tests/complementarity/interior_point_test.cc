// Paper 1's feasible interior point method (with Phase I) and the Mehrotra IPM.

#include <gtest/gtest.h>

#include "coulomb/complementarity/enumeration.h"
#include "coulomb/complementarity/feasible_interior_point.h"
#include "coulomb/complementarity/lemke.h"
#include "coulomb/complementarity/mehrotra_interior_point.h"
#include "coulomb/complementarity/phase_one.h"
#include "tests/support/known_lcps.h"
#include "tests/support/lcp_assertions.h"
#include "tests/support/random_lcp.h"

namespace coulomb {
namespace {

using testing::IsCertifiedSolution;

TEST(PhaseOne, FindsStrictlyFeasiblePointWithMargin) {
  const LcpProblem p = testing::MakePMatrixLcp(15, 2);
  const PhaseOneResult start = FindStrictlyFeasiblePoint(p);
  ASSERT_TRUE(start.strictly_feasible);
  const Eigen::VectorXd w = p.M * start.z + p.q;
  EXPECT_GT(start.z.minCoeff(), 0.0);
  EXPECT_GT(w.minCoeff(), 0.0);
  EXPECT_NEAR(std::min(start.z.minCoeff(), w.minCoeff()), start.margin, 1e-12);
}

TEST(PhaseOne, ReportsNoStrictlyFeasiblePoint) {
  // w1 = −z1 forces z1 = w1 = 0: feasible (z = 0) but never strictly. Paper 1's NFP case
  // "μ = 0 at a rolling contact" has exactly this shape (s⁻ = −s⁺).
  LcpProblem p;
  p.M.resize(2, 2);
  p.M << -1, 0, 0, 1;
  p.q = Eigen::Vector2d(0, 1);
  EXPECT_FALSE(FindStrictlyFeasiblePoint(p).strictly_feasible);
  const LcpResult r = SolveFeasibleInteriorPoint(p);
  EXPECT_EQ(r.status, LcpStatus::kNoStrictlyFeasiblePoint);
  // The LCP itself is solvable (z = 0): Lemke, which needs no interior, certifies it.
  EXPECT_TRUE(IsCertifiedSolution(p, SolveLemke(p)));
}

TEST(FeasibleInteriorPoint, SolvesPMatrixAndAgreesWithLemke) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const LcpProblem p = testing::MakePMatrixLcp(25, seed);
    const LcpResult fip = SolveFeasibleInteriorPoint(p);
    const LcpResult lemke = SolveLemke(p);
    ASSERT_TRUE(IsCertifiedSolution(p, fip));
    ASSERT_TRUE(IsCertifiedSolution(p, lemke));
    EXPECT_LT((fip.z - lemke.z).lpNorm<Eigen::Infinity>(), 1e-8);  // unique solution
  }
}

TEST(FeasibleInteriorPoint, PaperSettingsStopOnAbsoluteGap) {
  // Paper 1: stop when wᵀz ≤ 1e-6, 300 iterations, no polish. The answer is then only
  // 1e-6-accurate, which the certificate must see at 1e-6 but not at 1e-12.
  const LcpProblem p = testing::MakePMatrixLcp(20, 4);
  FeasibleInteriorPointParams paper;
  paper.absolute_gap = 1e-6;
  paper.relative_gap = 0;
  paper.polish = false;
  paper.acceptance_tolerance = 1e-6;
  const LcpResult r = SolveFeasibleInteriorPoint(p, paper);
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_LE(r.z.dot(r.w), 1e-6 * 1.0001);
  EXPECT_GT(r.z.minCoeff(), 0.0);  // still interior: no rounding happened
  EXPECT_FALSE(CertifyLcp(p, r.z).Passes(1e-12));
}

TEST(FeasibleInteriorPoint, IterationCapIsReported) {
  const LcpProblem p = testing::MakePMatrixLcp(20, 6);
  FeasibleInteriorPointParams params;
  params.max_iterations = 2;
  const LcpResult r = SolveFeasibleInteriorPoint(p, params);
  EXPECT_EQ(r.status, LcpStatus::kIterationLimit);
  EXPECT_EQ(r.iterations, 2);
}

TEST(Mehrotra, SolvesMonotoneAndPMatrixProblems) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const LcpProblem pmat = testing::MakePMatrixLcp(40, seed);
    EXPECT_TRUE(IsCertifiedSolution(pmat, SolveMehrotra(pmat)));
    const LcpProblem psd = testing::MakeSymmetricPsdLcp(40, 20, seed);
    EXPECT_TRUE(IsCertifiedSolution(psd, SolveMehrotra(psd)));
  }
}

TEST(Mehrotra, InfeasibleProblemIsNotAnsweredWithAWrongZ) {
  const LcpProblem p = testing::InfeasiblePsd();
  const LcpResult r = SolveMehrotra(p);
  EXPECT_FALSE(r.solved());
  EXPECT_FALSE(r.certificate.Passes());
  EXPECT_FALSE(r.message.empty());
}

}  // namespace
}  // namespace coulomb
