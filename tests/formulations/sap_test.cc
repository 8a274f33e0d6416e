// The SAP formulation end to end (scene → sim::Simulate), against analytic answers: the
// regularized stiction slip σ·δt·g (docs/notes/sap-and-deformables.md §1.1), a pendulum on a
// distance constraint, joint limits, a mimic-coupled gripper, a welded chain, implicit PD drives.

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "coulomb/io/scene_file.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/simulate.h"
#include "tests/support/build_paths.h"
#include "tests/support/formulation_names.h"

namespace coulomb {
namespace {

struct SceneRun {
  sim::Scene scene;
  sim::Recording recording;
  sim::RunSummary summary;
};

SceneRun RunScene(const std::string& yaml) {
  Expected<sim::Scene> scene = io::ParseScene(yaml, "sap_test.yaml", ".");
  EXPECT_TRUE(scene.ok()) << scene.error().ToString();
  SceneRun run{scene.value(), {}, {}};
  run.summary = sim::Simulate(run.scene, &run.recording);
  EXPECT_EQ(run.summary.failed_steps, 0) << run.summary.first_failure;
  return run;
}

double JointPosition(const SceneRun& run, const std::string& joint, const sim::Frame& f) {
  return f.q[run.scene.model.multibody.bodies[run.scene.model.multibody.FindBody(joint)].q_index];
}

// A flat 0.2 × 0.2 × 0.02 m, 1 kg plate at rest on a 30° incline with μ = 0.7 > tan 30°: it
// sticks, up to SAP's regularized stiction (docs/notes/sap-and-deformables.md §1.1). Each of its 4
// corner contacts takes γ_t = v_s / R_t with R_t = σ w_t, so v_s = σ w_t m g sin θ δt / 4. w_t is
// the tangential diagonal of the contact's Delassus estimate W = J diag(M)⁻¹ Jᵀ, floored by ‖W‖_F /
// 3 (docs/notes/sap-and-deformables.md §1.1). (The plate is flat so that no corner is unloaded
// enough to slide.)
double StictionSlipSpeed(double sigma) {
  const std::string yaml = R"(
coulomb: 1
time_step: 0.001
duration: 1.0
formulation: sap
solver: {sigma: )" + std::to_string(sigma) +
                           R"(}
bodies:
  - {name: incline, joint: fixed, orientation: {rpy: [0, 0.5235987755982988, 0]},
     shapes: [{type: halfspace, friction: 0.7}]}
  - {name: plate, mass: 1.0, orientation: {rpy: [0, 0.5235987755982988, 0]},
     position: [0.005, 0, 0.008660254037844387],
     shapes: [{type: box, size: [0.2, 0.2, 0.02], friction: 0.7}]}
)";
  const SceneRun run = RunScene(yaml);
  const sim::Frame& mid = run.recording.frames[run.recording.frames.size() / 2];
  const sim::Frame& last = run.recording.frames.back();
  const int at =
      run.scene.model.multibody.bodies[run.scene.model.multibody.FindBody("plate")].q_index;
  return (last.q.segment<3>(at) - mid.q.segment<3>(at)).norm() / (last.time - mid.time);
}

TEST(SapIncline, StictionSlipsAtTheRegularizedRate) {
  const double m = 1, a = 0.1, c = 0.01, dt = 0.001, g_sin = 9.81 * 0.5;
  const double I_side = m * (4 * a * a + 4 * c * c) / 12, I_z = m * 8 * a * a / 12;
  // Rows (n, t, o) = (z, x, y) of a corner r = (a, a, −c) in the plate frame: linear part e_k,
  // angular part r × e_k, weighted by 1/m and 1/I.
  const Eigen::Vector3d r(a, a, -c), inverse_inertia(1 / I_side, 1 / I_side, 1 / I_z);
  Eigen::Matrix3d W;
  const Eigen::Vector3d axes[3] = {Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX(),
                                   Eigen::Vector3d::UnitY()};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      W(i, j) = axes[i].dot(axes[j]) / m +
                r.cross(axes[i]).cwiseProduct(inverse_inertia).dot(r.cross(axes[j]));
    }
  }
  const double w_t = std::max(0.5 * (W(1, 1) + W(2, 2)), W.norm() / 3);
  for (const double sigma : {1e-3, 1e-2}) {
    const double slip = StictionSlipSpeed(sigma);
    const double predicted = sigma * w_t * m * g_sin * dt / 4;  // ≈ 0.63 σ δt g sin θ
    RecordProperty("slip_sigma_" + std::to_string(sigma), std::to_string(slip));
    EXPECT_NEAR(slip, predicted, 0.05 * predicted) << "sigma " << sigma;
  }
}

