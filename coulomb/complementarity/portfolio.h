#pragma once
// A portfolio: try solvers in order and return the first certified answer
// (docs/notes/complementarity.md §2.5, §9.3). If every solver fails and the problem is small,
// complete enumeration decides: it either finds a solution or proves there is none (kNoSolution),
// so a failure is never left unexplained.

#include <vector>

#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/complementarity/lcp_solver_kind.h"

namespace coulomb {

struct LcpSolverSettings;  // lcp_solvers.h: the parameters each member runs with

struct PortfolioParams {
  std::vector<LcpSolverKind> order = {LcpSolverKind::kLemke, LcpSolverKind::kMehrotra,
                                      LcpSolverKind::kFischerBurmeister,
                                      LcpSolverKind::kFeasibleInteriorPoint};
  // Run complete enumeration last when n ≤ this (0 disables). 2^n bases.
  int enumeration_max_size = 14;
  // Skip the feasible IPM and FB Newton above this size: FIP's dense Phase I simplex and
  // Newton's 100 dense LU factorizations take tens of seconds at n = 1000, and in our studies
  // neither rescued an instance there that Lemke and Mehrotra could not.
  int slow_member_max_size = 400;
};

// result.solver is "portfolio/<winner>"; the message lists each failed attempt and why.
LcpResult SolvePortfolio(const LcpProblem& problem, const PortfolioParams& params,
                         const LcpSolverSettings& members);

}  // namespace coulomb
