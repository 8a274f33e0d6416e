#pragma once
// `coulomb sweep FILE`: every run of a sweep file (docs/sweeps.md) on a thread pool, or on
// every rank of `mpirun -np K coulomb sweep FILE`, recorded as each finishes.

#include <optional>
#include <string>

namespace coulomb::app {

struct SweepOptions {
  std::string file;
  std::optional<int> threads;  // per rank; default: the machine's cores / ranks on it
  std::string out;             // overrides the sweep file's output folder
  bool resume = false;         // run only what the folder's journal lacks
  bool force = false;          // replace the folder's results
  bool list = false;           // print the runs and their values, run nothing
  bool quiet = false;          // no progress display
};

// Exit codes: 0 every run ok, 1 some runs did not end ok (sweep.md lists them), 2 bad input
// (file, line and key on stderr), 130 interrupted (--resume continues).
int RunSweep(const SweepOptions& options);

}  // namespace coulomb::app
