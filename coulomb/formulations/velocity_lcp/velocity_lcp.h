#pragma once
// The velocity-level LCP formulation (Stewart–Trinkle / Anitescu–Potra, spec §4):
// ContactProblem → Stewart–Trinkle LCP → impulses → v⁺.
//
// With d friction directions per contact (an inscribed polygon), the LCP has size n_c (d + 2);
// the normal row uses the position-level form n·v⁺ + κ φ / h ≥ 0 (κ = position_correction;
// κ = 1 is Stewart–Trinkle's, which makes φ at the end of the step nonnegative to first order
// and lets contacts within the margin close exactly). Lemke processes it for every μ ≥ 0.

#include <Eigen/Dense>
#include <string>

#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/contact/contact_problem.h"

namespace coulomb {

struct VelocityLcpParams {
  int directions = 4;                // friction directions per contact, ≥ 3
  double position_correction = 1.0;  // κ in [0, 1]
  LcpSolverKind solver = LcpSolverKind::kLemke;
  LcpSolverSettings settings;
};

// What a formulation returns for one step (DESIGN.md: ContactSolution).
struct ContactSolution {
  LcpStatus status = LcpStatus::kBadInput;
  std::string message;
  Eigen::VectorXd v_next;    // v⁺
  Eigen::VectorXd impulses;  // 3 n_c, (n, t, o) per contact, N s
  int iterations = 0;
  double residual = 0;  // the LCP certificate's worst measure
  double seconds = 0;
  bool ok() const { return status == LcpStatus::kSolved; }
};

ContactSolution SolveVelocityLcp(const contact::ContactProblem& problem,
                                 const VelocityLcpParams& params = {});

}  // namespace coulomb
