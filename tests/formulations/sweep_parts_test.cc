// The parts schedule of a large island (sweep_parts.h): groups of one phase share no mass block
// (so sweeping them at once is the sequential sweep), every contact is swept once in island order
// within its group, and the sweeps in that order still reach an answer the assembled certificate
// passes, the same bits on one thread and on two.

#include "coulomb/formulations/sweep_parts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "coulomb/base/thread_pool.h"
#include "coulomb/formulations/contact_sweeps.h"
#include "tests/support/assembled_check.h"
#include "tests/support/sphere_pile.h"

namespace coulomb {
namespace {

// 16 × 16 spheres, 3 layers: one island of 3 (256 + 480) = 2 208 contacts, 15 m across and 3 m
// tall, so the slabs are cut across x.
contact::ContactProblem MakeWidePile() {
  return testing::MakeSpherePile(16, 3, 5);
}

std::vector<int> IslandOf(const ContactRows& rows) {
  return {rows.order.begin() + rows.island_start[0], rows.order.begin() + rows.island_start[1]};
}

TEST(SweepParts, GroupsOfAPhaseShareNoBlockAndKeepIslandOrder) {
  const contact::ContactProblem problem = MakeWidePile();
  ContactRows rows;
  MakeContactRows(problem, PositionCorrection{}, rows);
  ASSERT_EQ(rows.num_islands(), 1);
  const std::vector<int> island = IslandOf(rows);
  ASSERT_EQ(island.size(), 2208u);
  for (const int parts : {1, 2, 4, 7}) {
    SCOPED_TRACE(parts);
    SweepParts schedule;
    ScheduleParts(rows, island, parts, schedule);
    ASSERT_EQ(schedule.num_phases(), 4);
    ASSERT_EQ(schedule.phase_start.back(), 2 * parts);
    ASSERT_EQ(schedule.group_start.back(), static_cast<int>(island.size()));
    // A permutation of the island.
    std::vector<int> sorted = schedule.order, expected = island;
    std::sort(sorted.begin(), sorted.end());
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(sorted, expected);
    std::vector<int> position(rows.num_contacts());
    for (std::size_t i = 0; i < island.size(); ++i) position[island[i]] = static_cast<int>(i);
    const int blocks = static_cast<int>(rows.scratch.touching_start.size()) - 1;
    for (int f = 0; f < schedule.num_phases(); ++f) {
      std::vector<int> owner(blocks, -1);  // the group of this phase that touched the block
      for (int g = schedule.phase_start[f]; g < schedule.phase_start[f + 1]; ++g) {
        for (int i = schedule.group_start[g]; i < schedule.group_start[g + 1]; ++i) {
          const int k = schedule.order[i];
          if (i > schedule.group_start[g]) {
            EXPECT_LT(position[schedule.order[i - 1]], position[k]) << "group " << g;
          }
          for (const ContactRows::Side& side : rows.contacts[k].sides) {
            if (side.size == 0) continue;
            int& o = owner[side.block];
            EXPECT_TRUE(o == -1 || o == g) << "block " << side.block << " in groups " << o
                                           << " and " << g << " of phase " << f;
            o = g;
          }
        }
      }
    }
    // Slabs across the pile: most contacts are interior, few span more than two parts.
    const int interior = schedule.group_start[schedule.phase_start[1]];
    const int rest = schedule.group_start[2 * parts] - schedule.group_start[2 * parts - 1];
    if (parts <= 4) {
      EXPECT_GE(interior, static_cast<int>(island.size()) / 2);
    }
    EXPECT_LE(rest, static_cast<int>(island.size()) / 20);
    for (int g = 0; g < parts; ++g) {
      EXPECT_GT(schedule.group_start[g + 1] - schedule.group_start[g], 0) << "empty part " << g;
    }
  }
}

ContactSweepResult Sweep(const ContactRows& rows, int parts, ThreadPool* workers) {
  ContactSweepParams params;
  params.tolerance = 1e-4;
  params.max_sweeps = 20000;
  params.acceleration_depth = 5;
  params.island_parts = parts;
  params.partitioned_island_contacts = 1000;
  params.levelled_mean_width = 1;  // this pile's levels are narrow; the levelled path is tested
  params.workers = workers;
  ContactSweepResult result;
  SolveContactSweeps(rows, params, {}, result);
  return result;
}

TEST(SweepParts, SweepsPartByPartPassTheAssembledCertificateOnAnyThreadCount) {
  const contact::ContactProblem problem = MakeWidePile();
  ContactRows rows;
  MakeContactRows(problem, PositionCorrection{}, rows);
  ThreadPool one(1), two(2);
  const ContactSweepResult serial = Sweep(rows, 4, &one);
  const ContactSweepResult parallel = Sweep(rows, 4, &two);
  ASSERT_TRUE(serial.solved()) << serial.message;
  EXPECT_EQ(serial.partitioned_islands, 1);
  EXPECT_EQ(parallel.partitioned_islands, 1);
  ExpectAssembledCertificate(problem, serial, 1e-4, 1e-9, 1e-9);
  EXPECT_EQ(serial.r, parallel.r);
  EXPECT_EQ(serial.v, parallel.v);
  EXPECT_EQ(serial.sweeps, parallel.sweeps);
  // Off (one part): the ground-up order, levelled on two threads; a different order, and the
  // same certificate.
  const ContactSweepResult ground_up = Sweep(rows, 1, &two);
  ASSERT_TRUE(ground_up.solved()) << ground_up.message;
  EXPECT_EQ(ground_up.partitioned_islands, 0);
  EXPECT_EQ(ground_up.levelled_islands, 1);
}

}  // namespace
}  // namespace coulomb
