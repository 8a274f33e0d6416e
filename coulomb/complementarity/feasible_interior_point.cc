#include "coulomb/complementarity/feasible_interior_point.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/interior_point_common.h"
#include "coulomb/complementarity/phase_one.h"

namespace coulomb {
namespace {

double Merit(const Eigen::VectorXd& w, const Eigen::VectorXd& z, double zeta) {
  const double n = static_cast<double>(w.size());
  return (n + zeta) * std::log(w.dot(z)) - (w.array() * z.array()).log().sum();
}

}  // namespace

LcpResult SolveFeasibleInteriorPoint(const LcpProblem& problem,
                                     const FeasibleInteriorPointParams& params) {
  const Stopwatch clock;
  if (const std::string defect = ValidateLcp(problem); !defect.empty()) {
    return MakeBadInputResult("fip", defect);
  }
  LcpResult result;
  result.solver = "fip";
  const int n = problem.size();
  if (n == 0) {
    SetAnswer(problem, Eigen::VectorXd(), LcpStatus::kSolved, params.acceptance_tolerance, result);
    return result;
  }
  const PhaseOneResult start = FindStrictlyFeasiblePoint(problem);
  if (!start.strictly_feasible) {
    SetAnswer(problem, start.z, LcpStatus::kNoStrictlyFeasiblePoint, params.acceptance_tolerance,
              result);
    result.message =
        start.pivot_limit
            ? fmt::format("Phase I simplex hit its pivot cap ({} pivots)", start.pivots)
            : fmt::format(
                  "Phase I: no strictly feasible point (best margin {:.3e} "
                  "after {} simplex pivots)",
                  start.margin, start.pivots);
    result.seconds = clock.Seconds();
    return result;
  }

  const double zeta = params.zeta > 0 ? params.zeta : std::sqrt(static_cast<double>(n));
  const double q_scale = 1.0 + problem.q.lpNorm<Eigen::Infinity>();
  Eigen::VectorXd z = start.z;
  Eigen::VectorXd w = problem.M * z + problem.q;
  double beta = params.beta_initial;
  LcpStatus status = LcpStatus::kIterationLimit;
  const auto converged = [&] {
    const double gap = w.dot(z);
    return (params.absolute_gap > 0 && gap <= params.absolute_gap) ||
           (params.relative_gap > 0 && gap / n <= params.relative_gap * q_scale);
  };
  Eigen::MatrixXd K(n, n);
  for (int k = 0; k < params.max_iterations; ++k) {
    if (converged()) {
      status = LcpStatus::kSolved;
      break;
    }
    result.iterations = k + 1;
    // Eq. (54) with dw = M dz eliminated: (M + Z⁻¹W) dz = Z⁻¹(−w∘z + βμe). M + a positive
    // diagonal is nonsingular for P0 M; for other M the LU may fail, which we report.
    const double mu = w.dot(z) / n;
    K = problem.M;
    K.diagonal() += w.cwiseQuotient(z);
    const Eigen::VectorXd rhs =
        (-(w.cwiseProduct(z)).array() + beta * mu).matrix().cwiseQuotient(z);
    const Eigen::VectorXd dz = K.partialPivLu().solve(rhs);
    const Eigen::VectorXd dw = problem.M * dz;
    if (!dz.allFinite()) {
      status = LcpStatus::kStalled;
      result.message = fmt::format("singular Newton system at iteration {} (M is not P0?)", k + 1);
      break;
    }
    const double alpha_bar = std::min(StepToBoundary(w, dw), StepToBoundary(z, dz));
    const double alpha0 = params.eta * alpha_bar;
    const double f_old = Merit(w, z, zeta);
    double step = alpha0;
    bool accepted = false;
    for (int m = 0; m <= params.max_backtracks; ++m) {
      const Eigen::VectorXd w_new = w + step * dw;
      const Eigen::VectorXd z_new = z + step * dz;
      const double f_new = Merit(w_new, z_new, zeta);
      // Eq. (55).
      if (std::isfinite(f_new) && f_new - f_old <= -params.sigma * (1.0 - beta) * zeta * step) {
        w = w_new;
        z = z_new;
        accepted = true;
        break;
      }
      step *= params.rho;
    }
    if (!accepted) {
      status = LcpStatus::kStalled;
      result.message =
          fmt::format("merit line search failed at iteration {} (gap {:.3e})", k + 1, w.dot(z));
      break;
    }
    beta = std::max(params.beta_min, std::min(beta, params.beta_shrink * beta));
  }
  if (status == LcpStatus::kIterationLimit && converged()) status = LcpStatus::kSolved;
  if (status == LcpStatus::kIterationLimit) {
    result.message =
        fmt::format("iteration limit {} reached (gap {:.3e})", params.max_iterations, w.dot(z));
  }
  Eigen::VectorXd answer = z;
  if (params.polish && status == LcpStatus::kSolved) {
    ComplementaryBasisWorkspace rounding;
    RoundAndPolish(problem, z, w, params.acceptance_tolerance, true, rounding, answer);
  }
  const std::string message = result.message;
  SetAnswer(problem, answer, status, params.acceptance_tolerance, result);
  if (!message.empty()) result.message = message;
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
