#include "coulomb/complementarity/fischer_burmeister_newton.h"

#include <fmt/format.h>

#include <cmath>

#include "coulomb/base/stopwatch.h"
#include "coulomb/math/backtracking.h"

namespace coulomb {
namespace {

// Φ(z) for w = M z + q.
Eigen::VectorXd FischerBurmeister(const Eigen::VectorXd& z, const Eigen::VectorXd& w) {
  return (z.array().square() + w.array().square()).sqrt() - z.array() - w.array();
}

}  // namespace

LcpResult SolveFischerBurmeister(const LcpProblem& problem, const FischerBurmeisterParams& params,
                                 const Eigen::VectorXd* start) {
  const Stopwatch clock;
  if (const std::string defect = ValidateLcp(problem); !defect.empty()) {
    return MakeBadInputResult("newton", defect);
  }
  LcpResult result;
  result.solver = "newton";
  const int n = problem.size();
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  if (start != nullptr && start->size() == n && start->allFinite()) z = start->cwiseMax(0.0);

  const Eigen::MatrixXd& M = problem.M;
  Eigen::VectorXd w = M * z + problem.q;
  Eigen::VectorXd phi = FischerBurmeister(z, w);
  double psi = 0.5 * phi.squaredNorm();
  LcpStatus status = LcpStatus::kIterationLimit;
  Eigen::MatrixXd H(n, n);
  Eigen::VectorXd da(n), db(n);
  for (int k = 0; k < params.max_iterations; ++k) {
    if (CertifyLcp(problem, z).Passes(params.acceptance_tolerance)) {
      status = LcpStatus::kSolved;
      break;
    }
    result.iterations = k + 1;
    // An element of the generalized Jacobian H = D_a + D_b M. At the kink a_i = b_i = 0 use the
    // direction δ = e_i (z-direction), as De Luca–Facchinei–Kanzow do.
    const double kink = 1e-14 * (1.0 + problem.q.lpNorm<Eigen::Infinity>());
    Eigen::VectorXd delta = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < n; ++i) {
      if (std::hypot(z[i], w[i]) <= kink) delta[i] = 1.0;
    }
    const Eigen::VectorXd m_delta = M * delta;
    for (int i = 0; i < n; ++i) {
      const double r = std::hypot(z[i], w[i]);
      if (r > kink) {
        da[i] = z[i] / r - 1.0;
        db[i] = w[i] / r - 1.0;
      } else {
        const double s = std::hypot(1.0, m_delta[i]);
        da[i] = 1.0 / s - 1.0;
        db[i] = m_delta[i] / s - 1.0;
      }
    }
    H = db.asDiagonal() * M;
    H.diagonal() += da;
    const Eigen::VectorXd gradient = H.transpose() * phi;
    Eigen::VectorXd d = H.partialPivLu().solve(-phi);
    if (!d.allFinite() ||
        gradient.dot(d) > -params.descent_rho * std::pow(d.norm(), params.descent_power)) {
      d = -gradient;
    }
    Eigen::VectorXd z_trial, w_trial, phi_trial;
    const auto merit = [&](double t) {
      z_trial = z + t * d;
      w_trial = M * z_trial + problem.q;
      phi_trial = FischerBurmeister(z_trial, w_trial);
      return 0.5 * phi_trial.squaredNorm();
    };
    math::BacktrackingSettings search;
    search.armijo = params.armijo_sigma;
    search.alpha_min = params.min_step;
    const math::BacktrackingResult step =
        math::BacktrackArmijo(merit, psi, gradient.dot(d), search);
    if (step.accepted) {
      z = z_trial;
      w = w_trial;
      phi = phi_trial;
      psi = step.merit;
    } else {
      status = LcpStatus::kStalled;
      result.message = fmt::format(
          "line search failed at iteration {} (Ψ = {:.3e}): a "
          "stationary point of the merit function that is not a solution",
          k + 1, psi);
      break;
    }
  }
  if (status == LcpStatus::kIterationLimit &&
      CertifyLcp(problem, z).Passes(params.acceptance_tolerance)) {
    status = LcpStatus::kSolved;
  }
  if (status == LcpStatus::kIterationLimit) {
    result.message =
        fmt::format("iteration limit {} reached (Ψ = {:.3e})", params.max_iterations, psi);
  }
  SetAnswer(problem, z, status, params.acceptance_tolerance, result);
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
