#pragma once
// A direct solver of paper 1's cone model (eq. 29–34), without pyramids.
//
// With sliding friction eliminated as in eq. (12), the unknowns are every normal force c_n and
// the tangential force c_T of every rolling contact; a = A c + b. The conditions
//   0 ≤ c_n ⊥ a_n ≥ 0 (eq. 9, 11, 16),   ‖c_T‖ ≤ μ c_n and c_T = −μ c_n â_T if a_T ≠ 0 (eq. 10, 13)
// are the fixed point of the projections
//   c_n = max(0, c_n − ρ a_n),   c_T = P_{disk(μ c_n)}(c_T − ρ a_T)
// (the second one is the maximum-dissipation variational inequality of the disk). We solve
// F(x) = x − P(x − ρ a(x)) = 0 by semismooth Newton with an Armijo line search on ½‖F‖² and a
// gradient fallback, the Jean–Moreau form of the cone problem (docs/notes/complementarity.md §3.3)
// at the acceleration level. Soft fingers and the quasistatic variant are not covered
// (kNotApplicable).

#include "apps/coulomb/trinkle/trinkle_solution.h"
#include "apps/coulomb/trinkle/trinkle_solver.h"

namespace coulomb::trinkle {

struct ConeNewtonParams {
  int max_iterations = 100;
  double tolerance = 1e-12;  // on ‖F‖∞ / (1 + ‖b‖∞)
  double rho = 0;            // projection step; 0 means 1 / max diag(A)
  double velocity_tolerance = 1e-8;
  CheckOptions check;  // cone_model is forced on
};

TrinkleSolution SolveTrinkleConeDirect(const TrinkleProblem& problem,
                                       const ConeNewtonParams& params = {});

}  // namespace coulomb::trinkle
