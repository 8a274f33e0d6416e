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

SlideCandidate Slide(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu, double theta) {
  SlideCandidate c;
  const Eigen::Vector2d d(std::cos(theta), std::sin(theta));
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

bool IsSlidingSolution(const SlideCandidate& c, double theta, double scale) {
  const Eigen::Vector2d d(std::cos(theta), std::sin(theta));
  return c.valid && c.ut.dot(d) >= -1e-12 * scale && std::abs(c.cross) <= 1e-9 * scale;
}

// Bisection on θ in [a, b] where the cross product changes sign.
double RefineRoot(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu, double a, double b,
                  double fa) {
  for (int k = 0; k < 60 && b - a > 1e-15; ++k) {
    const double m = 0.5 * (a + b);
    const SlideCandidate cm = Slide(W, q, mu, m);
    if ((cm.cross < 0) == (fa < 0)) {
      a = m;
      fa = cm.cross;
    } else {
      b = m;
    }
  }
  return 0.5 * (a + b);
}

// Projected fixed point r ← P_K(r − ρ(W r + q + Φ)) for degenerate local problems (W_NN ≈ 0,
// tangencies the grid misses); converges for small ρ on PSD W.
Eigen::Vector3d FixedPoint(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                           Eigen::Vector3d r) {
  const double norm = W.norm();
  const double rho = norm > 0 ? 1.0 / norm : 1.0;
  for (int k = 0; k < 200; ++k) {
    r = ProjectOntoFrictionCone(r - rho * DeSaxceVelocity(W * r + q, mu), mu);
  }
  return r;
}

}  // namespace

SingleContactSolution SolveSingleContact(const Eigen::Matrix3d& W, const Eigen::Vector3d& q,
                                         double mu, const Eigen::Vector3d& previous) {
  SingleContactSolution out;
  if (q[0] >= 0) return out;  // separation
  // Sticking.
  const Eigen::LDLT<Eigen::Matrix3d> ldlt(W);
  if (ldlt.info() == Eigen::Success && ldlt.isPositive() && W.diagonal().minCoeff() > 0) {
    const Eigen::Vector3d r = -ldlt.solve(q);
    const bool finite = r.allFinite() && (W * r + q).norm() <= 1e-10 * (q.norm() + 1e-300);
    if (finite && r[0] > 0 && r.tail<2>().norm() <= mu * r[0] * (1 + 1e-12)) {
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
  // Sliding: bracket the roots of u_T × d on a grid, keep the valid ones.
  const double scale = q.norm() + W.norm() * previous.norm();
  constexpr int kGrid = 32;
  const double step = 2 * std::numbers::pi / kGrid;
  double best_distance = std::numeric_limits<double>::infinity();
  SlideCandidate previous_sample = Slide(W, q, mu, 0.0);
  for (int k = 1; k <= kGrid; ++k) {
    const double a = (k - 1) * step, b = k * step;
    const SlideCandidate sample = Slide(W, q, mu, b);
    if (previous_sample.valid && sample.valid &&
        (previous_sample.cross < 0) != (sample.cross < 0)) {
      const double theta = RefineRoot(W, q, mu, a, b, previous_sample.cross);
      const SlideCandidate c = Slide(W, q, mu, theta);
      const double distance = (c.r - previous).norm();
      if (IsSlidingSolution(c, theta, scale) && distance < best_distance) {
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
