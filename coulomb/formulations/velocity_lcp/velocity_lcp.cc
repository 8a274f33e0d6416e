#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>
#include <numbers>
#include <optional>

#include "coulomb/formulations/pyramid_contact.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {

namespace {

// The answer of the basis that `warm_start`'s impulses imply, into ws.result, if it passes
// Lemke's certificate. A persistent contact set (a box sliding down the incline, a stack at
// rest) keeps its basis from step to step, and one factorization of it replaces the path's
// pivots; the answer passes the same certificate as Lemke's (tighter: kWarmBasisAccuracy).
// Deterministic: the guess depends on the warm start alone, which the state (and so a checkpoint)
// carries.
bool SolveFromWarmStart(const Eigen::VectorXd& warm_start, const Eigen::VectorXd& mu,
                        const VelocityLcpParams& params, StewartTrinkleWorkspace& ws) {
  if (warm_start.size() != 3 * mu.size()) return false;
  GuessStewartTrinkleBasis(warm_start, mu, params.directions, ws.warm.guess, ws.warm_z);
  if (!SolveWarmBasis(ws.lcp, ws.warm.guess, ws.warm_z, ws.warm)) return false;
  CompleteSlipSpeeds(ws.lcp, static_cast<int>(mu.size()), params.directions, ws.warm.z, ws.warm.w);
  return TakeWarmBasisAnswer(ws.lcp, ws.warm.z,
                             kWarmBasisAccuracy * params.settings.lemke.acceptance_tolerance,
                             "lemke", ws.result);
}

// The Stewart–Trinkle LCP assembled from W and solved by `solver` (Lemke by default) into `out`.
void SolveByPivoting(const contact::ContactProblem& problem, const VelocityLcpParams& params,
                     LcpSolverKind solver, const Eigen::VectorXd& warm_start,
                     LocalContactProblem& local, StewartTrinkleWorkspace& ws,
                     ContactSolution& out) {
  const int nc = problem.num_contacts();
  MakeLocalContactProblem(problem, params.correction(), local);
  ws.W = local.W;
  MakeStewartTrinkleLcp(ws.W, local.q, problem.mu, params.directions, ws.GW, ws.lcp);
  const LcpResult& r = ws.result;
  const bool warm = params.warm_basis && solver == LcpSolverKind::kLemke &&
                    SolveFromWarmStart(warm_start, problem.mu, params, ws);
  if (!warm) SolveLcp(ws.lcp, solver, params.settings, ws.solver, ws.result);
  out.status = r.status;
  out.message = r.message;
  out.iterations = r.iterations;
  out.residual = r.certificate.Worst();
  // z = (p_n [nc], β [nc·d], λ [nc]) → impulses in (n, t, o).
  out.impulses.setZero(3 * nc);
  if (r.z.size() == ws.lcp.size()) {
    const int d = params.directions;
    const PyramidDirections directions = MakePyramidDirections(d);
    for (int k = 0; k < nc; ++k) {
      out.impulses[3 * k] = r.z[k];
      for (int j = 0; j < d; ++j) {
        out.impulses.segment<2>(3 * k + 1) += r.z[nc + k * d + j] * directions.direction[j];
      }
    }
  }
  out.v_next = problem.v_star;
  out.v_next.noalias() += local.MinvJt * out.impulses;
}

}  // namespace

ContactSolution SolveVelocityLcp(const contact::ContactProblem& problem,
                                 const VelocityLcpParams& params,
                                 const Eigen::VectorXd& warm_start) {
  LocalContactProblem local;
  ContactSweepWorkspace sweeps;
  ContactSolution out;
  SolveVelocityLcp(problem, params, warm_start, local, out, &sweeps);
  return out;
}

