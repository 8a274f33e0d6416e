#include "coulomb/formulations/pyramid_contact.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "coulomb/complementarity/small_lemke.h"

namespace coulomb {

PyramidDirections MakePyramidDirections(int d) {
  PyramidDirections out;
  out.count = std::clamp(d, 3, kMaxPyramidDirections);
  for (int j = 0; j < out.count; ++j) {
    const double angle = 2.0 * std::numbers::pi * j / out.count;
    out.direction[j] = {std::cos(angle), std::sin(angle)};
  }
  return out;
}

namespace {

// r_T as a combination a D_j + b D_k of the two directions around it (a, b ≥ 0): the least
// Σ β that makes it, into β.
void SplitOnPolygon(const Eigen::Vector2d& t, const PyramidDirections& directions, double* beta) {
  const int d = directions.count;
  for (int j = 0; j < d; ++j) beta[j] = 0;
  if (t.squaredNorm() == 0) return;
  int j = 0;
  for (int i = 1; i < d; ++i) {
    if (directions.direction[i].dot(t) > directions.direction[j].dot(t)) j = i;
  }
  const Eigen::Vector2d& a = directions.direction[j];
  const int k = a.x() * t.y() - a.y() * t.x() >= 0 ? (j + 1) % d : (j + d - 1) % d;
  const Eigen::Vector2d& b = directions.direction[k];
  Eigen::Matrix2d basis;
  basis << a, b;
  const Eigen::Vector2d ab = basis.inverse() * t;
  beta[j] = std::max(0.0, ab[0]);
  beta[k] = std::max(0.0, ab[1]);
}

}  // namespace

bool SolvePyramidContact(const LocalDelassus& local, const Eigen::Vector3d& q, double mu,
                         const PyramidDirections& directions, double* z) {
  const int d = directions.count, n = d + 2;
  // Separation: p_n = β = 0, and λ just large enough that every w_j = D_jᵀ q_T + λ ≥ 0.
  if (q[0] >= 0) {
    double lambda = 0;
    for (int j = 0; j < d; ++j)
      lambda = std::max(lambda, -directions.direction[j].dot(q.tail<2>()));
    for (int i = 0; i <= d; ++i) z[i] = 0;
    z[d + 1] = lambda;
    return true;
  }
  // Sticking: u = 0 with r = −W⁻¹ q inside the pyramid (λ = 0, every w_j = 0, w_λ ≥ 0).
  if (local.invertible) {
    const Eigen::Vector3d r = -local.W_inverse * q;
    if (r[0] > 0 && (local.W * r + q).norm() <= 1e-10 * q.norm()) {
      SplitOnPolygon(r.tail<2>(), directions, z + 1);
      double sum = 0;
      for (int j = 0; j < d; ++j) sum += z[1 + j];
      if (sum <= mu * r[0] * (1 + 1e-12)) {
        z[0] = r[0];
        z[d + 1] = 0;
        return true;
      }
    }
  }
  const Eigen::Matrix3d& W = local.W;
  // Frictionless (μ = 0, a joint limit posed as a contact): β = 0, p_n closes the normal gap,
  // and λ is the largest slip along a direction, as in separation. In closed form: the pyramid
  // LCP's zero β rows would be degenerate pivots for Lemke.
  if (mu == 0 && W(0, 0) > 0) {
    z[0] = -q[0] / W(0, 0);
    const Eigen::Vector2d slip = q.tail<2>() + W.block<2, 1>(1, 0) * z[0];
    double lambda = 0;
    for (int j = 0; j < d; ++j) lambda = std::max(lambda, -directions.direction[j].dot(slip));
    for (int j = 1; j <= d; ++j) z[j] = 0;
    z[d + 1] = lambda;
    return true;
  }
  // G maps (p_n, β) to (n, t, o); the force block of M is G W Gᵀ (stewart_trinkle_lcp.cc).
  Eigen::Matrix<double, Eigen::Dynamic, 3, 0, kMaxPyramidDirections + 1, 3> G =
      Eigen::Matrix<double, Eigen::Dynamic, 3, 0, kMaxPyramidDirections + 1, 3>::Zero(d + 1, 3);
  G(0, 0) = 1;
  for (int j = 0; j < d; ++j) G.block<1, 2>(1 + j, 1) = directions.direction[j].transpose();
  SmallLcpMatrix M = SmallLcpMatrix::Zero(n, n);
  M.topLeftCorner(d + 1, d + 1).noalias() = G * W * G.transpose();
  for (int j = 0; j < d; ++j) {
    M(1 + j, d + 1) = 1.0;   // E
    M(d + 1, 1 + j) = -1.0;  // −Eᵀ
  }
  M(d + 1, 0) = mu;
  SmallLcpVector lcp_q = SmallLcpVector::Zero(n);
  lcp_q.head(d + 1).noalias() = G * q;
  SmallLcpVector solution;
  if (!SolveSmallLcp(M, lcp_q, solution)) return false;
  for (int i = 0; i < n; ++i) z[i] = solution[i];
  return true;
}

Eigen::Vector3d PyramidContactImpulse(const double* z, const PyramidDirections& directions) {
  Eigen::Vector3d r(z[0], 0, 0);
  for (int j = 0; j < directions.count; ++j) r.tail<2>() += z[1 + j] * directions.direction[j];
  return r;
}

double PyramidNaturalResidual(const double* z, const Eigen::Vector3d& u, double mu,
                              const PyramidDirections& directions) {
  const int d = directions.count;
  const double lambda = z[d + 1];
  double worst = std::abs(std::min(z[0], u[0]));
  double sum = 0;
  for (int j = 0; j < d; ++j) {
    const double w = directions.direction[j].dot(u.tail<2>()) + lambda;
    worst = std::max(worst, std::abs(std::min(z[1 + j], w)));
    sum += z[1 + j];
  }
  return std::max(worst, std::abs(std::min(lambda, mu * z[0] - sum)));
}

}  // namespace coulomb
