// The corotated linear material (docs/notes/sap-and-deformables.md §2.1) against independent
// truths: patch tests (rigid motions are stress free), linear elasticity at R0 = I, finite
// differences of energy and forces, positive semidefiniteness with exactly the rigid null space,
// and masses.
#include "coulomb/fem/corotated_linear.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <random>

namespace coulomb::fem {
namespace {

const LinearElasticity kRubber{1e6, 0.35};

Eigen::Matrix3d RandomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0, 1);
  return Eigen::Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

TEST(CorotatedLinear, RigidMotionsAreStressFree) {
  const TetMesh rest = MakeBoxMesh(Eigen::Vector3d(0.1, 0.05, 0.05), {2, 1, 1});
  const std::vector<LinearTet> tets = MakeLinearTets(rest);
  std::mt19937 rng(1);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::Matrix3d R = RandomRotation(rng);
    const Eigen::Matrix3Xd x = (R * rest.vertices).colwise() + Eigen::Vector3d(0.3, -1, 2);
    std::vector<Eigen::Matrix3d> R0;
    for (const LinearTet& t : tets) R0.push_back(PolarRotation(DeformationGradient(t, x)));
    EXPECT_LT((R0[0] - R).norm(), 1e-12);
    EXPECT_NEAR(ElasticEnergy(tets, x, R0, kRubber), 0.0, 1e-9);
    EXPECT_LT(ElasticForces(tets, x, R0, kRubber).norm(), 1e-6);
  }
}

TEST(CorotatedLinear, AtR0IdentityItIsLinearElasticity) {
  // Small symmetric strain e: P = σ = λ tr(e) I + 2 μ e.
  Eigen::Matrix3d e;
  e << 1e-3, 2e-4, 0, 2e-4, -5e-4, 1e-4, 0, 1e-4, 3e-4;
  const Eigen::Matrix3d P =
      CorotatedStress(Eigen::Matrix3d::Identity() + e, Eigen::Matrix3d::Identity(), kRubber);
  const Eigen::Matrix3d sigma =
      kRubber.Lambda() * e.trace() * Eigen::Matrix3d::Identity() + 2 * kRubber.Mu() * e;
  EXPECT_LT((P - sigma).norm(), 1e-9 * sigma.norm());
}

TEST(CorotatedLinear, ForcesAndStiffnessMatchFiniteDifferences) {
  const TetMesh rest = MakeBoxMesh(Eigen::Vector3d(0.1, 0.1, 0.1), {1, 1, 1});
  const std::vector<LinearTet> tets = MakeLinearTets(rest);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(-0.02, 0.02);
  const Eigen::Matrix3d R = RandomRotation(rng);
  Eigen::Matrix3Xd x = R * rest.vertices;
  for (int i = 0; i < x.size(); ++i) x.data()[i] += u(rng);
  std::vector<Eigen::Matrix3d> R0;
  for (const LinearTet& t : tets) R0.push_back(PolarRotation(DeformationGradient(t, x)));
  const Eigen::Matrix3Xd f = ElasticForces(tets, x, R0, kRubber);
  const Eigen::MatrixXd K =
      Eigen::MatrixXd(StiffnessMatrix(tets, rest.num_vertices(), R0, kRubber));
  const double h = 1e-7;
  for (int i = 0; i < x.size(); ++i) {
    Eigen::Matrix3Xd plus = x, minus = x;
    plus.data()[i] += h;
    minus.data()[i] -= h;
    const double dE =
        (ElasticEnergy(tets, plus, R0, kRubber) - ElasticEnergy(tets, minus, R0, kRubber)) /
        (2 * h);
    EXPECT_NEAR(-dE, f.data()[i], 1e-6 * (1 + f.norm())) << "dof " << i;
    const Eigen::Matrix3Xd df =
        (ElasticForces(tets, plus, R0, kRubber) - ElasticForces(tets, minus, R0, kRubber)) /
        (2 * h);
    const Eigen::VectorXd column = -Eigen::Map<const Eigen::VectorXd>(df.data(), df.size());
    EXPECT_LT((column - K.col(i)).norm(), 1e-6 * K.norm()) << "dof " << i;
  }
}

