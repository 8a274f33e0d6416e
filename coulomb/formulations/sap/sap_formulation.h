#pragma once
// The convex (SAP) formulation of a rigid-body step (Castro et al. 2022; paper 2 §III;
// docs/notes/sap-and-deformables.md §0–1): the next velocity minimizes
//   ℓ(v) = ½ ‖v − v*‖²_A + Σ contacts, limits, couplers, drives ℓ_i(J_i v),
// with one clique per articulated tree (A = M + δt·D, joint damping implicit) and every
// constraint regularized (near-rigid β, friction σ). Unlike the complementarity formulations it
// always has a unique solution, found by Newton's method; the price is a regularized Coulomb
// law: stiction slips at about σ·δt·g, and sliding contacts glide apart slightly
// (docs/notes/sap-and-deformables.md §1.2).

#include <Eigen/Dense>
#include <optional>
#include <vector>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/convex/sap_constraint_builders.h"
#include "coulomb/convex/sap_problem.h"
#include "coulomb/convex/sap_solver.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/math/sparse_cholesky.h"

namespace coulomb {

struct SapParams {
  convex::SapRegularization regularization;
  convex::SapSolverParams solver;
  // τ_d of every contact, s: the normal bias is v̂ = −φ0/(δt + τ_d), and for compliant contacts
  // (material compliance > 0) the damping is d = τ_d·k. Unset: one time step, which makes the
  // near-rigid contact critically damped as SAP does for holonomic constraints
  // (docs/notes/sap-and-deformables.md §1.3); τ_d = 0 leaves it an undamped spring that bounces
  // back what an impact pushed in.
  std::optional<double> dissipation_time_scale;
  bool joint_limits = true;                           // enforce finite limits of 1-dof joints
  double max_correction_speed = kMaxCorrectionSpeed;  // m/s, rigid contacts (contact_solution.h)
  // How a deformable clique estimates the Delassus diagonal of its contacts
  // (docs/notes/sap-and-deformables.md §1.1): kDiagonal uses diag(Â)⁻¹ as for rigid trees
  // (docs/notes/sap-and-deformables.md §6, Drake); kExact uses diag(Â⁻¹). diag(Â) of a very stiff
  // body is dominated by δt² K, so diag(Â)⁻¹ says a vertex barely moves under an impulse when in
  // fact it moves with the whole block; the near-rigid regularization built on it is then so stiff
  // that Newton stalls (paper 2's 20 GPa arch at δt = 40 ms). diag(Â⁻¹) is each velocity's true
  // response, but for a light body under loads far above its weight (the cylinder: 2.5 kg of rubber
  // under 28 kN at δt = 5 s) it includes the free rigid-body mode and softens the contacts until
  // the plates pass through, so the default stays diagonal.
  enum class DeformableDelassus { kDiagonal, kExact };
  DeformableDelassus deformable_delassus = DeformableDelassus::kDiagonal;
};

// The SapProblem of a ContactProblem: contacts first, then joint limits, couplers and drives.
struct SapStepProblem {
  convex::SapProblem sap;
  std::vector<int> contacts;  // the ContactProblem index of each contact constraint, in order
};
SapStepProblem MakeSapProblem(const contact::ContactProblem& problem, const SapParams& params);

// What a SAP step keeps from one step to the next (speed only): the problem, rebuilt in place,
// with the constraints of earlier steps kept for their storage, the solver's workspace and its
// result. A warm step then allocates nothing of its own; CHOLMOD allocates through its hooks.
struct SapStepWorkspace {
  SapStepProblem step;
  std::vector<convex::SapConstraint> spare;  // constraints not in use this step
  std::vector<double> delassus_scratch;
  convex::SapWorkspace solver;
  convex::SapResult result;
};
// MakeSapProblem into workspace.step.
void MakeSapProblem(const contact::ContactProblem& problem, const SapParams& params,
                    SapStepWorkspace& workspace);

// Room in `workspace` and `factorization` for steps of up to capacity.contacts contacts:
// constraint slots with their blocks, the solver's workspace and the Hessian's kept copy
// (sim::ReserveContacts).
void ReserveContacts(const contact::ContactCapacity& capacity, SapStepWorkspace& workspace,
                     math::CholeskyFactor& factorization);

// The ContactSolution of a SAP result whose first nv velocities are the rigid model's (the
// problem may have more cliques after them: deformable bodies).
ContactSolution RigidSolution(const contact::ContactProblem& problem, const SapStepProblem& step,
                              const convex::SapResult& result);
void RigidSolution(const contact::ContactProblem& problem, const SapStepProblem& step,
                   const convex::SapResult& result, ContactSolution& out);

// One SAP step, warm-started from the current velocity. The factorization cache (may be null)
// keeps CHOLMOD's symbolic analysis across steps with an unchanged contact graph.
ContactSolution SolveSapStep(const contact::ContactProblem& problem, const SapParams& params = {},
                             math::CholeskyFactor* factorization = nullptr);
// The same into `out` (storage reused), working in `workspace`.
void SolveSapStep(const contact::ContactProblem& problem, const SapParams& params,
                  math::CholeskyFactor* factorization, SapStepWorkspace& workspace,
                  ContactSolution& out);

}  // namespace coulomb
