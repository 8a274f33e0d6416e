// The formulation registry: every registered descriptor is complete and its solver list is the
// one it takes, and a formulation defined outside the library (here, in this test) runs through
// the stepper, the summaries and the scene checks without any change to the library.

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "coulomb/formulations/formulation.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"

namespace coulomb {
namespace {

std::vector<std::string> SplitNames(std::string_view list) {
  std::vector<std::string> names;
  std::istringstream in{std::string(list)};
  for (std::string name; std::getline(in, name, ',');) {
    name.erase(0, name.find_first_not_of(' '));
    names.push_back(name);
  }
  return names;
}

TEST(FormulationRegistry, EveryDescriptorIsCompleteAndFoundByItsName) {
  std::set<std::string_view> names;
  for (const Formulation* f : Formulations()) {
    ASSERT_NE(f, nullptr);
    EXPECT_FALSE(f->name.empty());
    EXPECT_FALSE(f->summary.empty()) << f->name;
    EXPECT_NE(f->select_solver, nullptr) << f->name;
    EXPECT_NE(f->solver_name, nullptr) << f->name;
    EXPECT_NE(f->solve, nullptr) << f->name;
    EXPECT_EQ(FindFormulation(f->name), f);
    EXPECT_TRUE(names.insert(f->name).second) << "registered twice: " << f->name;
    EXPECT_NE(FormulationNames().find(f->name), std::string::npos);
  }
  EXPECT_GE(names.size(), 4u);
  EXPECT_EQ(FindFormulation("no-such-formulation"), nullptr);
  // The default of FormulationSettings is a registered formulation.
  EXPECT_EQ(FindFormulation(FormulationSettings{}.formulation->name),
            FormulationSettings{}.formulation);
}

TEST(FormulationRegistry, EverySolverNameListedIsTakenAndAnUnknownOneIsRefused) {
  for (const Formulation* f : Formulations()) {
    for (const std::string& solver : SplitNames(f->solver_names)) {
      FormulationSettings settings;
      settings.formulation = f;
      EXPECT_EQ(f->select_solver(solver, settings), "") << f->name << " " << solver;
      EXPECT_NE(f->solver_name(settings).find(solver), std::string::npos)
          << f->name << ": selected " << solver << ", reports " << f->solver_name(settings);
    }
    FormulationSettings settings;
    const std::string error = f->select_solver("no-such-solver", settings);
    EXPECT_NE(error.find("no-such-solver"), std::string::npos) << f->name << ": " << error;
    EXPECT_NE(error.find(SplitNames(f->solver_names).front()), std::string::npos)
        << f->name << " does not list its solvers: " << error;
  }
}

// A formulation with no contact forces at all: v⁺ = v*. Defined here, registered nowhere.
int free_motion_solves = 0;
const Formulation kFreeMotion = {
    .name = "free-motion",
    .summary = "ignores every contact (test only)",
    .supports = {},
    .solver_names = "none",
    .select_solver = [](std::string_view name, FormulationSettings&) -> std::string {
      return name == "none" ? "" : "unknown solver (none)";
    },
    .solver_name = [](const FormulationSettings&) -> std::string { return "none"; },
    .solve =
        [](const contact::ContactProblem& problem, const FormulationSettings&,
           const Eigen::VectorXd&, FormulationWorkspace&, ContactSolution& s) {
          ++free_motion_solves;
          s.Reset();
          s.status = LcpStatus::kSolved;
          s.v_next = problem.v_star;
          s.impulses = Eigen::VectorXd::Zero(3 * problem.num_contacts());
        },
};

TEST(FormulationRegistry, AFormulationFromOutsideTheLibraryRunsThroughTheStepper) {
  // A ball resting on the ground: under free motion it falls through it as if it were not there.
  Expected<sim::Scene> read = io::ParseScene(
      "coulomb: 1\ntime_step: 0.01\nduration: 0.5\n"
      "bodies:\n"
      "  - {name: ground, joint: fixed, shapes: [{type: halfspace}]}\n"
      "  - {name: ball, position: [0, 0, 0.1], mass: 1, shapes: [{type: sphere, radius: 0.1}]}\n",
      "registry_test.yaml", ".");
  ASSERT_TRUE(read.ok()) << read.error().ToString();
  sim::Scene scene = read.value();
  scene.model.settings.formulation = &kFreeMotion;
  ASSERT_EQ(sim::ValidateScene(scene), "");
  free_motion_solves = 0;
  sim::Recording recording;
  const sim::RunSummary summary = sim::Simulate(scene, &recording);
  EXPECT_EQ(summary.formulation, "free-motion");
  EXPECT_EQ(summary.solver, "none");
  EXPECT_EQ(summary.failed_steps, 0);
  EXPECT_EQ(free_motion_solves, summary.steps);
  ASSERT_EQ(summary.steps, 50);
  // Semi-implicit Euler from rest: v_n = −g h n, z_n = z0 − g h² n (n + 1) / 2.
  const double g = 9.81, h = 0.01, n = summary.steps;
  const int ball = scene.model.multibody.FindBody("ball");
  const double z = recording.frames.back().q[scene.model.multibody.bodies[ball].q_index + 2];
  EXPECT_NEAR(z, 0.1 - g * h * h * n * (n + 1) / 2, 1e-12);
  // The scene checks ask the descriptor too: it takes no deformable bodies.
  EXPECT_FALSE(kFreeMotion.supports.deformable_bodies);
}

}  // namespace
}  // namespace coulomb
