#pragma once
// One time step of a Model, the stages of docs/ARCHITECTURE.md ("One step") read top to bottom:
//   1. actuation: the actuators' torques at the step's start (or, under a formulation with
//      implicit PD drives, the drives' targets at its end), plus the caller's applied forces
//   2. geometry::FindContacts        → ContactSet (and contact::FindDeformableContacts)
//   3. contact::BuildContactProblem  → ContactProblem
//   4. the formulation the settings name (formulations/formulation.h) → ContactSolution; one
//      that asks for J̇ v (paper 1's) gets it from a second detection along the motion. With
//      deformable bodies the formulation's coupled solve takes rigid and FEM bodies together.
//   5. advance: v ← v⁺, q ← q ⊕ h v⁺ (semi-implicit Euler); FEM vertices by velocity Newmark;
//      the clock t = t₀ + steps · h
// Each stage is timed into StepReport::profile.

#include <Eigen/Dense>

#include "coulomb/sim/data.h"
#include "coulomb/sim/model.h"
#include "coulomb/sim/step_report.h"

namespace coulomb::sim {

// Advances `data` by one step of `model`. `applied`, when given, is a generalized force (nv, N or
// N m per DoF) added to the actuators' for this step: a controller outside the model. The report
// is data.report, rewritten by the next step (copy it to keep it): reusing its storage is what
// lets a warm step run without allocating.
const StepReport& Step(const Model& model, Data& data, const Eigen::VectorXd* applied = nullptr);

}  // namespace coulomb::sim
