#pragma once
// Siconos numerics' LCP solvers (lexicographic Lemke, projected Gauss–Seidel, Fischer–Burmeister
// Newton) on one of our LcpProblems, for the side-by-side benchmark. Compiled to stubs when
// Siconos is absent.

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

enum class SiconosLcpSolver { kLemke, kPgs, kNewtonFb };

// "siconos-lemke", "siconos-pgs", "siconos-newton-fb".
const char* SiconosLcpName(SiconosLcpSolver solver);

// `max_iterations` caps pivots (Lemke), sweeps (PGS) or Newton iterations; `tolerance` is
// Siconos' own stopping test (PGS, Newton), the answer is certified with ours by the caller.
PeerLcpResult SolveWithSiconos(const LcpProblem& problem, SiconosLcpSolver solver,
                               int max_iterations, double tolerance);

}  // namespace coulomb::bench
