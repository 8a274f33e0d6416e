#include "coulomb/complementarity/single_contact_solver.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "coulomb/complementarity/friction_cone.h"

namespace coulomb {
namespace {

// The sliding candidate for direction θ: r, the tangential velocity, and whether r_N > 0.
struct SlideCandidate {
  Eigen::Vector3d r;
  Eigen::Vector2d ut;
  double cross = 0;  // u_T × d: zero at a solution
  bool valid = false;
};

SlideCandidate Slide(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                     const Eigen::Vector2d& d) {
  SlideCandidate c;
  Eigen::Vector3d dir;
  dir << 1.0, -mu * d;
  const double denominator = W.row(0).dot(dir);
  if (!(denominator > 0)) return c;
  const double rn = -q[0] / denominator;
  c.r = rn * dir;
  c.ut = (W * c.r + q).tail<2>();
  c.cross = c.ut[0] * d[1] - c.ut[1] * d[0];
  c.valid = rn >= 0;
  return c;
}

Eigen::Vector2d Direction(double theta) {
  return {std::cos(theta), std::sin(theta)};
}

bool IsSlidingSolution(const SlideCandidate& c, const Eigen::Vector2d& d, double scale) {
  return c.valid && c.ut.dot(d) >= -1e-12 * scale && std::abs(c.cross) <= 1e-9 * scale;
}

// The root of the cross product in [a, b] (where it changes sign) by the Illinois variant of
// regula falsi: superlinear on these smooth functions, so ~8 evaluations where bisection to
// 1e-15 took 50; it falls back to bisection whenever the secant step leaves the bracket.
double RefineRoot(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu, double a, double b,
                  double fa, double fb) {
  int side = 0;
  for (int k = 0; k < 60 && b - a > 1e-14; ++k) {
    double m = (fa * b - fb * a) / (fa - fb);
    if (!(m > a && m < b)) m = 0.5 * (a + b);
    const double fm = Slide(W, q, mu, Direction(m)).cross;
    if (fm == 0) return m;
    if ((fm < 0) == (fa < 0)) {
      a = m;
      fa = fm;
      if (side == -1) fb *= 0.5;  // Illinois: halve the stale end's value
      side = -1;
    } else {
      b = m;
      fb = fm;
      if (side == 1) fa *= 0.5;
      side = 1;
    }
    if (std::abs(fm) <= 1e-15 * (std::abs(fa) + std::abs(fb))) return m;
  }
  return (fa * b - fb * a) / (fa - fb);
}

// Sliding as a one-parameter family: with r_T = −μ r_N d and u_T = α d, u_T = −λ r_T for
// λ = α / ‖r_T‖ ≥ 0, so for each λ the conditions u_N = 0, u_T = −λ r_T are linear,
//   (W + λ P) r = −q,  P = diag(0, 1, 1),
// and sliding is a root of f(λ) = ‖r_T(λ)‖ − μ r_N(λ): f(0) > 0 where sticking left the cone,
// f → −μ q_N / W_NN < 0 as λ → ∞. Newton on f (r' = −(W + λ P)⁻¹ P r), kept inside a bracket
// by bisection. Gives the slip direction d = −r_T / ‖r_T‖ (false: no root found, the caller
// falls back to the angular scan). Called only where sticking failed, so f(0) > 0 is assumed
// when `previous` (the last sweep's impulse) gives a starting λ; a wrong assumption costs only
// the caller's test, which every root must pass.
bool SlideByNewton(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                   const Eigen::Vector3d& previous, Eigen::Vector2d& d) {
  if (!(mu > 0) || !(W(0, 0) > 0)) return false;
  // f by block elimination of the normal row, (W + λ P) = [a bᵀ; c T + λ I]: with
  // B = (T + λ I)⁻¹ (2 × 2, in closed form), e = Bᵀ b and the Schur complement s = a − e·c,
  //   x_N = (g_N − e·g_T) / s,  x_T = B (g_T − c x_N)  solves (W + λ P) x = g,
  // for g = −q (r) and g = (0, −r_T) (r'). A third of the flops of a 3 × 3 inverse and two
  // products, and f is evaluated two or three times per sliding contact per sweep.
  const double a = W(0, 0);
  const Eigen::Vector2d b = W.block<1, 2>(0, 1).transpose(), c = W.block<2, 1>(1, 0);
  const Eigen::Matrix2d T = W.bottomRightCorner<2, 2>();
  const Eigen::Vector2d qT = q.tail<2>();
  Eigen::Vector3d r, dr;
  const auto f = [&](double lambda, double& slope) {
    const double t00 = T(0, 0) + lambda, t11 = T(1, 1) + lambda;
    const double inverse_det = 1 / (t00 * t11 - T(0, 1) * T(1, 0));
    Eigen::Matrix2d B;
    B << t11 * inverse_det, -T(0, 1) * inverse_det, -T(1, 0) * inverse_det, t00 * inverse_det;
    const Eigen::Vector2d e = B.transpose() * b;
    const double s = a - e.dot(c);
    r[0] = (e.dot(qT) - q[0]) / s;
    r.tail<2>() = -(B * (qT + c * r[0]));
    dr[0] = e.dot(r.tail<2>()) / s;
    dr.tail<2>() = -(B * (r.tail<2>() + c * dr[0]));
    const double rt = r.tail<2>().norm();
    slope = (rt > 0 ? r.tail<2>().dot(dr.tail<2>()) / rt : 0.0) - mu * dr[0];
    return rt - mu * r[0];
  };
  // f's sign keeps the bracket [lo, hi] around the root; a step that leaves it bisects instead
  // (and finds the right end by doubling while it is unknown).
  // The step itself is Newton's on φ(λ) = 1/‖r_T‖ − 1/(μ r_N) where r_N > 0 (the secular-
  // equation trick of trust-region solvers): ‖r_T(λ)‖ ~ c / (w + λ) makes φ nearly linear, so
  // a root far from λ = 0 (fast sliding) takes two or three steps where f's Newton crept to it.
  const auto newton_step = [&](double lambda, double value, double slope) {
    const double rt = r.tail<2>().norm();
    if (r[0] > 0 && rt > 0) {
      const double phi = 1 / rt - 1 / (mu * r[0]);
      const double dphi =
          -r.tail<2>().dot(dr.tail<2>()) / (rt * rt * rt) + dr[0] / (mu * r[0] * r[0]);
      if (dphi > 0) return lambda - phi / dphi;
    }
    return slope < 0 ? lambda - value / slope : INFINITY;
  };
  double slope = 0;
  double lo = 0, hi = std::numeric_limits<double>::infinity();
  double lambda = 0, value = 0;
  // Warm: inside Gauss-Seidel a sliding contact's λ moves little between sweeps and steps. The
  // last impulse on the cone's boundary gives it from the tangential rows of (W + λ P) r = −q:
  // λ = −(q_T + W_T r)·r_T / ‖r_T‖², exact when that impulse is this problem's root.
  bool started = false;
  if (const double rt2 = previous.tail<2>().squaredNorm(); previous[0] > 0 && rt2 > 0) {
    const double warm = -(q.tail<2>() + W.bottomRows<2>() * previous).dot(previous.tail<2>()) / rt2;
    if (warm > 0 && std::isfinite(warm)) {
      value = f(warm, slope);
      if (std::isfinite(value)) {
        lambda = warm;
        (value > 0 ? lo : hi) = lambda;
        started = true;
      }
    }
  }
  if (!started) value = f(0, slope);
  if (!started && !(value > 0)) return false;
  // A first guess from the frictionless normal impulse r_N0 and its slip s0: (W_TT + λ I) r_T ≈
  // −s0 with ‖r_T‖ = μ r_N0 gives λ ≈ ‖s0‖ / (μ r_N0) − tr(W_TT) / 2. Fast sliding puts the root
  // thousands of times W's scale from 0, where every step from 0 only doubled λ.
  if (!started && q[0] < 0) {
    const double rn0 = -q[0] / W(0, 0);
    const double guess = (W.block<2, 1>(1, 0) * rn0 + q.tail<2>()).norm() / (mu * rn0) -
                         0.5 * W.bottomRightCorner<2, 2>().trace();
    if (guess > 0 && std::isfinite(guess)) {
      double guess_slope = 0;
      const double guess_value = f(guess, guess_slope);
      if (std::isfinite(guess_value)) {
        lambda = guess, value = guess_value, slope = guess_slope;
        (value > 0 ? lo : hi) = lambda;
      } else {
        value = f(0, slope);  // back to λ = 0's r and slope
      }
    }
  }
  // Relative to the impulse: f is a difference of two norms of it, which rounding in the 3 × 3
  // solves of an ill-conditioned W (the corners of a box) perturbs at ~1e-13 of their size.
  const double tolerance = 1e-12 * (1 + mu) * (std::abs(q[0]) / W(0, 0) + 1e-300);
  // Also done when λ stops moving (rounding can keep |f| above `tolerance`); the caller's test
  // decides anyway.
  for (int k = 0;
       k < 100 && std::abs(value) > tolerance && (std::isinf(hi) || hi - lo > 1e-14 * hi); ++k) {
    double next = newton_step(lambda, value, slope);
    if (!(next > lo && next < hi)) {
      next = std::isfinite(hi) ? 0.5 * (lo + hi) : std::max(4 * lo, W.trace());
    }
    const bool settled = std::abs(next - lambda) <= 1e-12 * std::abs(lambda);
    lambda = next;
    value = f(lambda, slope);
    if (!std::isfinite(value)) return false;
    (value > 0 ? lo : hi) = lambda;
    if (settled) break;
  }
  const double rt = r.tail<2>().norm();
  if (!(rt > 0) || !(r[0] > 0) || !r.allFinite()) return false;
  d = -r.tail<2>() / rt;
  return true;
}

// The grid's directions, computed once: the scan below then needs no trigonometry.
constexpr int kGrid = 32;
const std::array<Eigen::Vector2d, kGrid + 1>& GridDirections() {
  static const std::array<Eigen::Vector2d, kGrid + 1> directions = [] {
    std::array<Eigen::Vector2d, kGrid + 1> d;
    for (int k = 0; k <= kGrid; ++k) d[k] = Direction(2 * std::numbers::pi * k / kGrid);
    return d;
  }();
  return directions;
}

// Projected fixed point r ← P_K(r − ρ(W r + q + Φ)) for degenerate local problems (W_NN ≈ 0,
// tangencies the grid misses); converges for small ρ on PSD W.
Eigen::Vector3d FixedPoint(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                           Eigen::Vector3d r) {
  const double norm = W.norm();
  const double rho = norm > 0 ? 1.0 / norm : 1.0;
  for (int k = 0; k < 200; ++k) {
    const Eigen::Vector3d next =
        ProjectOntoFrictionCone(r - rho * DeSaxceVelocity(W * r + q, mu), mu);
    const bool settled = (next - r).norm() <= 1e-15 * (1 + next.norm());  // a fixed point
    r = next;
    if (settled) break;
  }
  return r;
}

}  // namespace

LocalDelassus MakeLocalDelassus(const Eigen::Matrix3d& W) {
  LocalDelassus out;
  out.W = W;
  // W = L D Lᵀ in closed form, without pivoting: for a symmetric positive definite W that is
  // backward stable, and positive definiteness is exactly d₀, d₁, d₂ > 0. (Eigen's pivoting LDLT
  // object cost a tenth of a small scene's step, once per contact.)
  const double d0 = W(0, 0);
  if (!(d0 > 0) || !(W(1, 1) > 0) || !(W(2, 2) > 0)) return out;
  const double l10 = W(1, 0) / d0, l20 = W(2, 0) / d0;
  const double d1 = W(1, 1) - l10 * W(1, 0);
  if (!(d1 > 0)) return out;
  const double l21 = (W(2, 1) - l20 * W(1, 0)) / d1;
  const double d2 = W(2, 2) - l20 * W(2, 0) - l21 * l21 * d1;
  if (!(d2 > 0)) return out;
  // W⁻¹ = L⁻ᵀ D⁻¹ L⁻¹, with L⁻¹ unit lower triangular.
  Eigen::Matrix3d L_inverse = Eigen::Matrix3d::Identity();
  L_inverse(1, 0) = -l10;
  L_inverse(2, 1) = -l21;
  L_inverse(2, 0) = l10 * l21 - l20;
  const Eigen::Vector3d d_inverse(1 / d0, 1 / d1, 1 / d2);
  out.W_inverse.noalias() = L_inverse.transpose() * d_inverse.asDiagonal() * L_inverse;
  out.invertible = out.W_inverse.allFinite();
  if (!out.invertible) out.W_inverse.setZero();
  return out;
}

SingleContactSolution SolveSingleContact(const Eigen::Matrix3d& W, const Eigen::Vector3d& q,
                                         double mu, const Eigen::Vector3d& previous) {
  if (q[0] >= 0) return {};  // separation, before any factorization
  return SolveSingleContact(MakeLocalDelassus(W), q, mu, previous);
}

SingleContactSolution SolveSingleContact(const LocalDelassus& local, const Eigen::Vector3d& q,
                                         double mu, const Eigen::Vector3d& previous) {
  SingleContactSolution out;
  if (q[0] >= 0) return out;  // separation
  const Eigen::Matrix3d& W = local.W;
  // Sticking.
  if (local.invertible) {
    Eigen::Vector3d r = -local.W_inverse * q;
    // Up to two steps of iterative refinement: local W blocks of one body touched at several points
    // are nearly singular, and the plain solve's residual (1e-6 relative on FCLib's OneObject)
    // failed the check below, sending a valid sticking contact to the slow fixed point.
    // Squared norms: the test runs for every sticking contact on every sweep, and three square
    // roots were a visible share of a pile's local solves.
    // Each test once per iterate: the plain solve usually passes, and testing it again after the
    // loop was a tenth of a sticking contact's solve.
    const double bound2 = 1e-20 * (q.squaredNorm() + 1e-300);
    const auto solves = [&] { return r.allFinite() && (W * r + q).squaredNorm() <= bound2; };
    bool finite = solves();
    for (int k = 0; k < 2 && !finite && r.allFinite(); ++k) {
      r -= local.W_inverse * (W * r + q);
      finite = solves();
    }
    const double limit = mu * r[0] * (1 + 1e-12);
    if (finite && r[0] > 0 && r.tail<2>().squaredNorm() <= limit * limit) {
      out.r = r;
      out.regime = ContactRegime::kSticking;
      return out;
    }
  }
  if (mu == 0 && W(0, 0) > 0) {
    out.r << -q[0] / W(0, 0), 0, 0;
    out.regime = ContactRegime::kSliding;
    return out;
  }
  const double scale = q.norm() + W.norm() * previous.norm();
  // Sliding by Newton on λ (SlideByNewton): no trigonometry, a few 3 × 3 solves; accepted only by
  // the test the bracketed roots below pass.
  if (Eigen::Vector2d d; SlideByNewton(W, q, mu, previous, d)) {
    const SlideCandidate c = Slide(W, q, mu, d);
    if (IsSlidingSolution(c, d, scale)) {
      out.r = c.r;
      out.regime = ContactRegime::kSliding;
      return out;
    }
  }
  const double step = 2 * std::numbers::pi / kGrid;
  // Sliding near the previous direction first: inside NSGS the regime and direction of a contact
  // rarely change between sweeps, and a root bracketed there is the one closest to `previous`,
  // the same choice the grid below makes (two evaluations instead of the grid's 33).
  if (previous[0] > 0 && previous.tail<2>().squaredNorm() > 0) {
    const double theta = std::atan2(-previous[2], -previous[1]);  // r_T = −μ r_N d
    const double a = theta - 0.25 * step, b = theta + 0.25 * step;
    const SlideCandidate ca = Slide(W, q, mu, Direction(a)), cb = Slide(W, q, mu, Direction(b));
    if (ca.valid && cb.valid && (ca.cross < 0) != (cb.cross < 0)) {
      const Eigen::Vector2d d = Direction(RefineRoot(W, q, mu, a, b, ca.cross, cb.cross));
      const SlideCandidate c = Slide(W, q, mu, d);
      if (IsSlidingSolution(c, d, scale)) {
        out.r = c.r;
        out.regime = ContactRegime::kSliding;
        return out;
      }
    }
  }
  // Sliding: bracket the roots of u_T × d on a grid, keep the valid ones.
  const auto& grid = GridDirections();
  double best_distance = std::numeric_limits<double>::infinity();
  SlideCandidate previous_sample = Slide(W, q, mu, grid[0]);
  for (int k = 1; k <= kGrid; ++k) {
    const double a = (k - 1) * step, b = k * step;
    const SlideCandidate sample = Slide(W, q, mu, grid[k]);
    if (previous_sample.valid && sample.valid &&
        (previous_sample.cross < 0) != (sample.cross < 0)) {
      const Eigen::Vector2d d =
          Direction(RefineRoot(W, q, mu, a, b, previous_sample.cross, sample.cross));
      const SlideCandidate c = Slide(W, q, mu, d);
      const double distance = (c.r - previous).norm();
      if (IsSlidingSolution(c, d, scale) && distance < best_distance) {
        best_distance = distance;
        out.r = c.r;
        out.regime = ContactRegime::kSliding;
      }
    }
    previous_sample = sample;
  }
  if (out.regime == ContactRegime::kSliding) return out;
  out.r = FixedPoint(W, q, mu, ProjectOntoFrictionCone(previous, mu));
  out.regime = ContactRegime::kFallback;
  return out;
}

}  // namespace coulomb
