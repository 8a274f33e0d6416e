#include "coulomb/formulations/trinkle/acceleration_sweeps.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>

#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The impulse `kind` allows nearest to `r`: the warm start projected onto the contact's set.
Eigen::Vector3d ProjectImpulse(AccelerationContactKind kind, double mu,
                               const Eigen::Vector2d& kappa, const Eigen::Vector3d& r) {
  const double rn = std::isfinite(r[0]) ? std::max(0.0, r[0]) : 0.0;
  switch (kind) {
    case AccelerationContactKind::kRolling: {
      Eigen::Vector3d out(rn, 0, 0);
      for (int j = 1; j < 3; ++j)
        out[j] = std::isfinite(r[j]) ? std::clamp(r[j], -mu * rn, mu * rn) : 0;
      return out;
    }
    case AccelerationContactKind::kSliding:
      return {rn, kappa[0] * rn, kappa[1] * rn};
    case AccelerationContactKind::kFrictionless:
      break;
  }
  return {rn, 0, 0};
}

// The velocity at the end of the step from the impulses alone: v₀ + Σ M⁻¹ J_kᵀ r_k.
void VelocityFromImpulses(const ContactRows& rows, const AccelerationSweepProblem& problem,
                          const Eigen::VectorXd& r, Eigen::VectorXd& v) {
  v = problem.v0;
  for (const int k : problem.active) {
    const Eigen::Vector3d rk = r.segment<3>(3 * k);
    if (!rk.isZero()) ApplyContactImpulse(rows, k, rk, v);
  }
}

// u = J v + bias of every active contact, and the largest natural residual (m/s, N s units).
double MeasureResidual(const ContactRows& rows, const AccelerationSweepProblem& problem,
                       AccelerationSweepResult& result) {
  double worst = 0;
  for (int i = 0; i < problem.num_active(); ++i) {
    const int k = problem.active[i];
    const Eigen::Vector3d u = ContactRowVelocity(rows, k, result.v) + problem.bias[i];
    result.u.segment<3>(3 * i) = u;
    const double residual =
        AccelerationContactResidual(problem.kind[i], problem.mu[i], result.r.segment<3>(3 * k), u);
    worst = std::isnan(residual) ? kInf : std::max(worst, residual);
  }
  return worst;
}

// Sliding contacts whose slip the current iterate would reverse within the step become rolling
// (acceleration_step.cc's rule, applied at each certificate instead of only after a converged
// solve): their impulse r_n (1, κ) lies inside the square, and u_T gains the slip they now remove.
// How many changed.
int RollReversingSlides(AccelerationSweepProblem& problem, AccelerationSweepResult& result) {
  int changed = 0;
  for (int i = 0; i < problem.num_active(); ++i) {
    const Eigen::Vector2d& slip = problem.slip[i];
    if (problem.kind[i] != AccelerationContactKind::kSliding ||
        (slip + result.u.segment<2>(3 * i + 1)).dot(slip) >= 0) {
      continue;
    }
    problem.kind[i] = AccelerationContactKind::kRolling;
    problem.kappa[i].setZero();
    problem.bias[i].tail<2>() += slip;
    ++changed;
  }
  return changed;
}

}  // namespace

double AccelerationContactResidual(AccelerationContactKind kind, double mu,
                                   const Eigen::Vector3d& r, const Eigen::Vector3d& u) {
  double worst = std::abs(std::min(r[0], u[0]));
  if (kind == AccelerationContactKind::kRolling) {
    // A tangent bounded by ±μ r_n: the distance from r_j to its projection after a step along
    // −u_j, zero exactly when u_j = 0 inside the bounds or u_j pushes against the bound it is at.
    const double bound = mu * std::max(r[0], 0.0);
    for (int j = 1; j < 3; ++j) {
      worst = std::max(worst, std::abs(r[j] - std::clamp(r[j] - u[j], -bound, bound)));
    }
  }
  return worst;
}

