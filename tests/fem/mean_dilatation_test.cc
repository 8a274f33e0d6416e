// Mean dilatation (cell-averaged volumetric energy): zero at rest, the closed form under uniform
// scaling, forces equal to minus the energy's gradient (central differences), and a stiffness
// that is the symmetric PSD Gauss–Newton part g gᵀ κ / V per cell.

#include "coulomb/fem/mean_dilatation.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include "coulomb/base/random.h"

namespace coulomb::fem {
namespace {

TEST(MeanDilatation, EnergyForcesAndStiffness) {
  const TetMesh rest = MakeBoxMesh(Eigen::Vector3d(0.1, 0.2, 0.05), {2, 1, 2});
  ASSERT_EQ(rest.cells.size(), static_cast<std::size_t>(rest.num_tets()));
  const double kappa = 2e6;  // Pa
  const VolumetricResponse at_rest = CellVolumetricResponse(rest, rest.vertices, kappa);
  EXPECT_NEAR(at_rest.energy, 0, 1e-12);
  EXPECT_LT(at_rest.forces.norm(), 1e-9);
  // Uniform scaling by s: every cell has J = s³, so E = κ/2 (s³ − 1)² V.
  const double s = 0.97, volume = 0.2 * 0.4 * 0.1;
  const VolumetricResponse scaled = CellVolumetricResponse(rest, s * rest.vertices, kappa);
  EXPECT_NEAR(scaled.energy, 0.5 * kappa * std::pow(s * s * s - 1, 2) * volume,
              1e-10 * scaled.energy);
  // A random distortion: f = −∂E/∂x by central differences.
  SplitMix64 random(11);
  Eigen::Matrix3Xd x = rest.vertices;
  for (int a = 0; a < x.cols(); ++a) {
    for (int i = 0; i < 3; ++i) x(i, a) += 0.01 * (random.Uniform() - 0.5);
  }
  const VolumetricResponse r = CellVolumetricResponse(rest, x, kappa);
  const double h = 1e-7;
  for (int a = 0; a < x.cols(); ++a) {
    for (int i = 0; i < 3; ++i) {
      Eigen::Matrix3Xd plus = x, minus = x;
      plus(i, a) += h;
      minus(i, a) -= h;
      const double dE = (CellVolumetricResponse(rest, plus, kappa).energy -
                         CellVolumetricResponse(rest, minus, kappa).energy) /
                        (2 * h);
      EXPECT_NEAR(r.forces(i, a), -dE, 1e-5 * (1 + std::abs(dE))) << "vertex " << a;
    }
  }
  const Eigen::MatrixXd K(r.K);
  EXPECT_LT((K - K.transpose()).norm(), 1e-9 * K.norm());
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues().minCoeff(),
            -1e-9 * K.norm());
}

// The tangent is the PSD part of the exact Hessian, so it bounds the energy's curvature from
// above along every direction (Gauss–Newton's κ/V g gᵀ alone falls below it where the pressure
// term curves upward, which some of these directions do) and equals it along the cell's uniform
// scaling, where that curvature is κ V (9 s⁴ + 6 s (s³ − 1)) > 0.
TEST(MeanDilatation, StiffnessIsThePsdPartOfTheHessian) {
  const TetMesh rest = MakeBoxMesh(Eigen::Vector3d(0.1, 0.2, 0.05), {1, 1, 1});
  const double kappa = 1e6, s = 0.9, volume = 0.2 * 0.4 * 0.1;
  SplitMix64 random(5);
  Eigen::Matrix3Xd x = s * rest.vertices;
  for (int a = 0; a < x.cols(); ++a) {
    for (int i = 0; i < 3; ++i) x(i, a) += 0.002 * (random.Uniform() - 0.5);
  }
  const VolumetricResponse r = CellVolumetricResponse(rest, x, kappa);
  const Eigen::MatrixXd K(r.K);
  const auto energy = [&](const Eigen::Matrix3Xd& y) {
    return CellVolumetricResponse(rest, y, kappa).energy;
  };
  // One cell: the forces are −p g with p = κ (J̄ − 1), so g = ∂v/∂x is −forces / p.
  const double J = 1 - std::sqrt(2 * r.energy / (kappa * volume));  // compressed: J < 1
  const Eigen::Matrix3Xd g = -r.forces / (kappa * (J - 1));
  const double h = 1e-4;
  int gauss_newton_below = 0;
  for (int trial = 0; trial < 40; ++trial) {
    Eigen::Matrix3Xd d(3, x.cols());
    for (int a = 0; a < d.cols(); ++a) {
      for (int i = 0; i < 3; ++i) d(i, a) = random.Uniform() - 0.5;
    }
    const double curvature = (energy(x + h * d) - 2 * energy(x) + energy(x - h * d)) / (h * h);
    const Eigen::Map<const Eigen::VectorXd> flat(d.data(), d.size());
    const double tolerance = 1e-4 * std::abs(curvature) + 1e-6;
    EXPECT_GE(flat.dot(K * flat), curvature - tolerance) << trial;
    const double gauss_newton = kappa / volume * std::pow(g.cwiseProduct(d).sum(), 2);
    if (gauss_newton < curvature - tolerance) ++gauss_newton_below;
  }
  EXPECT_GT(gauss_newton_below, 0);
  const Eigen::Matrix3Xd scaled = s * rest.vertices;
  const Eigen::MatrixXd K_scaled(CellVolumetricResponse(rest, scaled, kappa).K);
  const Eigen::Map<const Eigen::VectorXd> X(rest.vertices.data(), rest.vertices.size());
  const double expected = kappa * volume * (9 * std::pow(s, 4) + 6 * s * (std::pow(s, 3) - 1));
  EXPECT_NEAR(X.dot(K_scaled * X), expected, 1e-9 * expected);
}
}  // namespace
}  // namespace coulomb::fem
