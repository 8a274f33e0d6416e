#include "coulomb/complementarity/cone_solvers.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "coulomb/base/name_table.h"
#include "coulomb/complementarity/contact_block_system.h"
#include "coulomb/complementarity/friction_cone.h"

namespace coulomb {
namespace {

constexpr NameTable<ConeSolverKind, 5> kNames = {{
    {ConeSolverKind::kNsgs, "nsgs"},
    {ConeSolverKind::kNewton, "nsn"},
    {ConeSolverKind::kProximal, "ppa"},
    {ConeSolverKind::kPortfolio, "portfolio"},
    {ConeSolverKind::kInteriorPoint, "ipm"},
}};

// While W is small enough to factor densely: NSGS and PPA-Newton alternate, each starting from
// the other's answer (NSGS first by default, ABH's choice for rigid sets; Newton first where
// NSGS crawls, e.g. the hyperstatic stacks of time stepping). NSGS alone above that size.
// The portfolio's PPA stage after NSGS. PPA from NSGS's iterate, on a short leash first: on
// FCLib's Capsules-i125 it stalled there for 2 000+ Newton iterations (110 s) while PPA from the
// start solved it in 65 (3 s). Then from the start; then, if neither got there, with the full
// budget from where the leashed run stopped (BoxesStack1 needs that path: PPA from the start
// stalls at 2e-8). Iterations and seconds are those of every attempt.
FrictionContactResult PpaAfterNsgs(const FrictionContactProblem& problem,
                                   const NonsmoothNewtonParams& newton,
                                   const Eigen::VectorXd& from_nsgs,
                                   const Eigen::VectorXd& warm_start,
                                   NonsmoothNewtonWorkspace* workspace) {
  NonsmoothNewtonParams leashed = newton;
  leashed.max_proximal_iterations = std::min(newton.max_proximal_iterations, 6);
  leashed.max_iterations = std::min(newton.max_iterations, 10);
  FrictionContactResult best = SolveNonsmoothNewton(problem, leashed, from_nsgs, workspace);
  int iterations = best.iterations;
  double seconds = best.seconds;
  const Eigen::VectorXd leashed_end = best.r;
  for (int attempt = 0; attempt < 2 && !best.solved() && !newton.deadline.Passed(); ++attempt) {
    FrictionContactResult more =
        SolveNonsmoothNewton(problem, newton, attempt == 0 ? warm_start : leashed_end, workspace);
    iterations += more.iterations;
    seconds += more.seconds;
    if (more.solved() || more.error < best.error) best = std::move(more);
  }
  best.iterations = iterations;
  best.seconds = seconds;
  return best;
}

// What probes before the portfolio's alternation cost, summed into its result.
struct ProbeCost {
  int iterations = 0;
  double seconds = 0;
};

// Time stepping: cheap probes from last step's answer before the full alternation. Small
// problems skip them: PPA from the warm start costs microseconds there and lands on the answer to
// rounding (sliding friction aligned with the slip to 1e-15, where NSGS or a short Newton run
// stopped at the tolerance leaves ~1e-6). True, with the answer in `best`, if a probe solved it.
bool WarmProbes(const FrictionContactProblem& problem, const ConeSolverSettings& settings,
                const NsgsParams& nsgs, const NonsmoothNewtonParams& newton,
                const Eigen::VectorXd& warm_start, NonsmoothNewtonWorkspace* workspace,
                ProbeCost& cost, FrictionContactResult& best) {
  if (3 * problem.num_contacts() <= ContactBlockSystem::kDenseRows) return false;
  // Each probe starts from the better of the warm start and the probes before it. The time
  // step's hand-over from its contact sweeps runs the Newton probe alone, without copies: its
  // answer goes straight into `best` (which the alternation overwrites if it is not solved).
  FrictionContactCertificate local_certificate;
  FrictionContactCertificate& certificate =
      workspace != nullptr ? workspace->certificate : local_certificate;
  CertifyFrictionContact(problem, warm_start, certificate);
  double from_error = certificate.error;
  Eigen::VectorXd swept;  // NSGS's answer, when it is the better start
  const Eigen::VectorXd* from = &warm_start;
  if (settings.portfolio_warm_sweeps > 0) {
    NsgsParams sweeps = nsgs;
    sweeps.max_sweeps = settings.portfolio_warm_sweeps;
    FrictionContactResult quick = SolveNsgs(problem, sweeps, *from);
    quick.solver = "portfolio/nsgs";
    cost.iterations += quick.iterations;
    cost.seconds += quick.seconds;
    if (quick.solved() || quick.status == LcpStatus::kBadInput) {
      best = std::move(quick);
      return true;
    }
    if (quick.error < from_error) swept = std::move(quick.r), from = &swept;
  }
  if (settings.portfolio_warm_newton > 0) {
    NonsmoothNewtonParams steps = newton;
    steps.proximal = 0;
    steps.max_iterations = settings.portfolio_warm_newton;
    SolveNonsmoothNewton(problem, steps, *from, workspace, best);
    best.solver = "portfolio/nsn";
    cost.iterations += best.iterations;
    cost.seconds += best.seconds;
    if (best.solved()) {
      best.iterations = cost.iterations;
      best.seconds = cost.seconds;
      return true;
    }
  }
  return false;
}

// A problem without a warm start (`coulomb solve`): four NSGS sweeps solve the trivial ones.
// Small problems (dense Newton, ≤ ContactBlockSystem::kDenseRows rows) then go to plain Newton,
// whose iterations cost a few µs there (the Rovers: 5 iterations, 19 µs, against NSGS's 15
// sweeps, 38 µs). Larger ones go on with NSGS in chunks of 8 sweeps while the error's decay
// predicts it done within portfolio_cold_sweeps in all (Confeti-ex13: 45 sweeps, 1.1 ms, where
// Newton takes 5.8 ms), and switch to Newton as soon as it does not (FCLib's OneObject and
// Spheres, where NSGS needs 955 sweeps or never gets there and Newton 6–22 iterations). True,
// with the answer in `best`, if a probe solved the problem; their cost is in `cost` either way.
bool ColdProbes(const FrictionContactProblem& problem, const ConeSolverSettings& settings,
                NsgsParams nsgs, NonsmoothNewtonParams newton, NonsmoothNewtonWorkspace* workspace,
                ProbeCost& cost, FrictionContactResult& best) {
  const auto take = [&](FrictionContactResult next, const char* name) {
    cost.iterations += next.iterations;
    cost.seconds += next.seconds;
    best = std::move(next);
    best.solver = name;
    best.iterations = cost.iterations;
    best.seconds = cost.seconds;
    return best.solved() || best.status == LcpStatus::kBadInput;
  };
  nsgs.max_sweeps = 4;
  if (take(SolveNsgs(problem, nsgs, {}), "portfolio/nsgs")) return true;
  if (3 * problem.num_contacts() > ContactBlockSystem::kDenseRows) {
    constexpr int kChunk = 8;
    nsgs.max_sweeps = kChunk;
    for (int sweeps = 4; sweeps + kChunk <= settings.portfolio_cold_sweeps; sweeps += kChunk) {
      const double before = best.error;
      if (take(SolveNsgs(problem, nsgs, best.r), "portfolio/nsgs")) return true;
      const double rate = std::pow(best.error / before, 1.0 / kChunk);  // per sweep
      const double more = rate < 1 ? std::log(settings.tolerance / best.error) / std::log(rate)
                                   : std::numeric_limits<double>::infinity();
      if (sweeps + kChunk + more > settings.portfolio_cold_sweeps) break;
    }
  }
  newton.proximal = 0;
  newton.max_iterations = settings.portfolio_cold_newton;
  FrictionContactResult plain;
  SolveNonsmoothNewton(problem, newton, best.r, workspace, plain);
  return take(std::move(plain), "portfolio/nsn");
}

// The interior-point method's parameters of a solve under `settings`.
ConeInteriorPointParams IpmParams(const ConeSolverSettings& settings, const Deadline& deadline) {
  ConeInteriorPointParams ipm = settings.ipm;
  ipm.tolerance = settings.tolerance;
  ipm.deadline = deadline;
  return ipm;
}

// Cold, and the probes did not solve it: the interior-point method (measured in
// docs/peers/problems.md to certify every shared problem in 5–65 iterations, where the NSGS/PPA
// alternation after it takes up to 7× longer on the capsule and box-stack sets). True if it
// solved the problem; `best` is its answer if better, with every probe's cost either way.
bool ColdInteriorPoint(const FrictionContactProblem& problem, const ConeInteriorPointParams& ipm,
                       NonsmoothNewtonWorkspace* workspace, ProbeCost& cost,
                       FrictionContactResult& best) {
  FrictionContactResult interior = SolveConeInteriorPoint(problem, ipm, workspace);
  cost.iterations += interior.iterations;
  cost.seconds += interior.seconds;
  if (interior.solved() || interior.error < best.error) {
    best = std::move(interior);
    best.solver = "portfolio/ipm";
  }
  best.iterations = cost.iterations;
  best.seconds = cost.seconds;
  return best.solved();
}

// Into `best`, whose storage is reused: a small problem that the first Newton run solves
// allocates nothing once warm.
void SolvePortfolio(const FrictionContactProblem& problem, const ConeSolverSettings& settings,
                    NsgsParams nsgs, NonsmoothNewtonParams newton,
                    const Eigen::VectorXd& warm_start, NonsmoothNewtonWorkspace* workspace,
                    FrictionContactResult& best) {
  if (3 * problem.num_contacts() > settings.portfolio_max_newton_rows) {
    best = SolveNsgs(problem, nsgs, warm_start);
    best.solver = "portfolio/nsgs";
    return;
  }
  newton.proximal = settings.proximal;
  ProbeCost probes;
  if (warm_start.size() == problem.q.size()
          ? WarmProbes(problem, settings, nsgs, newton, warm_start, workspace, probes, best)
          : settings.portfolio_cold_newton > 0 &&
                ColdProbes(problem, settings, nsgs, newton, workspace, probes, best)) {
    return;
  }
  if (warm_start.size() != problem.q.size() && settings.portfolio_cold_ipm &&
      ColdInteriorPoint(problem, IpmParams(settings, newton.deadline), workspace, probes, best)) {
    return;
  }
  const int probe_iterations = probes.iterations;
  const double probe_seconds = probes.seconds;
  nsgs.max_sweeps = std::min(nsgs.max_sweeps, settings.portfolio_nsgs_sweeps);
  // Alternate: PPA, NSGS from its answer, PPA again (NSGS moves the iterate out of the
  // neighbourhood where a stalled Newton line search was stuck).
  const bool newton_first = settings.portfolio_newton_first;
  if (newton_first) {
    SolveNonsmoothNewton(problem, newton, warm_start, workspace, best);
  } else {
    best = SolveNsgs(problem, nsgs, warm_start);
  }
  best.solver = newton_first ? "portfolio/ppa" : "portfolio/nsgs";
  int iterations = probe_iterations + best.iterations;
  double seconds = probe_seconds + best.seconds;
  for (int stage = 0; stage < 2 && !best.solved() && best.status != LcpStatus::kBadInput &&
                      !newton.deadline.Passed();
       ++stage) {
    const bool newton_stage = (stage == 0) != newton_first;
    FrictionContactResult next;
    if (newton_stage && !newton_first) {
      next = PpaAfterNsgs(problem, newton, best.r, warm_start, workspace);
    } else {
      next = newton_stage ? SolveNonsmoothNewton(problem, newton, best.r, workspace)
                          : SolveNsgs(problem, nsgs, best.r);
    }
    next.solver = newton_stage ? "portfolio/ppa" : "portfolio/nsgs";
    iterations += next.iterations;
    seconds += next.seconds;
    if (next.error < best.error) best = std::move(next);
  }
  best.iterations = iterations;
  best.seconds = seconds;
  if (!best.solved() && best.status != LcpStatus::kBadInput && newton.deadline.Passed()) {
    best.status = LcpStatus::kTimeLimit;
    best.message = fmt::format("time limit of {:g} s reached; best error {:.3g} > {:.3g}",
                               settings.time_limit, best.error, settings.tolerance);
  }
}

}  // namespace

std::string_view ToString(ConeSolverKind kind) {
  return NameOf(kNames, kind);
}

std::optional<ConeSolverKind> ParseConeSolverKind(std::string_view name) {
  return KindNamed(kNames, name);
}

std::vector<ConeSolverKind> AllConeSolverKinds() {
  return AllKinds(kNames);
}

FrictionContactResult SolveFrictionContact(const FrictionContactProblem& problem,
                                           ConeSolverKind kind, const ConeSolverSettings& settings,
                                           const Eigen::VectorXd& warm_start,
                                           NonsmoothNewtonWorkspace* workspace) {
  FrictionContactResult result;
  SolveFrictionContact(problem, kind, settings, warm_start, workspace, result);
  return result;
}

void SolveFrictionContact(const FrictionContactProblem& problem, ConeSolverKind kind,
                          const ConeSolverSettings& settings, const Eigen::VectorXd& warm_start,
                          NonsmoothNewtonWorkspace* workspace, FrictionContactResult& result) {
  NsgsParams nsgs = settings.nsgs;
  nsgs.tolerance = settings.tolerance;
  NonsmoothNewtonParams newton = settings.newton;
  newton.tolerance = settings.tolerance;
  if (std::isfinite(settings.time_limit)) {
    nsgs.deadline = newton.deadline = Deadline::After(settings.time_limit);
  }
  switch (kind) {
    case ConeSolverKind::kNsgs:
      result = SolveNsgs(problem, nsgs, warm_start);
      return;
    case ConeSolverKind::kNewton:
      newton.proximal = 0;
      SolveNonsmoothNewton(problem, newton, warm_start, workspace, result);
      return;
    case ConeSolverKind::kProximal:
      newton.proximal = settings.proximal;
      SolveNonsmoothNewton(problem, newton, warm_start, workspace, result);
      return;
    case ConeSolverKind::kPortfolio:
      SolvePortfolio(problem, settings, nsgs, newton, warm_start, workspace, result);
      return;
    case ConeSolverKind::kInteriorPoint:
      // An interior-point method starts from the cones' axes: the warm start is not used.
      result = SolveConeInteriorPoint(problem, IpmParams(settings, newton.deadline), workspace);
      return;
  }
  result = MakeBadFrictionContactResult("unknown", "unknown cone solver");
}

}  // namespace coulomb
