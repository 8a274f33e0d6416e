// examples/scenes/large/pile_10k.yaml, issue 44's pile, is kept out of the every-example tests
// (its 2 s take minutes under some formulations); this runs what CI can afford of it: it loads,
// and its first steps, the bottom layer on the floor, are certified and keep every body in the
// bin.

#include <gtest/gtest.h>

#include <string>

#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sim/step.h"
#include "tests/support/build_paths.h"

namespace coulomb {
namespace {

TEST(Pile10k, LoadsAndItsFirstStepsAreCertified) {
  Expected<sim::Scene> loaded =
      io::ReadSceneFile(std::string(testing::SourceDir()) + "/examples/scenes/large/pile_10k.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const sim::Scene& scene = loaded.value();
  ASSERT_EQ(scene.model.multibody.bodies.size(), 10000U);  // the fixed floor and walls are not
  sim::Data data = sim::MakeData(scene.model, scene.initial);
  data.workers = ThreadPool(2);
  for (int step = 0; step < 10; ++step) {
    const sim::StepReport& report = sim::Step(scene.model, data);
    ASSERT_EQ(report.status, LcpStatus::kSolved) << "step " << step << ": " << report.message;
    EXPECT_GE(report.num_contacts(), 400);  // the bottom layer of 400 on the floor at least
  }
  ASSERT_TRUE(data.state.q.allFinite());
  // Every body's position (free joints: x, y, z first of each 7) inside the walls and above
  // the floor.
  for (Eigen::Index i = 0; i + 7 <= data.state.q.size(); i += 7) {
    EXPECT_LT(std::abs(data.state.q[i]), 1.15);
    EXPECT_LT(std::abs(data.state.q[i + 1]), 1.15);
    EXPECT_GT(data.state.q[i + 2], 0.0);
  }
}

}  // namespace
}  // namespace coulomb
