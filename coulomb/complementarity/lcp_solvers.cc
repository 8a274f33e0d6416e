#include "coulomb/complementarity/lcp_solvers.h"

#include "coulomb/base/name_table.h"

namespace coulomb {
namespace {

constexpr NameTable<LcpSolverKind, 7> kNames = {{
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
  return NameOf(kNames, kind);
}

std::optional<LcpSolverKind> ParseLcpSolverKind(std::string_view name) {
  return KindNamed(kNames, name);
}

std::vector<LcpSolverKind> AllLcpSolverKinds() {
  return AllKinds(kNames);
}

LcpSolverSettings LcpSettingsWithTolerance(double tolerance) {
  LcpSolverSettings s;
  s.lemke.acceptance_tolerance = tolerance;
  s.fip.acceptance_tolerance = tolerance;
  s.ipm.acceptance_tolerance = tolerance;
  s.newton.acceptance_tolerance = tolerance;
  s.pgs.acceptance_tolerance = tolerance;
  s.enumeration.acceptance_tolerance = tolerance;
  return s;
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

void SolveLcp(const LcpProblem& problem, LcpSolverKind kind, const LcpSolverSettings& settings,
              LcpSolverWorkspace& workspace, LcpResult& result) {
  if (kind == LcpSolverKind::kLemke) {
    SolveLemke(problem, settings.lemke, workspace.lemke, result);
  } else if (kind == LcpSolverKind::kMehrotra) {
    SolveMehrotra(problem, settings.ipm, workspace.ipm, result);
  } else {
    result = SolveLcp(problem, kind, settings);
  }
}

}  // namespace coulomb
