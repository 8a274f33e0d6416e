#include "coulomb/complementarity/lcp_solvers.h"

#include <array>
#include <utility>

namespace coulomb {
namespace {

constexpr std::array<std::pair<LcpSolverKind, std::string_view>, 7> kNames = {{
    {LcpSolverKind::kLemke, "lemke"},
    {LcpSolverKind::kFeasibleInteriorPoint, "fip"},
    {LcpSolverKind::kMehrotra, "ipm"},
    {LcpSolverKind::kFischerBurmeister, "newton"},
    {LcpSolverKind::kProjectedGaussSeidel, "pgs"},
    {LcpSolverKind::kEnumeration, "enum"},
    {LcpSolverKind::kPortfolio, "portfolio"},
}};

}  // namespace

std::string_view ToString(LcpSolverKind kind) {
  for (const auto& [k, name] : kNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

std::optional<LcpSolverKind> ParseLcpSolverKind(std::string_view name) {
  for (const auto& [k, n] : kNames) {
    if (n == name) return k;
  }
  return std::nullopt;
}

std::vector<LcpSolverKind> AllLcpSolverKinds() {
  std::vector<LcpSolverKind> all;
  all.reserve(kNames.size());
  for (const auto& entry : kNames) all.push_back(entry.first);
  return all;
}

LcpResult SolveLcp(const LcpProblem& problem, LcpSolverKind kind,
                   const LcpSolverSettings& settings) {
  switch (kind) {
    case LcpSolverKind::kLemke:
      return SolveLemke(problem, settings.lemke);
    case LcpSolverKind::kFeasibleInteriorPoint:
      return SolveFeasibleInteriorPoint(problem, settings.fip);
    case LcpSolverKind::kMehrotra:
      return SolveMehrotra(problem, settings.ipm);
    case LcpSolverKind::kFischerBurmeister:
      return SolveFischerBurmeister(problem, settings.newton);
    case LcpSolverKind::kProjectedGaussSeidel:
      return SolveProjectedGaussSeidel(problem, settings.pgs);
    case LcpSolverKind::kEnumeration:
      return SolveEnumeration(problem, settings.enumeration);
    case LcpSolverKind::kPortfolio:
      return SolvePortfolio(problem, settings.portfolio, settings);
  }
  return MakeBadInputResult("unknown", "unknown solver kind");
}

}  // namespace coulomb
