// What published robots' joints carry, under every formulation, against closed forms of the
// step's own recurrences (not against earlier output of this code):
//
// * Joint damping is implicit: (M + h D)(v⁺ − v) = h (f − D v) + Jᵀλ. On a free joint with no
//   gravity, v_n = v_0 / (1 + h d / I)^n, in the regime of published finger joints
//   (d h / I = 5000), where explicit damping multiplies the velocity by 1 − d h / I = −4999 each
//   step.
// * Mimic joints (couplers q_f = m q_l + o) are a change of variables of the contact problem
//   (contact/contact_problem.h). Leader and follower turn about one vertical axis, the follower
//   carried by the leader, so with v_f = m v_l the kinetic energy is ½ (I_l + I_f (1 + m)²) v_l²:
//   a torque τ on the leader alone accelerates it at τ / (I_l + I_f (1 + m)²), and with no
//   velocity-dependent force v_n = n h τ / I_eff exactly.
// * Joint limits hold: SAP has them as constraints, the others as frictionless contacts
//   (contact::LimitContact). A horizontal arm (mass m, centre of mass at distance L) falls onto
//   its upper limit q_u and rests there; then the limit's impulse per step balances gravity's
//   angular impulse, h m g L cos q_u. With the arm on a follower that mimics its leader
//   (q_f = q_l, both turning about y, so the arm's angle is 2 q_l) and the follower's upper limit
//   the tighter, the pair stops at q_f = q_l = q_u, where the generalized gravity force on the
//   leader is 2 m g L cos 2q_u; the complementarity formulations carry it on one limit row, the
//   leader's (a second, parallel row for the follower would make W singular).

#include <gtest/gtest.h>

#include <cmath>

#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sim/step.h"
#include "tests/support/formulation_names.h"

