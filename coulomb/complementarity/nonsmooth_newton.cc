#include "coulomb/complementarity/nonsmooth_newton.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/contact_block_system.h"
#include "coulomb/math/backtracking.h"

namespace coulomb {
namespace {

// ρ_N, ρ_T per contact (ABH's heuristic; ρ = 1 is far worse when ‖W‖ is far from 1), for
// W + shift I.
void AlartCurnierWeights(const ContactBlockSystem& W, double shift, Eigen::VectorXd& rho) {
  const int nc = W.num_contacts();
  rho.resize(3 * nc);
  for (int i = 0; i < nc; ++i) {
    const Eigen::Matrix3d& Wii = W.DiagonalBlock(i);
    const double wn = Wii(0, 0) + shift;
    const Eigen::Matrix2d Wt = Wii.block<2, 2>(1, 1) + shift * Eigen::Matrix2d::Identity();
    const double wt = Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d>(Wt).eigenvalues().maxCoeff();
    rho[3 * i] = wn > 0 ? 1.0 / wn : 1.0;
    rho.segment<2>(3 * i + 1).setConstant(wt > 0 ? 1.0 / wt : rho[3 * i]);
  }
}

// The Alart–Curnier problem FC(W + shift I, q, μ) with its weights, and the scratch vectors
// one evaluation of G uses.
struct AlartCurnierProblem {
  const ContactBlockSystem* W = nullptr;
  double shift = 0;
  const Eigen::VectorXd* q = nullptr;
  const Eigen::VectorXd* mu = nullptr;
  const Eigen::VectorXd* rho = nullptr;
  Eigen::VectorXd* u = nullptr;  // scratch
};

// G(r) and, when `left`/`right` are given, one element of its generalized Jacobian in the
// form L_i (W + shift I)_i,: + R_i e_i per block row (ContactBlockSystem::Factor).
void AlartCurnier(const AlartCurnierProblem& p, const Eigen::VectorXd& r, Eigen::VectorXd& G,
                  std::vector<Eigen::Matrix3d>* left, std::vector<Eigen::Matrix3d>* right) {
  Eigen::VectorXd& u = *p.u;
  const Eigen::VectorXd& rho = *p.rho;
  p.W->Multiply(r, p.shift, u);
  u += *p.q;
  const int nc = p.W->num_contacts();
  G.resize(3 * nc);
  for (int i = 0; i < nc; ++i) {
    const Eigen::Vector3d x =
        r.segment<3>(3 * i) - rho.segment<3>(3 * i).cwiseProduct(u.segment<3>(3 * i));
    const double mu = (*p.mu)[i];
    const bool active = x[0] > 0;
    const double radius = mu * std::max(0.0, x[0]);
    const Eigen::Vector2d xt = x.tail<2>();
    const double norm = xt.norm();
    G[3 * i] = r[3 * i] - std::max(0.0, x[0]);
    // D = dΠ/dx: Rows 3i..3i+2 of the Jacobian are e_i − D (e_i − diag(ρ_i) W_i,:).
    Eigen::Matrix3d D = Eigen::Matrix3d::Zero();
    D(0, 0) = active ? 1.0 : 0.0;
    if (norm <= radius) {
      G.segment<2>(3 * i + 1) = r.segment<2>(3 * i + 1) - xt;
      D.block<2, 2>(1, 1).setIdentity();
    } else {
      const Eigen::Vector2d s = xt / norm;
      G.segment<2>(3 * i + 1) = r.segment<2>(3 * i + 1) - radius * s;
      D.block<2, 2>(1, 1) = radius / norm * (Eigen::Matrix2d::Identity() - s * s.transpose());
      if (active) D.block<2, 1>(1, 0) = mu * s;
    }
    if (left != nullptr) {
      (*left)[i] = D * rho.segment<3>(3 * i).asDiagonal();
      (*right)[i] = Eigen::Matrix3d::Identity() - D;
    }
  }
}

// Newton with Armijo backtracking on ½‖G‖² for FC(W + shift I, q, μ) from r (ws.r); returns
// the iterations used. Its vectors live in `ws`.
int NewtonSolve(ContactBlockSystem& W, double shift, const Eigen::VectorXd& q,
                const Eigen::VectorXd& mu, double tolerance, int max_iterations,
                const Deadline& deadline, NonsmoothNewtonWorkspace& ws) {
  AlartCurnierWeights(W, shift, ws.rho);
  const AlartCurnierProblem problem{&W, shift, &q, &mu, &ws.rho, &ws.u};
  const double scale = std::max(q.norm(), 1e-300);
  const auto nc = static_cast<std::size_t>(W.num_contacts());
  ws.left.resize(nc);
  ws.right.resize(nc);
  Eigen::VectorXd &r = ws.r, &G = ws.G, &step = ws.step, &rhs = ws.rhs;
  AlartCurnier(problem, r, G, &ws.left, &ws.right);
  int iteration = 0;
  for (; iteration < max_iterations; ++iteration) {
    const double merit = 0.5 * G.squaredNorm();
    if (std::sqrt(2 * merit) <= 1e-2 * tolerance * scale || deadline.Passed()) break;
    // Partial pivoting (dense) or the sparse LU. A singular Jacobian (sticking redundant
    // contacts: four corners of a box on a box) is shifted by 1e-9 I, a Levenberg–Marquardt
    // step (its rows are O(1): ρ = 1/W_ii); the line search below judges either. Full pivoting
    // on the dense matrix only when both fail.
    rhs = -G;
    // Whether the last factorization succeeded and its step solves the system to `tol`.
    bool factored = false;
    const auto solves = [&](double tol) {
      return factored && step.size() == G.size() && step.allFinite() &&
             W.Residual(step, rhs) <= tol * G.norm();
    };
    factored = W.Factor(ws.left, ws.right, shift);
    if (factored) W.Solve(rhs, step);
    if (!solves(1e-6)) {
      constexpr double kShift = 1e-9;
      for (Eigen::Matrix3d& R : ws.right) R.diagonal().array() += kShift;
      factored = W.Factor(ws.left, ws.right, shift);
      if (factored) W.Solve(rhs, step);
      for (Eigen::Matrix3d& R : ws.right) R.diagonal().array() -= kShift;
      // Full pivoting is O(m³) on the dense matrix: a second per step on a 1 350-row pile.
      // Beyond kMaxFullPivotRows the Newton run stops here and the portfolio moves on.
      constexpr Eigen::Index kMaxFullPivotRows = 480;
      if (!solves(1e-3)) {
        if (G.size() > kMaxFullPivotRows) break;
        W.Factor(ws.left, ws.right, shift);
        step = W.Dense().fullPivLu().solve(rhs);
      }
    }
    if (!step.allFinite()) break;
    // Along the Newton step d merit/dα = −‖G‖² = −2 merit; c = 0.5e-4 asks a decrease of
    // 1e-4 α merit.
    const auto merit_at = [&](double t) {
      ws.trial = r + t * step;
      AlartCurnier(problem, ws.trial, ws.G_trial, nullptr, nullptr);
      return 0.5 * ws.G_trial.squaredNorm();
    };
    math::BacktrackingSettings search;
    search.armijo = 0.5e-4;
    search.max_trials = 30;
    if (!math::BacktrackArmijo(merit_at, merit, -2 * merit, search).accepted) break;
    r = ws.trial;
    AlartCurnier(problem, r, G, &ws.left, &ws.right);
  }
  return iteration;
}

}  // namespace

NonsmoothNewtonWorkspace::NonsmoothNewtonWorkspace() = default;
NonsmoothNewtonWorkspace::~NonsmoothNewtonWorkspace() = default;
NonsmoothNewtonWorkspace::NonsmoothNewtonWorkspace(const NonsmoothNewtonWorkspace&) {}
NonsmoothNewtonWorkspace& NonsmoothNewtonWorkspace::operator=(const NonsmoothNewtonWorkspace&) {
  system.reset();
  return *this;
}
NonsmoothNewtonWorkspace::NonsmoothNewtonWorkspace(NonsmoothNewtonWorkspace&&) noexcept = default;
NonsmoothNewtonWorkspace& NonsmoothNewtonWorkspace::operator=(NonsmoothNewtonWorkspace&&) noexcept =
    default;

FrictionContactResult SolveNonsmoothNewton(const FrictionContactProblem& problem,
                                           const NonsmoothNewtonParams& params,
                                           const Eigen::VectorXd& warm_start,
                                           NonsmoothNewtonWorkspace* workspace) {
  FrictionContactResult result;
  SolveNonsmoothNewton(problem, params, warm_start, workspace, result);
  return result;
}

void SolveNonsmoothNewton(const FrictionContactProblem& problem,
                          const NonsmoothNewtonParams& params, const Eigen::VectorXd& warm_start,
                          NonsmoothNewtonWorkspace* workspace, FrictionContactResult& result) {
  const Stopwatch clock;
  const char* name = params.proximal > 0 ? "ppa" : "nsn";
  if (std::string defect = ValidateFrictionContactProblem(problem); !defect.empty()) {
    result = MakeBadFrictionContactResult(name, defect);
    return;
  }
  const int nc = problem.num_contacts();
  result.solver = name;
  result.status = LcpStatus::kBadInput;
  result.message.clear();
  result.iterations = 0;
  result.error = result.seconds = 0;
  // Newton factors its Jacobian (sparse LU, W's block pattern) at every iteration: for problems
  // up to a few thousand contact rows, where it is the accurate choice; NSGS takes larger ones.
  constexpr int kMaxDenseRows = 6000;
  if (3 * nc > kMaxDenseRows) {
    result.status = LcpStatus::kNotApplicable;
    result.message = fmt::format("{} contact rows exceed the dense Newton limit of {}; use nsgs",
                                 3 * nc, kMaxDenseRows);
    if (warm_start.size() == 3 * nc && warm_start.allFinite()) {
      result.r = warm_start;
    } else {
      result.r.setZero(3 * nc);
    }
    return;
  }
  const bool factored = problem.W_factor.rows() == problem.W.rows() && problem.W.rows() > 0;
  const Eigen::SparseMatrix<double, Eigen::RowMajor>* G = factored ? &problem.W_factor : nullptr;
  NonsmoothNewtonWorkspace local;
  NonsmoothNewtonWorkspace& ws = workspace != nullptr ? *workspace : local;
  std::unique_ptr<ContactBlockSystem>& system = ws.system;
  if (system == nullptr) {
    system = std::make_unique<ContactBlockSystem>(problem.W, G, &problem.W_diagonal);
  } else if (system->SamePattern(problem.W, G)) {
    system->Refresh(problem.W, G, &problem.W_diagonal);
  } else {
    system->Build(problem.W, G, &problem.W_diagonal);  // a new pattern in the kept storage
  }
  ContactBlockSystem& W = *system;
  Eigen::VectorXd& r = ws.r;
  if (warm_start.size() == 3 * nc && warm_start.allFinite()) {
    r = warm_start;
  } else {
    r.setZero(3 * nc);
  }
  if (params.proximal <= 0) {
    result.iterations = NewtonSolve(W, 0.0, problem.q, problem.mu, params.tolerance,
                                    params.max_iterations, params.deadline, ws);
  } else {
    // Proximal point: r_{k+1} solves FC(W + σI, q − σ r_k); σ shrinks while progress is good,
    // down to a floor that keeps some regularization: 1e-6 max W_ii, then, if that run ends
    // short of the tolerance on a problem whose contacts differ in stiffness, 1e-6 min W_ii.
    // The first floor alone left the Ability hand's palm contacts (W_ii ≈ 3, next to fingers on
    // their stops at W_ii ≈ 2e4) at a proximal rate of 1 % and the solve at 1.01e-6 against 1e-6;
    // the second alone slowed other problems (Go1's feet, FCLib's BoxesStack1) past their caps.
    double wmax = 0, wmin = INFINITY;
    for (int i = 0; i < nc; ++i) {
      const double w = W.DiagonalBlock(i).diagonal().maxCoeff();
      wmax = std::max(wmax, w);
      if (w > 0) wmin = std::min(wmin, w);
    }
    if (!(wmax > 0)) wmax = wmin = 1.0;
    double sigma = params.proximal * wmax;
    for (const double floor : {1e-6 * wmax, 1e-6 * wmin}) {
      for (int k = 0; k < params.max_proximal_iterations; ++k) {
        CertifyFrictionContact(problem, r, ws.certificate);
        if (ws.certificate.error <= params.tolerance || params.deadline.Passed()) break;
        ws.q_k = problem.q - sigma * r;
        result.iterations += NewtonSolve(W, sigma, ws.q_k, problem.mu, params.tolerance,
                                         params.max_iterations, params.deadline, ws);
        sigma = std::max(0.5 * sigma, floor);
      }
      CertifyFrictionContact(problem, r, ws.certificate);
      if (ws.certificate.error <= params.tolerance || !(wmin < wmax)) break;
    }
  }
  const bool out_of_time = params.deadline.Passed();
  SetFrictionContactAnswer(problem, r, out_of_time ? LcpStatus::kTimeLimit : LcpStatus::kSolved,
                           params.tolerance, result);
  if (result.status == LcpStatus::kTimeLimit) {
    result.message = fmt::format("time limit reached after {} Newton iterations with error {:.3g}",
                                 result.iterations, result.error);
  }
  result.seconds = clock.Seconds();
}

}  // namespace coulomb
