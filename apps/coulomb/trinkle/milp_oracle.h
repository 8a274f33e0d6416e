#pragma once
// Ground truth of existence for an LCP by mixed-integer feasibility (docs/notes/complementarity.md
// §6.2), for the benchmark only: binaries y_i choose which side of each complementary pair is zero,
//   0 ≤ z_i ≤ U y_i,   0 ≤ (M z + q)_i ≤ U (1 − y_i),
// solved with COIN-OR CBC (Debian coinor-libcbc-dev, EPL) on the symmetrically scaled problem.
// "No" means no solution with every scaled |z_i|, |w_i| ≤ U. Built only when CBC is present.

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb::app {

enum class Existence { kYes, kNo, kUnknown };

struct MilpVerdict {
  Existence existence = Existence::kUnknown;
  double seconds = 0;
  bool available = false;  // false when built without CBC
};

MilpVerdict DecideLcpExistence(const LcpProblem& problem, double bound = 1e4,
                               double time_limit_seconds = 20);

}  // namespace coulomb::app
