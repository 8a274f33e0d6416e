#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "coulomb/base/stopwatch.h"
#include "coulomb/formulations/velocity_lcp/block_gauss_seidel.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

namespace coulomb {

ContactSolution SolveVelocityLcp(const contact::ContactProblem& problem,
                                 const VelocityLcpParams& params,
                                 const Eigen::VectorXd& warm_start) {
  LocalContactProblem local;
  ContactSolution out;
  SolveVelocityLcp(problem, params, warm_start, local, out);
  return out;
}

void SolveVelocityLcp(const contact::ContactProblem& problem, const VelocityLcpParams& params,
                      const Eigen::VectorXd& warm_start, LocalContactProblem& local,
                      ContactSolution& out) {
  const Stopwatch clock;
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
  MakeLocalContactProblem(problem, params.position_correction, params.max_correction_speed, local);
  const int rows = nc * (params.directions + 2);
  const bool too_large =
      params.solver != LcpSolverKind::kProjectedGaussSeidel && rows > params.max_pivoting_rows;
  if (params.solver == LcpSolverKind::kProjectedGaussSeidel || too_large) {
    BlockGaussSeidelResult r = SolveStewartTrinkleBlockGaussSeidel(
        local, problem.mu, params.directions, params.settings.pgs, warm_start);
    out.status = r.status;
    out.message = r.message;
    if (too_large) {
      out.solver_switch = fmt::format(
          "{} LCP rows exceed solver.max_pivoting_rows = {} for {}: block Gauss-Seidel (pgs) ran "
          "instead",
          rows, params.max_pivoting_rows, ToString(params.solver));
    }
    out.iterations = r.sweeps;
    out.residual = r.residual;
    out.impulses = r.impulses;
    out.v_next = problem.v_star;
    out.v_next.noalias() += local.MinvJt * out.impulses;
    out.seconds = clock.Seconds();
    return;
  }
  const LcpProblem lcp =
      MakeStewartTrinkleLcp(Eigen::MatrixXd(local.W), local.q, problem.mu, params.directions);
  const LcpResult r = SolveLcp(lcp, params.solver, params.settings);
  out.status = r.status;
  out.message = r.message;
  out.iterations = r.iterations;
  out.residual = r.certificate.Worst();
  // z = (p_n [nc], β [nc·d], λ [nc]) → impulses in (n, t, o).
  out.impulses.setZero(3 * nc);
  if (r.z.size() == lcp.size()) {
    const int d = params.directions;
    for (int k = 0; k < nc; ++k) {
      out.impulses.segment<3>(3 * k) = PyramidImpulse(r.z[k], r.z.data() + nc + k * d, d);
    }
  }
  out.v_next = problem.v_star;
  out.v_next.noalias() += local.MinvJt * out.impulses;
  out.seconds = clock.Seconds();
}

std::string SelectLcpSolver(std::string_view name, LcpSolverKind& kind) {
  const auto parsed = ParseLcpSolverKind(name);
  if (!parsed) return fmt::format("unknown LCP solver '{}' ({})", name, kLcpSolverNames);
  kind = *parsed;
  return "";
}

}  // namespace coulomb
