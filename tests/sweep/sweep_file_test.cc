// Sweep files: how runs are laid out over the grid, that a run's values are a function of its
// index alone, and what the reader refuses.

#include "coulomb/sweep/sweep_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "coulomb/sweep/sweep_scene.h"
#include "tests/support/build_paths.h"

namespace coulomb::sweep {
namespace {

namespace fs = std::filesystem;

std::string WriteSweep(const std::string& name, const std::string& body) {
  const fs::path dir = coulomb::testing::TempPath("coulomb_sweep_file_test");
  fs::create_directories(dir);
  const fs::path path = dir / (name + ".yaml");
  std::ofstream(path) << "coulomb_sweep: 1\nscene: " << coulomb::testing::SourceDir()
                      << "/examples/scenes/incline.yaml\n"
                      << body;
  return path.string();
}

SweepDefinition Read(const std::string& name, const std::string& body) {
  Expected<SweepDefinition> read = ReadSweepFile(WriteSweep(name, body));
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().ToString());
  return read.ok() ? read.value() : SweepDefinition{};
}

TEST(SweepFile, GridRunsVaryTheLastAxisFastestAndRepeatEachPoint) {
  const SweepDefinition sweep = Read("grid",
                                     "parameters:\n"
                                     "  formulation: [cone, sap]\n"
                                     "  friction: {linspace: [0, 1, 3]}\n"
                                     "repeats: 2\n");
  ASSERT_EQ(sweep.GridPoints(), 6);
  ASSERT_EQ(sweep.NumRuns(), 12);
  const char* formulation[] = {"cone", "cone", "cone", "sap", "sap", "sap"};
  const double friction[] = {0, 0.5, 1, 0, 0.5, 1};
  for (int i = 0; i < sweep.NumRuns(); ++i) {
    const SweepRunSpec run = MakeRunSpec(sweep, i);
    EXPECT_EQ(run.point, i / 2);
    EXPECT_EQ(run.repeat, i % 2);
    EXPECT_EQ(run.values[0], formulation[i / 2]) << i;
    EXPECT_EQ(std::stod(run.values[1]), friction[i / 2]) << i;
  }
}

TEST(SweepFile, LinspaceAndLogspaceKeepBothEndsExactly) {
  const SweepDefinition sweep = Read("spaced",
                                     "parameters:\n"
                                     "  time_step: {logspace: [0.0005, 0.01, 5]}\n");
  ASSERT_EQ(sweep.parameters[0].values.size(), 5u);
  EXPECT_EQ(sweep.parameters[0].values.front(), FormatNumber(0.0005));
  EXPECT_EQ(sweep.parameters[0].values.back(), FormatNumber(0.01));
  // Geometric: each value is the previous times (0.01 / 0.0005)^(1/4).
  const double ratio = std::pow(20.0, 0.25);
  for (std::size_t k = 1; k < 5; ++k) {
    EXPECT_NEAR(
        std::stod(sweep.parameters[0].values[k]) / std::stod(sweep.parameters[0].values[k - 1]),
        ratio, 1e-12);
  }
}

TEST(SweepFile, RandomDrawsDependOnTheIndexAloneAndStayInTheirRange) {
  const SweepDefinition sweep =
      Read("random",
           "parameters:\n"
           "  friction: {uniform: [0.2, 0.6]}\n"
           "  bodies[cube].velocity: {uniform: [[0, 0, 0], [0.1, 0.2, 0]]}\n"
           "repeats: 200\n"
           "seed: 7\n");
  ASSERT_EQ(sweep.NumRuns(), 200);
  std::set<std::string> seen;
  double sum = 0;
  for (int i = 0; i < sweep.NumRuns(); ++i) {
    const SweepRunSpec run = MakeRunSpec(sweep, i);
    const double mu = std::stod(run.values[0]);
    EXPECT_GE(mu, 0.2);
    EXPECT_LE(mu, 0.6);
    sum += mu;
    seen.insert(run.values[0]);
    // The same index gives the same draws, asked in any order.
    EXPECT_EQ(MakeRunSpec(sweep, i).values, run.values);
    EXPECT_EQ(run.values[1].front(), '[');
  }
  EXPECT_EQ(seen.size(), 200u);  // no two runs share a draw
  // The mean of 200 uniform draws on [0.2, 0.6]: 0.4 within 4 standard errors (0.0327).
  EXPECT_NEAR(sum / 200, 0.4, 4 * 0.4 / std::sqrt(12.0 * 200));
  // Another seed, other draws.
  const SweepDefinition other = Read("random2",
                                     "parameters:\n"
                                     "  friction: {uniform: [0.2, 0.6]}\n"
                                     "repeats: 3\n"
                                     "seed: 8\n");
  EXPECT_NE(MakeRunSpec(other, 0).values[0], MakeRunSpec(sweep, 0).values[0]);
}

TEST(SweepFile, ScenePathsAndSettingsBothReachTheRunScene) {
  const SweepDefinition sweep = Read("paths",
                                     "parameters:\n"
                                     "  bodies[cube].mass: [2.5]\n"
                                     "  friction: [0.3]\n"
                                     "  time_step: [0.002]\n");
  Expected<sim::Scene> scene =
      BuildRunScene(*sweep.base, RunAssignments(sweep, MakeRunSpec(sweep, 0)));
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  EXPECT_DOUBLE_EQ(scene.value().model.time_step, 0.002);
  // The base scene is untouched.
  EXPECT_DOUBLE_EQ(sweep.base->scene.model.time_step, 0.001);
}

TEST(SweepFile, DefectsNameTheLineAndTheKey) {
  struct Case {
    const char* body;
    int line;
    const char* key;
  };
  const Case cases[] = {
      {"parameters:\n  friction: [0.1, -3]\n", 4, "parameters.friction"},
      {"parameters:\n  friction: {linspace: [0, 1]}\n", 4, "parameters.friction.linspace"},
      {"parameters:\n  friction: {uniform: [0.6, 0.2]}\n", 4, "parameters.friction.uniform"},
      {"parameters:\n  bodies[nobody].mass: [1]\n", 4, "parameters.bodies[nobody].mass"},
      {"parameters:\n  friction: [0.1]\nrepeats: 0\n", 5, "repeats"},
      {"parameters:\n  friction: [0.1]\nmetrics: [position.nobody]\n", 5, "metrics"},
      {"parameters:\n  friction: [0.1]\nreference: {metric: steps, formula: \"mu +\"}\n", 5,
       "reference.metric"},
  };
  int k = 0;
  for (const Case& c : cases) {
    Expected<SweepDefinition> read = ReadSweepFile(WriteSweep("bad" + std::to_string(k++), c.body));
    ASSERT_FALSE(read.ok()) << c.body;
    EXPECT_EQ(read.error().line, c.line) << c.body << read.error().ToString();
    EXPECT_EQ(read.error().field.rfind(c.key, 0), 0u) << c.body << read.error().ToString();
  }
}

}  // namespace
}  // namespace coulomb::sweep
