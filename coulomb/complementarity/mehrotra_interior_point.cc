#include "coulomb/complementarity/mehrotra_interior_point.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/interior_point_common.h"

namespace coulomb {

LcpResult SolveMehrotra(const LcpProblem& problem, const MehrotraParams& params) {
  const Stopwatch clock;
  if (const std::string defect = ValidateLcp(problem); !defect.empty()) {
    return MakeBadInputResult("ipm", defect);
  }
  LcpResult result;
  result.solver = "ipm";
  const int n = problem.size();
  const Eigen::MatrixXd& M = problem.M;
  const double q_scale = 1.0 + problem.q.lpNorm<Eigen::Infinity>();
  Eigen::VectorXd z = Eigen::VectorXd::Ones(n);
  Eigen::VectorXd w =
      Eigen::VectorXd::Constant(n, std::max(1.0, problem.q.lpNorm<Eigen::Infinity>()));
  LcpStatus status = LcpStatus::kIterationLimit;
  Eigen::MatrixXd K(n, n);
  for (int k = 0; k < params.max_iterations && n > 0; ++k) {
    const Eigen::VectorXd r_p = w - M * z - problem.q;
    const double mu = w.dot(z) / n;
    if (r_p.lpNorm<Eigen::Infinity>() <= params.tolerance * q_scale &&
        mu <= params.tolerance * q_scale) {
      status = LcpStatus::kSolved;
      break;
    }
    if (mu <= params.round_gap * q_scale) {
      if (const auto rounded = SolveComplementaryBasis(problem, GuessBasis(z, w), &z)) {
        if (CertifyLcp(problem, *rounded).Passes(params.acceptance_tolerance)) {
          z = *rounded;
          w = M * z + problem.q;
          status = LcpStatus::kSolved;
          break;
        }
      }
    }
    if (z.lpNorm<Eigen::Infinity>() > params.divergence_bound * q_scale ||
        w.lpNorm<Eigen::Infinity>() > params.divergence_bound * q_scale) {
      status = LcpStatus::kStalled;
      result.message =
          fmt::format("iterates diverge at iteration {}: the LCP may have no solution", k + 1);
      break;
    }
    result.iterations = k + 1;
    // Newton system for w + dw − M(z + dz) − q = 0 and Z dw + W dz = r_c, with dw eliminated:
    // (M + Z⁻¹W) dz = Z⁻¹ r_c + r_p  and  dw = M dz − r_p.
    K = M;
    K.diagonal() += w.cwiseQuotient(z);
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(K);
    const auto direction = [&](const Eigen::VectorXd& r_c, Eigen::VectorXd& dz,
                               Eigen::VectorXd& dw) {
      dz = lu.solve(r_c.cwiseQuotient(z) + r_p);
      dw = M * dz - r_p;
    };
    Eigen::VectorXd dz_aff, dw_aff, dz, dw;
    direction(-w.cwiseProduct(z), dz_aff, dw_aff);
    if (!dz_aff.allFinite()) {
      status = LcpStatus::kStalled;
      result.message = fmt::format("singular Newton system at iteration {}", k + 1);
      break;
    }
    const double alpha_aff = std::min(StepToBoundary(w, dw_aff), StepToBoundary(z, dz_aff));
    const double mu_aff = (w + alpha_aff * dw_aff).dot(z + alpha_aff * dz_aff) / n;
    const double sigma = std::pow(mu_aff / mu, 3);
    const Eigen::VectorXd r_c =
        (-w.cwiseProduct(z) - dw_aff.cwiseProduct(dz_aff)).array() + sigma * mu;
    direction(r_c, dz, dw);
    const double alpha = std::min(
        1.0, params.step_fraction * std::min(StepToBoundary(w, dw), StepToBoundary(z, dz)));
    w += alpha * dw;
    z += alpha * dz;
    if (!(w.allFinite() && z.allFinite()) || alpha < 1e-14) {
      status = LcpStatus::kStalled;
      result.message = fmt::format("no progress at iteration {} (step {:.1e})", k + 1, alpha);
      break;
    }
  }
  if (status == LcpStatus::kIterationLimit) {
    result.message =
        fmt::format("iteration limit {} reached (gap {:.3e})", params.max_iterations, w.dot(z));
  }
  const Eigen::VectorXd answer =
      params.polish && status != LcpStatus::kStalled
          ? RoundAndPolish(problem, z, w, params.acceptance_tolerance, true)
          : z;
  // Polishing may rescue an iteration-limit run; the certificate decides.
  if (CertifyLcp(problem, answer).Passes(params.acceptance_tolerance)) status = LcpStatus::kSolved;
  const std::string message = result.message;
  SetAnswer(problem, answer, status, params.acceptance_tolerance, result);
  if (!result.solved() && !message.empty()) result.message = message;
  if (result.solved()) result.message.clear();
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
