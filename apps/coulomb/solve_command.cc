#include "apps/coulomb/solve_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <vector>

#include "apps/coulomb/cone_report.h"
#include "apps/coulomb/lcp_report.h"
#include "coulomb/complementarity/cone_solvers.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/io/friction_contact_file.h"
#include "coulomb/io/lcp_file.h"

namespace coulomb::app {
namespace {

LcpSolverSettings MakeSettings(const SolveOptions& options) {
  LcpSolverSettings s = LcpSettingsWithTolerance(options.tolerance > 0 ? options.tolerance : 1e-10);
  s.lemke.seed = options.seed;
  return s;
}

int RunSolveFrictionContact(const SolveOptions& options) {
  std::vector<ConeSolverKind> kinds;
  if (options.solver == "all") {
    kinds = AllConeSolverKinds();
  } else if (const auto kind = ParseConeSolverKind(options.solver)) {
    kinds.push_back(*kind);
  } else {
    fmt::print(stderr,
               "error: --solver: unknown solver '{}' for a frictional contact problem (nsgs, "
               "nsn, ppa, portfolio, all)\n",
               options.solver);
    return 2;
  }
  const Expected<FrictionContactProblem> problem = ReadFrictionContactFile(options.file);
  if (!problem.ok()) {
    fmt::print(stderr, "error: {}\n", problem.error().ToString());
    return 2;
  }
  ConeSolverSettings settings;
  if (options.tolerance > 0) settings.tolerance = options.tolerance;
  settings.time_limit = options.time_limit;
  if (!options.json) fmt::print("{}", FormatConeTableHeader(problem.value()));
  bool any_solved = false;
  for (const ConeSolverKind kind : kinds) {
    const FrictionContactResult result = SolveFrictionContact(problem.value(), kind, settings);
    any_solved = any_solved || result.solved();
    fmt::print("{}",
               options.json ? FormatConeJson(problem.value(), result) : FormatConeTableRow(result));
    std::fflush(stdout);
  }
  return any_solved ? 0 : 1;
}

}  // namespace

int RunSolve(const SolveOptions& options) {
  if (!(options.tolerance >= 0 && options.tolerance < 1)) {
    fmt::print(stderr, "error: --tolerance: {} is not in (0, 1)\n", options.tolerance);
    return 2;
  }
  if (!(options.time_limit > 0)) {  // +inf is allowed: no budget
    fmt::print(stderr, "error: --time-limit: {} s must be > 0\n", options.time_limit);
    return 2;
  }
  if (DetectProblemFileKind(options.file) == ProblemFileKind::kFrictionContact) {
    return RunSolveFrictionContact(options);
  }
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
