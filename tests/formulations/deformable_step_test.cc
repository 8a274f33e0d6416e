// A deformable body in frictional contact through SAP with the Schur complement (paper 2):
// a soft cube dropped on the ground settles with the ground carrying exactly its weight, and a
// cube on a gentle incline sticks while one on a steep incline slides at Coulomb's rate.
#include "coulomb/formulations/sap/deformable_step.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace coulomb {
namespace {

fem::FemBody SoftCube() {
  fem::FemBody body = fem::MakeFemBody(
      "cube", fem::MakeBoxMesh(Eigen::Vector3d::Constant(0.1), {3, 3, 3}), {1e5, 0.3}, 1000);
  body.stiffness_damping = 0.01;  // s: damps the elastic ringing within a few steps
  return body;
}

TEST(DeformableStep, SoftCubeSettlesOnTheGroundCarryingItsWeight) {
  const fem::FemBody body = SoftCube();
  fem::FemState state = fem::MakeRestState(body);
  state.x.row(2).array() += 0.1 + 0.01;  // bottom face 1 cm above the ground
  const double dt = 0.01, weight = 1000 * 0.2 * 0.2 * 0.2 * 9.81;
  DeformableStepReport last;
  double worst_penetration = 0;
  // The margin must exceed the distance a vertex travels per step (0.44 m/s × 10 ms at impact),
  // or contact is found only after the vertex has passed the plane.
  const double margin = 0.006;
  for (int k = 0; k < 200; ++k) {
    last = StepDeformableOnHalfSpace(body, state, HalfSpace{}, dt, margin);
    ASSERT_EQ(last.status, convex::SapStatus::kConverged) << "step " << k << ": " << last.message;
    worst_penetration = std::max(worst_penetration, last.max_penetration);
  }
  EXPECT_EQ(last.contacts, 16);  // the 4 × 4 bottom vertices
  EXPECT_LT(last.participating_dofs, 3 * body.rest.num_vertices());
  EXPECT_NEAR(last.total_impulse.z(), weight * dt, 1e-3 * weight * dt);
  EXPECT_LT(last.total_impulse.head<2>().norm(), 1e-6 * weight * dt);
  EXPECT_LT(worst_penetration, 1e-3);
  EXPECT_LT(state.v.cwiseAbs().maxCoeff(), 1e-3);
  RecordProperty("penetration_m", std::to_string(worst_penetration));
}

// Tilt gravity instead of the ground: a slope of θ with μ = 0.5. Returns how far the bottom
// face moved (the top also shears elastically, by ρ g h sin θ / G ≈ 3 mm at 20°).
double SlideAfter(double slope, double seconds) {
  fem::FemBody body = SoftCube();
  body.gravity = 9.81 * Eigen::Vector3d(std::sin(slope), 0, -std::cos(slope));
  fem::FemState state = fem::MakeRestState(body);
  state.x.row(2).array() += 0.1;
  const double dt = 0.01;
  const auto bottom_x = [&] {
    double sum = 0;
    int count = 0;
    for (int a = 0; a < body.rest.num_vertices(); ++a) {
      if (body.rest.vertices(2, a) < -0.099) {
        sum += state.x(0, a);
        ++count;
      }
    }
    return sum / count;
  };
  const double x0 = bottom_x();
  for (int k = 0; k < std::lround(seconds / dt); ++k) {
    const DeformableStepReport r = StepDeformableOnHalfSpace(body, state, HalfSpace{}, dt);
    EXPECT_EQ(r.status, convex::SapStatus::kConverged) << r.message;
  }
  return bottom_x() - x0;
}

TEST(DeformableStep, FrictionSticksBelowTheConeAndSlidesAbove) {
  const double t = 1.0;
  // tan 20° = 0.36 < μ: sticks (up to the regularized creep σ·δt·g, far below 1 mm).
  EXPECT_LT(std::abs(SlideAfter(20 * std::numbers::pi / 180, t)), 1e-3);
  // 40°: slides with a = g (sin θ − μ cos θ), distance ½ a t².
  const double slope = 40 * std::numbers::pi / 180;
  const double analytic = 0.5 * 9.81 * (std::sin(slope) - 0.5 * std::cos(slope)) * t * t;
  EXPECT_NEAR(SlideAfter(slope, t), analytic, 0.03 * analytic);
}

}  // namespace
}  // namespace coulomb
