// No NaN leaves silently: a step that leaves a non-finite state stops the run, counted as failed,
// with the body, the step and the stage that produced it named, and the recording so far holds
// only finite numbers. Faults are injected by formulations of the test's own (the plug-in
// interface of formulations/formulation.h) that run the velocity LCP and then spoil one output.

#include <gtest/gtest.h>

#include <limits>

#include "coulomb/formulations/formulation.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"
#include "tests/support/build_paths.h"

namespace coulomb::sim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void SolveLcp(const contact::ContactProblem& problem, const FormulationSettings& settings,
              const Eigen::VectorXd& warm_start, FormulationWorkspace& workspace,
              ContactSolution& solution) {
  kVelocityLcpFormulation.solve(problem, settings, warm_start, workspace, solution);
}

Formulation Spoiling(std::string_view name,
                     void (*solve)(const contact::ContactProblem&, const FormulationSettings&,
                                   const Eigen::VectorXd&, FormulationWorkspace&,
                                   ContactSolution&)) {
  Formulation f = kVelocityLcpFormulation;
  f.name = name;
  f.solve = solve;
  return f;
}

const Formulation kNanVelocity = Spoiling(
    "nan-velocity", [](const contact::ContactProblem& p, const FormulationSettings& s,
                       const Eigen::VectorXd& w, FormulationWorkspace& ws, ContactSolution& out) {
      SolveLcp(p, s, w, ws, out);
      out.v_next[out.v_next.size() - 1] = kNaN;  // the last body's last velocity
    });
const Formulation kNanImpulse = Spoiling(
    "nan-impulse", [](const contact::ContactProblem& p, const FormulationSettings& s,
                      const Eigen::VectorXd& w, FormulationWorkspace& ws, ContactSolution& out) {
      SolveLcp(p, s, w, ws, out);
      if (out.impulses.size() > 0) out.impulses[0] = kNaN;
      out.v_next[0] = kNaN;
    });
// Finite velocities so large that one step of the advance overflows the positions.
const Formulation kOverflow = Spoiling(
    "overflow", [](const contact::ContactProblem& p, const FormulationSettings& s,
                   const Eigen::VectorXd& w, FormulationWorkspace& ws, ContactSolution& out) {
      SolveLcp(p, s, w, ws, out);
      out.v_next.head(3).setConstant(std::numeric_limits<double>::max());
    });

Scene Stack(const Formulation& formulation) {
  Expected<Scene> scene =
      io::ReadSceneFile(std::string(coulomb::testing::SourceDir()) + "/examples/scenes/stack.yaml");
  EXPECT_TRUE(scene.ok());
  Scene s = scene.ok() ? std::move(scene.value()) : Scene{};
  s.model.settings.formulation = &formulation;
  s.duration = 0.05;  // 10 steps; the fault is at step 0
  return s;
}

void ExpectFiniteRecording(const Recording& recording) {
  for (const Frame& frame : recording.frames) {
    EXPECT_TRUE(frame.q.allFinite() && frame.v.allFinite());
    for (const ContactRecord& c : frame.contacts) EXPECT_TRUE(c.impulse.allFinite());
  }
}

TEST(NonFiniteStop, NanVelocityStopsTheRunNamingBodyStepAndSolveStage) {
  const Scene scene = Stack(kNanVelocity);
  Recording recording;
  const RunSummary summary = Simulate(scene, &recording);
  EXPECT_EQ(summary.steps, 1);
  EXPECT_EQ(summary.failed_steps, 1);  // though the spoiled solver said "solved"
  const std::string last_body = scene.model.multibody.bodies.back().name;
  EXPECT_NE(summary.stopped.find("step 0 (t = 0 s) left a non-finite state"), std::string::npos)
      << summary.stopped;
  EXPECT_NE(summary.stopped.find("body '" + last_body + "' (v not finite)"), std::string::npos)
      << summary.stopped;
  EXPECT_NE(summary.stopped.find("solve (nan-velocity: the velocities v⁺)"), std::string::npos)
      << summary.stopped;
  EXPECT_NE(summary.stopped.find("(the solver said solved); the run stops there"),
            std::string::npos)
      << summary.stopped;
  ASSERT_EQ(recording.frames.size(), 1u);  // the state the broken step started from
  ExpectFiniteRecording(recording);
}

TEST(NonFiniteStop, NanImpulseIsTracedToTheImpulses) {
  const Scene scene = Stack(kNanImpulse);
  const RunSummary summary = Simulate(scene, nullptr);
  EXPECT_EQ(summary.steps, 1);
  EXPECT_NE(summary.stopped.find("body '" + scene.model.multibody.bodies.front().name + "'"),
            std::string::npos)
      << summary.stopped;
  EXPECT_NE(summary.stopped.find("solve (nan-impulse: the contact impulses)"), std::string::npos)
      << summary.stopped;
}

TEST(NonFiniteStop, OverflowInTheAdvanceIsTracedToTheAdvance) {
  Scene scene = Stack(kOverflow);
  scene.model.time_step = 10;  // the largest a scene takes: max double × 10 s overflows
  scene.duration = 20;
  Recording recording;
  const RunSummary summary = Simulate(scene, &recording);
  EXPECT_EQ(summary.steps, 1);
  EXPECT_NE(summary.stopped.find("(q not finite), from the advance"), std::string::npos)
      << summary.stopped;
  ExpectFiniteRecording(recording);
}

}  // namespace
}  // namespace coulomb::sim
