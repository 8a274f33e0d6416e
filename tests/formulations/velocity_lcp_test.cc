// The velocity-level LCP formulation, end to end with geometry, contact assembly and the
// multibody layer: a box on a 30° incline against the analytic slide.

#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "coulomb/geometry/narrow_phase.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb {
namespace {

using multibody::Body;
using multibody::JointType;

struct InclineRun {
  double slide = 0;  // m along the downhill direction
  double max_penetration = 0;
  bool all_solved = true;
};

// A 0.2 m cube (1 kg) released at rest on a plane tilted by `slope` about y, for `seconds`.
InclineRun RunIncline(double mu, double slope, double seconds, double h) {
  multibody::Model model;
  Body box;
  box.name = "box";
  box.joint = JointType::kFloating;
  box.inertia.mass = 1.0;
  box.inertia.rotational = (1.0 * 0.2 * 0.2 / 6) * Eigen::Matrix3d::Identity();
  model.AddBody(box);
  multibody::Data data = multibody::MakeData(model);
  const geometry::Box shape{Eigen::Vector3d::Constant(0.1)};
  const Eigen::Matrix3d R = Eigen::AngleAxisd(slope, Eigen::Vector3d::UnitY()).toRotationMatrix();
  const geometry::Transform X_plane{R, Eigen::Vector3d::Zero()};
  Eigen::VectorXd q = model.NeutralConfiguration();
  q.head<3>() = R * Eigen::Vector3d(0, 0, 0.1);
  const Eigen::Quaterniond rotation(R);
  q.tail<4>() << rotation.w(), rotation.x(), rotation.y(), rotation.z();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(6);
  const Eigen::Vector3d start = q.head<3>();
  InclineRun run;
  for (int step = 0; step < static_cast<int>(std::round(seconds / h)); ++step) {
    multibody::CalcForwardKinematics(model, data, q, v);
    std::vector<geometry::ContactPoint> points;
    geometry::Collide(shape, data.X_world[0], geometry::HalfSpace{}, X_plane, 1e-4, points);
    contact::ContactSet set;
    for (const auto& p : points) {
      set.contacts.push_back({0, -1, p.point, p.normal, p.phi, mu, 0.0, 0});
      run.max_penetration = std::max(run.max_penetration, -p.phi);
    }
    const contact::ContactProblem problem =
        contact::BuildContactProblem(model, data, q, v, Eigen::VectorXd::Zero(6), set, h);
    const ContactSolution solution = SolveVelocityLcp(problem);
    run.all_solved = run.all_solved && solution.ok();
    v = solution.v_next;
    q = multibody::IntegrateConfiguration(model, q, v, h);
  }
  const Eigen::Vector3d downhill =
      R * Eigen::Vector3d(1, 0, 0);  // down the slope for +slope about y
  run.slide = (q.head<3>() - start).dot(downhill.z() < 0 ? downhill : Eigen::Vector3d(-downhill));
  return run;
}

TEST(VelocityLcp, BoxSlidesDownTheInclineAsCoulombPredicts) {
  const double slope = std::numbers::pi / 6, g = 9.81;
  const InclineRun run = RunIncline(0.5, slope, 1.0, 1e-3);
  EXPECT_TRUE(run.all_solved);
  const double analytic = 0.5 * g * (std::sin(slope) - 0.5 * std::cos(slope));  // 0.3286 m
  EXPECT_NEAR(run.slide, analytic, 0.01 * analytic) << "slide " << run.slide;
  RecordProperty("slide_m", std::to_string(run.slide));
  RecordProperty("max_penetration_m", std::to_string(run.max_penetration));
  EXPECT_LT(run.max_penetration, 1e-3);
}

TEST(VelocityLcp, BoxSticksWhenFrictionSuffices) {
  const InclineRun run = RunIncline(0.7, std::numbers::pi / 6, 0.5, 1e-3);
  EXPECT_TRUE(run.all_solved);
  EXPECT_LT(std::abs(run.slide), 1e-4);
}

}  // namespace
}  // namespace coulomb