TEST(CorotatedLinear, StiffnessIsPsdWithTheRigidNullSpace) {
  const TetMesh rest = MakeBoxMesh(Eigen::Vector3d(0.1, 0.2, 0.1), {1, 2, 1});
  const std::vector<LinearTet> tets = MakeLinearTets(rest);
  std::mt19937 rng(3);
  std::vector<Eigen::Matrix3d> R0;
  for (std::size_t e = 0; e < tets.size(); ++e) R0.push_back(RandomRotation(rng));
  const Eigen::MatrixXd K =
      Eigen::MatrixXd(StiffnessMatrix(tets, rest.num_vertices(), R0, kRubber));
  EXPECT_LT((K - K.transpose()).norm(), 1e-9 * K.norm());
  const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues();
  EXPECT_GE(eig.minCoeff(), -1e-9 * eig.maxCoeff());
  // With one shared R0 the null space is exactly the 6 rigid modes (translations, R0-rotations).
  R0.assign(tets.size(), RandomRotation(rng));
  const Eigen::MatrixXd K1 =
      Eigen::MatrixXd(StiffnessMatrix(tets, rest.num_vertices(), R0, kRubber));
  const Eigen::VectorXd eig1 = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K1).eigenvalues();
  EXPECT_LT(std::abs(eig1[5]), 1e-9 * eig1.maxCoeff());
  EXPECT_GT(eig1[6], 1e-6 * eig1.maxCoeff());
}

TEST(CorotatedLinear, StiffnessAssembledIntoItsLayoutIsTheTripletSumBitForBit) {
  // The layout only moves where each element's entries are summed, not the order: the same bits
  // as Eigen's triplet sum, so no trajectory moves with it. A layout made for other elements is
  // ignored.
  const TetMesh rest = MakeBoxMesh(Eigen::Vector3d(0.1, 0.2, 0.1), {2, 3, 2});
  const std::vector<LinearTet> tets = MakeLinearTets(rest);
  const int n = rest.num_vertices();
  std::mt19937 rng(5);
  std::vector<Eigen::Matrix3d> R0;
  for (std::size_t e = 0; e < tets.size(); ++e) R0.push_back(RandomRotation(rng));
  const StiffnessLayout layout = MakeStiffnessLayout(tets, n);
  ASSERT_TRUE(layout.Fits(tets, n));
  const Eigen::SparseMatrix<double> from_triplets = StiffnessMatrix(tets, n, R0, kRubber);
  const Eigen::SparseMatrix<double> from_layout = StiffnessMatrix(tets, n, R0, kRubber, &layout);
  ASSERT_EQ(from_layout.nonZeros(), from_triplets.nonZeros());
  const Eigen::MatrixXd difference = Eigen::MatrixXd(from_layout) - Eigen::MatrixXd(from_triplets);
  EXPECT_EQ(difference.cwiseAbs().maxCoeff(), 0.0);
  const std::vector<LinearTet> fewer(tets.begin(), tets.end() - 1);
  EXPECT_FALSE(layout.Fits(fewer, n));
  const Eigen::MatrixXd fewer_K = Eigen::MatrixXd(StiffnessMatrix(fewer, n, R0, kRubber, &layout));
  EXPECT_EQ((fewer_K - Eigen::MatrixXd(StiffnessMatrix(fewer, n, R0, kRubber))).norm(), 0.0);
}

TEST(CorotatedLinear, PolarRotationOfAnInvertedElementIsARotation) {
  Eigen::Matrix3d F = Eigen::Vector3d(1.0, 0.8, -0.2).asDiagonal();
  const Eigen::Matrix3d R = PolarRotation(F);
  EXPECT_NEAR(R.determinant(), 1.0, 1e-12);
  EXPECT_LT((R * R.transpose() - Eigen::Matrix3d::Identity()).norm(), 1e-12);
}

TEST(Mass, LumpedAndConsistentMassesCarryTheBodysMass) {
  const TetMesh rest = MakeBoxMesh(Eigen::Vector3d(0.1, 0.2, 0.3), {2, 2, 3});
  const std::vector<LinearTet> tets = MakeLinearTets(rest);
  const double density = 1200, mass = density * 0.2 * 0.4 * 0.6;
  EXPECT_NEAR(LumpedMass(tets, rest.num_vertices(), density).sum(), mass, 1e-12 * mass);
  const Eigen::SparseMatrix<double> M = ConsistentMass(tets, rest.num_vertices(), density);
  // A uniform x-velocity has momentum m: 1_xᵀ M 1_x = m; and M is positive definite.
  Eigen::VectorXd ones_x = Eigen::VectorXd::Zero(3 * rest.num_vertices());
  for (int a = 0; a < rest.num_vertices(); ++a) ones_x[3 * a] = 1;
  EXPECT_NEAR(ones_x.dot(M * ones_x), mass, 1e-12 * mass);
  const Eigen::VectorXd eig =
      Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Eigen::MatrixXd(M)).eigenvalues();
  EXPECT_GT(eig.minCoeff(), 0.0);
}

TEST(LinearElasticity, BadParametersAreNamed) {
  EXPECT_NE(ValidateElasticity({-1, 0.3}).find("Young"), std::string::npos);
  EXPECT_NE(ValidateElasticity({1e5, 0.5}).find("Poisson"), std::string::npos);
  EXPECT_EQ(ValidateElasticity(kRubber), "");
}

}  // namespace
}  // namespace coulomb::fem
