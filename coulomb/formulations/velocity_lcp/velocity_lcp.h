#pragma once
// The velocity-level LCP formulation (Stewart–Trinkle / Anitescu–Potra, spec §4):
// ContactProblem → Stewart–Trinkle LCP → impulses → v⁺.
//
// With d friction directions per contact (an inscribed polygon), the LCP has size n_c (d + 2);
// the normal row uses the position-level form n·v⁺ + κ φ / h ≥ 0 (κ = position_correction;
// κ = 1 is Stewart–Trinkle's, which makes φ at the end of the step nonnegative to first order
// and lets contacts within the margin close exactly). Lemke processes it for every μ ≥ 0.

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/contact_solution.h"

namespace coulomb {

struct VelocityLcpParams {
  int directions = 4;                // friction directions per contact, ≥ 3
  double position_correction = 1.0;  // κ in [0, 1]
  LcpSolverKind solver = LcpSolverKind::kLemke;
  LcpSolverSettings settings;
};

// `warm_start` (3 n_c impulses in (n, t, o), e.g. the previous step's) is unused by Lemke but
// kept so every formulation has the same signature.
ContactSolution SolveVelocityLcp(const contact::ContactProblem& problem,
                                 const VelocityLcpParams& params = {},
                                 const Eigen::VectorXd& warm_start = {});

}  // namespace coulomb
