#include "apps/coulomb/trinkle/trinkle_system.h"

#include <cmath>

#include "coulomb/math/spatial.h"

namespace coulomb::trinkle {
namespace {

using math::Skew;

// The velocity of a material point p of `body` along d, as a row over u; also the rate of the
// body's rotation about d (for torsion), and the point's velocity-product acceleration.
struct PointKinematics {
  Eigen::RowVectorXd along[3];                     // for n, t, o
  Eigen::RowVectorXd spin;                         // angular velocity about n
  Eigen::Vector3d bias = Eigen::Vector3d::Zero();  // ω × (ω × r) (+ J̇θ̇ for links)
  double spin_bias = 0;                            // n · (J̇θ̇)_angular for links
};

PointKinematics Kinematics(const TrinkleProblem& problem, const TrinkleSystem& system,
                           const BodyRef& body, const TrinkleContact& c) {
  PointKinematics k;
  const Eigen::Vector3d dirs[3] = {c.normal, c.tangent, c.normal.cross(c.tangent)};
  for (auto& row : k.along) row = Eigen::RowVectorXd::Zero(system.num_dofs);
  k.spin = Eigen::RowVectorXd::Zero(system.num_dofs);
  if (body.kind == BodyRef::Kind::kObject) {
    const TrinkleObject& o = problem.objects[body.index];
    const Eigen::Vector3d r = c.point - o.com;
    const int at = 6 * body.index;
    for (int d = 0; d < 3; ++d) {
      k.along[d].segment<3>(at) = dirs[d].transpose();
      k.along[d].segment<3>(at + 3) = r.cross(dirs[d]).transpose();  // dᵀ(ω × r)
    }
    k.spin.segment<3>(at + 3) = c.normal.transpose();
    k.bias = o.angular_velocity.cross(o.angular_velocity.cross(r));
  } else if (body.kind == BodyRef::Kind::kLink) {
    const TrinkleManipulator& m = *problem.manipulator;
    const TrinkleLink& link = m.links[body.index];
    const Eigen::Vector3d r = c.point - link.origin;
    const Eigen::MatrixXd lin =
        link.jacobian.topRows<3>() - Skew(r) * link.jacobian.bottomRows<3>();
    const int at = 6 * system.num_objects;
    for (int d = 0; d < 3; ++d)
      k.along[d].segment(at, system.num_joints) = dirs[d].transpose() * lin;
    k.spin.segment(at, system.num_joints) = c.normal.transpose() * link.jacobian.bottomRows<3>();
    const Eigen::Vector3d w = link.jacobian.bottomRows<3>() * m.joint_velocity;
    k.bias = link.bias_acceleration.head<3>() + link.bias_acceleration.tail<3>().cross(r) +
             w.cross(w.cross(r));
    k.spin_bias = c.normal.dot(link.bias_acceleration.tail<3>());
  }
  return k;  // the ground: all zero
}

}  // namespace

TrinkleSystem BuildTrinkleSystem(const TrinkleProblem& problem) {
  TrinkleSystem s;
  s.num_objects = static_cast<int>(problem.objects.size());
  s.num_joints = problem.manipulator ? static_cast<int>(problem.manipulator->inertia.rows()) : 0;
  s.num_dofs = 6 * s.num_objects + s.num_joints;
  s.mass = Eigen::MatrixXd::Zero(s.num_dofs, s.num_dofs);
  s.velocity = Eigen::VectorXd::Zero(s.num_dofs);
  s.force = Eigen::VectorXd::Zero(s.num_dofs);
  for (int i = 0; i < s.num_objects; ++i) {
    const TrinkleObject& o = problem.objects[i];
    s.mass.block<3, 3>(6 * i, 6 * i) = o.mass * Eigen::Matrix3d::Identity();
    s.mass.block<3, 3>(6 * i + 3, 6 * i + 3) = o.inertia;
    s.velocity.segment<3>(6 * i) = o.linear_velocity;
    s.velocity.segment<3>(6 * i + 3) = o.angular_velocity;
    Vector6d h = Vector6d::Zero();
    if (o.velocity_product_wrench) {
      h = *o.velocity_product_wrench;
    } else {
      h.tail<3>() = -o.angular_velocity.cross(o.inertia * o.angular_velocity);  // gyroscopic
    }
    s.force.segment<6>(6 * i) = o.external_wrench + h;  // eq. (2): W c + g + h = M q̈
  }
  if (problem.manipulator) {
    const TrinkleManipulator& m = *problem.manipulator;
    const int at = 6 * s.num_objects;
    s.mass.block(at, at, s.num_joints, s.num_joints) = m.inertia;
    s.velocity.segment(at, s.num_joints) = m.joint_velocity;
    // eq. (5): τ − (Jᵀ c + g_man + h_man) = M_man θ̈.
    s.force.segment(at, s.num_joints) = m.effort - m.gravity_effort - m.velocity_product_effort;
    for (int i = 0; i < m.known_acceleration.size(); ++i) {
      if (!std::isnan(m.known_acceleration[i])) s.prescribed_dofs.push_back(at + i);
    }
    s.prescribed_acceleration.resize(static_cast<Eigen::Index>(s.prescribed_dofs.size()));
    for (std::size_t k = 0; k < s.prescribed_dofs.size(); ++k) {
      s.prescribed_acceleration[k] = m.known_acceleration[s.prescribed_dofs[k] - at];
    }
  }
  for (const TrinkleContact& c : problem.contacts) {
    s.offset.push_back(s.num_components);
    s.num_components += c.soft_finger() ? 4 : 3;
  }
  s.G = Eigen::MatrixXd::Zero(s.num_dofs, s.num_components);
  s.bias = Eigen::VectorXd::Zero(s.num_components);
  const Eigen::Vector3d unit[3] = {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(),
                                   Eigen::Vector3d::UnitZ()};
  for (std::size_t j = 0; j < problem.contacts.size(); ++j) {
    const TrinkleContact& c = problem.contacts[j];
    const PointKinematics ka = Kinematics(problem, s, c.a, c);
    const PointKinematics kb = Kinematics(problem, s, c.b, c);
    const Eigen::Vector3d dirs[3] = {c.normal, c.tangent, c.normal.cross(c.tangent)};
    for (int d = 0; d < 3; ++d) {
      s.G.col(s.offset[j] + d) = (ka.along[d] - kb.along[d]).transpose();
      s.bias[s.offset[j] + d] = dirs[d].dot(ka.bias - kb.bias) + c.acceleration_bias.dot(unit[d]);
    }
    if (c.soft_finger()) {
      s.G.col(s.offset[j] + 3) = (ka.spin - kb.spin).transpose();
      s.bias[s.offset[j] + 3] = ka.spin_bias - kb.spin_bias;
    }
  }
  s.contact_velocity = s.G.transpose() * s.velocity;
  return s;
}

namespace {

std::vector<int> FreeDofs(const TrinkleSystem& s) {
  std::vector<int> free;
  std::vector<char> prescribed(s.num_dofs, 0);
  for (int d : s.prescribed_dofs) prescribed[d] = 1;
  for (int d = 0; d < s.num_dofs; ++d) {
    if (!prescribed[d]) free.push_back(d);
  }
  return free;
}

Eigen::MatrixXd Rows(const Eigen::MatrixXd& m, const std::vector<int>& rows) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), m.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) out.row(i) = m.row(rows[i]);
  return out;
}

