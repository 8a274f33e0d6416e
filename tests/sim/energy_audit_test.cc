// The per-step energy audit (coulomb/sim/energy_audit.h): an explicit PD controller too stiff for
// δt fails its first step with the reason, while stable gains, torque work and plain contact
// runs pass. The closed-form stability limit of symplectic Euler (kp·δt²/M < 4) is what
// separates the two gain settings below.

#include <gtest/gtest.h>

#include <string>

#include "coulomb/formulations/formulation.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sim/step.h"

namespace coulomb::sim {
namespace {

// A pendulum arm (1 kg capsule, 0.4 m, hinged at 1 m) driven towards 1 rad.
Scene Arm(const std::string& actuator, double time_step, double duration) {
  const std::string text =
      "coulomb: 1\ntime_step: " + std::to_string(time_step) +
      "\nduration: " + std::to_string(duration) +
      "\nformulation: velocity-lcp\nbodies:\n"
      "  - {name: arm, joint: revolute, axis: [0, 1, 0], position: [0, 0, 1], mass: 1.0,\n"
      "     shapes: [{type: capsule, radius: 0.03, length: 0.4, position: [0, 0, -0.2]}]}\n"
      "actuators:\n  - " +
      actuator + "\n";
  Expected<Scene> scene = io::ParseScene(text, "arm.yaml", ".");
  EXPECT_TRUE(scene.ok()) << scene.error().ToString();
  return scene.value();
}

TEST(EnergyAudit, StiffExplicitPdFailsItsFirstStepNamingTheJointAndRatio) {
  // M ≈ m l²/3 ≈ 0.056 kg m² about the hinge: kp = 1e5 at δt = 10 ms gives kp·δt²/M ≈ 180.
  Scene scene = Arm("{joint: arm, type: pd, kp: 1.0e5, kd: 0, target: 1}", 0.01, 0.05);
  for (const char* name : {"trinkle"}) {  // the formulation whose PD torques are explicit
    scene.model.settings.formulation = FindFormulation(name);
    const RunSummary run = Simulate(scene, nullptr);
    EXPECT_GT(run.failed_steps, 0) << name;
    EXPECT_NE(run.first_failure.find("step 0 "), std::string::npos) << run.first_failure;
    EXPECT_NE(run.first_failure.find("energy balance"), std::string::npos) << run.first_failure;
    EXPECT_NE(run.first_failure.find("joint 'arm': kp·δt²/M = "), std::string::npos)
        << run.first_failure;
  }
}

TEST(EnergyAudit, StableExplicitPdAndTorqueWorkPass) {
  // kp·δt²/M ≈ 0.18 (well inside the limit) over 2 s of swinging towards the target.
  Scene pd = Arm("{joint: arm, type: pd, kp: 100, kd: 1, target: 1}", 1e-3, 2.0);
  pd.model.settings.formulation = FindFormulation("trinkle");  // explicit PD: audited
  const RunSummary stable = Simulate(pd, nullptr);
  EXPECT_EQ(stable.failed_steps, 0) << stable.first_failure;
  // A constant 2 N m spins the arm up: the energy it gains is the torque's work, not a fault.
  Scene torque = Arm("{joint: arm, type: torque, target: 2}", 1e-3, 2.0);
  const RunSummary driven = Simulate(torque, nullptr);
  EXPECT_EQ(driven.failed_steps, 0) << driven.first_failure;
  EXPECT_GT(driven.final_energy, driven.initial_energy + 1.0);  // it did gain energy
}

// SAP's drive constraints, and the cone's and velocity LCP's drives folded into the step's mass,
// take the same stiff gains implicitly.
TEST(EnergyAudit, ImplicitDrivesTakeTheSameStiffGains) {
  Scene scene = Arm("{joint: arm, type: pd, kp: 1.0e5, kd: 0, target: 1}", 0.01, 0.5);
  for (const char* name : {"sap", "cone", "velocity-lcp"}) {
    scene.model.settings.formulation = FindFormulation(name);
    const RunSummary run = Simulate(scene, nullptr);
    EXPECT_EQ(run.failed_steps, 0) << name << ": " << run.first_failure;
    // Kinetic + gravitational of a swing to about 1 rad is ~1 J; explicit steps reach 1e20 J.
    EXPECT_LT(run.final_energy, 100.0) << name;
  }
}

// A stiff drive far from its target, limited to 0.5 N m, without gravity: at the effort limit
// the folded drive is a constant torque, so one step from rest turns the arm at h τ_max / I
// (I from the model's mass matrix). SAP's drive constraint clamps the same way.
TEST(EnergyAudit, FoldedDriveAtItsEffortLimitIsAConstantTorque) {
  const std::string text =
      "coulomb: 1\ntime_step: 0.01\nduration: 0.01\ngravity: [0, 0, 0]\n"
      "formulation: cone\nbodies:\n"
      "  - {name: arm, joint: revolute, axis: [0, 1, 0], position: [0, 0, 1], mass: 1.0,\n"
      "     effort: 0.5,\n"
      "     shapes: [{type: capsule, radius: 0.03, length: 0.4, position: [0, 0, -0.2]}]}\n"
      "actuators:\n  - {joint: arm, type: pd, kp: 1.0e5, kd: 10, target: 1}\n";
  for (const char* name : {"cone", "velocity-lcp", "sap"}) {
    Expected<Scene> loaded = io::ParseScene(text, "arm.yaml", ".");
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    Scene& scene = loaded.value();
    scene.model.settings.formulation = FindFormulation(name);
    multibody::Data data = multibody::MakeData(scene.model.multibody);
    multibody::CalcMassMatrix(scene.model.multibody, data, scene.initial.q);
    const double inertia = data.M(0, 0);
    Data sim_data = MakeData(scene.model, scene.initial);
    Step(scene.model, sim_data);
    EXPECT_NEAR(sim_data.state.v[0], 0.01 * 0.5 / inertia, 1e-6 * 0.01 * 0.5 / inertia) << name;
  }
}

}  // namespace
}  // namespace coulomb::sim
