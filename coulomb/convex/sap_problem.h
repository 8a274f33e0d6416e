#pragma once
// The data of one SAP step (docs/notes/sap-and-deformables.md §0–1): the linearized momentum
// balance A (v − v*) = Jᵀ γ split into cliques, and the constraints. The minimizer of
//   ℓ(v) = ½ ‖v − v*‖²_A + Σ_i ℓ_i(J_i v)                                               (P)
// is the next velocity. Units are SI: A in kg (or kg m² for rotational dofs), v in m/s or
// rad/s, impulses in N s.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/convex/sap_constraint.h"

namespace coulomb::convex {

// A diagonal block of A: the velocities [start, start + A.rows()) of one articulated tree (A =
// M + δt·D with joint damping D implicit) or one deformable body.
struct SapClique {
  int start = 0;
  Eigen::MatrixXd A;  // symmetric positive definite
  // Optional, per velocity, 1/kg: what estimates the Delassus diagonal
  // (docs/notes/sap-and-deformables.md §1.1) instead of diag(A)⁻¹ (see
  // SapParams::deformable_delassus).
  Eigen::VectorXd delassus_diagonal;
  int size() const { return static_cast<int>(A.rows()); }
};

struct SapProblem {
  double time_step = 0;  // δt, s
  std::vector<SapClique> cliques;
  Eigen::VectorXd v_star;  // free-motion velocity, size nv
  std::vector<SapConstraint> constraints;
  int nv() const { return static_cast<int>(v_star.size()); }
};

// W_i ≈ Σ_c J_ic diag(A_c)⁻¹ J_icᵀ, the cheap Delassus estimate of
// docs/notes/sap-and-deformables.md §1.1 that sets the near-rigid regularization of constraint i.
Eigen::MatrixXd EstimateDelassusBlock(const SapProblem& problem, const SapJacobian& jacobian);
// The same into W, with `scratch` (reused storage) holding J_c diag(A_c)⁻¹.
void EstimateDelassusBlock(const SapProblem& problem, const SapJacobian& jacobian,
                           std::vector<double>& scratch, ConstraintMatrix& W);

// "" when the problem is well formed (clique ranges inside v, square finite A with a positive
// diagonal, Jacobian blocks of the clique's width, positive finite R, finite v̂, μ ≥ 0,
// lower ≤ upper), else a sentence naming the clique or constraint.
std::string ValidateSapProblem(const SapProblem& problem);

}  // namespace coulomb::convex
