#pragma once
// One entry point for the frictional contact (cone) solvers, selected by name.

#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include "coulomb/complementarity/cone_interior_point.h"
#include "coulomb/complementarity/friction_contact_result.h"
#include "coulomb/complementarity/nonsmooth_newton.h"
#include "coulomb/complementarity/nsgs.h"

namespace coulomb {

enum class ConeSolverKind {
  kNsgs,           // "nsgs"      Gauss–Seidel with the exact one-contact solver
  kNewton,         // "nsn"       Alart–Curnier semismooth Newton
  kProximal,       // "ppa"       proximal point around NSN (rank-deficient W, tight tolerances)
  kPortfolio,      // "portfolio" NSGS and PPA-NSN alternating; NSGS alone on large problems
  kInteriorPoint,  // "ipm"   primal-dual interior point on De Saxcé's relaxation, Newton polish
};

std::string_view ToString(ConeSolverKind kind);
std::optional<ConeSolverKind> ParseConeSolverKind(std::string_view name);
std::vector<ConeSolverKind> AllConeSolverKinds();

struct ConeSolverSettings {
  double tolerance = 1e-8;  // on the ABH error, for every solver below
  NsgsParams nsgs;
  NonsmoothNewtonParams newton;
  ConeInteriorPointParams ipm;
  double proximal = 1e-2;           // σ / max diag(W) for "ppa" and the portfolio's second stage
  int portfolio_nsgs_sweeps = 200;  // the portfolio's NSGS stage, after PPA
  // PPA factors the dense W at every Newton iteration: above this many contact rows the
  // portfolio runs NSGS alone.
  int portfolio_max_newton_rows = 1500;
  bool portfolio_newton_first = false;
  // With a warm start (time stepping), two probes before the alternation: NSGS, at most
  // portfolio_warm_sweeps sweeps (O(n_c) each), then plain semismooth Newton, at most
  // portfolio_warm_newton iterations, from the better answer so far. From last step's impulses a
  // resting or slowly changing contact set is certified by either, where PPA's proximal term
  // takes several factorizations. 0 turns a probe off.
  int portfolio_warm_sweeps = 0;
  int portfolio_warm_newton = 0;
  // Without a warm start (a problem solved on its own, as `coulomb solve` does), probes before
  // the alternation: NSGS while its error's decay predicts at most portfolio_cold_sweeps more
  // sweeps, else plain semismooth Newton, at most portfolio_cold_newton iterations
  // (cone_solvers.cc, ColdProbes, says what each is measured to win). 0 turns them off.
  int portfolio_cold_sweeps = 100;
  int portfolio_cold_newton = 15;
  // Without a warm start, when the probes fail: the interior-point method before the
  // alternation (cone_interior_point.h).
  bool portfolio_cold_ipm = true;
  // Wall-time budget of one solve, s (+∞: none, the default for time stepping, which must stay
  // deterministic). When it runs out every solver returns its best iterate so far with status
  // time_limit and its error; `coulomb solve` gives each solve 10 s unless --time-limit says.
  double time_limit = INFINITY;
};

// `workspace`, when given, carries Newton's block system from call to call (nonsmooth_newton.h).
FrictionContactResult SolveFrictionContact(const FrictionContactProblem& problem,
                                           ConeSolverKind kind,
                                           const ConeSolverSettings& settings = {},
                                           const Eigen::VectorXd& warm_start = {},
                                           NonsmoothNewtonWorkspace* workspace = nullptr);
// The same into `result`, whose storage is reused (with a workspace, a small problem solved by
// the first Newton run allocates nothing once warm).
void SolveFrictionContact(const FrictionContactProblem& problem, ConeSolverKind kind,
                          const ConeSolverSettings& settings, const Eigen::VectorXd& warm_start,
                          NonsmoothNewtonWorkspace* workspace, FrictionContactResult& result);

}  // namespace coulomb
