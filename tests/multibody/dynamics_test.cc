// Rigid-body tree dynamics against independent truth: RNEA vs CRBA, closed-form mass matrices,
// energy conservation, finite-difference Jacobians.

#include "coulomb/multibody/dynamics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "coulomb/base/random.h"

namespace coulomb::multibody {
namespace {

Inertia RandomInertia(SplitMix64& rng) {
  Inertia I;
  I.mass = rng.Uniform(0.5, 3.0);
  I.com = Eigen::Vector3d(rng.Uniform(-0.2, 0.2), rng.Uniform(-0.2, 0.2), rng.Uniform(-0.2, 0.2));
  const Eigen::Vector3d d(rng.Uniform(0.01, 0.1), rng.Uniform(0.01, 0.1), rng.Uniform(0.01, 0.1));
  const Eigen::Matrix3d R =
      Eigen::AngleAxisd(rng.Uniform(0, 3),
                        Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal()).normalized())
          .toRotationMatrix();
  I.rotational = R * d.asDiagonal() * R.transpose();
  return I;
}

// A random tree with every joint type, floating base first.
Model RandomTree(std::uint64_t seed) {
  SplitMix64 rng(seed);
  Model m;
  const JointType types[] = {JointType::kRevolute, JointType::kPrismatic, JointType::kBall,
                             JointType::kRevolute, JointType::kFixed,     JointType::kRevolute};
  Body base;
  base.name = "base";
  base.joint = JointType::kFloating;
  base.inertia = RandomInertia(rng);
  m.AddBody(base);
  for (int i = 0; i < 6; ++i) {
    Body b;
    b.name = "link" + std::to_string(i);
    b.parent = static_cast<int>(rng.Below(m.bodies.size()));
    b.joint = types[i];
    b.axis = Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal()).normalized();
    b.placement.p =
        Eigen::Vector3d(rng.Uniform(-0.5, 0.5), rng.Uniform(-0.5, 0.5), rng.Uniform(-0.5, 0.5));
    b.placement.R =
        Eigen::AngleAxisd(rng.Uniform(0, 3), Eigen::Vector3d::UnitX()).toRotationMatrix();
    b.inertia = RandomInertia(rng);
    m.AddBody(b);
  }
  return m;
}

Eigen::VectorXd RandomConfiguration(const Model& m, SplitMix64& rng) {
  Eigen::VectorXd v(m.nv);
  for (int i = 0; i < m.nv; ++i) v[i] = rng.Normal();
  return IntegrateConfiguration(m, m.NeutralConfiguration(), v, 1.0);
}

Eigen::VectorXd RandomVector(int n, SplitMix64& rng) {
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = rng.Normal();
  return v;
}

TEST(Dynamics, MassMatrixByCrbaEqualsRneaColumns) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    Model m = RandomTree(seed);
    ASSERT_EQ(m.Validate(), "");
    m.gravity.setZero();
    Data d = MakeData(m);
    SplitMix64 rng(seed + 100);
    const Eigen::VectorXd q = RandomConfiguration(m, rng);
    const Eigen::MatrixXd M = CalcMassMatrix(m, d, q);
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m.nv);
    for (int j = 0; j < m.nv; ++j) {
      const Eigen::VectorXd column =
          CalcInverseDynamics(m, d, q, zero, Eigen::VectorXd::Unit(m.nv, j));
      EXPECT_LT((column - M.col(j)).norm(), 1e-10) << "seed " << seed << " column " << j;
    }
    EXPECT_LT((M - M.transpose()).norm(), 1e-12);
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0.0);
  }
}

