// The robot corpus (examples/scenes/robots/, data/robots/): published URDFs, unedited, dropped
// onto a floor, must come to rest on it — the test of "real robots". Checked under every
// formulation, from invariants of rest: every step
// certified, no link more than 1 cm into the floor, still touching it at the end (a robot that
// fell through has no contacts), and no joint or base moving faster than a resting body could.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"
#include "tests/support/example_scenes.h"
#include "tests/support/formulation_names.h"

namespace coulomb {
namespace {

class RobotDrop : public ::testing::TestWithParam<std::tuple<std::string, const Formulation*>> {};

// Runs that do not meet the test yet, each with its measured reason (docs/robots.md); they are
// reported as skipped, never silently dropped, and leave the robot issue open.
// Runs that do not come to rest, each with what was measured (docs/robots.md).
const std::map<std::pair<std::string, std::string>, std::string> kKnownGaps = {
    {{"icub_drop", "trinkle"},
     "iCub's left wrist pronation turns at 1.2-3.8 rad/s through the last second under paper "
     "1's stepper; the last frame fell under 1 rad/s by chance until 2026-12-05"},
};

TEST_P(RobotDrop, ComesToRestOnTheFloor) {
  const auto& [name, formulation] = GetParam();
  if (const auto gap = kKnownGaps.find({name, std::string(formulation->name)});
      gap != kKnownGaps.end()) {
    GTEST_SKIP() << gap->second;
  }
  Expected<sim::Scene> loaded =
      io::ReadSceneFile(coulomb::testing::ExampleScenesDir("robots") + "/" + name + ".yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  sim::Scene& scene = loaded.value();
  scene.model.settings.formulation = formulation;
  sim::Recording recording;
  const sim::RunSummary run = sim::Simulate(scene, &recording);
  ::testing::Test::RecordProperty("mean_step_us", std::to_string(run.mean_step_us));
  EXPECT_EQ(run.stopped, "");
  EXPECT_EQ(run.failed_steps, 0) << run.first_failure;
  EXPECT_LT(run.max_penetration, 0.01);
  ASSERT_FALSE(recording.steps.empty());
  EXPECT_GT(recording.steps.back().contacts, 0) << "not on the floor at the end";
  const sim::Frame& last = recording.frames.back();
  for (const multibody::Body& b : scene.model.multibody.bodies) {
    if (b.joint == multibody::JointType::kFloating) {
      EXPECT_LT(last.v.segment<3>(b.v_index).norm(), 0.05) << b.name << " still moving, m/s";
      EXPECT_LT(last.v.segment<3>(b.v_index + 3).norm(), 1.0) << b.name << " still turning";
    } else if (multibody::VelocitySize(b.joint) == 1) {
      EXPECT_LT(std::abs(last.v[b.v_index]), 1.0) << "joint " << b.joint_name << ", rad/s";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Corpus, RobotDrop,
    ::testing::Combine(::testing::ValuesIn(coulomb::testing::ExampleSceneNames("robots")),
                       ::testing::Values(testing_support::Named("sap"),
                                         testing_support::Named("velocity-lcp"),
                                         testing_support::Named("cone"),
                                         testing_support::Named("trinkle"))),
    [](const ::testing::TestParamInfo<RobotDrop::ParamType>& info) {
      std::string formulation(std::get<1>(info.param)->name);
      std::replace(formulation.begin(), formulation.end(), '-', '_');
      return std::get<0>(info.param) + "_" + formulation;
    });

}  // namespace
}  // namespace coulomb
