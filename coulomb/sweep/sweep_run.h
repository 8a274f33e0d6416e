#pragma once
// One run of a sweep: its scene built from the run's values, simulated, and reduced to a row of
// the results table. Pure in the run index: the same sweep and index give the same row (but for
// its wall-clock columns) on any thread, rank or machine with the same binary.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coulomb/sweep/sweep_file.h"

namespace coulomb::sweep {

// How a run ended, most serious last but one.
//   ok           every step solved and certified
//   uncertified  some steps' solvers did not certify their answer (the run went on)
//   diverged     the state stopped being finite (the run stopped there)
//   not_finite   a kept metric is NaN or infinite
//   time_limit   the run passed the sweep's time_limit of wall time (stopped between steps)
//   error        the run's scene was refused or the run threw; `reason` says why
struct SweepRow {
  int index = 0, point = 0, repeat = 0;
  std::vector<std::string> values;  // per parameter
  std::string status, reason;
  std::vector<double> metrics;  // per metric column (NaN: not measured)
  double wall_seconds = 0;
  std::uint64_t state_hash = 0;
};

// The table's columns: index, point, repeat, the parameters, status, reason, the metric
// columns, wall_seconds, state_hash.
std::vector<std::string> SweepColumns(const SweepDefinition& sweep);
std::vector<std::string> MetricColumnsOf(const SweepDefinition& sweep);

// Runs sweep run `index`. Returns nullopt when `cancel` became true during the run (an
// interrupted run is not a result: it is run again on --resume).
std::optional<SweepRow> RunSweepRun(const SweepDefinition& sweep, int index,
                                    const std::atomic<bool>* cancel);

}  // namespace coulomb::sweep
