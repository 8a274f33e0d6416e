#include "coulomb/complementarity/fischer_burmeister_newton.h"

#include <fmt/format.h>

#include <cmath>
#include <iterator>

#include "coulomb/base/stopwatch.h"
#include "coulomb/math/backtracking.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

// Φ(z) for w = M z + q, into phi.
void FischerBurmeister(const Eigen::VectorXd& z, const Eigen::VectorXd& w, Eigen::VectorXd& phi) {
  phi = (z.array().square() + w.array().square()).sqrt() - z.array() - w.array();
}

// w = M z + q, the product first (as Eigen evaluates M z + q).
void Slack(const LcpProblem& problem, const Eigen::VectorXd& z, Eigen::VectorXd& w) {
  w.noalias() = problem.M * z;
  w += problem.q;
}

// H = D_a + D_b M, an element of Φ's generalized Jacobian at z, into the workspace's LU (not yet
// factored). At the kink a_i = b_i = 0 use the direction δ = e_i (z-direction), as
// De Luca–Facchinei–Kanzow do.
void GeneralizedJacobian(const LcpProblem& problem, FischerBurmeisterWorkspace& ws) {
  const int n = problem.size();
  const Eigen::VectorXd &z = ws.z, &w = ws.w;
  const double kink = 1e-14 * (1.0 + problem.q.lpNorm<Eigen::Infinity>());
  ws.delta.setZero();
  for (int i = 0; i < n; ++i) {
    if (std::hypot(z[i], w[i]) <= kink) ws.delta[i] = 1.0;
  }
  ws.m_delta.noalias() = problem.M * ws.delta;
  for (int i = 0; i < n; ++i) {
    const double r = std::hypot(z[i], w[i]);
    if (r > kink) {
      ws.da[i] = z[i] / r - 1.0;
      ws.db[i] = w[i] / r - 1.0;
    } else {
      const double s = std::hypot(1.0, ws.m_delta[i]);
      ws.da[i] = 1.0 / s - 1.0;
      ws.db[i] = ws.m_delta[i] / s - 1.0;
    }
  }
  Eigen::Map<Eigen::MatrixXd> H = math::PrepareLu(ws.lu, n);
  H = ws.db.asDiagonal() * problem.M;
  H.diagonal() += ws.da;
}

}  // namespace

LcpResult SolveFischerBurmeister(const LcpProblem& problem, const FischerBurmeisterParams& params,
                                 const Eigen::VectorXd* start) {
  FischerBurmeisterWorkspace workspace;
  LcpResult result;
  SolveFischerBurmeister(problem, params, start, workspace, result);
  return result;
}

void SolveFischerBurmeister(const LcpProblem& problem, const FischerBurmeisterParams& params,
                            const Eigen::VectorXd* start, FischerBurmeisterWorkspace& ws,
                            LcpResult& result) {
  const Stopwatch clock;
  if (const std::string defect = ValidateLcp(problem); !defect.empty()) {
    result = MakeBadInputResult("newton", defect);
    return;
  }
  result.solver = "newton";
  result.message.clear();
  result.iterations = 0;
  result.restarts = 0;
  const int n = problem.size();
  for (Eigen::VectorXd* v : {&ws.z, &ws.w, &ws.phi, &ws.delta, &ws.m_delta, &ws.da, &ws.db,
                             &ws.gradient, &ws.d, &ws.z_trial, &ws.w_trial, &ws.phi_trial}) {
    math::ResizeKeepingStorage(*v, n);
  }
  Eigen::VectorXd &z = ws.z, &w = ws.w, &phi = ws.phi, &d = ws.d;
  z.setZero();
  if (start != nullptr && start->size() == n && start->allFinite()) z = start->cwiseMax(0.0);
  Slack(problem, z, w);
  FischerBurmeister(z, w, phi);
  double psi = 0.5 * phi.squaredNorm();
  LcpStatus status = LcpStatus::kIterationLimit;
  for (int k = 0; k < params.max_iterations; ++k) {
    if (CertifyLcp(problem, z, &ws.w_certificate).Passes(params.acceptance_tolerance)) {
      status = LcpStatus::kSolved;
      break;
    }
    result.iterations = k + 1;
    GeneralizedJacobian(problem, ws);
    const Eigen::Map<const Eigen::MatrixXd> H(ws.lu.lu.data(), n, n);
    ws.gradient.noalias() = H.transpose() * phi;
    math::FactorLu(ws.lu);
    d = -phi;
    math::SolveLuInPlace(ws.lu, d);  // a singular H gives a non-finite d: the fallback below
    if (!d.allFinite() ||
        ws.gradient.dot(d) > -params.descent_rho * std::pow(d.norm(), params.descent_power)) {
      d = -ws.gradient;
    }
    const auto merit = [&](double t) {
      ws.z_trial = z + t * d;
      Slack(problem, ws.z_trial, ws.w_trial);
      FischerBurmeister(ws.z_trial, ws.w_trial, ws.phi_trial);
      return 0.5 * ws.phi_trial.squaredNorm();
    };
    math::BacktrackingSettings search;
    search.armijo = params.armijo_sigma;
    search.alpha_min = params.min_step;
    const math::BacktrackingResult step =
        math::BacktrackArmijo(merit, psi, ws.gradient.dot(d), search);
    if (step.accepted) {
      z.swap(ws.z_trial);
      w.swap(ws.w_trial);
      phi.swap(ws.phi_trial);
      psi = step.merit;
    } else {
      status = LcpStatus::kStalled;
      fmt::format_to(std::back_inserter(result.message),
                     "line search failed at iteration {} (Ψ = {:.3e}): a stationary point of "
                     "the merit function that is not a solution",
                     k + 1, psi);
      break;
    }
  }
  if (status == LcpStatus::kIterationLimit &&
      CertifyLcp(problem, z, &ws.w_certificate).Passes(params.acceptance_tolerance)) {
    status = LcpStatus::kSolved;
  }
  if (status == LcpStatus::kIterationLimit) {
    fmt::format_to(std::back_inserter(result.message), "iteration limit {} reached (Ψ = {:.3e})",
                   params.max_iterations, psi);
  }
  SetAnswer(problem, z, status, params.acceptance_tolerance, result);
  result.seconds = clock.Seconds();
}

}  // namespace coulomb
