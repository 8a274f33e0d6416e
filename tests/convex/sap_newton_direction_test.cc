// The Newton direction with a reused factorization: the CG answer is held to the linear
// residual it promises, checked with a dense solve of the same system, and the fallbacks
// (another problem's factor, a budget too small, a failed factorization) factor afresh.
#include "coulomb/convex/sap_newton_direction.h"

#include <gtest/gtest.h>

#include <random>

namespace coulomb::convex {
namespace {

// These matrices are small, so a factorization costs only a few solves; most tests lift the
// cap that would otherwise keep reuse off.
constexpr double kAlwaysAffordable = 1e9;

// A random SPD matrix with a band of couplings.
Eigen::MatrixXd RandomSpd(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = std::max(0, i - 3); j <= i; ++j) B(i, j) = u(rng);
  }
  return B * B.transpose() + Eigen::MatrixXd::Identity(n, n);
}

// The factor of H0 preconditions H1 = H0 + a stiff rank-3 change (a new near-rigid contact).
struct Fixture {
  static constexpr int kN = 30;
  Eigen::MatrixXd H0 = RandomSpd(kN, 1), H1 = H0;
  Eigen::VectorXd g = Eigen::VectorXd::LinSpaced(kN, -1, 2);
  std::vector<int> cliques = {0, 1, 2, 3, 4};
  math::CholeskyFactor factor;
  LaggedFactorizationSettings lagged;
  Fixture() {
    Eigen::MatrixXd C = Eigen::MatrixXd::Zero(3, kN);
    C.block(0, 6, 3, 6) = RandomSpd(6, 2).topRows(3);
    H1 += 1e6 * C.transpose() * C;
    lagged.max_cg_iterations = 20;
    lagged.max_factorization_share = kAlwaysAffordable;
    lagged.min_factorization_flops = 0;
  }
  NewtonDirection Solve(const Eigen::MatrixXd& H) { return Solve(H, cliques); }
  NewtonDirection Solve(const Eigen::MatrixXd& H, const std::vector<int>& problem_cliques) {
    const Eigen::SparseMatrix<double> lower =
        Eigen::MatrixXd(H.triangularView<Eigen::Lower>()).sparseView();
    return SolveNewtonDirection(lower, g, Eigen::VectorXd::Ones(kN), problem_cliques,
                                math::CholeskyMethod::kSimplicial, math::FillOrdering::kAmd, lagged,
                                factor);
  }
  // ‖H Δv + ∇ℓ‖ relative to ‖∇ℓ‖, computed densely.
  double LinearResidual(const Eigen::MatrixXd& H, const NewtonDirection& d) const {
    return (H * d.dv + g).norm() / g.norm();
  }
};

TEST(SapNewtonDirection, ReusedFactorMeetsTheLinearResidualItPromises) {
  Fixture f;
  f.lagged.cg_tolerance = 1e-6;
  const NewtonDirection first = f.Solve(f.H0);
  ASSERT_TRUE(first.ok && first.factored);
  EXPECT_LT(f.LinearResidual(f.H0, first), 1e-10);

  const NewtonDirection second = f.Solve(f.H1);
  ASSERT_TRUE(second.ok);
  EXPECT_FALSE(second.factored);
  // A rank-3 change leaves at most 3 outlying eigenvalues: CG needs about 4 iterations.
  EXPECT_LE(second.cg_iterations, 6);
  EXPECT_LE(f.LinearResidual(f.H1, second), 1e-6);
  const Eigen::VectorXd exact = f.H1.llt().solve(-f.g);
  EXPECT_LT((second.dv - exact).norm(), 1e-3 * exact.norm());
  EXPECT_LT(f.g.dot(second.dv), 0);  // a descent direction
  EXPECT_EQ(f.factor.factorizations(), 1);
}

TEST(SapNewtonDirection, AnotherProblemsFactorIsNeverUsed) {
  Fixture f;
  f.Solve(f.H0);
  const NewtonDirection d = f.Solve(f.H1, {0, 1, 2, 3, 5});
  EXPECT_TRUE(d.factored);
  EXPECT_EQ(d.cg_iterations, 0);
  EXPECT_LT(f.LinearResidual(f.H1, d), 1e-8);
}