// A 1 kg ball hung from the world by a 0.5 m distance constraint, released at 0.1 rad: a simple
// pendulum of period 2π √(L/g) (1 + θ0²/16).
TEST(SapHolonomic, DistanceConstraintIsAPendulum) {
  const double L = 0.5, theta0 = 0.1;
  const std::string yaml = R"(
coulomb: 1
time_step: 0.001
duration: 3.0
gravity: [0, 0, -9.81]
formulation: sap
bodies:
  - {name: bob, mass: 1.0, inertia: [1e-4, 1e-4, 1e-4],
     position: [)" + std::to_string(L * std::sin(theta0)) +
                           ", 0, " + std::to_string(-L * std::cos(theta0)) + R"(],
     shapes: [{type: sphere, radius: 0.02}]}
constraints:
  - {type: distance, body_a: world, body_b: bob}
)";
  const SceneRun run = RunScene(yaml);
  // Period from the upward zero crossings of x.
  std::vector<double> crossings;
  for (std::size_t k = 1; k < run.recording.frames.size(); ++k) {
    const double x0 = run.recording.frames[k - 1].q[0], x1 = run.recording.frames[k].q[0];
    if (x0 < 0 && x1 >= 0) {
      crossings.push_back(run.recording.frames[k - 1].time +
                          (run.recording.frames[k].time - run.recording.frames[k - 1].time) *
                              (-x0) / (x1 - x0));
    }
  }
  ASSERT_GE(crossings.size(), 2u);
  const double period = crossings[1] - crossings[0];
  const double analytic = 2 * std::numbers::pi * std::sqrt(L / 9.81) * (1 + theta0 * theta0 / 16);
  EXPECT_NEAR(period, analytic, 0.01 * analytic);
  for (const sim::Frame& f : run.recording.frames) {
    EXPECT_NEAR(f.q.head<3>().norm(), L, 1e-4) << "t = " << f.time;
  }
}

// A horizontal pendulum released from 0 swings down until its limit at −0.5 rad and rests there.
TEST(SapJointLimits, PendulumStopsAtItsLimit) {
  const SceneRun run = RunScene(R"(
coulomb: 1
time_step: 0.001
duration: 1.5
formulation: sap
bodies:
  - {name: arm, joint: revolute, axis: [0, 1, 0], lower: -0.5, upper: 0.5, mass: 1.0,
     inertia: [0.01, 0.01, 0.01], com: [0.3, 0, 0], shapes: [{type: sphere, radius: 0.05}]}
)");
  // Gravity −z on a mass at +x about axis +y: the arm rotates toward positive q (x → −z).
  double extreme = 0;
  for (const sim::Frame& f : run.recording.frames) {
    extreme = std::max(extreme, std::abs(JointPosition(run, "arm", f)));
  }
  EXPECT_LT(extreme, 0.5 + 2e-3);
  EXPECT_NEAR(std::abs(JointPosition(run, "arm", run.recording.frames.back())), 0.5, 2e-3);
}

