#include "coulomb/complementarity/phase_one.h"

#include "coulomb/complementarity/margin_lp.h"

namespace coulomb {

PhaseOneResult FindStrictlyFeasiblePoint(const LcpProblem& problem, double min_margin) {
  PhaseOneResult out;
  if (problem.size() == 0) {
    out.strictly_feasible = true;
    out.margin = 1;
    return out;
  }
  // z ≥ t and M z + q ≥ t with z ≥ 0: the margin LP with G = M, g = q over y = z ≥ 0.
  MarginLpResult lp = MaximizeMargin(problem.M, problem.q, /*nonnegative=*/true);
  out.z = std::move(lp.y);
  out.margin = lp.margin;
  out.pivots = lp.pivots;
  out.pivot_limit = lp.pivot_limit;
  out.strictly_feasible = out.margin > min_margin;
  return out;
}

}  // namespace coulomb
