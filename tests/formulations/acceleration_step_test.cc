// Paper 1's acceleration-level stepper on a problem beyond max_pivoting_rows: the interior point
// method runs instead of Lemke, every step is certified, the run says which solver ran and why,
// and the stack stands (its top cube within a millimetre).

#include <gtest/gtest.h>

#include <string>

#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"

namespace coulomb {
namespace {

TEST(AccelerationStep, TooLargeForPivotingRunsTheInteriorPointMethodAndSaysSo) {
  Expected<sim::Scene> scene = io::ParseScene(R"(coulomb: 1
duration: 0.1
formulation: trinkle
solver: {name: lemke, max_pivoting_rows: 30}
materials: {wood: {friction: 0.5}}
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, material: wood}]}
  - {name: cube, mass: 1.0, position: [0, 0, 0.1], array: {count: [1, 1, 3], spacing: [0, 0, 0.2]},
     shapes: [{type: box, size: [0.2, 0.2, 0.2], material: wood}]}
)",
                                              "stack3.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  sim::Recording recording;
  const sim::RunSummary summary = sim::Simulate(scene.value(), &recording);
  EXPECT_EQ(summary.failed_steps, 0) << summary.first_failure;
  EXPECT_NE(summary.solver_switch.find("exceed solver.max_pivoting_rows = 30 for lemke: ipm"),
            std::string::npos)
      << summary.solver_switch;
  const int top = scene.value().model.bodies.back().q_index;
  EXPECT_NEAR(recording.frames.back().q[top + 2], 0.5, 1e-3);
}

}  // namespace
}  // namespace coulomb