// Joint friction f (URDF <dynamics friction>) against a constant torque τ on a free hinge of
// inertia I, no gravity. Above it, τ > f, the joint slides with f opposing it: v_n = n h (τ − f)/I
// exactly (the box row sits at its bound). Below it, τ < f, it holds, up to SAP's regularized
// creep (σ = 1e-3: v ≈ σ h τ / I per step, here 5e-6 rad/s).
TEST(SapJointFriction, SlidesAtTheClosedFormAboveItAndHoldsBelowIt) {
  const auto hinge = [](double torque) {
    return RunScene(R"(
coulomb: 1
time_step: 0.001
duration: 1.0
formulation: sap
gravity: [0, 0, 0]
bodies:
  - {name: hinge, joint: revolute, axis: [0, 0, 1], joint_friction: 1.0, mass: 1,
     inertia: [0.1, 0.1, 0.1]}
actuators:
  - {joint: hinge, type: torque, target: )" +
                    std::to_string(torque) + "}\n");
  };
  const SceneRun sliding = hinge(1.5);
  for (std::size_t n = 0; n < sliding.recording.frames.size(); n += 100) {
    const double expected = static_cast<double>(n) * 1e-3 * (1.5 - 1.0) / 0.1;
    EXPECT_NEAR(sliding.recording.frames[n].v[0], expected, 1e-6 * (1 + expected)) << "step " << n;
  }
  const SceneRun held = hinge(0.5);
  const sim::Frame& last = held.recording.frames.back();
  EXPECT_LT(std::abs(last.v[0]), 1e-5);
  EXPECT_LT(std::abs(last.q[0]), 1e-4);
  EXPECT_GT(std::abs(last.v[0]), 0.0);  // regularized: it does creep, at σ's rate
}

// Two prismatic fingers, the right one mimicking the left with multiplier −1; a PD drive closes
// the left finger. The right one must follow symmetrically.
TEST(SapCoupler, MimicGripperClosesSymmetrically) {
  const SceneRun run = RunScene(R"(
coulomb: 1
time_step: 0.001
duration: 1.0
formulation: sap
gravity: [0, 0, 0]
bodies:
  - {name: left, joint: prismatic, axis: [0, 1, 0], position: [0, 0.05, 0], mass: 0.2,
     inertia: [1e-4, 1e-4, 1e-4], shapes: [{type: box, size: [0.02, 0.01, 0.05]}]}
  - {name: right, joint: prismatic, axis: [0, 1, 0], position: [0, -0.05, 0], mass: 0.5,
     inertia: [1e-4, 1e-4, 1e-4], shapes: [{type: box, size: [0.02, 0.01, 0.05]}]}
constraints:
  - {type: coupler, joint: right, mimics: left, multiplier: -1}
actuators:
  - {joint: left, type: pd, kp: 200, kd: 20, target: {ramp: {from: 0, to: -0.03, start: 0, end: 0.5}}}
)");
  double worst = 0;
  for (const sim::Frame& f : run.recording.frames) {
    worst =
        std::max(worst, std::abs(JointPosition(run, "right", f) + JointPosition(run, "left", f)));
  }
  EXPECT_LT(worst, 1e-4);
  const sim::Frame& last = run.recording.frames.back();
  EXPECT_NEAR(JointPosition(run, "left", last), -0.03, 2e-3);
  EXPECT_NEAR(JointPosition(run, "right", last), 0.03, 2e-3);
}

// Five free boxes welded end to end, the first to the world: under gravity the chain holds its
// initial pose (a cantilever of rigid links).
TEST(SapHolonomic, WeldedChainHolds) {
  std::string yaml = R"(
coulomb: 1
time_step: 0.002
duration: 1.0
formulation: sap
bodies:
)";
  for (int k = 0; k < 5; ++k) {
    yaml += "  - {name: link" + std::to_string(k) + ", mass: 1.0, position: [" +
            std::to_string(0.1 + 0.2 * k) +
            ", 0, 1], shapes: [{type: box, size: [0.2, 0.05, 0.05]}]}\n";
  }
  yaml += "constraints:\n  - {type: weld, body_a: world, body_b: link0}\n";
  for (int k = 1; k < 5; ++k) {
    yaml += "  - {type: weld, body_a: link" + std::to_string(k - 1) + ", body_b: link" +
            std::to_string(k) + "}\n";
  }
  const SceneRun run = RunScene(yaml);
  const sim::Frame& first = run.recording.frames.front();
  const sim::Frame& last = run.recording.frames.back();
  EXPECT_LT((last.q - first.q).cwiseAbs().maxCoeff(), 2e-3);
  EXPECT_LT(last.v.cwiseAbs().maxCoeff(), 1e-2);
}

