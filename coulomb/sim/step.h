#pragma once
// One time step of a rigid-body model with contact, and of FEM bodies when there are any, the
// stages of docs/DESIGN.md read top to bottom:
//   1. geometry::FindContacts        → ContactSet (and fem::FindDeformableContacts)
//   2. contact::BuildContactProblem  → ContactProblem
//   3. the formulation the settings name (formulations/formulation.h) → ContactSolution; one
//      that asks for J̇ v (paper 1's) gets it from a second detection along the motion.
//      With deformable bodies the step is SAP's coupled one, rigid and deformable cliques
//      together (only a formulation that supports deformable bodies gets here).
//   4. advance: v ← v⁺, q ← q ⊕ h v⁺ (semi-implicit Euler); FEM vertices by velocity Newmark
// Each stage is timed into StepReport::profile.

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "coulomb/fem/deformable_contacts.h"
#include "coulomb/fem/deformable_model.h"
#include "coulomb/formulations/formulation.h"
#include "coulomb/geometry/collision_world.h"
#include "coulomb/multibody/model.h"
#include "coulomb/sim/contact_metrics.h"
#include "coulomb/sim/warm_start.h"

namespace coulomb::sim {

struct StepReport;

// What a step reuses from the last one, so a warm step allocates as little as it can (speed
// only: an empty workspace gives the same answer). Holds the last step's report, which Step
// returns by reference.
struct StepWorkspace {
  std::vector<double> reach;
  geometry::CollisionScratch collision;
  geometry::ContactDetection detection;
  contact::ContactProblem problem;
  ContactSolution solution;
  Eigen::VectorXd warm_start;
  std::unique_ptr<StepReport> report;  // the last StepReport (incomplete type here)
  StepWorkspace();
  ~StepWorkspace();
  StepWorkspace(const StepWorkspace&);
  StepWorkspace& operator=(const StepWorkspace&);
  StepWorkspace(StepWorkspace&&) noexcept;
  StepWorkspace& operator=(StepWorkspace&&) noexcept;
};

// The mutable simulation state (beside multibody::Data's caches).
struct State {
  Eigen::VectorXd q, v;
  double time = 0;  // s
  // Last step's contacts and impulses: the next step's warm start (warm_start.h).
  std::vector<PersistentContact> contacts;
  // What the formulation keeps between steps (speed only; copying a State gives an empty one).
  FormulationWorkspace workspace;
  StepWorkspace step;
  std::vector<fem::FemState> deformables;  // one per DeformableModel body
};

// The neutral configuration at rest, at t = 0.
State MakeRestState(const multibody::Model& model);

struct StepProfile {  // seconds per stage
  double collision = 0, assembly = 0, solve = 0, advance = 0;
  double Total() const { return collision + assembly + solve + advance; }
};

struct StepReport {
  int unsupported_pairs = 0;
  LcpStatus status = LcpStatus::kSolved;
  std::string message;
  std::string solver_switch;  // ContactSolution::solver_switch
  int iterations = 0;
  double residual = 0;
  double max_penetration = 0;     // m, max(0, −φ) over the contacts at the start of the step
  geometry::ContactSet contacts;  // the step's contacts and their impulses (n, t, o), N s
  Eigen::VectorXd impulses;
  // Per contact after the step (n, t, o): the relative velocity u = J v⁺ (m/s), whose tangential
  // part is the slip, and the predicted gap φ + h u_n (m). Forces are impulses / h.
  Eigen::VectorXd contact_velocities;
  Eigen::VectorXd gaps;
  ContactMetrics
      metrics;  // docs/notes/complementarity.md §7 accuracy measures of this step's solution
  StepProfile profile;
  double factor_seconds = 0;  // part of profile.solve spent in sparse factorizations (SAP)
  int factorizations = 0;     // how many (SAP)
  // Deformable bodies' vertex contacts, their impulses (n, t, o) and the deformable DoFs SAP
  // solved for (the rest eliminated by the Schur complement).
  std::vector<fem::DeformableContact> deformable_contacts;
  Eigen::VectorXd deformable_impulses;
  int participating_dofs = 0;
  // Back to a fresh report's values, keeping the vectors' storage for the next step.
  void Reset();
  int num_rigid_contacts() const { return static_cast<int>(contacts.contacts.size()); }
  int num_contacts() const {
    return num_rigid_contacts() + static_cast<int>(deformable_contacts.size());
  }
};

// Advances `state` by one step. The report is state.step's, rewritten by the next step (copy it to
// keep it): reusing its storage is what lets a warm step run without allocating.
const StepReport& Step(const multibody::Model& model, multibody::Data& data,
                       const geometry::CollisionWorld& world, State& state,
                       const Eigen::VectorXd& tau, double time_step,
                       const FormulationSettings& settings = {},
                       const std::vector<contact::JointDrive>& drives = {},
                       const fem::DeformableModel* deformables = nullptr);

}  // namespace coulomb::sim
