#pragma once
// Phase I of the feasible interior point method (docs/notes/complementarity.md §2.2): find a
// strictly feasible pair (z, w) > 0 with w = M z + q, or show that none exists (paper 1's "NFP").
//
// We solve the linear program
//   maximize t  subject to  z ≥ t e,  M z + q ≥ t e,  t ≤ 1,  z ≥ 0
// (margin_lp.h). t* > 0 gives a strictly feasible start with margin t*; t* ≤ 0 proves there is
// none.

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

struct PhaseOneResult {
  bool strictly_feasible = false;
  double margin = 0;  // t*: min over z_i and w_i at the returned point
  Eigen::VectorXd z;  // strictly feasible z (meaningful when strictly_feasible)
  int pivots = 0;
  bool pivot_limit = false;  // the simplex hit its pivot cap; the answer is then inconclusive
};

// `min_margin`: margins at or below it count as "no strictly feasible point".
PhaseOneResult FindStrictlyFeasiblePoint(const LcpProblem& problem, double min_margin = 1e-9);

}  // namespace coulomb