// Two random trees side by side: the per-tree blocks of CRBA are the diagonal blocks of the dense
// M (checked against RNEA above), and nothing couples the trees.
TEST(Dynamics, MassMatrixBlocksAreTheTreesDiagonalBlocks) {
  Model m = RandomTree(3);
  const Model second = RandomTree(4);
  const int offset = static_cast<int>(m.bodies.size());
  for (Body b : second.bodies) {
    if (b.parent >= 0) b.parent += offset;
    m.AddBody(b);
  }
  ASSERT_EQ(m.Validate(), "");
  Data d = MakeData(m);
  SplitMix64 rng(9);
  const Eigen::VectorXd q = RandomConfiguration(m, rng);
  const Eigen::MatrixXd M = CalcMassMatrix(m, d, q);
  const std::vector<DofBlock> blocks = FindDofBlocks(m);
  ASSERT_EQ(blocks.size(), 2u);
  const std::vector<Eigen::MatrixXd> parts = CalcMassMatrixBlocks(m, d, q, blocks);
  Eigen::MatrixXd assembled = Eigen::MatrixXd::Zero(m.nv, m.nv);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    assembled.block(blocks[k].start, blocks[k].start, blocks[k].size, blocks[k].size) = parts[k];
  }
  EXPECT_LT((assembled - M).norm(), 1e-12 * M.norm());
  // A body of the second tree: its Jacobian (checked against finite differences below) has no
  // column in the first tree, which is what keeps J sparse.
  const FrameJacobianColumns sparse =
      CalcFrameJacobianColumns(m, d, offset + 3, Eigen::Vector3d(0.1, -0.2, 0.3));
  for (const int column : sparse.columns) EXPECT_GE(column, blocks[1].start);
}

// A free body with its centre of mass at its origin has the same mass block at every pose,
// diag(m I, I_c), which the step's factorization cache relies on (bit for bit); RNEA's columns
// are the independent check of its value.
TEST(Dynamics, LoneFreeBodyMassBlockIsTheSameAtEveryPose) {
  SplitMix64 rng(21);
  Model m;
  m.gravity.setZero();
  Body b;
  b.name = "brick";
  b.joint = JointType::kFloating;
  b.inertia = RandomInertia(rng);
  b.inertia.com.setZero();
  m.AddBody(b);
  ASSERT_EQ(m.Validate(), "");
  Data d = MakeData(m);
  const std::vector<DofBlock> blocks = FindDofBlocks(m);
  ASSERT_EQ(blocks.size(), 1u);
  Eigen::MatrixXd first;
  for (int trial = 0; trial < 4; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(m, rng);
    const Eigen::MatrixXd M = CalcMassMatrixBlocks(m, d, q, blocks)[0];
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
    for (int j = 0; j < 6; ++j) {
      const Eigen::VectorXd column =
          CalcInverseDynamics(m, d, q, zero, Eigen::VectorXd::Unit(6, j));
      EXPECT_LT((column - M.col(j)).norm(), 1e-12) << "trial " << trial << " column " << j;
    }
    if (trial == 0) {
      first = M;
    } else {
      EXPECT_EQ(std::memcmp(first.data(), M.data(), sizeof(double) * 36), 0) << "trial " << trial;
    }
  }
  // Its bias forces (closed form) against RNEA's general pass (taken with an acceleration given),
  // under a tilted gravity and a rotated placement.
  m.gravity = Eigen::Vector3d(0.3, -0.2, -9.81);
  m.bodies[0].placement.R =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  for (int trial = 0; trial < 4; ++trial) {
    const Eigen::VectorXd q = RandomConfiguration(m, rng);
    const Eigen::VectorXd v = RandomVector(6, rng);
    const Eigen::VectorXd bias = CalcBiasForces(m, d, q, v);
    const Eigen::VectorXd general = CalcInverseDynamics(m, d, q, v, Eigen::VectorXd::Zero(6));
    EXPECT_LT((bias - general).norm(), 1e-12 * general.norm()) << "trial " << trial;
  }
}

TEST(Dynamics, InverseDynamicsIsAffineInAcceleration) {
  const Model m = RandomTree(9);
  Data d = MakeData(m);
  SplitMix64 rng(3);
  const Eigen::VectorXd q = RandomConfiguration(m, rng);
  const Eigen::VectorXd v = RandomVector(m.nv, rng), a = RandomVector(m.nv, rng);
  const Eigen::VectorXd tau = CalcInverseDynamics(m, d, q, v, a);
  const Eigen::VectorXd bias = CalcBiasForces(m, d, q, v);
  EXPECT_LT((tau - CalcMassMatrix(m, d, q) * a - bias).norm(), 1e-10);
  // Forward dynamics inverts it.
  EXPECT_LT((CalcForwardDynamics(m, d, q, v, tau) - a).norm(), 1e-9);
}