void SolveVelocityLcp(const contact::ContactProblem& problem, const VelocityLcpParams& params,
                      const Eigen::VectorXd& warm_start, LocalContactProblem& local,
                      ContactSolution& out, ContactSweepWorkspace* sweeps,
                      StewartTrinkleWorkspace* pivoting) {
  out.Reset();
  const int nc = problem.num_contacts();
  if (params.directions < 3) {
    out.message = fmt::format("directions = {}: at least 3 are needed to span the tangent plane",
                              params.directions);
    return;
  }
  if (nc == 0) {
    out.status = LcpStatus::kSolved;
    out.v_next = problem.v_star;
    out.impulses.resize(0);
    return;
  }
  const int rows = nc * (params.directions + 2);
  const bool too_large =
      params.solver != LcpSolverKind::kProjectedGaussSeidel && rows > params.max_pivoting_rows;
  if (params.solver == LcpSolverKind::kProjectedGaussSeidel || too_large) {
    // Gauss–Seidel over contacts on body velocities, each contact's pyramid LCP solved exactly
    // (contact_sweeps.h): no W, no LCP matrix.
    // Only made without the caller's: a workspace's sparse matrices allocate when constructed.
    std::optional<ContactSweepWorkspace> own;
    ContactSweepWorkspace& ws = sweeps != nullptr ? *sweeps : own.emplace();
    MakeContactRows(problem, params.correction(), ws.rows);
    ContactSweepParams p;
    p.law = ContactLaw::kPyramid;
    p.directions = params.directions;
    p.tolerance = params.settings.pgs.acceptance_tolerance;
    p.max_sweeps = params.settings.pgs.max_sweeps;
    p.stall_sweeps = params.settings.pgs.max_sweeps;
    p.workers = ws.workers;
    p.levelled_mean_width = params.levelled_mean_width;
    p.acceleration_depth = params.acceleration_depth;
    SolveContactSweeps(ws.rows, p, warm_start, ws.result);
    TakeSweepResult(ws.result, out);
    if (too_large) {
      // Formatted into the string's kept capacity: a pile says this every step.
      fmt::format_to(std::back_inserter(out.solver_switch),
                     "{} LCP rows exceed solver.max_pivoting_rows = {} for {}: block Gauss-Seidel "
                     "(pgs) ran instead",
                     rows, params.max_pivoting_rows, ToString(params.solver));
      // Sweeps that stall on a problem within twice the pivoting limit (a light finger on its
      // stop under a heavy palm: W's scales differ by 10⁶) hand it to the pivoting solver
      // rather than fail the step; its answer is taken only if certified.
      if (!out.ok() && rows <= 2 * params.max_pivoting_rows) {
        const std::string sweeps_message = out.message;
        StewartTrinkleWorkspace own_pivoting;
        ContactSolution pivoted;
        SolveByPivoting(problem, params, params.solver, warm_start, local,
                        pivoting != nullptr ? *pivoting : own_pivoting, pivoted);
        if (pivoted.ok()) {
          fmt::format_to(std::back_inserter(pivoted.solver_switch), "{}; pgs stopped ({}): {} ran",
                         out.solver_switch, sweeps_message, ToString(params.solver));
          pivoted.iterations += out.iterations;
          out = std::move(pivoted);
        }
      }
    }
    return;
  }
  StewartTrinkleWorkspace own;
  SolveByPivoting(problem, params, params.solver, warm_start, local,
                  pivoting != nullptr ? *pivoting : own, out);
}

void ReservePivoting(int rows, StewartTrinkleWorkspace& ws) {
  ReserveLemke(rows, ws.solver.lemke);
  ReserveComplementaryBasis(rows, ws.warm);
  math::ReserveStorage(ws.warm_z, rows);
  ws.result.message.reserve(kLcpMessageRoom);
}

std::string SelectLcpSolver(std::string_view name, LcpSolverKind& kind) {
  const auto parsed = ParseLcpSolverKind(name);
  if (!parsed) return fmt::format("unknown LCP solver '{}' ({})", name, kLcpSolverNames);
  kind = *parsed;
  return "";
}

}  // namespace coulomb
