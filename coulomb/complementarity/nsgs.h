#pragma once
// Nonsmooth Gauss–Seidel (NSGS) for FC(W, q, μ) (docs/notes/complementarity.md §3.3): sweep over
// the contacts, solving each one-contact problem exactly with the others fixed. The workhorse for
// rigid scenes at moderate tolerance (ABH's finding), and warm-startable from the previous step's
// impulses.

#include <Eigen/Dense>

#include "coulomb/base/deadline.h"
#include "coulomb/complementarity/friction_contact_result.h"

namespace coulomb {

struct NsgsParams {
  double tolerance = 1e-8;  // on FrictionContactCertificate::error (dimensionless)
  int max_sweeps = 2000;
  // Over-relaxation of each local update, in (0, 2); 1 is plain Gauss–Seidel.
  double relaxation = 1.0;
  Deadline deadline;  // checked after every sweep: time_limit with the last sweep's impulses
};

// `warm_start` (3 n_c, or empty for zero) seeds the impulses.
FrictionContactResult SolveNsgs(const FrictionContactProblem& problem,
                                const NsgsParams& params = {},
                                const Eigen::VectorXd& warm_start = {});

}  // namespace coulomb
