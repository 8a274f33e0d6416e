#include "coulomb/contact/contact_problem.h"

#include <cmath>

#include "coulomb/multibody/dynamics.h"

namespace coulomb::contact {

Eigen::Vector3d ContactTangent(const Eigen::Vector3d& n) {
  const Eigen::Vector3d helper =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  return (helper - helper.dot(n) * n).normalized();
}

Eigen::MatrixXd ContactProblem::Delassus() const {
  return J * M.llt().solve(J.transpose());
}

ContactProblem BuildContactProblem(const multibody::Model& model, multibody::Data& data,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& tau, const ContactSet& set, double h) {
  ContactProblem p;
  p.time_step = h;
  p.v = v;
  p.M = multibody::CalcMassMatrix(model, data, q);
  Eigen::VectorXd force = tau - multibody::CalcBiasForces(model, data, q, v);
  for (const multibody::Body& b : model.bodies) {
    if (multibody::VelocitySize(b.joint) == 1) force[b.v_index] -= b.damping * v[b.v_index];
  }
  p.v_star = v + h * p.M.llt().solve(force);
  multibody::CalcForwardKinematics(model, data, q, v);  // poses for the Jacobians
  const int nc = static_cast<int>(set.contacts.size());
  p.J = Eigen::MatrixXd::Zero(3 * nc, model.nv);
  p.phi.resize(nc);
  p.mu.resize(nc);
  p.restitution.resize(nc);
  for (int k = 0; k < nc; ++k) {
    const Contact& c = set.contacts[k];
    Eigen::Matrix3d frame;
    frame.col(0) = c.normal;
    frame.col(1) = ContactTangent(c.normal);
    frame.col(2) = c.normal.cross(frame.col(1));
    p.frames.push_back(frame);
    // Velocity of the material point of A at the contact minus that of B, in (n, t, o).
    Eigen::MatrixXd relative = Eigen::MatrixXd::Zero(3, model.nv);
    const auto add = [&](int body, double sign) {
      if (body < 0) return;
      const Eigen::Vector3d p_B = data.X_world[body].Inverse().Apply(c.point);
      relative += sign * multibody::CalcPointJacobian(model, data, body, p_B);
    };
    add(c.body_a, 1.0);
    add(c.body_b, -1.0);
    p.J.middleRows<3>(3 * k) = frame.transpose() * relative;
    p.phi[k] = c.phi;
    p.mu[k] = c.mu;
    p.restitution[k] = c.restitution;
  }
  return p;
}

}  // namespace coulomb::contact
