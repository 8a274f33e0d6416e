#include "apps/coulomb/solve_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <vector>

#include "apps/coulomb/lcp_report.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/io/lcp_file.h"

namespace coulomb::app {
namespace {

LcpSolverSettings MakeSettings(const SolveOptions& options) {
  LcpSolverSettings s;
  s.lemke.seed = options.seed;
  s.lemke.acceptance_tolerance = options.tolerance;
  s.fip.acceptance_tolerance = options.tolerance;
  s.ipm.acceptance_tolerance = options.tolerance;
  s.newton.acceptance_tolerance = options.tolerance;
  s.pgs.acceptance_tolerance = options.tolerance;
  s.enumeration.acceptance_tolerance = options.tolerance;
  return s;
}

}  // namespace

int RunSolve(const SolveOptions& options) {
  std::vector<LcpSolverKind> kinds;
  if (options.solver == "all") {
    kinds = AllLcpSolverKinds();
  } else if (const auto kind = ParseLcpSolverKind(options.solver)) {
    kinds.push_back(*kind);
  } else {
    fmt::print(stderr,
               "error: --solver: unknown solver '{}' (lemke, fip, ipm, newton, pgs, enum, "
               "portfolio, all)\n",
               options.solver);
    return 2;
  }
  if (!(options.tolerance > 0 && options.tolerance < 1)) {
    fmt::print(stderr, "error: --tolerance: {} is not in (0, 1)\n", options.tolerance);
    return 2;
  }
  const Expected<LcpProblem> problem = ReadLcpFile(options.file);
  if (!problem.ok()) {
    fmt::print(stderr, "error: {}\n", problem.error().ToString());
    return 2;
  }
  const LcpSolverSettings settings = MakeSettings(options);
  if (!options.json) fmt::print("{}", FormatTableHeader(problem.value()));
  bool any_solved = false;
  for (const LcpSolverKind kind : kinds) {
    // Enumeration is exponential: with "all", skip it quietly above its size limit.
    if (kinds.size() > 1 && kind == LcpSolverKind::kEnumeration &&
        problem.value().size() > settings.enumeration.max_size) {
      continue;
    }
    const LcpResult result = SolveLcp(problem.value(), kind, settings);
    any_solved = any_solved || result.solved();
    fmt::print("{}", options.json ? FormatJson(problem.value(), result) : FormatTableRow(result));
    std::fflush(stdout);
  }
  return any_solved ? 0 : 1;
}

}  // namespace coulomb::app