void SolveSquarePyramidContact(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                               Eigen::Vector3d& r) {
  if (q[0] >= 0) {  // separating: no force, and none is needed
    r.setZero();
    return;
  }
  // Each tangent free (0) or at its upper (+1) or lower (−1) bound; sticking first, then one
  // tangent at a bound, then both (a slide along the square's diagonal).
  static constexpr std::array<std::array<int, 2>, 9> kCases = {
      {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};
  const double accept = 1e-12 * q.cwiseAbs().maxCoeff();
  double best = kInf;
  Eigen::Vector3d best_r = Eigen::Vector3d::Zero();
  for (const auto& [st, so] : kCases) {
    // r = r_n e + Σ_free x_j e_j, e = (1, μ s_t, μ s_o); equations u_n = 0 and u_j = 0 (free j).
    const Eigen::Vector3d e(1, mu * st, mu * so);
    std::array<int, 3> equations{0, 0, 0};
    int m = 1;
    if (st == 0) equations[m++] = 1;
    if (so == 0) equations[m++] = 2;
    const Eigen::Vector3d We = W * e;
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 3, 3> S(m, m);
    Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 3, 1> rhs(m);
    for (int a = 0; a < m; ++a) {
      S(a, 0) = We[equations[a]];
      for (int c = 1; c < m; ++c) S(a, c) = W(equations[a], equations[c]);
      rhs[a] = -q[equations[a]];
    }
    const auto lu = S.fullPivLu();
    if (!lu.isInvertible()) continue;
    const auto y = lu.solve(rhs);
    if (!(y[0] > 0)) continue;  // a pressed contact only: separation was case one
    Eigen::Vector3d rc = y[0] * e;
    for (int a = 1; a < m; ++a) rc[equations[a]] = y[a];
    const double residual =
        AccelerationContactResidual(AccelerationContactKind::kRolling, mu, rc, W * rc + q);
    if (residual <= accept) {
      r = rc;
      return;
    }
    if (residual < best) {
      best = residual;
      best_r = rc;
    }
  }
  r = best_r;
}

namespace {

// A sliding contact's own force must push its normal apart, else no sweep can settle it. False,
// with the status and message set, for the first contact that does not.
bool EveryNormalPushesApart(const ContactRows& rows, const AccelerationSweepProblem& problem,
                            AccelerationSweepResult& result) {
  for (int i = 0; i < problem.num_active(); ++i) {
    const int k = problem.active[i];
    const Eigen::Matrix3d& W = rows.contacts[k].W.W;
    const double d = problem.kind[i] == AccelerationContactKind::kSliding
                         ? W(0, 0) + W.row(0).tail<2>().dot(problem.kappa[i])
                         : W(0, 0);
    if (!(d > 0)) {
      result.status = LcpStatus::kNotApplicable;
      fmt::format_to(
          std::back_inserter(result.message),
          "contact {}: its normal force does not accelerate it apart (e_nᵀ W e = {:.3g})", k, d);
      return false;
    }
  }
  return true;
}

// The sweep order (the active contacts in the rows' order: island by island, ground up), the
// warm start projected onto each contact's set, and the velocity it gives. Returns the scale of
// the certificate: the largest acceleration at c = 0, at least 1 m/s².
double StartSweeps(const ContactRows& rows, const AccelerationSweepProblem& problem,
                   const Eigen::VectorXd& warm_start, AccelerationSweepResult& result) {
  const int na = problem.num_active();
  const int nc = rows.num_contacts();
  result.slot.assign(static_cast<std::size_t>(nc), -1);
  for (int i = 0; i < na; ++i) result.slot[problem.active[i]] = i;
  result.order.clear();
  for (const int k : rows.order) {
    if (result.slot[k] >= 0) result.order.push_back(k);
  }
  if (warm_start.size() == 3 * nc) {
    for (int i = 0; i < na; ++i) {
      const int k = problem.active[i];
      result.r.segment<3>(3 * k) = ProjectImpulse(problem.kind[i], problem.mu[i], problem.kappa[i],
                                                  warm_start.segment<3>(3 * k));
    }
  }
  double b_scale = 0;
  for (int i = 0; i < na; ++i) {
    const Eigen::Vector3d q =
        ContactRowVelocity(rows, problem.active[i], problem.v0) + problem.bias[i];
    b_scale = std::max(b_scale, q.cwiseAbs().maxCoeff() / problem.time_step);
  }
  VelocityFromImpulses(rows, problem, result.r, result.v);
  return std::max(1.0, b_scale);
}

// One Gauss–Seidel update of contact k (active contact i): its own law's local solve with the
// others fixed, and v moved by the change of its impulse.
void UpdateContact(const ContactRows& rows, const AccelerationSweepProblem& problem, int k, int i,
                   AccelerationSweepResult& result) {
  const ContactRows::Row& row = rows.contacts[k];
  const Eigen::Vector3d u = ContactRowVelocity(rows, k, result.v) + problem.bias[i];
  const Eigen::Vector3d r_old = result.r.segment<3>(3 * k);
  Eigen::Vector3d r_new = r_old;
  switch (problem.kind[i]) {
    case AccelerationContactKind::kRolling:
      SolveSquarePyramidContact(row.W.W, u - row.W.W * r_old, problem.mu[i], r_new);
      break;
    case AccelerationContactKind::kSliding: {
      const Eigen::Vector3d e(1, problem.kappa[i][0], problem.kappa[i][1]);
      const double d = row.W.W.row(0).dot(e);
      r_new = std::max(0.0, r_old[0] - u[0] / d) * e;
      break;
    }
    case AccelerationContactKind::kFrictionless:
      r_new = {std::max(0.0, r_old[0] - u[0] / row.W.W(0, 0)), 0, 0};
      break;
  }
  const Eigen::Vector3d delta = r_new - r_old;
  if (!delta.isZero()) {
    ApplyContactImpulse(rows, k, delta, result.v);
    result.r.segment<3>(3 * k) = r_new;
  }
}

}  // namespace

void SolveAccelerationSweeps(const ContactRows& rows, AccelerationSweepProblem& problem,
                             const AccelerationSweepParams& params,
                             const Eigen::VectorXd& warm_start, AccelerationSweepResult& result) {
  const int na = problem.num_active();
  const double h = problem.time_step;
  result.message.clear();
  result.sweeps = 0;
  result.residual = kInf;
  math::ResizeKeepingStorage(result.r, 3 * rows.num_contacts());
  result.r.setZero();
  math::ResizeKeepingStorage(result.u, 3 * na);
  if (!EveryNormalPushesApart(rows, problem, result)) return;
  const double b_scale = StartSweeps(rows, problem, warm_start, result);
  const int every = std::max(1, params.check_every);
  const bool accelerate = params.acceleration_depth > 0 && na > params.accelerated_contacts;
  if (accelerate) {
    BeginSweepAcceleration(rows, result.order, params.acceleration_depth, result.r,
                           result.acceleration);
  }
  for (int sweep = 1; sweep <= params.max_sweeps; ++sweep) {
    if (accelerate && sweep > 1) AccelerateSweep(result.acceleration, result.r, result.v);
    for (const int k : result.order) UpdateContact(rows, problem, k, result.slot[k], result);
    result.sweeps = sweep;
    if (sweep % every != 0 && sweep != params.max_sweeps) continue;
    // The certificate, on the velocity recomputed from r (the answer returned), after a plain
    // sweep (an Anderson iterate may leave the contacts' sets; a sweep returns them).
    VelocityFromImpulses(rows, problem, result.r, result.v);
    result.residual = MeasureResidual(rows, problem, result) / h / b_scale;
    if (params.roll_reversing_slides && RollReversingSlides(problem, result) > 0) {
      result.residual = MeasureResidual(rows, problem, result) / h / b_scale;
      // Another problem now: the secants of the old one would mislead Anderson's step.
      if (accelerate) {
        BeginSweepAcceleration(rows, result.order, params.acceleration_depth, result.r,
                               result.acceleration);
      }
      continue;
    }
    if (result.residual <= params.tolerance) {
      result.status = LcpStatus::kSolved;
      return;
    }
    if (!std::isfinite(result.residual)) break;
  }
  if (result.sweeps == 0) {  // no sweep allowed: the warm start's own certificate
    result.residual = MeasureResidual(rows, problem, result) / h / b_scale;
    if (result.residual <= params.tolerance) {
      result.status = LcpStatus::kSolved;
      return;
    }
  }
  result.status = std::isfinite(result.residual) ? LcpStatus::kIterationLimit : LcpStatus::kStalled;
  fmt::format_to(
      std::back_inserter(result.message),
      "acceleration sweeps: relative natural residual {:.3g} above {:.3g} after {} sweeps",
      result.residual, params.tolerance, result.sweeps);
}

}  // namespace coulomb
