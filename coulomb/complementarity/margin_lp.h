#pragma once
// The largest margin of a system of linear inequalities, by a dense primal simplex:
//   maximize t  subject to  G y + g ≥ t e,  t ≤ 1,
// with y ≥ 0 or y free. t* > 0 gives a point inside with that margin, t* ≥ −tol one on the
// boundary, and t* < 0 proves the system G y + g ≥ 0 has no solution (the LP is exact up to
// rounding; its answer is measured on the returned point). Substituting t = s − c with
// c = 1 + max(0, −min g) makes the slack basis feasible at y = 0, so no artificial variables are
// needed. Why not an LP library: HiGHS is not in Debian 12, GLPK is GPL, and COIN-OR CLP would be
// a heavy dependency for small dense LPs (the feasible interior point method's Phase I, one per
// solve; enumeration's singular blocks); a textbook simplex with Bland's anti-cycling rule is
// the right size here.

#include <Eigen/Dense>

namespace coulomb {

struct MarginLpResult {
  Eigen::VectorXd y;  // the maximizer (y ≥ 0 unless free)
  double margin = 0;  // min_i (G y + g)_i at y, and min y too when y ≥ 0, measured afresh
  int pivots = 0;
  bool pivot_limit = false;  // the simplex hit its pivot cap; the answer is then inconclusive
};

// `nonnegative`: y ≥ 0 is part of the system (its margin counts too); otherwise y is free.
MarginLpResult MaximizeMargin(const Eigen::MatrixXd& G, const Eigen::VectorXd& g, bool nonnegative);

}  // namespace coulomb
