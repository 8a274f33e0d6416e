#pragma once
// `coulomb solve FILE`: read an LCP file, run one solver or all of them, print the results.

#include <cstdint>
#include <string>

namespace coulomb::app {

struct SolveOptions {
  std::string file;
  std::string solver = "portfolio";  // a solver name, or "all"
  bool json = false;
  std::uint64_t seed = 1;    // Lemke's restart covering vectors
  double tolerance = 1e-10;  // certificate acceptance threshold
};

// Exit codes: 0 certified answer (by at least one solver with "all"), 1 not solved (the reason
// is printed), 2 bad input (file, line and field named on stderr).
int RunSolve(const SolveOptions& options);

}  // namespace coulomb::app
