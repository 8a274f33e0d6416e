#pragma once
// sweep.md and its plots, from the results table: runs per status, the runs that did not end
// ok with their reasons, the largest gap to each closed-form reference, each metric's median
// and range, and one SVG per numeric varied parameter and metric (series: the values of the
// other grid parameters).

#include <string>
#include <utility>
#include <vector>

#include "coulomb/sweep/sweep_file.h"
#include "coulomb/sweep/sweep_table.h"

namespace coulomb::sweep {

struct SweepReport {
  std::string markdown;
  std::vector<std::pair<std::string, std::string>> plots;  // (path in the folder, SVG)
  int failures = 0;                                        // recorded runs not "ok"
};

SweepReport MakeSweepReport(const SweepDefinition& sweep, const JournalRows& table);

}  // namespace coulomb::sweep
