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

}  // namespace
}  // namespace coulomb::fem
