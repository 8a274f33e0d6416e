// Joint damping is implicit in every formulation: (M + h D)(v⁺ − v) = h (f − D v) + Jᵀλ.
// Checked against the closed form of that recurrence on a free joint with no gravity,
// v_n = v_0 / (1 + h d / I)^n, in the regime of published finger joints (d h / I = 5000), where
// explicit damping multiplies the velocity by 1 − d h / I = −4999 each step.

#include <gtest/gtest.h>

#include <cmath>

#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"
#include "tests/support/formulation_names.h"

namespace coulomb {
namespace {

class JointDamping : public ::testing::TestWithParam<const Formulation*> {};

TEST_P(JointDamping, StiffDampingDecaysAsTheImplicitClosedForm) {
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
  scene.value().settings.formulation = GetParam();
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

INSTANTIATE_TEST_SUITE_P(Formulations, JointDamping,
                         ::testing::Values(testing_support::Named("velocity-lcp"),
                                           testing_support::Named("cone"),
                                           testing_support::Named("trinkle"),
                                           testing_support::Named("sap")),
                         testing_support::FormulationTestName);

}  // namespace
}  // namespace coulomb