Eigen::MatrixXd Block(const Eigen::MatrixXd& m, const std::vector<int>& r,
                      const std::vector<int>& c) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(r.size()), static_cast<Eigen::Index>(c.size()));
  for (std::size_t i = 0; i < r.size(); ++i) {
    for (std::size_t k = 0; k < c.size(); ++k) out(i, k) = m(r[i], c[k]);
  }
  return out;
}

}  // namespace

ContactDynamics ComputeContactDynamics(const TrinkleSystem& s) {
  ContactDynamics out;
  const std::vector<int> F = FreeDofs(s);
  const std::vector<int>& K = s.prescribed_dofs;
  const Eigen::MatrixXd G_F = Rows(s.G, F);
  const Eigen::MatrixXd G_K = Rows(s.G, K);
  const Eigen::LLT<Eigen::MatrixXd> llt(Block(s.mass, F, F));
  if (llt.info() != Eigen::Success) {
    out.ok = false;
    return out;
  }
  Eigen::VectorXd f_F(static_cast<Eigen::Index>(F.size()));
  for (std::size_t i = 0; i < F.size(); ++i) f_F[i] = s.force[F[i]];
  f_F -= Block(s.mass, F, K) * s.prescribed_acceleration;
  // eq. (24)–(26): a = Gᵀ M⁻¹ (G c + f) + κ over the free dofs.
  const Eigen::MatrixXd MinvG = llt.solve(G_F);
  out.A = G_F.transpose() * MinvG;
  out.b = G_F.transpose() * llt.solve(f_F) + G_K.transpose() * s.prescribed_acceleration + s.bias;
  return out;
}

MotionRecovery RecoverMotion(const TrinkleProblem& problem, const TrinkleSystem& s,
                             const Eigen::VectorXd& forces) {
  MotionRecovery out;
  const std::vector<int> F = FreeDofs(s);
  const std::vector<int>& K = s.prescribed_dofs;
  const Eigen::VectorXd generalized = s.G * forces + s.force;
  Eigen::VectorXd rhs(static_cast<Eigen::Index>(F.size()));
  for (std::size_t i = 0; i < F.size(); ++i) rhs[i] = generalized[F[i]];
  rhs -= Block(s.mass, F, K) * s.prescribed_acceleration;
  const Eigen::VectorXd acc_F = Block(s.mass, F, F).llt().solve(rhs);
  out.acceleration = Eigen::VectorXd::Zero(s.num_dofs);
  for (std::size_t i = 0; i < F.size(); ++i) out.acceleration[F[i]] = acc_F[i];
  for (std::size_t k = 0; k < K.size(); ++k) out.acceleration[K[k]] = s.prescribed_acceleration[k];
  if (problem.manipulator) {
    const TrinkleManipulator& m = *problem.manipulator;
    out.joint_effort = m.effort;
    // Prescribed joints: τ_K = (M u̇ − G c)_K + g_K + h_K (eq. 5 solved for τ).
    const Eigen::VectorXd inertial = s.mass * out.acceleration - s.G * forces;
    const int at = 6 * s.num_objects;
    for (int d : K) {
      out.joint_effort[d - at] =
          inertial[d] + m.gravity_effort[d - at] + m.velocity_product_effort[d - at];
    }
  }
  return out;
}

}  // namespace coulomb::trinkle
