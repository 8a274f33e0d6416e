#include "coulomb/math/line_search.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "coulomb/math/backtracking.h"

namespace coulomb::math {
namespace {

// Searches that end before they start: nothing left to gain along the line (|ℓ'(0)| below the
// cost tolerance: α = 1), or an ascent direction. A Newton direction of a convex ℓ always
// descends, so a positive (or NaN) slope means the Hessian or gradient lost accuracy.
std::optional<LineSearchResult> SettledAtStart(const LineSample& at_zero,
                                               const LineSearchSettings& settings) {
  if (at_zero.slope < -settings.cost_tolerance) return std::nullopt;
  LineSearchResult out;
  out.ok = std::abs(at_zero.slope) <= settings.cost_tolerance;
  out.alpha = out.ok ? 1.0 : 0.0;
  if (!out.ok) {
    out.message =
        fmt::format("Newton direction is not a descent direction (dℓ/dα = {:.3g})", at_zero.slope);
  }
  return out;
}

// Armijo's sufficient decrease: ℓ(α) ≤ ℓ(0) + c α ℓ'(0).
bool MeetsArmijo(double cost, double alpha, const LineSample& at_zero,
                 const LineSearchSettings& settings) {
  return cost <= at_zero.cost + settings.armijo * alpha * at_zero.slope;
}

}  // namespace

LineSearchResult ExactLineSearch(const LineFunction& line, const LineSample& at_zero,
                                 const LineSearchSettings& settings) {
  if (auto settled = SettledAtStart(at_zero, settings)) return *settled;
  LineSearchResult out;
  if (settings.try_full_step) {
    out.iterations = 1;
    if (MeetsArmijo(line(1.0).cost, 1.0, at_zero, settings)) {
      out.alpha = 1.0;
      return out;
    }
  }
  const double alpha_max = settings.alpha_max;
  const LineSample at_max = line(alpha_max);
  ++out.iterations;
  if (at_max.slope <= 0) {  // still descending at the longest step: take it
    out.alpha = alpha_max;
    return out;
  }
  // Root of f(α) = ℓ'(α)/|ℓ'(0)|, bracketed by f(0) < 0 < f(α_max).
  const double scale = -at_zero.slope;
  double lo = 0, hi = alpha_max;
  double alpha = at_max.curvature > 0 ? std::min(scale / at_max.curvature, alpha_max) : alpha_max;
  const double alpha_tolerance = settings.tolerance * alpha;
  for (; out.iterations < settings.max_iterations; ++out.iterations) {
    const LineSample s = line(alpha);
    const double f = s.slope / scale;
    if (std::abs(f) < settings.tolerance) break;
    (f < 0 ? lo : hi) = alpha;
    if (hi - lo < alpha_tolerance) break;
    const double newton = alpha - s.slope / s.curvature;
    alpha = (s.curvature > 0 && newton > lo && newton < hi) ? newton : 0.5 * (lo + hi);
  }
  out.alpha = alpha;
  return out;
}

LineSearchResult BacktrackingLineSearch(const LineFunction& line, const LineSample& at_zero,
                                        const LineSearchSettings& settings) {
  if (auto settled = SettledAtStart(at_zero, settings)) return *settled;
  LineSearchResult out;
  const double rho = settings.backtracking_rho;
  BacktrackingSettings backtracking;
  backtracking.armijo = settings.armijo;
  backtracking.shrink = rho;
  backtracking.alpha_start = 1.0 / rho;  // one step past the Newton step first
  backtracking.alpha_min = 0;
  backtracking.max_trials = settings.backtracking_max_iterations;
  const BacktrackingResult first = BacktrackArmijo(
      [&](double alpha) { return line(alpha).cost; }, at_zero.cost, at_zero.slope, backtracking);
  out.iterations = first.trials;
  out.ok = first.accepted;
  out.alpha = first.alpha;
  if (!out.ok) out.message = "backtracking found no step satisfying Armijo's condition";
  // Then on while shorter steps still satisfy Armijo and lower the cost: the first acceptable
  // step from 1/ρ may be long of the minimum along the line.
  double best_cost = first.merit;
  for (double alpha = first.alpha * rho;
       out.ok && out.iterations < settings.backtracking_max_iterations; alpha *= rho) {
    ++out.iterations;
    const double cost = line(alpha).cost;
    if (!(MeetsArmijo(cost, alpha, at_zero, settings) && cost < best_cost)) break;
    out.alpha = alpha;
    best_cost = cost;
  }
  return out;
}

}  // namespace coulomb::math