namespace coulomb {
namespace {

class JointClosedForm : public ::testing::TestWithParam<const Formulation*> {};

TEST_P(JointClosedForm, StiffDampingDecaysAsTheImplicitClosedForm) {
  // A rod of 1e-6 kg m² about its hinge (a fingertip), d = 5 N m s/rad, h = 1 ms, spinning at
  // 1 rad/s: each step divides its speed by 1 + 5·1e-3/1e-6 = 5001.
  const std::string text = R"(coulomb: 1
time_step: 0.001
duration: 0.003
gravity: [0, 0, 0]
bodies:
  - name: finger
    joint: revolute
    axis: [0, 0, 1]
    damping: 5.0
    initial_velocity: 1.0
    mass: 0.001
    inertia: [1e-6, 1e-6, 1e-6]
)";
  Expected<sim::Scene> scene = io::ParseScene(text, "damping.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  scene.value().model.settings.formulation = GetParam();
  sim::Recording recording;
  const sim::RunSummary run = sim::Simulate(scene.value(), &recording);
  EXPECT_EQ(run.failed_steps, 0) << run.first_failure;
  ASSERT_EQ(recording.frames.size(), 4u);
  const double ratio = 1 + 1e-3 * 5.0 / 1e-6;
  for (std::size_t n = 0; n < recording.frames.size(); ++n) {
    const double expected = std::pow(ratio, -static_cast<double>(n));
    EXPECT_NEAR(recording.frames[n].v[0], expected, 1e-9 * expected + 1e-15) << "step " << n;
  }
}

TEST_P(JointClosedForm, FollowerKeepsItsRatioAndTheLeaderFeelsTheCoupledInertia) {
  const std::string text = R"(coulomb: 1
time_step: 0.01
duration: 0.1
gravity: [0, 0, 0]
bodies:
  - {name: leader, joint: revolute, axis: [0, 0, 1], mass: 1, inertia: [0.1, 0.1, 0.2]}
  - {name: follower, parent: leader, joint: revolute, axis: [0, 0, 1], position: [0, 0, 0.5],
     mass: 1, inertia: [0.05, 0.05, 0.1]}
constraints:
  - {type: coupler, joint: follower, mimics: leader, multiplier: 2, offset: 0}
actuators:
  - {joint: leader, type: torque, target: 1.1}
)";
  Expected<sim::Scene> scene = io::ParseScene(text, "mimic.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  scene.value().model.settings.formulation = GetParam();
  EXPECT_EQ(sim::ConstraintsIgnoredBy(scene.value()), "");
  sim::Recording recording;
  const sim::RunSummary run = sim::Simulate(scene.value(), &recording);
  EXPECT_EQ(run.failed_steps, 0) << run.first_failure;
  const double h = 0.01, inertia = 0.2 + 0.1 * 9;  // I_l + I_f (1 + 2)²
  for (std::size_t n = 0; n < recording.frames.size(); ++n) {
    const sim::Frame& f = recording.frames[n];
    const double v = n * h * 1.1 / inertia;
    EXPECT_NEAR(f.v[0], v, 1e-9 * (1 + v)) << "step " << n;
    EXPECT_NEAR(f.v[1], 2 * f.v[0], 1e-9 * (1 + v)) << "step " << n;
    EXPECT_NEAR(f.q[1], 2 * f.q[0], 1e-9) << "step " << n;
  }
}

// A scene stepped 1 500 times under `formulation`, every step certified, keeping the highest
// value q[watched] reached.
struct LimitRun {
  sim::Scene scene;
  sim::Data data;
  double highest = 0;
  bool ok = false;
  LimitRun(const std::string& text, const Formulation* formulation, int watched) {
    Expected<sim::Scene> parsed = io::ParseScene(text, "limit.yaml", ".");
    if (!parsed.ok()) {
      ADD_FAILURE() << parsed.error().ToString();
      return;
    }
    scene = std::move(parsed.value());
    scene.model.settings.formulation = formulation;
    data = sim::MakeData(scene.model, scene.initial);
    for (int n = 0; n < 1500; ++n) {
      const sim::StepReport& report = sim::Step(scene.model, data);
      if (report.status != LcpStatus::kSolved) {
        ADD_FAILURE() << "step " << n << ": " << report.message;
        return;
      }
      highest = std::max(highest, data.state.q[watched]);
    }
    ok = true;
  }
};

TEST_P(JointClosedForm, ArmRestsOnItsLimitWhichCarriesGravitysTorque) {
  const std::string text = R"(coulomb: 1
time_step: 0.001
duration: 1.5
bodies:
  - {name: arm, joint: revolute, axis: [0, 1, 0], lower: -0.5, upper: 0.5, mass: 1.0,
     inertia: [0.01, 0.01, 0.01], com: [0.3, 0, 0], shapes: [{type: sphere, radius: 0.05}]}
)";
  LimitRun run(text, GetParam(), 0);
  ASSERT_TRUE(run.ok);
  const sim::Model& model = run.scene.model;
  sim::Data& data = run.data;
  // Gravity −z on the mass at +x, about +y: the arm turns toward positive q (x → −z).
  constexpr double kUpper = 0.5, kTolerance = 2e-3;  // rad
  EXPECT_LT(run.highest, kUpper + kTolerance);
  EXPECT_NEAR(data.state.q[0], kUpper, kTolerance);
  EXPECT_LT(std::abs(data.state.v[0]), 1e-3);
  if (model.settings.formulation->supports.joint_limits) return;  // SAP: no limit contacts
  const sim::StepReport& last = sim::Step(model, data);
  ASSERT_EQ(last.limit_impulses.size(), 1);  // the upper limit alone is within reach
  const double expected = 1e-3 * 1.0 * 9.81 * 0.3 * std::cos(kUpper);
  EXPECT_NEAR(last.limit_impulses[0], expected, 1e-3 * expected);
}

TEST_P(JointClosedForm, MimicPairRestsOnTheFollowersLimitCarriedByTheLeader) {
  const std::string text = R"(coulomb: 1
time_step: 0.001
duration: 1.5
bodies:
  - {name: leader, joint: revolute, axis: [0, 1, 0], upper: 0.6, mass: 0.01,
     inertia: [1e-4, 1e-4, 1e-4]}
  - {name: arm, parent: leader, joint: revolute, axis: [0, 1, 0], lower: -0.5, upper: 0.4,
     mass: 1.0, inertia: [0.01, 0.01, 0.01], com: [0.3, 0, 0],
     shapes: [{type: sphere, radius: 0.05}]}
constraints:
  - {type: coupler, joint: arm, mimics: leader, multiplier: 1, offset: 0}
)";
  LimitRun run(text, GetParam(), 1);
  ASSERT_TRUE(run.ok);
  const sim::Model& model = run.scene.model;
  sim::Data& data = run.data;
  constexpr double kUpper = 0.4, kTolerance = 2e-3;  // rad
  EXPECT_LT(run.highest, kUpper + kTolerance);
  EXPECT_NEAR(data.state.q[0], kUpper, kTolerance);
  EXPECT_NEAR(data.state.q[1], kUpper, kTolerance);
  if (model.settings.formulation->supports.joint_limits) return;
  const sim::StepReport& last = sim::Step(model, data);
  ASSERT_EQ(data.step.problem.limit_contacts.size(), 1u);
  EXPECT_EQ(data.step.problem.limit_contacts[0].dof, 0);  // the leader's row
  ASSERT_EQ(last.limit_impulses.size(), 1);
  const double expected = 1e-3 * 2 * 1.0 * 9.81 * 0.3 * std::cos(2 * kUpper);
  EXPECT_NEAR(last.limit_impulses[0], expected, 1e-3 * expected);
}

INSTANTIATE_TEST_SUITE_P(Formulations, JointClosedForm,
                         ::testing::Values(testing_support::Named("velocity-lcp"),
                                           testing_support::Named("cone"),
                                           testing_support::Named("trinkle"),
                                           testing_support::Named("sap")),
                         testing_support::FormulationTestName);

}  // namespace
}  // namespace coulomb
