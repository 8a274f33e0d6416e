#pragma once
// Rigid and FEM bodies in one ContactProblem: the one seam through which every formulation that
// takes deformable bodies sees them. SAP makes each block a clique (paper 2 §V); the exact cone
// and the velocity LCP solve the same problem with the velocity-level Coulomb law instead of
// SAP's regularized one.
//
// Each deformable body with contacts becomes one more DoF block after the rigid trees: its
// participating velocities, with the Schur complement Â of its θ-method step matrix as the block's
// mass and its linearized free motion v* (deformable_blocks.h). A deformable contact's rows are
// its point's barycentric velocity in the contact frame, minus the other side's (a rigid body's
// point Jacobian, or the other body's barycentric rows). The step is then
//   Â (v_p − v*_p) = J_pᵀ γ,   M (v − v*) = Jᵀ γ,
// the same linear momentum balance SAP minimizes over, and W = J blkdiag(M, Â)⁻¹ Jᵀ is the
// Delassus operator of the whole scene. The eliminated vertices follow from the participating ones.
//
// Attachments: SAP, which has holonomic constraints, takes them as rows (x_vertex − X_WB p_B = 0);
// for the contact-level formulations attached vertices move with their rigid body
// (mixed_layout.h): a body attached to a tree joins the tree's block.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/coupled_step.h"
#include "coulomb/formulations/deformable_blocks.h"
#include "coulomb/formulations/formulation.h"
#include "coulomb/formulations/mixed_layout.h"

namespace coulomb {

// The ContactProblem of a coupled step: the rigid problem's blocks (each tree with the free
// participating vertices of the bodies attached to it) and contacts, then one block per other
// deformable body with participating DoFs, and one contact per deformable contact between the
// rigid problem's geometric contacts and its limit contacts. `contact_of[k]` is deformable contact
// k's index in `problem` (−1: nothing on either side moves). `bodies` come from
// FactorDeformableBodies. The rigid problem's constraint rows (limits, joint friction, drives,
// couplers, welds) follow at their mixed columns; with `attachments_as_constraints` every body
// keeps a block of its own and each attachment becomes a holonomic row block in
// `problem.bilateral` (SAP), else attached vertices move with their tree (mixed_layout.h).
// "" or why the step cannot be posed this way (mixed_layout.h).
std::string BuildMixedContactProblem(const CoupledStepInput& input,
                                     const std::vector<DeformableBlock>& bodies,
                                     bool attachments_as_constraints, MixedLayout& layout,
                                     contact::ContactProblem& problem,
                                     std::vector<int>& contact_of);

// One coupled step solved by `formulation.solve` on the mixed ContactProblem, warm-started from
// input.warm_start for the rigid contacts and from last step's impulses of the deformable contacts
// that persist (kept in workspace.mixed).
CoupledSolution SolveCoupledAsContactProblem(const CoupledStepInput& input,
                                             const Formulation& formulation,
                                             const FormulationSettings& settings,
                                             FormulationWorkspace& workspace);

}  // namespace coulomb
