#pragma once
// Solving paper 1's acceleration-level contact problem.
//
// SolveTrinkle: classify contacts as rolling or sliding from the given velocities (eq. 7–8),
// eliminate sliding friction with the known slip direction (eq. 12, 27–28), build the friction
// pyramid LCP (eq. 37–39; any polygon via `facets`), solve it with the complementarity suite,
// recover forces and accelerations, and run the model checker. Variants of §2.5: prescribed
// joint accelerations (TrinkleManipulator::known_acceleration), soft fingers (mu_torsion),
// the quasistatic problem (TrinkleVariant::kQuasistatic) and Lötstedt's frictionless problem.
//
// SolveTrinkleCone: the cone model (eq. 29–34) by refinement (§2.4 with Proposition 1): solve the
// pyramid problem, and while some rolling force lies outside the quadratic cone, add at each
// violating contact the facet tangent to the cone in the direction of its force (a cutting
// plane). When every rolling force is inside its cone, the answer solves the cone model
// (Proposition 1, generalized to any circumscribing polygon), which the checker confirms.

#include "apps/coulomb/trinkle/trinkle_check.h"
#include "apps/coulomb/trinkle/trinkle_problem.h"
#include "apps/coulomb/trinkle/trinkle_solution.h"
#include "coulomb/complementarity/lcp_solvers.h"

namespace coulomb::trinkle {

struct TrinkleParams {
  LcpSolverKind solver = LcpSolverKind::kPortfolio;
  LcpSolverSettings settings;
  // m/s (rad/s for spin): tangential speeds above it are sliding, below it rolling.
  double velocity_tolerance = 1e-8;
  int facets = 4;  // facets of the friction polygon at rolling contacts (4 = the paper's pyramid)
  CheckOptions check;
};

TrinkleSolution SolveTrinkle(const TrinkleProblem& problem, const TrinkleParams& params = {});

// Only the LCP that SolveTrinkle would solve (empty for invalid input): for enumeration of all
// solutions, studies and benchmarks.
ContactLcp BuildTrinkleLcp(const TrinkleProblem& problem, const TrinkleParams& params = {});

struct ConeRefinementParams {
  int max_rounds = 40;  // refinement rounds after the first pyramid solve
  // Accept ‖c_T‖ ≤ (1 + tol) μ c_n; eq. (13) then holds to √(2 tol) (the force direction error).
  double cone_tolerance = 1e-12;
};

TrinkleSolution SolveTrinkleCone(const TrinkleProblem& problem, const TrinkleParams& params = {},
                                 const ConeRefinementParams& refinement = {});

// The contact states implied by the velocities (eq. 7–8).
std::vector<ContactState> ClassifyContacts(const TrinkleProblem& problem,
                                           const TrinkleSystem& system, double velocity_tolerance);

}  // namespace coulomb::trinkle