// Planar two-link arm (revolute about y), uniform rods: the textbook mass matrix.
TEST(Dynamics, TwoLinkArmMassMatrixMatchesClosedForm) {
  const double m1 = 2, m2 = 1.5, l1 = 0.8, l2 = 0.6;
  Model m;
  Body a;
  a.name = "upper";
  a.joint = JointType::kRevolute;
  a.axis = Eigen::Vector3d::UnitY();
  a.inertia.mass = m1;
  a.inertia.com = Eigen::Vector3d(l1 / 2, 0, 0);
  a.inertia.rotational = Eigen::Vector3d(1e-6, m1 * l1 * l1 / 12, m1 * l1 * l1 / 12).asDiagonal();
  m.AddBody(a);
  Body b = a;
  b.name = "fore";
  b.parent = 0;
  b.placement.p = Eigen::Vector3d(l1, 0, 0);
  b.inertia.mass = m2;
  b.inertia.com = Eigen::Vector3d(l2 / 2, 0, 0);
  b.inertia.rotational = Eigen::Vector3d(1e-6, m2 * l2 * l2 / 12, m2 * l2 * l2 / 12).asDiagonal();
  m.AddBody(b);
  Data d = MakeData(m);
  for (const double q2 : {0.0, 0.7, 2.0}) {
    const Eigen::MatrixXd M = CalcMassMatrix(m, d, Eigen::Vector2d(0.3, q2));
    const double I1 = m1 * l1 * l1 / 12, I2 = m2 * l2 * l2 / 12, c1 = l1 / 2, c2 = l2 / 2;
    const double m22 = I2 + m2 * c2 * c2;
    const double m12 = m22 + m2 * l1 * c2 * std::cos(q2);
    const double m11 =
        I1 + m1 * c1 * c1 + I2 + m2 * (l1 * l1 + c2 * c2 + 2 * l1 * c2 * std::cos(q2));
    EXPECT_NEAR(M(0, 0), m11, 1e-12);
    EXPECT_NEAR(M(0, 1), m12, 1e-12);
    EXPECT_NEAR(M(1, 1), m22, 1e-12);
  }
}

// RK4 on (q, v); configuration steps compose on the joint manifolds.
void Rk4Step(const Model& m, Data& d, Eigen::VectorXd& q, Eigen::VectorXd& v, double dt) {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(m.nv);
  const auto acc = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv) {
    return CalcForwardDynamics(m, d, qq, vv, zero);
  };
  const Eigen::VectorXd k1v = acc(q, v), k1q = v;
  const Eigen::VectorXd k2q = v + 0.5 * dt * k1v;
  const Eigen::VectorXd k2v = acc(IntegrateConfiguration(m, q, k1q, 0.5 * dt), k2q);
  const Eigen::VectorXd k3q = v + 0.5 * dt * k2v;
  const Eigen::VectorXd k3v = acc(IntegrateConfiguration(m, q, k2q, 0.5 * dt), k3q);
  const Eigen::VectorXd k4q = v + dt * k3v;
  const Eigen::VectorXd k4v = acc(IntegrateConfiguration(m, q, k3q, dt), k4q);
  q = IntegrateConfiguration(m, q, (k1q + 2 * k2q + 2 * k3q + k4q) / 6, dt);
  v += dt * (k1v + 2 * k2v + 2 * k3v + k4v) / 6;
}

double Energy(const Model& m, Data& d, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  CalcForwardKinematics(m, d, q, v);
  return CalcKineticEnergy(m, d) + CalcPotentialEnergy(m, d);
}

TEST(Dynamics, DoublePendulumConservesEnergy) {
  Model m;
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = "link" + std::to_string(i);
    b.parent = i - 1;
    b.joint = JointType::kRevolute;
    b.axis = Eigen::Vector3d::UnitY();
    b.placement.p = i == 0 ? Eigen::Vector3d::Zero() : Eigen::Vector3d(0, 0, -1);
    b.inertia.mass = 1.0;
    b.inertia.com = Eigen::Vector3d(0, 0, -0.5);
    b.inertia.rotational = Eigen::Vector3d(1.0 / 12, 1.0 / 12, 1e-6).asDiagonal();
    m.AddBody(b);
  }
  Data d = MakeData(m);
  Eigen::VectorXd q = Eigen::Vector2d(1.2, -0.5), v = Eigen::Vector2d(0.3, 2.0);
  const double e0 = Energy(m, d, q, v);
  for (int k = 0; k < 2000; ++k) Rk4Step(m, d, q, v, 1e-3);  // 2 s of chaotic swinging
  EXPECT_LT(std::abs(Energy(m, d, q, v) - e0) / std::abs(e0), 1e-7);
}

