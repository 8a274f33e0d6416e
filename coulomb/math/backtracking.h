#pragma once
// Armijo backtracking, the one line search of the Newton methods that descend a merit function
// (Fischer–Burmeister Newton, Alart–Curnier NSN, paper 1's cone Newton, the FEM free motion):
// try α = α0, ρ α0, ρ² α0, … and accept the first with
//   merit(α) ≤ merit(0) + c α slope          (Nocedal & Wright, Numerical Optimization, eq. 3.4)
// where slope = d merit/dα at 0 (< 0 along a descent direction). A merit that is not finite
// (an inverted element, an overflow) rejects the trial. The exact search on a convex cost is in
// math/line_search.h: it needs ℓ'(α), which these merits do not give cheaply.

#include <cmath>

namespace coulomb::math {

struct BacktrackingSettings {
  double armijo = 1e-4;      // c ∈ (0, 1): the fraction of the predicted decrease required
  double shrink = 0.5;       // ρ ∈ (0, 1)
  double alpha_start = 1.0;  // α0: the full (Newton) step
  double alpha_min = 1e-12;  // give up once α falls below this
  int max_trials = 60;       // and after this many (halving from 1 reaches 1e-18 in 60)
};

struct BacktrackingResult {
  bool accepted = false;
  double alpha = 0;  // the accepted step; 0 when none was
  double merit = 0;  // merit(alpha) of the accepted step
  int trials = 0;    // evaluations of the merit
};

// `merit(α)` is called once per trial, in order, and the accepted α is the last one called, so
// a caller may keep the state it computed for that trial (the iterate, its residual).
template <class Merit>
BacktrackingResult BacktrackArmijo(const Merit& merit, double merit_at_zero, double slope,
                                   const BacktrackingSettings& settings = {}) {
  BacktrackingResult out;
  for (double alpha = settings.alpha_start;
       alpha >= settings.alpha_min && out.trials < settings.max_trials; alpha *= settings.shrink) {
    ++out.trials;
    const double value = merit(alpha);
    if (std::isfinite(value) && value <= merit_at_zero + settings.armijo * alpha * slope) {
      out.accepted = true;
      out.alpha = alpha;
      out.merit = value;
      return out;
    }
  }
  return out;
}

}  // namespace coulomb::math
