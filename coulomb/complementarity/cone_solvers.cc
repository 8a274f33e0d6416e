#include "coulomb/complementarity/cone_solvers.h"

#include <algorithm>
#include <array>
#include <string>

namespace coulomb {
namespace {

constexpr std::array kNames = {
    std::pair{ConeSolverKind::kNsgs, std::string_view("nsgs")},
    std::pair{ConeSolverKind::kNewton, std::string_view("nsn")},
    std::pair{ConeSolverKind::kProximal, std::string_view("ppa")},
    std::pair{ConeSolverKind::kPortfolio, std::string_view("portfolio")},
};

}  // namespace

std::string_view ToString(ConeSolverKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<ConeSolverKind> ParseConeSolverKind(std::string_view name) {
  for (const auto& [k, n] : kNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

std::vector<ConeSolverKind> AllConeSolverKinds() {
  std::vector<ConeSolverKind> kinds;
  for (const auto& entry : kNames) kinds.push_back(entry.first);
  return kinds;
}

FrictionContactResult SolveFrictionContact(const FrictionContactProblem& problem,
                                           ConeSolverKind kind, const ConeSolverSettings& settings,
                                           const Eigen::VectorXd& warm_start) {
  NsgsParams nsgs = settings.nsgs;
  nsgs.tolerance = settings.tolerance;
  NonsmoothNewtonParams newton = settings.newton;
  newton.tolerance = settings.tolerance;
  switch (kind) {
    case ConeSolverKind::kNsgs:
      return SolveNsgs(problem, nsgs, warm_start);
    case ConeSolverKind::kNewton:
      newton.proximal = 0;
      return SolveNonsmoothNewton(problem, newton, warm_start);
    case ConeSolverKind::kProximal:
      newton.proximal = settings.proximal;
      return SolveNonsmoothNewton(problem, newton, warm_start);
    case ConeSolverKind::kPortfolio: {
      nsgs.max_sweeps = std::min(nsgs.max_sweeps, settings.portfolio_nsgs_sweeps);
      FrictionContactResult first = SolveNsgs(problem, nsgs, warm_start);
      first.solver = "portfolio/nsgs";
      if (first.solved() || first.status == LcpStatus::kBadInput) return first;
      newton.proximal = settings.proximal;
      FrictionContactResult second = SolveNonsmoothNewton(problem, newton, first.r);
      second.iterations += first.iterations;
      second.seconds += first.seconds;
      second.solver = "portfolio/ppa";
      return second.error <= first.error ? second : first;
    }
  }
  return MakeBadFrictionContactResult("unknown", "unknown cone solver");
}

}  // namespace coulomb
