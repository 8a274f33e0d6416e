#pragma once
// Siconos numerics' lexicographic Lemke (lcp_lexicolemke) on one of our LcpProblems, for the
// side-by-side benchmark. Compiled to a stub when Siconos is absent.

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb::bench {

struct PeerLcpResult {
  bool available = false;  // false when built without Siconos
  int info = -1;           // Siconos' own status (0 = converged)
  int iterations = 0;
  double seconds = 0;  // time of the lcp_lexicolemke call alone
  Eigen::VectorXd z;
};

PeerLcpResult SolveWithSiconosLemke(const LcpProblem& problem, int max_pivots);

}  // namespace coulomb::bench
