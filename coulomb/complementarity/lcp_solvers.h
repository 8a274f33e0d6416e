#pragma once
// One entry point for every LCP solver, selected by name: what the CLI, the portfolio and the
// benchmarks call. Each solver is also usable directly through its own header.

#include "coulomb/complementarity/enumeration.h"
#include "coulomb/complementarity/feasible_interior_point.h"
#include "coulomb/complementarity/fischer_burmeister_newton.h"
#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/complementarity/lcp_solver_kind.h"
#include "coulomb/complementarity/lemke.h"
#include "coulomb/complementarity/mehrotra_interior_point.h"
#include "coulomb/complementarity/portfolio.h"
#include "coulomb/complementarity/projected_gauss_seidel.h"

namespace coulomb {

struct LcpSolverSettings {
  LemkeParams lemke;
  FeasibleInteriorPointParams fip;
  MehrotraParams ipm;
  FischerBurmeisterParams newton;
  ProjectedGaussSeidelParams pgs;
  EnumerationParams enumeration;
  PortfolioParams portfolio;
};

// Settings whose every solver accepts an answer at `tolerance` (LcpCertificate::Worst), as
// `coulomb solve --tolerance` and the Python solve_lcp set them.
LcpSolverSettings LcpSettingsWithTolerance(double tolerance);

LcpResult SolveLcp(const LcpProblem& problem, LcpSolverKind kind,
                   const LcpSolverSettings& settings = {});

// What the solvers reuse from one solve to the next: Lemke's (the LCP formulations' default) and
// the interior point method's (which takes paper 1's acceleration LCPs above
// max_pivoting_rows); the other solvers still allocate per solve.
struct LcpSolverWorkspace {
  LemkeWorkspace lemke;
  MehrotraWorkspace ipm;
};
// The same into `result` (its storage reused), working in `workspace`.
void SolveLcp(const LcpProblem& problem, LcpSolverKind kind, const LcpSolverSettings& settings,
              LcpSolverWorkspace& workspace, LcpResult& result);

}  // namespace coulomb