TEST(Dynamics, FreeTumblingBodyConservesEnergyAndMomentum) {
  Model m;
  m.gravity.setZero();
  Body b;
  b.name = "brick";
  b.joint = JointType::kFloating;
  b.inertia.mass = 2.0;
  b.inertia.rotational = Eigen::Vector3d(0.1, 0.2, 0.3).asDiagonal();  // intermediate-axis tumble
  m.AddBody(b);
  Data d = MakeData(m);
  Eigen::VectorXd q = m.NeutralConfiguration();
  Eigen::VectorXd v(6);
  v << 0.5, -0.2, 0.1, 0.01, 3.0, 0.02;
  const auto world_momentum = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& vv) {
    CalcForwardKinematics(m, d, qq, vv);
    const Eigen::Matrix3d& R = d.X_world[0].R;
    return Eigen::Vector3d(R * (b.inertia.rotational * vv.tail<3>()));  // COM at the origin
  };
  const double e0 = Energy(m, d, q, v);
  const Eigen::Vector3d L0 = world_momentum(q, v);
  for (int k = 0; k < 4000; ++k) Rk4Step(m, d, q, v, 1e-3);
  EXPECT_LT(std::abs(Energy(m, d, q, v) - e0) / e0, 1e-8);
  EXPECT_LT((world_momentum(q, v) - L0).norm() / L0.norm(), 1e-6);
  // The intermediate axis is unstable: the body really tumbled.
  EXPECT_GT(std::abs(v[3]) + std::abs(v[5]), 0.5);
}

TEST(Dynamics, PointJacobianMatchesFiniteDifferences) {
  const Model m = RandomTree(4);
  Data d = MakeData(m);
  SplitMix64 rng(11);
  const Eigen::VectorXd q = RandomConfiguration(m, rng);
  const Eigen::VectorXd v = RandomVector(m.nv, rng);
  const Eigen::Vector3d p_B(0.1, -0.2, 0.3);
  for (int body = 0; body < static_cast<int>(m.bodies.size()); ++body) {
    CalcForwardKinematics(m, d, q, v);
    const Eigen::MatrixXd J = CalcFrameJacobian(m, d, body, p_B);
    const double h = 1e-6;
    CalcForwardKinematics(m, d, IntegrateConfiguration(m, q, v, h), v);
    const Eigen::Vector3d plus = d.X_world[body].Apply(p_B);
    const Eigen::Matrix3d R_plus = d.X_world[body].R;
    CalcForwardKinematics(m, d, IntegrateConfiguration(m, q, v, -h), v);
    const Eigen::Vector3d minus = d.X_world[body].Apply(p_B);
    const Eigen::Matrix3d R_minus = d.X_world[body].R;
    EXPECT_LT(((plus - minus) / (2 * h) - J.topRows<3>() * v).norm(), 1e-6) << "body " << body;
    // Angular velocity from the rotation difference: skew(ω) ≈ (R₊ − R₋) Rᵀ / 2h.
    CalcForwardKinematics(m, d, q, v);
    const Eigen::Matrix3d W = (R_plus - R_minus) * d.X_world[body].R.transpose() / (2 * h);
    const Eigen::Vector3d omega(W(2, 1), W(0, 2), W(1, 0));
    EXPECT_LT((omega - J.bottomRows<3>() * v).norm(), 1e-6) << "body " << body;
  }
}

TEST(Dynamics, ValidationNamesTheBody) {
  Model m = RandomTree(1);
  m.bodies[2].inertia.mass = -1;
  EXPECT_NE(m.Validate().find("body 2 ('link1'): mass = -1"), std::string::npos) << m.Validate();
  m = RandomTree(1);
  m.bodies[1].axis = Eigen::Vector3d(1, 1, 0);
  EXPECT_NE(m.Validate().find("unit vector"), std::string::npos);
}

}  // namespace
}  // namespace coulomb::multibody
