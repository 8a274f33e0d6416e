// The piles of examples/scenes/large/ (issue 44) are kept out of the every-example tests (their
// durations take minutes under some formulations); this runs what CI can afford of each: it
// loads, and its first steps are certified and keep every body in the bin.

#include <gtest/gtest.h>

#include <algorithm>
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

// The 3 000-sphere pile under SAP with default settings, through its first 0.3 s: the bottom
// layer lands at ~0.1 s and the second at ~0.25 s, while the eight above fall side by side with
// speculative reaches of up to 2.4 cm, which SAP prunes to the pairs that can close their gap.
// Every step certified, no sphere more than 0.1 mm into another or the floor, with fewer than a
// third of the contacts that the per-geometry reaches alone give (SAP run from a copy of its
// descriptor that keeps them all).
TEST(Pile3kSap, ItsFirstLandingsAreCertifiedShallowAndPruned) {
  Expected<sim::Scene> loaded = io::ReadSceneFile(std::string(testing::SourceDir()) +
                                                  "/examples/scenes/large/pile_3k_sap.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  sim::Scene scene = std::move(loaded.value());
  ASSERT_EQ(scene.model.multibody.bodies.size(), 3000U);
  ASSERT_TRUE(scene.model.world.speculative);  // the default
  ASSERT_TRUE(scene.model.settings.formulation->supports.relative_speculative_contacts);
  const auto run = [&scene](int& contacts) {
    sim::Data data = sim::MakeData(scene.model, scene.initial);
    contacts = 0;
    for (int step = 0; step < 30; ++step) {
      const sim::StepReport& report = sim::Step(scene.model, data);
      EXPECT_EQ(report.status, LcpStatus::kSolved) << "step " << step << ": " << report.message;
      EXPECT_LT(report.max_penetration, 1e-4) << "step " << step;
      contacts += report.num_contacts();
    }
    return data.state.q;
  };
  int pruned = 0;
  const Eigen::VectorXd q = run(pruned);
  EXPECT_GE(pruned, 300 * 20);  // the bottom layer of 300 on the floor from step ~10 on
  for (Eigen::Index i = 0; i + 7 <= q.size(); i += 7) {
    EXPECT_LT(std::abs(q[i]), 1.15);
    EXPECT_LT(std::abs(q[i + 1]), 0.9);
    EXPECT_GT(q[i + 2], 0.0);
  }
  Formulation every_point = *scene.model.settings.formulation;
  every_point.supports.relative_speculative_contacts = false;
  scene.model.settings.formulation = &every_point;
  int all = 0;
  run(all);
  EXPECT_LT(3 * pruned, all) << pruned << " contacts against " << all;
}

}  // namespace
}  // namespace coulomb
