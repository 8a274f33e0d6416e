#pragma once
// Names of the LCP solvers, as the CLI, scene files and reports spell them.

#include <optional>
#include <string_view>
#include <vector>

namespace coulomb {

enum class LcpSolverKind {
  kLemke,                  // "lemke"
  kFeasibleInteriorPoint,  // "fip"   paper 1 Appendix B
  kMehrotra,               // "ipm"   infeasible predictor–corrector
  kFischerBurmeister,      // "newton"
  kProjectedGaussSeidel,   // "pgs"
  kEnumeration,            // "enum"
  kPortfolio,              // "portfolio"
};

std::string_view ToString(LcpSolverKind kind);
std::optional<LcpSolverKind> ParseLcpSolverKind(std::string_view name);
// Every kind, in the order above.
std::vector<LcpSolverKind> AllLcpSolverKinds();

}  // namespace coulomb
