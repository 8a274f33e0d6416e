// The nonlinear materials against independent checks: P against central differences of Ψ,
// ∂P/∂F against central differences of P, no stress at rest or under a rigid rotation, and the
// small-strain tangent equal to linear elasticity's (μ, λ) — the corotated model at R0 = I.
#include "coulomb/fem/hyperelastic.h"

#include <gtest/gtest.h>

#include "coulomb/base/random.h"
#include "coulomb/fem/corotated_linear.h"

namespace coulomb::fem {
namespace {

constexpr double kMu = 3e5, kLambda = 7e5;
const MooneyRivlin kRubber{0.293e6, 0.177e6, 1410e6 / 1000};  // κ scaled down 1000× for FD

MaterialPoint Evaluate(int model, const Eigen::Matrix3d& F) {
  return model == 0 ? EvaluateStableNeoHookean(F, kMu, kLambda) : EvaluateMooneyRivlin(F, kRubber);
}

Eigen::Matrix3d RandomF(SplitMix64& random, double spread) {
  Eigen::Matrix3d F = Eigen::Matrix3d::Identity();
  for (int k = 0; k < 9; ++k) F(k % 3, k / 3) += random.Uniform(-spread, spread);
  return F;
}

TEST(Hyperelastic, StressIsTheEnergyGradientAndTangentItsDerivative) {
  SplitMix64 random(11);
  for (int model = 0; model < 2; ++model) {
    for (int trial = 0; trial < 20; ++trial) {
      const Eigen::Matrix3d F = RandomF(random, 0.3);
      const MaterialPoint at = Evaluate(model, F);
      const double h = 1e-6;
      for (int k = 0; k < 9; ++k) {
        Eigen::Matrix3d Fp = F, Fm = F;
        Fp(k % 3, k / 3) += h;
        Fm(k % 3, k / 3) -= h;
        const MaterialPoint p = Evaluate(model, Fp), m = Evaluate(model, Fm);
        const double scale = at.P.norm() + 1e3;
        EXPECT_NEAR((p.energy - m.energy) / (2 * h), at.P(k % 3, k / 3), 1e-6 * scale)
            << "model " << model << " entry " << k;
        const Eigen::Matrix3d dP = (p.P - m.P) / (2 * h);
        const Eigen::Map<const Eigen::Matrix<double, 9, 1>> column(dP.data());
        EXPECT_LT((column - at.dPdF.col(k)).norm(), 1e-5 * (at.dPdF.norm() + 1e3))
            << "model " << model << " entry " << k;
      }
    }
  }
}

TEST(Hyperelastic, NoStressAtRestOrUnderARotation) {
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  for (int model = 0; model < 2; ++model) {
    for (const Eigen::Matrix3d& F : {Eigen::Matrix3d(Eigen::Matrix3d::Identity()), R}) {
      const MaterialPoint p = Evaluate(model, F);
      EXPECT_LT(p.P.norm(), 1e-9 * kMu) << "model " << model;
      EXPECT_NEAR(p.energy, 0, 1e-9 * kMu) << "model " << model;
    }
  }
}

TEST(Hyperelastic, SmallStrainTangentIsLinearElasticity) {
  // Linear elasticity with Lamé (μ, λ) is the corotated model's tangent at R0 = I; E and ν
  // from μ, λ.
  const auto linear = [](double mu, double lambda) {
    LinearElasticity e;
    e.poisson_ratio = lambda / (2 * (lambda + mu));
    e.youngs_modulus = mu * (3 * lambda + 2 * mu) / (lambda + mu);
    return CorotatedStressDerivative(Eigen::Matrix3d::Identity(), e);
  };
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  EXPECT_LT((EvaluateStableNeoHookean(I, kMu, kLambda).dPdF - linear(kMu, kLambda)).norm(),
            1e-9 * kLambda);
  const double mu = 2 * (kRubber.c1 + kRubber.c2);
  const double lambda = kRubber.bulk_modulus - 2 * mu / 3;
  EXPECT_LT((EvaluateMooneyRivlin(I, kRubber).dPdF - linear(mu, lambda)).norm(), 1e-9 * lambda);
}

TEST(Hyperelastic, ProjectionGivesThePsdPart) {
  SplitMix64 random(5);
  const MaterialPoint p = EvaluateStableNeoHookean(RandomF(random, 0.8), kMu, kLambda);
  const Eigen::Matrix<double, 9, 9> H = ProjectToPsd(p.dPdF);
  using Solver = Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>>;
  EXPECT_LT(Solver(p.dPdF).eigenvalues().minCoeff(), 0);  // the case needs projecting
  EXPECT_GE(Solver(H).eigenvalues().minCoeff(), -1e-9 * H.norm());
  // Already PSD (at rest): unchanged.
  const Eigen::Matrix<double, 9, 9> rest =
      EvaluateStableNeoHookean(Eigen::Matrix3d::Identity(), kMu, kLambda).dPdF;
  EXPECT_LT((ProjectToPsd(rest) - rest).norm(), 1e-9 * rest.norm());
}

TEST(Hyperelastic, NamesRoundTrip) {
  for (const auto model : {MaterialModel::kCorotatedLinear, MaterialModel::kStableNeoHookean,
                           MaterialModel::kMooneyRivlin}) {
    EXPECT_EQ(ParseMaterialModel(ToString(model)), model);
  }
  EXPECT_FALSE(ParseMaterialModel("rubber").has_value());
  EXPECT_NE(ValidateMooneyRivlin({-1, 0, 1}), "");
  EXPECT_EQ(ValidateMooneyRivlin(kRubber), "");
}

}  // namespace
}  // namespace coulomb::fem
