#pragma once
// `coulomb solve FILE`: read an LCP or frictional contact (FC3D / FCLib) problem file, run one
// solver or all of them, print the results.

#include <cstdint>
#include <string>

namespace coulomb::app {

struct SolveOptions {
  std::string file;
  std::string solver = "portfolio";  // a solver name of the problem kind, or "all"
  bool json = false;
  std::uint64_t seed = 1;  // Lemke's restart covering vectors
  // Acceptance threshold: the LCP certificate (default 1e-10) or the cone solvers' ABH error
  // (default 1e-8); 0 means the default of the problem kind.
  double tolerance = 0;
  // Frictional contact: wall-time budget of each solver's solve, s. When it runs out the solver
  // returns its best answer with status time_limit and its error (exit 1).
  double time_limit = 10;
};

// Exit codes: 0 certified answer (by at least one solver with "all"), 1 not solved (the reason
// is printed), 2 bad input (file, line and field named on stderr).
int RunSolve(const SolveOptions& options);

}  // namespace coulomb::app
