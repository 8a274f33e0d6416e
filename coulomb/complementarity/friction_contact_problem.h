#pragma once
// The local frictional contact problem FC(W, q, μ) in FCLib's convention
// (docs/notes/complementarity.md §3.3–3.4): find r, u ∈ R^{3 n_c} with u = W r + q and, per contact
// (normal first: r = (r_N, r_T1, r_T2)),
//   K*_μ ∋ û ⊥ r ∈ K_μ,  K_μ = {‖r_T‖ ≤ μ r_N},  û = u + (μ ‖u_T‖, 0, 0).
// The impulse-level counterpart of paper 1's acceleration problem; the cone solvers consume it.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <string>

namespace coulomb {

struct FrictionContactProblem {
  // 3 n_c × 3 n_c Delassus matrix (symmetric PSD for rigid bodies), sparse: W_ij ≠ 0 only when
  // contacts i and j share a body (or an FEM element), which NSGS sweeps exploit.
  Eigen::SparseMatrix<double> W;
  Eigen::VectorXd q;   // 3 n_c free velocity
  Eigen::VectorXd mu;  // n_c friction coefficients
  std::string name;
  // Optional, for the Newton solvers: W = G Gᵀ + diag(W_diagonal) with G = W_factor sparse
  // (3 n_c × k), as W = J M⁻¹ Jᵀ (+ compliance) is with G = J L⁻ᵀ, M = L Lᵀ. Newton then
  // factors a system of G's sparsity instead of W's (contact_block_system.h). Empty: not known.
  Eigen::SparseMatrix<double, Eigen::RowMajor> W_factor;
  Eigen::VectorXd W_diagonal;  // 3 n_c, or empty for zero

  int num_contacts() const { return static_cast<int>(mu.size()); }
};

// "" when well formed (3 n_c sizes, finite entries, μ ≥ 0), else the first defect.
std::string ValidateFrictionContactProblem(const FrictionContactProblem& problem);

}  // namespace coulomb
