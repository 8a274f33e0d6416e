#include "coulomb/formulations/cone/cone_complementarity.h"

#include <utility>

#include "coulomb/complementarity/contact_block_system.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

// Plain Newton iterations tried on a small problem the sweeps stalled on, before the portfolio.
constexpr int kHandOverNewtonIterations = 8;

// A small problem the sweeps stalled on (a 10⁶ kg box on a 1 kg one: Gauss–Seidel's contraction
// is 1 − 1e-6) is usually a Newton step or two from last step's answer: plain semismooth Newton
// on W built from the rows (dense, no G = J L⁻ᵀ and sparse products: on the mass ratio that
// assembly cost more than the Newton step), from `from`. True, with `out` filled, when it
// certifies; the caller then goes on to the portfolio's PPA alternation on the full assembly.
// `iterations` gains Newton's. (The portfolio's own warm probes skip such small problems: PPA is
// cheap there from a warm start without a stalled Gauss–Seidel before it.)
bool FinishByPlainNewton(const ConeSolverSettings& settings, const Eigen::VectorXd& from,
                         NonsmoothNewtonWorkspace* newton, ContactSweepWorkspace& sweeps,
                         int& iterations, ContactSolution& out) {
  FrictionContactProblem& small = sweeps.small;
  AssembleDelassusFromRows(sweeps.rows, sweeps.small_entries, small.W);
  small.q = sweeps.rows.q;
  small.mu = sweeps.rows.mu;
  NonsmoothNewtonParams plain = settings.newton;
  plain.tolerance = settings.tolerance;
  plain.proximal = 0;
  plain.max_iterations = kHandOverNewtonIterations;
  FrictionContactResult scratch;
  FrictionContactResult& r = newton != nullptr ? newton->result : scratch;
  SolveNonsmoothNewton(small, plain, from, newton, r);
  iterations += r.iterations;
  if (!r.solved()) return false;
  out.status = r.status;
  out.message = r.message;
  out.iterations = iterations;
  out.residual = r.error;
  math::ResizeKeepingStorage(out.impulses, r.r.size());
  out.impulses = r.r;
  VelocityAfterImpulses(sweeps.rows, out.impulses, out.v_next);
  return true;
}

}  // namespace

ContactSolution SolveConeComplementarity(const contact::ContactProblem& problem,
                                         const ConeParams& params,
                                         const Eigen::VectorXd& warm_start) {
  LocalContactProblem local;
  FrictionContactProblem friction;
  ContactSweepWorkspace sweeps;
  ContactSolution out;
  SolveConeComplementarity(problem, params, warm_start, local, friction, out, nullptr, &sweeps);
  return out;
}

void SolveConeComplementarity(const contact::ContactProblem& problem, const ConeParams& params,
                              const Eigen::VectorXd& warm_start, LocalContactProblem& local,
                              FrictionContactProblem& fc, ContactSolution& out,
                              NonsmoothNewtonWorkspace* newton, ContactSweepWorkspace* sweeps) {
  out.Reset();
  if (problem.num_contacts() == 0) {
    out.status = LcpStatus::kSolved;
    out.v_next = problem.v_star;
    out.impulses.resize(0);
    return;
  }
  const ConeSolverKind kind = params.solver;
  ConeSolverSettings settings = params.settings;
  const Eigen::VectorXd* from = &warm_start;
  int sweep_count = 0;
  if (sweeps != nullptr && (kind == ConeSolverKind::kNsgs || kind == ConeSolverKind::kPortfolio)) {
    // Gauss–Seidel on body velocities first (contact_sweeps.h): no W. The portfolio hands what
    // stalls to its Newton stages while the problem is small enough for them; NSGS alone (as
    // asked, or above the portfolio's Newton size) sweeps to its cap.
    const bool newton_after = kind == ConeSolverKind::kPortfolio &&
                              3 * problem.num_contacts() <= settings.portfolio_max_newton_rows;
    const bool dense_newton =
        newton_after && 3 * problem.num_contacts() <= ContactBlockSystem::kDenseRows;
    MakeContactRows(problem, params.correction(), sweeps->rows);
    ContactSweepParams p;
    p.tolerance = settings.tolerance;
    p.relaxation = settings.nsgs.relaxation;
    p.max_sweeps = settings.nsgs.max_sweeps;
    p.stop_on_stall = newton_after;
    p.sticking_step = newton_after;
    p.acceleration_depth = params.acceleration_depth;
    p.accelerated_island_contacts = params.accelerated_island_contacts;
    p.island_parts = params.island_parts;
    p.partitioned_island_contacts = params.partitioned_island_contacts;
    p.levelled_mean_width = params.levelled_mean_width;
    p.workers = sweeps->workers;
    // Where Newton is dense and cheap, the sweeps hand over as soon as they stop gaining: the
    // mass ratio's stalled steps took 12 sweeps before, 3 now (docs/ARCHITECTURE.md).
    if (dense_newton) p.stall_interval = 1;
    ContactSweepResult& result = sweeps->result;
    SolveContactSweeps(sweeps->rows, p, warm_start, result);
    if (result.solved() || !newton_after || result.status == LcpStatus::kBadInput) {
      TakeSweepResult(result, out);
      return;
    }
    // Newton from where the sweeps stopped; its own NSGS probe would repeat them.
    // From the better of the two: on a hyperstatic stack Gauss–Seidel first wanders along the
    // redistributions of the impulses among its contacts, away from last step's answer.
    // (warm_error is a lower bound: exact only when the sweeps did no better than it.)
    if (result.error < result.warm_error ||
        result.error < WarmStartError(sweeps->rows, warm_start, sweeps->warm_v)) {
      from = &result.r;
    }
    sweep_count = result.sweeps;
    settings.portfolio_warm_sweeps = 0;
    if (dense_newton && FinishByPlainNewton(settings, *from, newton, *sweeps, sweep_count, out)) {
      return;
    }
  }
  MakeLocalContactProblem(problem, params.correction(), local);
  // Swapped, not copied: both keep their storage for the next step. (The member swaps: std::swap
  // of two sparse matrices copies them, six allocations a step.)
  fc.W.swap(local.W);
  fc.q.swap(local.q);
  fc.W_factor.swap(local.G);
  fc.W_diagonal.swap(local.W_diagonal);
  fc.mu = problem.mu;
  FrictionContactResult scratch;
  FrictionContactResult& r = newton != nullptr ? newton->result : scratch;
  SolveFrictionContact(fc, kind, settings, *from, newton, r);
  if (sweeps != nullptr && sweep_count > 0 && !r.solved() && sweeps->result.error < r.error) {
    TakeSweepResult(sweeps->result, out);  // Newton did no better than the sweeps it started from
    out.iterations += r.iterations;
    return;
  }
  out.status = r.status;
  out.message = r.message;
  out.iterations = sweep_count + r.iterations;
  out.residual = r.error;
  if (r.r.size() == fc.q.size()) {
    out.impulses = r.r;
  } else {
    out.impulses.setZero(fc.q.size());
  }
  out.v_next = problem.v_star;
  out.v_next.noalias() += local.MinvJt * out.impulses;
}

}  // namespace coulomb
