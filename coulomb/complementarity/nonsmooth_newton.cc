#include "coulomb/complementarity/nonsmooth_newton.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "coulomb/base/stopwatch.h"
#include "coulomb/math/backtracking.h"

namespace coulomb {
namespace {

// ρ_N, ρ_T per contact (ABH's heuristic; ρ = 1 is far worse when ‖W‖ is far from 1).
Eigen::VectorXd AlartCurnierWeights(const Eigen::MatrixXd& W, int nc) {
  Eigen::VectorXd rho(3 * nc);
  for (int i = 0; i < nc; ++i) {
    const double wn = W(3 * i, 3 * i);
    const Eigen::Matrix2d Wt = W.block<2, 2>(3 * i + 1, 3 * i + 1);
    const double wt = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(Wt).eigenvalues().maxCoeff();
    rho[3 * i] = wn > 0 ? 1.0 / wn : 1.0;
    rho.segment<2>(3 * i + 1).setConstant(wt > 0 ? 1.0 / wt : rho[3 * i]);
  }
  return rho;
}

// G(r) and, when `jacobian` is given, one element of its generalized Jacobian.
Eigen::VectorXd AlartCurnier(const Eigen::MatrixXd& W, const Eigen::VectorXd& q,
                             const Eigen::VectorXd& mu, const Eigen::VectorXd& rho,
                             const Eigen::VectorXd& r, Eigen::MatrixXd* jacobian) {
  const int m = static_cast<int>(r.size());
  const Eigen::VectorXd x = r - rho.cwiseProduct(W * r + q);
  Eigen::VectorXd G(m);
  // dΠ/dx is block diagonal (3 × 3 per contact); the Jacobian I − dΠ/dx (I − diag(ρ) W) is
  // formed block row by block row, O(m²) instead of a dense O(m³) product.
  std::vector<Eigen::Matrix3d> dPi(static_cast<std::size_t>(m / 3), Eigen::Matrix3d::Zero());
  for (int i = 0; i < m / 3; ++i) {
    const double xn = x[3 * i];
    const bool active = xn > 0;
    const double radius = mu[i] * std::max(0.0, xn);
    const Eigen::Vector2d xt = x.segment<2>(3 * i + 1);
    const double norm = xt.norm();
    G[3 * i] = r[3 * i] - std::max(0.0, xn);
    Eigen::Matrix3d& D = dPi[i];
    D(0, 0) = active ? 1.0 : 0.0;
    if (norm <= radius) {
      G.segment<2>(3 * i + 1) = r.segment<2>(3 * i + 1) - xt;
      D.block<2, 2>(1, 1).setIdentity();
    } else {
      const Eigen::Vector2d s = xt / norm;
      G.segment<2>(3 * i + 1) = r.segment<2>(3 * i + 1) - radius * s;
      D.block<2, 2>(1, 1) = radius / norm * (Eigen::Matrix2d::Identity() - s * s.transpose());
      if (active) D.block<2, 1>(1, 0) = mu[i] * s;
    }
  }
  if (jacobian != nullptr) {
    // Rows 3i..3i+2: e_i − D_i (e_i − diag(ρ_i) W_i,:) = (I − D_i) e_i + D_i diag(ρ_i) W_i,:.
    jacobian->resize(m, m);
    for (int i = 0; i < m / 3; ++i) {
      const Eigen::Matrix3d DR = dPi[i] * rho.segment<3>(3 * i).asDiagonal();
      jacobian->middleRows<3>(3 * i).noalias() = DR * W.middleRows<3>(3 * i);
      jacobian->block<3, 3>(3 * i, 3 * i) += Eigen::Matrix3d::Identity() - dPi[i];
    }
  }
  return G;
}

// Newton with Armijo backtracking on ½‖G‖² for FC(W, q, μ); returns the iterations used.
int NewtonSolve(const Eigen::MatrixXd& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                double tolerance, int max_iterations, Eigen::VectorXd& r) {
  const Eigen::VectorXd rho = AlartCurnierWeights(W, static_cast<int>(mu.size()));
  const double scale = std::max(q.norm(), 1e-300);
  Eigen::MatrixXd jacobian;
  Eigen::VectorXd G = AlartCurnier(W, q, mu, rho, r, &jacobian);
  int iteration = 0;
  for (; iteration < max_iterations; ++iteration) {
    const double merit = 0.5 * G.squaredNorm();
    if (std::sqrt(2 * merit) <= 1e-2 * tolerance * scale) break;
    // Partial pivoting is ~10x faster than full; fall back when the Jacobian is singular.
    Eigen::VectorXd step = jacobian.partialPivLu().solve(-G);
    if (!step.allFinite() || (jacobian * step + G).norm() > 1e-6 * G.norm()) {
      step = jacobian.fullPivLu().solve(-G);
    }
    if (!step.allFinite()) break;
    // Along the Newton step d merit/dα = −‖G‖² = −2 merit; c = 0.5e-4 asks a decrease of
    // 1e-4 α merit.
    Eigen::VectorXd trial;
    const auto merit_at = [&](double t) {
      trial = r + t * step;
      return 0.5 * AlartCurnier(W, q, mu, rho, trial, nullptr).squaredNorm();
    };
    math::BacktrackingSettings search;
    search.armijo = 0.5e-4;
    search.max_trials = 30;
    if (!math::BacktrackArmijo(merit_at, merit, -2 * merit, search).accepted) break;
    r = trial;
    G = AlartCurnier(W, q, mu, rho, r, &jacobian);
  }
  return iteration;
}

}  // namespace

FrictionContactResult SolveNonsmoothNewton(const FrictionContactProblem& problem,
                                           const NonsmoothNewtonParams& params,
                                           const Eigen::VectorXd& warm_start) {
  const Stopwatch clock;
  const char* name = params.proximal > 0 ? "ppa" : "nsn";
  if (std::string defect = ValidateFrictionContactProblem(problem); !defect.empty()) {
    return MakeBadFrictionContactResult(name, defect);
  }
  const int nc = problem.num_contacts();
  FrictionContactResult result;
  result.solver = name;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * nc);
  if (warm_start.size() == 3 * nc && warm_start.allFinite()) r = warm_start;
  // Newton works on the dense Delassus matrix (LU per iteration): for problems up to a few
  // thousand contact rows, where it is the accurate choice; NSGS takes the large sparse ones.
  constexpr int kMaxDenseRows = 6000;
  if (3 * nc > kMaxDenseRows) {
    result.status = LcpStatus::kNotApplicable;
    result.message = fmt::format("{} contact rows exceed the dense Newton limit of {}; use nsgs",
                                 3 * nc, kMaxDenseRows);
    result.r = r;
    return result;
  }
  const Eigen::MatrixXd W(problem.W);
  if (params.proximal <= 0) {
    result.iterations =
        NewtonSolve(problem.W, problem.q, problem.mu, params.tolerance, params.max_iterations, r);
  } else {
    // Proximal point: r_{k+1} solves FC(W + σI, q − σ r_k); σ shrinks while progress is good.
    const double wmax = nc > 0 ? W.diagonal().maxCoeff() : 1.0;
    double sigma = params.proximal * (wmax > 0 ? wmax : 1.0);
    Eigen::MatrixXd Wsigma = W;
    for (int k = 0; k < params.max_proximal_iterations; ++k) {
      if (CertifyFrictionContact(problem, r).error <= params.tolerance) break;
      Wsigma.diagonal() = W.diagonal().array() + sigma;
      const Eigen::VectorXd q_k = problem.q - sigma * r;
      result.iterations +=
          NewtonSolve(Wsigma, q_k, problem.mu, params.tolerance, params.max_iterations, r);
      sigma = std::max(0.5 * sigma, 1e-6 * wmax);  // keep some regularization
    }
  }
  SetFrictionContactAnswer(problem, r, LcpStatus::kSolved, params.tolerance, result);
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
