#pragma once
// Line searches along the Newton direction of SAP (spec §1.5). ℓ(α) is convex, so its
// derivative is monotone and the exact search is a bracketed 1-D root find.

#include <functional>
#include <string>

namespace coulomb::convex {

struct LineSample {
  double cost = 0;       // ℓ(α), J
  double slope = 0;      // dℓ/dα
  double curvature = 0;  // d²ℓ/dα²
};
using LineFunction = std::function<LineSample(double alpha)>;

struct LineSearchSettings {
  double alpha_max = 1.5;   // exact search: longest step considered
  double tolerance = 1e-8;  // on ℓ'(α)/|ℓ'(0)|, and on α relative to the first guess
  int max_iterations = 100;
  double cost_tolerance = 1e-30;  // J: a slope below this means "nothing left to gain"
  double backtracking_rho = 0.8;  // backtracking: α_r = ρ^r / ρ
  double armijo = 1e-4;
  int backtracking_max_iterations = 40;
};

struct LineSearchResult {
  double alpha = 0;
  int iterations = 0;
  bool ok = true;
  std::string message;  // why it failed
};

// The minimizer of ℓ on [0, α_max] by Newton's method safeguarded by bisection.
LineSearchResult ExactLineSearch(const LineFunction& line, const LineSample& at_zero,
                                 const LineSearchSettings& settings);

// Armijo backtracking from α = 1/ρ, keeping the better of the last two trials once the cost
// rises again.
LineSearchResult BacktrackingLineSearch(const LineFunction& line, const LineSample& at_zero,
                                        const LineSearchSettings& settings);

}  // namespace coulomb::convex