// A PD drive with gains far beyond the explicit stability bound (kp h²/I = 100): implicit under
// SAP, it settles on its target.
TEST(SapDrives, StiffPdDriveIsStableAndReachesItsTarget) {
  const SceneRun run = RunScene(R"(
coulomb: 1
time_step: 0.01
duration: 1.0
formulation: sap
gravity: [0, 0, 0]
bodies:
  - {name: wheel, joint: revolute, axis: [0, 0, 1], mass: 1.0, inertia: [0.01, 0.01, 0.01],
     shapes: [{type: sphere, radius: 0.1}]}
actuators:
  - {joint: wheel, type: pd, kp: 10000, kd: 100, target: 0.7}
)");
  const sim::Frame& last = run.recording.frames.back();
  EXPECT_NEAR(JointPosition(run, "wheel", last), 0.7, 1e-6);
  EXPECT_TRUE(last.v.allFinite());
}

// Per-contact results of a step: a box resting on the floor has four contacts, each carrying a
// quarter of the weight's impulse, with zero predicted gap and no slip.
TEST(SapResults, RestingBoxReportsImpulsesGapsAndSlip) {
  Expected<sim::Scene> scene = io::ParseScene(R"(
coulomb: 1
time_step: 0.001
formulation: sap
bodies:
  - {name: floor, joint: fixed, shapes: [{type: halfspace}]}
  - {name: box, mass: 2.0, position: [0, 0, 0.1], shapes: [{type: box, size: [0.2, 0.2, 0.2]}]}
)",
                                              "resting.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  sim::Scene& s = scene.value();
  sim::Data data = sim::MakeData(s.model, s.initial);
  sim::StepReport report;
  for (int k = 0; k < 50; ++k) {
    report = sim::Step(s.model, data);
    ASSERT_EQ(report.status, LcpStatus::kSolved) << report.message;
  }
  ASSERT_EQ(report.num_contacts(), 4);
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(report.impulses[3 * k], 2.0 * 9.81 * 0.001 / 4, 1e-6) << k;
    EXPECT_NEAR(report.gaps[k], 0.0, 1e-6) << k;
    EXPECT_LT(report.contact_velocities.segment<2>(3 * k + 1).norm(), 1e-9) << k;
  }
}

TEST(SapDeterminism, SameSceneGivesBitIdenticalStates) {
  const std::string path =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/pyramid.yaml";
  Expected<sim::Scene> scene = io::ReadSceneFile(path);
  ASSERT_TRUE(scene.ok());
  scene.value().model.settings.formulation = testing_support::Named("sap");
  scene.value().duration = 0.5;
  const sim::RunSummary a = sim::Simulate(scene.value(), nullptr);
  const sim::RunSummary b = sim::Simulate(scene.value(), nullptr);
  EXPECT_EQ(a.state_hash, b.state_hash);
}

TEST(SapSceneFile, ConstraintErrorsNameTheKeyAndLine) {
  Expected<sim::Scene> scene = io::ParseScene(R"(
coulomb: 1
bodies:
  - {name: a, shapes: [{type: sphere, radius: 0.1}]}
constraints:
  - {type: weld, body_a: world, body_b: nobody}
)",
                                              "bad.yaml", ".");
  ASSERT_FALSE(scene.ok());
  const std::string message = scene.error().ToString();
  EXPECT_NE(message.find("constraints[0].body_b"), std::string::npos) << message;
  EXPECT_NE(message.find("nobody"), std::string::npos) << message;
  EXPECT_NE(message.find(":6"), std::string::npos) << message;
}

}  // namespace
}  // namespace coulomb
