#pragma once
// What every formulation returns for one step (docs/DESIGN.md: ContactSolution), and the local
// (contact-space) form of a ContactProblem that the velocity-level formulations share.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <string>

#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/contact/contact_problem.h"

namespace coulomb {

struct ContactSolution {
  LcpStatus status = LcpStatus::kBadInput;
  std::string message;
  Eigen::VectorXd v_next;    // v⁺
  Eigen::VectorXd impulses;  // 3 n_c, (n, t, o) per contact, N s
  int iterations = 0;
  double residual = 0;  // the solver's certificate (LCP worst measure, or the cone's ABH error)
  double seconds = 0;
  double factor_seconds = 0;  // of which in sparse factorizations (SAP's Newton Hessians)
  int factorizations = 0;     // SAP: fresh Hessian factorizations (fewer than iterations when
                              // a factor is reused as a CG preconditioner)
  bool ok() const { return status == LcpStatus::kSolved; }
};

// The contact-space problem: u = W γ + q with W = J M⁻¹ Jᵀ and, on the normal rows,
//   q_n = (J v*)_n − r,   r = −κ φ / h, or max(−κ φ / h, −e v⁻_n) for a contact that closes
// during the step (φ + h v⁻_n ≤ 0) with restitution e > 0 (Newton's law as an LCP,
// docs/notes/complementarity.md §4). κ = position_correction is Stewart–Trinkle's φ/h term:
// contacts inside the margin close exactly and penetration is removed within one step. M⁻¹ Jᵀ maps
// impulses back: v⁺ = v* + M⁻¹ Jᵀ γ. Both matrices are sparse: built block by block of M, W only
// couples contacts that share a block.
struct LocalContactProblem {
  Eigen::SparseMatrix<double> MinvJt;  // nv × 3 n_c
  Eigen::SparseMatrix<double> W;       // 3 n_c × 3 n_c
  Eigen::VectorXd q;                   // 3 n_c
};

LocalContactProblem MakeLocalContactProblem(const contact::ContactProblem& problem,
                                            double position_correction);

}  // namespace coulomb