TEST(SapNewtonDirection, TooSmallABudgetFallsBackToAFreshFactor) {
  Fixture f;
  f.lagged.max_cg_iterations = 1;  // one iteration cannot absorb a rank-3 change to 1e-6
  f.lagged.cg_tolerance = 1e-6;
  f.Solve(f.H0);
  const NewtonDirection d = f.Solve(f.H1);
  EXPECT_TRUE(d.factored);
  EXPECT_EQ(d.cg_iterations, 1);
  EXPECT_EQ(f.factor.factorizations(), 2);
  EXPECT_LT(f.LinearResidual(f.H1, d), 1e-8);
}

TEST(SapNewtonDirection, CheapFactorizationsAreNotReusedByDefault) {
  Fixture f;
  f.lagged.max_factorization_share = LaggedFactorizationSettings{}.max_factorization_share;
  f.Solve(f.H1);
  f.Solve(f.H1);
  ASSERT_LT(0.5 * f.factor.SolvesPerFactorization(), 4);  // a 30 × 30 band matrix
  EXPECT_EQ(f.factor.factorizations(), 2);
  // Affordable by the share, but under the flop floor: still factored.
  f.lagged.max_factorization_share = kAlwaysAffordable;
  f.lagged.min_factorization_flops = LaggedFactorizationSettings{}.min_factorization_flops;
  f.Solve(f.H1);
  ASSERT_LT(f.factor.FactorizationFlops(), f.lagged.min_factorization_flops);
  EXPECT_EQ(f.factor.factorizations(), 3);
}

TEST(SapNewtonDirection, ZeroBudgetAlwaysFactors) {
  Fixture f;
  f.lagged.max_cg_iterations = 0;
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(f.Solve(f.H1).factored);
  EXPECT_EQ(f.factor.factorizations(), 3);
}

TEST(SapNewtonDirection, NotPositiveDefiniteIsReportedAndNeverReused) {
  Fixture f;
  EXPECT_FALSE(f.Solve(-f.H0).ok);
  const NewtonDirection next = f.Solve(f.H0);
  EXPECT_TRUE(next.ok && next.factored);
}

// A checkpoint keeps the lagged factor as the matrix it came from: a factor rebuilt from its
// source in a fresh object preconditions the next problem exactly as the original does, so the
// CG direction is the same to the bit (what makes a resumed SAP run bit-identical).
TEST(SapNewtonDirection, FactorRestoredFromItsSourceGivesTheSameDirectionBitForBit) {
  Fixture f, resumed;
  f.lagged.cg_tolerance = resumed.lagged.cg_tolerance = 1e-6;
  ASSERT_TRUE(f.Solve(f.H0).factored);
  const math::CholeskySource source = f.factor.source();
  EXPECT_EQ(source.lower.rows(), Fixture::kN);
  EXPECT_EQ(source.tag, f.factor.tag());
  ASSERT_TRUE(resumed.factor.Restore(source));
  const NewtonDirection original = f.Solve(f.H1), again = resumed.Solve(resumed.H1);
  ASSERT_FALSE(original.factored);  // the lagged factor preconditioned CG in both
  ASSERT_FALSE(again.factored);
  EXPECT_EQ(original.cg_iterations, again.cg_iterations);
  ASSERT_EQ(original.dv.size(), again.dv.size());
  for (Eigen::Index i = 0; i < original.dv.size(); ++i) EXPECT_EQ(original.dv[i], again.dv[i]);
  EXPECT_LT(f.LinearResidual(f.H1, original), 1e-5);  // and it is an answer, not just equal
  // An empty source (no factorization yet) restores nothing and preconditions nothing.
  math::CholeskyFactor empty;
  EXPECT_TRUE(empty.Restore(math::CholeskySource{}));
  EXPECT_TRUE(empty.tag().empty());
}

}  // namespace
}  // namespace coulomb::convex
