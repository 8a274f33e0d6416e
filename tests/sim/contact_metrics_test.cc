// The accuracy measures of docs/notes/complementarity.md §7 on hand-made solutions whose violations
// are known.

#include "coulomb/sim/contact_metrics.h"

#include <gtest/gtest.h>

#include "coulomb/complementarity/friction_cone.h"

namespace coulomb {
namespace {

contact::ContactProblem OneContact() {
  contact::ContactProblem p;
  p.time_step = 0.01;
  p.M_blocks = {Eigen::Matrix3d::Identity()};
  p.J = Eigen::MatrixXd(Eigen::Matrix3d::Identity()).sparseView();  // contact velocity = v
  p.phi = Eigen::VectorXd::Zero(1);
  p.mu = Eigen::VectorXd::Constant(1, 0.5);
  p.restitution = Eigen::VectorXd::Zero(1);
  return p;
}

TEST(ContactMetrics, ExactCoulombSlidingHasNoViolation) {
  const contact::ContactProblem p = OneContact();
  // Sliding along +t at 1 m/s with friction −μ γ_N along t: on the cone boundary, opposed.
  const sim::ContactMetrics m =
      sim::CalcContactMetrics(p, Eigen::Vector3d(1, -0.5, 0), Eigen::Vector3d(0, 1, 0));
  EXPECT_EQ(m.cone, 0.0);
  EXPECT_EQ(m.dissipation, 0.0);
  EXPECT_NEAR(m.misalignment, 0.0, 1e-15);
  EXPECT_EQ(m.signorini, 0.0);
  EXPECT_EQ(m.gliding, 0.0);
}

TEST(ContactMetrics, EachViolationIsMeasured) {
  const contact::ContactProblem p = OneContact();
  // Friction 0.6 > μ γ_N = 0.5, pushing along the slip, and the contact lifting at 0.2 m/s.
  const Eigen::Vector3d impulse(1, 0.6, 0);
  const sim::ContactMetrics m = sim::CalcContactMetrics(p, impulse, Eigen::Vector3d(0.2, 1, 0));
  EXPECT_NEAR(m.cone, (impulse - ProjectOntoFrictionCone(impulse, 0.5)).norm(), 1e-15);
  EXPECT_GT(m.cone, 0.0);
  EXPECT_NEAR(m.dissipation, 0.1 * 1.0 / 0.01, 1e-12);  // |μ γ_N − ‖γ_T‖| ‖u_T‖ / h
  EXPECT_NEAR(m.misalignment, 2.0, 1e-12);              // friction along the slip, not against
  EXPECT_NEAR(m.signorini, 1.0 * 0.2 / 0.01, 1e-12);    // γ_N u_N / h
  EXPECT_NEAR(m.gliding, 0.2, 1e-15);
}

}  // namespace
}  // namespace coulomb
