#include "coulomb/multibody/model.h"

#include <fmt/format.h>

#include <cmath>

#include "coulomb/multibody/dof_blocks.h"

namespace coulomb::multibody {

int Model::AddBody(Body body) {
  body.q_index = nq;
  body.v_index = nv;
  nq += ConfigurationSize(body.joint);
  nv += VelocitySize(body.joint);
  bodies.push_back(std::move(body));
  return static_cast<int>(bodies.size()) - 1;
}

std::string Model::Validate() const {
  if (!gravity.allFinite()) return "gravity has a NaN or infinite entry";
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Body& b = bodies[i];
    const std::string who = fmt::format("body {} ('{}')", i, b.name);
    if (b.parent >= static_cast<int>(i) || b.parent < -1) {
      return who + ": parent must come before the body (or be -1 for the world)";
    }
    if ((b.joint == JointType::kRevolute || b.joint == JointType::kPrismatic) &&
        std::abs(b.axis.norm() - 1.0) > 1e-9) {
      return who + fmt::format(": joint axis must be a unit vector (|axis| = {})", b.axis.norm());
    }
    if (!b.placement.R.allFinite() || !b.placement.p.allFinite() ||
        !(b.placement.R.transpose() * b.placement.R).isApprox(Eigen::Matrix3d::Identity(), 1e-9)) {
      return who + ": placement must be a finite rotation and translation";
    }
    if (!std::isfinite(b.inertia.mass) || b.inertia.mass < 0) {
      return who + fmt::format(": mass = {} must be finite and >= 0", b.inertia.mass);
    }
    const Eigen::Matrix3d& I = b.inertia.rotational;
    if (!I.allFinite() || !I.isApprox(I.transpose(), 1e-9) ||
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I).eigenvalues().minCoeff() < -1e-12) {
      return who + ": rotational inertia must be symmetric positive semidefinite";
    }
    if (!(b.damping >= 0) || !(b.armature >= 0) || !(b.effort_limit >= 0)) {
      return who + ": damping, armature and effort limit must be >= 0";
    }
    if (!(b.friction >= 0 && std::isfinite(b.friction))) {
      return who + fmt::format(": joint friction = {} must be finite and >= 0", b.friction);
    }
    if (!(b.position_lower <= b.position_upper)) {
      return who + ": lower position limit above the upper one";
    }
  }
  return ValidateConstraints(*this);
}

std::string ValidateConstraints(const Model& model) {
  const int n = static_cast<int>(model.bodies.size());
  const auto is_body = [n](int b) { return b >= -1 && b < n; };
  const auto one_dof = [&](int b) {
    return b >= 0 && b < n && VelocitySize(model.bodies[b].joint) == 1;
  };
  for (const JointCoupler& c : model.couplers) {
    if (!one_dof(c.body) || !one_dof(c.mimicked_body) || c.body == c.mimicked_body) {
      return "coupler: both joints must be distinct 1-dof (revolute or prismatic) joints";
    }
    if (!std::isfinite(c.multiplier) || !std::isfinite(c.offset)) {
      return "coupler of joint '" + model.bodies[c.body].joint_name + "': non-finite multiplier";
    }
  }
  for (const WeldConstraint& w : model.welds) {
    if (!is_body(w.body_a) || !is_body(w.body_b) || w.body_a == w.body_b) {
      return "weld '" + w.name + "': needs two different bodies (or the world)";
    }
    if (!w.X_AB.R.allFinite() || !w.X_AB.p.allFinite()) {
      return "weld '" + w.name + "': pose is not finite";
    }
  }
  for (const DistanceConstraint& d : model.distances) {
    if (!is_body(d.body_a) || !is_body(d.body_b) || d.body_a == d.body_b) {
      return "distance constraint '" + d.name + "': needs two different bodies (or the world)";
    }
    if (!(d.distance > 0) || !std::isfinite(d.distance) || !d.p_A.allFinite() ||
        !d.p_B.allFinite()) {
      return "distance constraint '" + d.name + "': distance must be positive and finite";
    }
  }
  return "";
}

Eigen::VectorXd Model::NeutralConfiguration() const {
  Eigen::VectorXd q(nq);
  for (const Body& b : bodies) {
    q.segment(b.q_index, ConfigurationSize(b.joint)) = multibody::NeutralConfiguration(b.joint);
  }
  return q;
}

int Model::FindBody(const std::string& name) const {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

double Model::TotalMass() const {
  double m = 0;
  for (const Body& b : bodies) m += b.inertia.mass;
  return m;
}

Data MakeData(const Model& model) {
  const std::size_t n = model.bodies.size();
  Data d;
  d.X_world.resize(n);
  d.velocity.assign(n, Vector6d::Zero());
  d.acceleration.assign(n, Vector6d::Zero());
  d.force.assign(n, Vector6d::Zero());
  d.composite.assign(n, math::OriginInertia{});
  d.X_parent.assign(n, Transform{});
  for (const Body& b : model.bodies) d.S.push_back(MotionSubspace(b.joint, b.axis));
  d.S_world = d.S;
  d.F_world = d.S;
  d.has_children.assign(n, 0);
  for (const Body& b : model.bodies) {
    if (b.parent >= 0) d.has_children[b.parent] = 1;
  }
  d.dof_blocks = FindDofBlocks(model);
  d.block_of_velocity = BlockOfVelocity(model, d.dof_blocks);
  d.block_of_body = BlockOfBodies(model, d.dof_blocks);
  d.zero_velocity = Eigen::VectorXd::Zero(model.nv);
  d.bias_forces = Eigen::VectorXd::Zero(model.nv);
  return d;
}

}  // namespace coulomb::multibody
