// math/dense_factorizations.h against Eigen's own decompositions and closed forms: solves that
// satisfy their systems, a condition estimate bracketing the true condition number, and the
// minimum-norm solution of rank-deficient systems.

#include "coulomb/math/dense_factorizations.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdint>

#include "coulomb/base/random.h"

namespace coulomb::math {
namespace {

Eigen::MatrixXd RandomMatrix(int rows, int cols, SplitMix64& rng) {
  Eigen::MatrixXd m(rows, cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) m(i, j) = rng.Uniform(-1.0, 1.0);
  }
  return m;
}

Eigen::VectorXd RandomVector(int n, SplitMix64& rng) {
  return RandomMatrix(n, 1, rng);
}

TEST(DenseLu, SolvesAndTransposedSolvesSatisfyTheirSystemsThroughChangingSizes) {
  SplitMix64 rng(7);
  DenseLu lu;
  for (const int n : {1, 2, 5, 40, 3, 17, 60, 8, 300}) {  // 300: several panels and chunks
    const Eigen::MatrixXd A = RandomMatrix(n, n, rng) + 2.0 * Eigen::MatrixXd::Identity(n, n);
    PrepareLu(lu, n) = A;
    FactorLu(lu);
    ASSERT_FALSE(lu.singular);
    const Eigen::VectorXd b = RandomVector(n, rng);
    Eigen::VectorXd x = b;
    SolveLuInPlace(lu, x);
    EXPECT_LE((A * x - b).lpNorm<Eigen::Infinity>(), 1e-12) << n;
    Eigen::VectorXd y = b;
    SolveLuTransposedInPlace(lu, y);
    EXPECT_LE((A.transpose() * y - b).lpNorm<Eigen::Infinity>(), 1e-12) << n;
    EXPECT_NEAR(lu.norm1, A.cwiseAbs().colwise().sum().maxCoeff(), 1e-14 * n);
    // Several right-hand sides at once (Lemke's stored columns of B⁻¹).
    const Eigen::MatrixXd B = RandomMatrix(n, 1 + n % 7, rng);
    Eigen::MatrixXd X = B;
    SolveLuColumnsInPlace(lu, X);
    EXPECT_LE((A * X - B).lpNorm<Eigen::Infinity>(), 1e-12) << n;
  }
}

TEST(DenseLu, ConditionEstimateBracketsTheTrueConditionNumber) {
  SplitMix64 rng(11);
  DenseLu lu;
  for (const int n : {2, 6, 30}) {
    for (const double spread : {1.0, 1e4, 1e9}) {
      // A = U diag(1 … 1/spread) Vᵀ with random orthogonal U, V: condition number ≈ spread.
      const Eigen::HouseholderQR<Eigen::MatrixXd> qu(RandomMatrix(n, n, rng));
      const Eigen::HouseholderQR<Eigen::MatrixXd> qv(RandomMatrix(n, n, rng));
      const Eigen::MatrixXd U = qu.householderQ(), V = qv.householderQ();
      Eigen::VectorXd sigma(n);
      for (int i = 0; i < n; ++i) sigma[i] = std::pow(spread, -static_cast<double>(i) / (n - 1));
      const Eigen::MatrixXd A = U * sigma.asDiagonal() * V.transpose();
      const double exact = 1.0 / (A.cwiseAbs().colwise().sum().maxCoeff() *
                                  A.inverse().cwiseAbs().colwise().sum().maxCoeff());
      PrepareLu(lu, n) = A;
      FactorLu(lu);
      const double estimate = EstimateReciprocalCondition(lu);
      // ‖A⁻¹‖₁ is estimated from below, so the reciprocal is at least the exact one, and the
      // method is rarely off by more than a small factor.
      EXPECT_GE(estimate, exact * (1 - 1e-5)) << n << " " << spread;  // exact: κ ε off
      EXPECT_LE(estimate, 10.0 * exact) << n << " " << spread;
    }
  }
}

TEST(DenseLu, AnExactlySingularMatrixHasNoCondition) {
  DenseLu lu;
  Eigen::MatrixXd A(3, 3);
  A << 1, 2, 3, 2, 4, 6, 0, 0, 1;  // second row twice the first
  PrepareLu(lu, 3) = A;
  FactorLu(lu);
  EXPECT_TRUE(lu.singular);
  EXPECT_EQ(EstimateReciprocalCondition(lu), 0.0);
}

TEST(DenseMinNorm, GivesTheMinimumNormSolutionOfConsistentRankDeficientSystems) {
  SplitMix64 rng(3);
  DenseMinNorm f;
  for (const auto& [n, rank] : {std::pair{4, 2}, {12, 12}, {30, 17}, {7, 1}, {20, 19}}) {
    const Eigen::MatrixXd B = RandomMatrix(n, rank, rng) * RandomMatrix(rank, n, rng);
    const Eigen::VectorXd r = B * RandomVector(n, rng);  // consistent
    PrepareMinNorm(f, n) = B;
    FactorMinNorm(f);
    EXPECT_EQ(f.rank, rank) << n;
    Eigen::VectorXd x(n);
    SolveMinNorm(f, r, x);
    EXPECT_LE((B * x - r).lpNorm<Eigen::Infinity>(), 1e-10 * (1 + r.lpNorm<Eigen::Infinity>()))
        << n;
    // The minimum-norm solution is the pseudo-inverse's, which Eigen's complete orthogonal
    // decomposition also gives.
    const Eigen::VectorXd reference = B.completeOrthogonalDecomposition().solve(r);
    EXPECT_LE((x - reference).norm(), 1e-8 * (1 + reference.norm())) << n;
  }
}

TEST(DenseMinNorm, GivesTheMinimumNormLeastSquaresSolutionOfInconsistentSystems) {
  SplitMix64 rng(5);
  DenseMinNorm f;
  for (const auto& [n, rank] : {std::pair{5, 3}, {25, 11}, {13, 12}}) {
    const Eigen::MatrixXd B = RandomMatrix(n, rank, rng) * RandomMatrix(rank, n, rng);
    const Eigen::VectorXd r = RandomVector(n, rng);  // almost surely outside B's range
    PrepareMinNorm(f, n) = B;
    FactorMinNorm(f);
    Eigen::VectorXd x(n);
    SolveMinNorm(f, r, x);
    // The pseudo-inverse's answer: the residual is orthogonal to B's range, and x to its null
    // space; Eigen's complete orthogonal decomposition computes the same x independently.
    EXPECT_LE((B.transpose() * (B * x - r)).norm(), 1e-10 * (1 + r.norm())) << n;
    const Eigen::VectorXd reference = B.completeOrthogonalDecomposition().solve(r);
    EXPECT_LE((x - reference).norm(), 1e-8 * (1 + reference.norm())) << n;
  }
}

TEST(DenseMinNorm, TheZeroMatrixHasRankZeroAndTheZeroSolution) {
  DenseMinNorm f;
  PrepareMinNorm(f, 3).setZero();
  FactorMinNorm(f);
  EXPECT_EQ(f.rank, 0);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  SolveMinNorm(f, Eigen::VectorXd::Zero(3), x);
  EXPECT_EQ(x, Eigen::VectorXd::Zero(3));
}

}  // namespace
}  // namespace coulomb::math
