#include "apps/coulomb/trinkle/trinkle_problem.h"

#include <fmt/format.h>

#include <cmath>

namespace coulomb::trinkle {
namespace {

bool Finite(const auto& m) {
  return m.allFinite();
}

std::string CheckBody(const TrinkleProblem& p, const BodyRef& body, int j, const char* side) {
  const int n_obj = static_cast<int>(p.objects.size());
  const int n_link = p.manipulator ? static_cast<int>(p.manipulator->links.size()) : 0;
  if (body.kind == BodyRef::Kind::kObject && (body.index < 0 || body.index >= n_obj)) {
    return fmt::format("contact {}: body {} is object {}, but there are {} objects", j, side,
                       body.index, n_obj);
  }
  if (body.kind == BodyRef::Kind::kLink && (body.index < 0 || body.index >= n_link)) {
    return fmt::format("contact {}: body {} is link {}, but the manipulator has {} links", j, side,
                       body.index, n_link);
  }
  return "";
}

}  // namespace

std::string ValidateTrinkleProblem(const TrinkleProblem& p) {
  for (std::size_t i = 0; i < p.objects.size(); ++i) {
    const TrinkleObject& o = p.objects[i];
    if (!(std::isfinite(o.mass) && o.mass > 0)) {
      return fmt::format("object {}: mass = {} must be positive and finite", i, o.mass);
    }
    if (!Finite(o.inertia) || !o.inertia.isApprox(o.inertia.transpose(), 1e-9) ||
        o.inertia.llt().info() != Eigen::Success) {
      return fmt::format("object {}: inertia must be a finite symmetric positive definite matrix",
                         i);
    }
    if (!Finite(o.com) || !Finite(o.linear_velocity) || !Finite(o.angular_velocity) ||
        !Finite(o.external_wrench) ||
        (o.velocity_product_wrench && !Finite(*o.velocity_product_wrench))) {
      return fmt::format("object {}: position, velocity or wrench has a NaN or infinite entry", i);
    }
  }
  int n_theta = 0;
  if (p.manipulator) {
    const TrinkleManipulator& m = *p.manipulator;
    n_theta = static_cast<int>(m.inertia.rows());
    if (m.inertia.cols() != n_theta || !Finite(m.inertia) ||
        !m.inertia.isApprox(m.inertia.transpose(), 1e-9) ||
        m.inertia.llt().info() != Eigen::Success) {
      return "manipulator: inertia must be a finite square symmetric positive definite matrix";
    }
    for (const auto* v :
         {&m.joint_velocity, &m.effort, &m.gravity_effort, &m.velocity_product_effort}) {
      if (v->size() != n_theta || !Finite(*v)) {
        return fmt::format("manipulator: joint vectors must have {} finite entries", n_theta);
      }
    }
    if (m.known_acceleration.size() != 0 && m.known_acceleration.size() != n_theta) {
      return fmt::format("manipulator: known_acceleration must be empty or have {} entries",
                         n_theta);
    }
    for (std::size_t l = 0; l < m.links.size(); ++l) {
      if (m.links[l].jacobian.rows() != 6 || m.links[l].jacobian.cols() != n_theta ||
          !Finite(m.links[l].jacobian) || !Finite(m.links[l].origin)) {
        return fmt::format("manipulator link {}: jacobian must be 6 x {} and finite", l, n_theta);
      }
    }
  }
  for (std::size_t j = 0; j < p.contacts.size(); ++j) {
    const TrinkleContact& c = p.contacts[j];
    const int jj = static_cast<int>(j);
    if (std::string e = CheckBody(p, c.a, jj, "A"); !e.empty()) return e;
    if (std::string e = CheckBody(p, c.b, jj, "B"); !e.empty()) return e;
    if (c.a.kind == c.b.kind && c.a.index == c.b.index) {
      return fmt::format("contact {}: bodies A and B are the same body", j);
    }
    if (c.a.kind == BodyRef::Kind::kGround) {
      return fmt::format("contact {}: body A (the one the normal points into) cannot be the ground",
                         j);
    }
    if (!(std::isfinite(c.mu) && c.mu >= 0)) {
      return fmt::format("contact {}: mu = {} must be finite and >= 0", j, c.mu);
    }
    if (!std::isfinite(c.mu_torsion)) return fmt::format("contact {}: mu_torsion is not finite", j);
    if (!Finite(c.point) || !Finite(c.normal) || !Finite(c.tangent) ||
        !Finite(c.acceleration_bias)) {
      return fmt::format("contact {}: point, frame or bias has a NaN or infinite entry", j);
    }
    if (std::abs(c.normal.norm() - 1) > 1e-9 || std::abs(c.tangent.norm() - 1) > 1e-9 ||
        std::abs(c.normal.dot(c.tangent)) > 1e-9) {
      return fmt::format(
          "contact {}: normal and tangent must be orthonormal (|n| = {}, |t| = {}, "
          "n.t = {})",
          j, c.normal.norm(), c.tangent.norm(), c.normal.dot(c.tangent));
    }
  }
  return "";
}

}  // namespace coulomb::trinkle
