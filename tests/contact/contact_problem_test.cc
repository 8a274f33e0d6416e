#include "coulomb/contact/contact_problem.h"

#include <gtest/gtest.h>

#include <cmath>

#include "coulomb/multibody/dynamics.h"

namespace coulomb::contact {
namespace {

using multibody::Body;
using multibody::JointType;
using multibody::Model;

Model Ball(double mass, double radius) {
  Model m;
  Body b;
  b.name = "ball";
  b.joint = JointType::kFloating;
  b.inertia.mass = mass;
  b.inertia.rotational = 0.4 * mass * radius * radius * Eigen::Matrix3d::Identity();
  m.AddBody(b);
  return m;
}

TEST(ContactProblem, BallOnGroundDelassusIsAnalytic) {
  const double m = 2.0, r = 0.1;
  const Model model = Ball(m, r);
  multibody::Data data = multibody::MakeData(model);
  Eigen::VectorXd q = model.NeutralConfiguration();
  q[2] = r;
  ContactSet set;
  set.contacts.push_back(
      {0, -1, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), 0.0, 0.5, 0, 1});
  const ContactProblem p = BuildContactProblem(model, data, q, Eigen::VectorXd::Zero(6),
                                               Eigen::VectorXd::Zero(6), set, 1e-3);
  const Eigen::Matrix3d W = p.Delassus();
  // Normal: 1/m. Tangential: 1/m + r²/I = 7/(2m) (rolling couples translation and spin).
  EXPECT_NEAR(W(0, 0), 1 / m, 1e-12);
  EXPECT_NEAR(W(1, 1), 3.5 / m, 1e-12);
  EXPECT_NEAR(W(2, 2), 3.5 / m, 1e-12);
  EXPECT_NEAR(W(0, 1), 0.0, 1e-12);
  // Free motion under gravity: v* = h g.
  EXPECT_NEAR(p.v_star[2], -9.81e-3, 1e-12);
  EXPECT_NEAR(p.FreeContactVelocity()[0], -9.81e-3, 1e-12);
}

TEST(ContactProblem, JacobianGivesRelativePointVelocity) {
  // Two free boxes touching; J v must equal the difference of the material point velocities
  // computed independently from the rigid-body formula v + ω × r in the world frame.
  Model model;
  for (int i = 0; i < 2; ++i) {
    Body b;
    b.name = "box" + std::to_string(i);
    b.joint = JointType::kFloating;
    b.inertia.mass = 1 + i;
    b.inertia.rotational = Eigen::Vector3d(0.1, 0.2, 0.3).asDiagonal();
    model.AddBody(b);
  }
  multibody::Data data = multibody::MakeData(model);
  Eigen::VectorXd q = model.NeutralConfiguration();
  q.segment<3>(0) = Eigen::Vector3d(0, 0, 1);
  q.segment<4>(3) = Eigen::Vector4d(std::cos(0.2), std::sin(0.2), 0, 0);  // rotated about x
  Eigen::VectorXd v(12);
  v << 0.1, -0.2, 0.3, 0.4, -0.5, 0.6, -0.3, 0.2, 0.1, 0.0, 0.7, -0.1;
  ContactSet set;
  const Eigen::Vector3d n = Eigen::Vector3d(0.1, 0.2, 1).normalized();
  set.contacts.push_back({0, 1, Eigen::Vector3d(0.05, 0.1, 0.8), n, -0.001, 0.5, 0, 7});
  const ContactProblem p =
      BuildContactProblem(model, data, q, v, Eigen::VectorXd::Zero(12), set, 1e-3);
  multibody::CalcForwardKinematics(model, data, q, v);
  const auto point_velocity = [&](int body) {
    const math::Transform& X = data.X_world[body];
    const Eigen::Vector3d v_lin = v.segment<3>(6 * body);  // free joints: ṗ in the world frame
    const Eigen::Vector3d w = X.R * v.segment<3>(6 * body + 3);
    return Eigen::Vector3d(v_lin + w.cross(set.contacts[0].point - X.p));
  };
  const Eigen::Vector3d relative = point_velocity(0) - point_velocity(1);
  EXPECT_LT((p.J * v - p.frames[0].transpose() * relative).norm(), 1e-12);
  EXPECT_TRUE(p.frames[0].col(0).isApprox(n));
  EXPECT_NEAR(p.frames[0].col(0).cross(p.frames[0].col(1)).dot(p.frames[0].col(2)), 1.0, 1e-12);
}

// Contacts between root free bodies take closed-form rows (contact_problem.cc); the same bodies
// hung by free joints from a fixed root take the general path along the tree. Both give the same
// J, whichever side has the lower velocities and whatever the bodies' placements.
TEST(ContactProblem, FreeBodyRowsInClosedFormMatchTheTreePath) {
  const auto make = [](bool under_fixed_root) {
    Model model;
    if (under_fixed_root) {
      Body root;
      root.name = "root";
      root.joint = JointType::kFixed;
      model.AddBody(root);
    }
    for (int i = 0; i < 2; ++i) {
      Body b;
      b.name = "box" + std::to_string(i);
      b.parent = under_fixed_root ? 0 : -1;
      b.joint = JointType::kFloating;
      b.placement.R = Eigen::AngleAxisd(0.3 + i, Eigen::Vector3d(1, 2, 3).normalized()).matrix();
      b.placement.p = Eigen::Vector3d(0.1 * i, -0.2, 0.05);
      b.inertia.mass = 1 + i;
      b.inertia.rotational = Eigen::Vector3d(0.1, 0.2, 0.3).asDiagonal();
      model.AddBody(b);
    }
    return model;
  };
  ContactProblem problems[2];
  for (int tree = 0; tree < 2; ++tree) {
    const Model model = make(tree == 1);
    multibody::Data data = multibody::MakeData(model);
    Eigen::VectorXd q = model.NeutralConfiguration();
    q.segment<3>(0) = Eigen::Vector3d(0.2, 0, 1);
    q.segment<4>(3) = Eigen::Vector4d(std::cos(0.2), std::sin(0.2), 0, 0);
    q.segment<4>(10) = Eigen::Vector4d(std::cos(0.4), 0, std::sin(0.4), 0);
    const int first = tree == 1 ? 1 : 0;  // the boxes' body numbers
    ContactSet set;
    const Eigen::Vector3d n = Eigen::Vector3d(0.1, 0.2, 1).normalized();
    set.contacts.push_back({first, first + 1, Eigen::Vector3d(0.05, 0.1, 0.8), n, 0, 0.5, 0, 7});
    set.contacts.push_back({first + 1, first, Eigen::Vector3d(-0.3, 0.1, 0.2), -n, 0, 0.5, 0, 8});
    set.contacts.push_back({-1, first + 1, Eigen::Vector3d(0.4, 0.3, 0.0), n, 0, 0.5, 0, 9});
    problems[tree] = BuildContactProblem(model, data, q, Eigen::VectorXd::Zero(12),
                                         Eigen::VectorXd::Zero(12), set, 1e-3);
  }
  const Eigen::MatrixXd closed(problems[0].J), tree(problems[1].J);
  ASSERT_EQ(closed.rows(), 9);
  EXPECT_LT((closed - tree).norm(), 1e-14 * tree.norm());
  // Stored entries: 12 for each two-body contact's rows, 6 for the one on the world.
  EXPECT_EQ(problems[0].J.nonZeros(), 3 * (12 + 12 + 6));
}

// A block factored again with the same bits keeps its factors and inverse; one that changed is
// factored afresh: M_bb⁻¹ and M⁻¹ x checked against M_bb itself after each. The first block has
// a free body's six velocities (solved through its inverse), the second the general path.
TEST(BlockCholesky, KeepsTheFactorsOfAnUnchangedBlockOnlyWhileItIsUnchanged) {
  const std::vector<DofBlock> blocks = {{0, 6}, {6, 2}};
  const Eigen::MatrixXd R = Eigen::MatrixXd::NullaryExpr(6, 6, [](Eigen::Index i, Eigen::Index j) {
    return std::sin(1.0 + 3.0 * static_cast<double>(i) + 7.0 * static_cast<double>(j));
  });
  const Eigen::MatrixXd A = R * R.transpose() + 0.5 * Eigen::MatrixXd::Identity(6, 6);
  Eigen::MatrixXd B(2, 2);
  B << 2, 0.3, 0.3, 1;
  std::vector<Eigen::MatrixXd> M = {A, B};
  BlockCholesky mass;
  const auto inverse_error = [&](int k) {
    Eigen::MatrixXd inverse(M[k].rows(), M[k].cols());
    mass.InvertBlock(k,
                     Eigen::Map<Eigen::MatrixXd>(inverse.data(), inverse.rows(), inverse.cols()));
    return (M[k] * inverse - Eigen::MatrixXd::Identity(M[k].rows(), M[k].cols())).norm();
  };
  for (int round = 0; round < 3; ++round) {
    if (round == 2) M[1] << 5, -1, -1, 3;  // the second block changes, the first does not
    mass.Factor(M, blocks);
    ASSERT_TRUE(mass.ok());
    for (int k = 0; k < 2; ++k) EXPECT_LT(inverse_error(k), 1e-12) << "round " << round;
    Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(8, 1, 2);
    const Eigen::VectorXd b = x;
    mass.SolveInPlace(x);
    EXPECT_LT((M[0] * x.head(6) - b.head(6)).norm() + (M[1] * x.tail(2) - b.tail(2)).norm(), 1e-12);
  }
  M[1](0, 0) = -5;  // not positive definite: reported, not kept from the last round
  mass.Factor(M, blocks);
  EXPECT_FALSE(mass.ok());
  M[1](0, 0) = 5;
  M[0](2, 2) = -1;  // nor for the free body's block
  mass.Factor(M, blocks);
  EXPECT_FALSE(mass.ok());
}

TEST(ContactProblem, CombineFrictionIsTheHarmonicMean) {
  EXPECT_DOUBLE_EQ(CombineFriction(0.5, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(CombineFriction(1.0, 0.0), 0.0);
  EXPECT_NEAR(CombineFriction(0.2, 0.8), 0.32, 1e-15);
}

}  // namespace
}  // namespace coulomb::contact
