#pragma once
// What every formulation returns for one step (DESIGN.md: ContactSolution), and the local
// (contact-space) form of a ContactProblem that the velocity-level formulations share.

#include <Eigen/Dense>
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
  bool ok() const { return status == LcpStatus::kSolved; }
};

// The contact-space problem: u = W γ + q with W = J M⁻¹ Jᵀ and q = J v* + κ φ / h on the normal
// rows (κ = position_correction: Stewart–Trinkle's φ/h term, so contacts inside the margin close
// exactly and penetration is removed within one step), and M⁻¹ Jᵀ to map impulses back:
// v⁺ = v* + M⁻¹ Jᵀ γ.
struct LocalContactProblem {
  Eigen::MatrixXd MinvJt;  // nv × 3 n_c
  Eigen::MatrixXd W;       // 3 n_c × 3 n_c
  Eigen::VectorXd q;       // 3 n_c
};

LocalContactProblem MakeLocalContactProblem(const contact::ContactProblem& problem,
                                            double position_correction);

}  // namespace coulomb
