// Threads as a contract (docs/determinism.md): a step gives the same answer, bit for bit, on one
// thread and on two, on the piles where the sweeps really run on the workers (an island of
// hundreds of contacts swept level by level).

#include <gtest/gtest.h>

#include <string>

#include "coulomb/base/thread_pool.h"
#include "coulomb/formulations/formulation.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sim/step.h"
#include "tests/support/build_paths.h"

namespace coulomb {
namespace {

struct RunResult {
  std::uint64_t hash = 0;
  int levelled_islands = 0;     // summed over the steps
  int partitioned_islands = 0;  // summed over the steps
  int failed = 0;
};

RunResult Simulate(const sim::Scene& scene, int threads) {
  sim::Data data = sim::MakeData(scene.model, scene.initial);
  data.workers = ThreadPool(threads);
  RunResult run;
  for (int step = 0; step < scene.NumSteps(); ++step) {
    const sim::StepReport& report = sim::Step(scene.model, data);
    run.failed += report.status == LcpStatus::kSolved ? 0 : 1;
    run.levelled_islands += data.formulation.sweeps.result.levelled_islands;
    run.partitioned_islands += data.formulation.sweeps.result.partitioned_islands;
  }
  run.hash = sim::HashState(data.state);
  return run;
}

// These islands' levels hold ~10–40 contacts, narrower than the default asks before it sweeps
// level by level on two threads (it sweeps them in order, as one thread does): width 1 puts every
// island of 256+ contacts through the levelled path, whose bits are what is tested.
void ExpectSameOnOneAndTwoThreads(sim::Scene scene) {
  scene.model.settings.cone.levelled_mean_width = 1;
  scene.model.settings.velocity_lcp.levelled_mean_width = 1;
  const RunResult one = Simulate(scene, 1), two = Simulate(scene, 2);
  EXPECT_EQ(one.levelled_islands, 0);  // one thread: the sequential sweep
  EXPECT_EQ(one.partitioned_islands, two.partitioned_islands);
  EXPECT_GT(two.levelled_islands + two.partitioned_islands, 0)
      << "no island reached the workers: the test tests nothing";
  EXPECT_EQ(one.hash, two.hash);
  EXPECT_EQ(one.failed, two.failed);
}

TEST(Threads, TheBinLandsTheSameOnOneAndTwoThreads) {
  Expected<sim::Scene> loaded =
      io::ReadSceneFile(std::string(testing::SourceDir()) + "/examples/scenes/bin.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  sim::Scene scene = std::move(loaded.value());
  scene.duration = 0.4;  // the landing: one island of 500+ contacts from 0.2 s
  ExpectSameOnOneAndTwoThreads(scene);
}

// 1 000 spheres packed in a box on the floor, touching from the first step: one island of
// ~3 000 contacts under the cone and under the velocity LCP's pyramid sweeps.
TEST(Threads, AThousandSpherePileStepsTheSameOnOneAndTwoThreads) {
  const std::string text = R"(coulomb: 1
name: pile_1000
time_step: 0.002
duration: 0.04
formulation: cone
solver: {name: nsgs, tolerance: 1.0e-4, max_sweeps: 300}
materials:
  m: {friction: 0.5}
bodies:
  - {name: floor, joint: fixed, shapes: [{type: halfspace, material: m}]}
  - name: walls
    joint: fixed
    shapes:
      - {type: box, size: [0.1, 1.2, 1.2], position: [-0.55, 0, 0.6], material: m}
      - {type: box, size: [0.1, 1.2, 1.2], position: [0.55, 0, 0.6], material: m}
      - {type: box, size: [1.0, 0.1, 1.2], position: [0, -0.55, 0.6], material: m}
      - {type: box, size: [1.0, 0.1, 1.2], position: [0, 0.55, 0.6], material: m}
  - name: ball
    mass: 0.1
    position: [-0.45, -0.45, 0.05]
    array: {count: [10, 10, 10], spacing: [0.1, 0.1, 0.1]}
    shapes: [{type: sphere, radius: 0.05, material: m}]
)";
  for (const char* formulation : {"cone", "velocity-lcp"}) {
    SCOPED_TRACE(formulation);
    Expected<sim::Scene> loaded = io::ParseScene(text, "pile_1000.yaml", ".");
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    sim::Scene scene = std::move(loaded.value());
    scene.model.settings.formulation = FindFormulation(formulation);
    if (std::string(formulation) == "velocity-lcp") {
      scene.model.settings.velocity_lcp.solver = LcpSolverKind::kProjectedGaussSeidel;
    }
    ExpectSameOnOneAndTwoThreads(scene);
  }
  // The same pile swept part by part (sweep_parts.h): its island of ~3 000 contacts in four
  // parts, whose interiors and cuts the two threads share.
  Expected<sim::Scene> loaded = io::ParseScene(text, "pile_1000.yaml", ".");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  sim::Scene scene = std::move(loaded.value());
  scene.model.settings.cone.island_parts = 4;
  scene.model.settings.cone.partitioned_island_contacts = 1000;
  const RunResult one = Simulate(scene, 1), two = Simulate(scene, 2);
  EXPECT_EQ(one.partitioned_islands, scene.NumSteps());
  EXPECT_EQ(two.partitioned_islands, scene.NumSteps());
  EXPECT_EQ(one.hash, two.hash);
  EXPECT_EQ(one.failed, 0);
  EXPECT_EQ(two.failed, 0);
}

}  // namespace
}  // namespace coulomb
