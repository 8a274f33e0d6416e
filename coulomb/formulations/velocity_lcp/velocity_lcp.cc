#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "coulomb/base/stopwatch.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

namespace coulomb {

ContactSolution SolveVelocityLcp(const contact::ContactProblem& problem,
                                 const VelocityLcpParams& params,
                                 const Eigen::VectorXd& /*warm_start*/) {
  const Stopwatch clock;
  ContactSolution out;
  const int nc = problem.num_contacts();
  if (params.directions < 3) {
    out.message = fmt::format("directions = {}: at least 3 are needed to span the tangent plane",
                              params.directions);
    return out;
  }
  if (nc == 0) {
    out.status = LcpStatus::kSolved;
    out.v_next = problem.v_star;
    out.impulses.resize(0);
    return out;
  }
  const LocalContactProblem local = MakeLocalContactProblem(problem, params.position_correction);
  const LcpProblem lcp =
      MakeStewartTrinkleLcp(Eigen::MatrixXd(local.W), local.q, problem.mu, params.directions);
  const LcpResult r = SolveLcp(lcp, params.solver, params.settings);
  out.status = r.status;
  out.message = r.message;
  out.iterations = r.iterations;
  out.residual = r.certificate.Worst();
  // z = (p_n [nc], β [nc·d], λ [nc]) → impulses in (n, t, o).
  out.impulses = Eigen::VectorXd::Zero(3 * nc);
  if (r.z.size() == lcp.size()) {
    const int d = params.directions;
    for (int k = 0; k < nc; ++k) {
      out.impulses[3 * k] = r.z[k];
      for (int j = 0; j < d; ++j) {
        const double angle = 2.0 * std::numbers::pi * j / d;
        out.impulses[3 * k + 1] += std::cos(angle) * r.z[nc + k * d + j];
        out.impulses[3 * k + 2] += std::sin(angle) * r.z[nc + k * d + j];
      }
    }
  }
  out.v_next = problem.v_star + local.MinvJt * out.impulses;
  out.seconds = clock.Seconds();
  return out;
}

}  // namespace coulomb
