// The quick versions of paper 2's scenes (`coulomb bench paper2 --quick`), each judged by its
// figure of merit: the cylinder against the reference curve of solids4foam, the arch by where its
// keystone goes, the robot scenes by whether the held object stays off the ground while shaken.

#include <gtest/gtest.h>

#include "apps/coulomb/paper2/paper2_bench.h"

namespace coulomb::paper2 {
namespace {

Paper2Row RunQuick(const std::string& name) {
  for (const Paper2Case& c : Paper2Cases(true)) {
    if (c.name == name) return RunPaper2Case(c, Paper2Options{});
  }
  ADD_FAILURE() << "no quick case " << name;
  return {};
}

TEST(Paper2, CylinderCurveFollowsTheReference) {
  const Paper2Row row = RunQuick("cylinder r3");
  ASSERT_EQ(row.status, "ok");
  EXPECT_EQ(row.failed_steps, 0);
  // Full load 1.4 MN/m: the reference approach is 0.200 m; the coarse mesh (mean dilatation on
  // its hexahedral cells) stops a little short, never beyond.
  ASSERT_FALSE(row.figure.curve.empty());
  const double approach = row.figure.curve.back().first;
  EXPECT_GT(approach, 0.17);
  EXPECT_LT(approach, 0.205);
  // The force error against the reference (mean over the loaded part of the curve): 6.5 % on
  // this mesh at 10 s steps; 18 % with the step linearized at the rubber's free motion, 33 %
  // when every tet carried its own volume (locking).
  EXPECT_LT(row.figure.value, 10.0) << row.figure.text;
  // The curve's force is the contact impulse on the plate over δt, not the commanded load; at
  // the end the plate barely moves, so its momentum balance says they agree, but for the one
  // step (10 s × 56 N/s = 2 %) by which the actuator's ramp value lags the step's end.
  EXPECT_NEAR(row.figure.curve.back().second, 1.4, 0.05);
  // The plates never pass: the approach grows with the load up to the last frame.
  EXPECT_GT(row.figure.curve.back().first, row.figure.curve[row.figure.curve.size() / 2].first);
}

TEST(Paper2, ArchWithFrictionOneStands) {
  const Paper2Row row = RunQuick("arch mu 1.0");
  ASSERT_EQ(row.status, "ok");
  EXPECT_EQ(row.failed_steps, 0) << row.first_failure;
  EXPECT_TRUE(row.figure.pass) << row.figure.text;
  EXPECT_LT(row.figure.value, 1.0);  // keystone drift, % of the span
}

TEST(Paper2, ArchWithFrictionPointTwoFallsApart) {
  const Paper2Row row = RunQuick("arch mu 0.2");
  ASSERT_EQ(row.status, "ok");
  EXPECT_EQ(row.failed_steps, 0) << row.first_failure;
  EXPECT_GT(row.figure.value, 10.0) << row.figure.text;  // keystone drop, % of the span
}

TEST(Paper2, SoftGripperHoldsTheTeddyThroughTheShake) {
  const Paper2Row row = RunQuick("gripper + teddy");
  ASSERT_EQ(row.status, "ok");
  EXPECT_EQ(row.failed_steps, 0) << row.first_failure;
  EXPECT_TRUE(row.figure.pass) << row.figure.text;
  EXPECT_EQ(row.dofs, 4 + 3 * (410 + 67 + 67));  // 4 joints, teddy and two bubbles
}

TEST(Paper2, ArmAndHandHoldTheBallThroughTheShake) {
  const Paper2Row row = RunQuick("iiwa + allegro + ball");
  ASSERT_EQ(row.status, "ok");
  EXPECT_EQ(row.failed_steps, 0) << row.first_failure;
  EXPECT_TRUE(row.figure.pass) << row.figure.text;
  EXPECT_EQ(row.dofs, 7 + 16 + 3 * 125);  // iiwa, Allegro, the 384-tet ball's vertices
}

TEST(Paper2, UnknownCaseIsAnError) {
  Paper2Options options;
  options.cases = "no-such-scene";
  EXPECT_EQ(RunPaper2Bench(options), 2);
}

}  // namespace
}  // namespace coulomb::paper2
