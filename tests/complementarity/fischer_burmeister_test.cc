#include <gtest/gtest.h>

#include "coulomb/complementarity/fischer_burmeister_newton.h"
#include "coulomb/complementarity/projected_gauss_seidel.h"
#include "tests/support/known_lcps.h"
#include "tests/support/lcp_assertions.h"
#include "tests/support/random_lcp.h"

namespace coulomb {
namespace {

using testing::IsCertifiedSolution;

TEST(FischerBurmeister, SolvesPMatrixFromZero) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const LcpProblem p = testing::MakePMatrixLcp(30, seed);
    EXPECT_TRUE(IsCertifiedSolution(p, SolveFischerBurmeister(p)));
  }
}

TEST(FischerBurmeister, PolishesAnInaccurateAnswerInFewSteps) {
  // A PGS answer perturbed by 1e-3: FB Newton from there must reach 1e-12 in a few steps
  // (local superlinear rate at a nondegenerate solution).
  const LcpProblem p = testing::MakeDiagonallyDominantLcp(50, 3);
  const LcpResult exact = SolveProjectedGaussSeidel(p);
  ASSERT_TRUE(exact.solved());
  LcpResult coarse = exact;
  for (int i = 0; i < 50; ++i)
    coarse.z[i] = std::max(0.0, coarse.z[i] + 1e-3 * ((i * 7919) % 13 - 6) / 6.0);
  ASSERT_FALSE(CertifyLcp(p, coarse.z).Passes(1e-6));
  FischerBurmeisterParams params;
  params.acceptance_tolerance = 1e-12;
  const LcpResult polished = SolveFischerBurmeister(p, params, &coarse.z);
  EXPECT_TRUE(IsCertifiedSolution(p, polished, 1e-12));
  EXPECT_LE(polished.iterations, 6);
}

TEST(FischerBurmeister, ReportsFailureOnInfeasibleProblem) {
  const LcpProblem p = testing::InfeasiblePsd();
  const LcpResult r = SolveFischerBurmeister(p);
  EXPECT_FALSE(r.solved());
  EXPECT_TRUE(r.status == LcpStatus::kStalled || r.status == LcpStatus::kIterationLimit);
}

}  // namespace
}  // namespace coulomb
