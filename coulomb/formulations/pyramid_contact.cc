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

// Whether z (p_n, β, λ) with contact velocity u = W r + q is the pyramid LCP's answer, to
// rounding: β ≥ 0, and every direction's w_j = D_jᵀ u_T + λ ≥ 0 (λ is the largest slip against a
// direction, so w_j = 0 on the active ones by construction).
bool SlidingConditionsHold(const Eigen::Vector2d& slip, double lambda, double tolerance,
                           const PyramidDirections& directions) {
  if (lambda < -tolerance) return false;
  for (int i = 0; i < directions.count; ++i) {
    if (directions.direction[i].dot(slip) + lambda < -tolerance) return false;
  }
  return true;
}

// z of a sliding answer: p_n, λ, and every β zero (the caller sets the active ones).
void BeginSlidingAnswer(double p, double lambda, int d, double* z) {
  z[0] = p;
  for (int i = 0; i < d; ++i) z[1 + i] = 0;
  z[d + 1] = std::max(0.0, lambda);
}

// Friction on edge j of the pyramid alone: r = p (1, μ D_j), u_n = 0.
bool TrySlidingEdge(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu, int j,
                    double tolerance, const PyramidDirections& directions, double* z) {
  const Eigen::Vector3d e(1, mu * directions.direction[j].x(), mu * directions.direction[j].y());
  const Eigen::Vector3d We = W * e;
  if (!(We[0] > 0)) return false;
  const double p = -q[0] / We[0];
  if (!(p >= 0)) return false;
  const Eigen::Vector2d slip = p * We.tail<2>() + q.tail<2>();
  const double lambda = -directions.direction[j].dot(slip);
  if (!SlidingConditionsHold(slip, lambda, tolerance, directions)) return false;
  BeginSlidingAnswer(p, lambda, directions.count, z);
  z[1 + j] = mu * p;
  return true;
}

// Friction on the face between edges j and k: r = p (1, μ D_k) + a (0, D_j − D_k), 0 ≤ a ≤ μ p,
// with u_n = 0 and the slip equally against both, (D_j − D_k)ᵀ u_T = 0: two equations, two
// unknowns.
bool TrySlidingFace(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu, int j, int k,
                    double tolerance, const PyramidDirections& directions, double* z) {
  const Eigen::Vector2d& Dj = directions.direction[j];
  const Eigen::Vector2d& Dk = directions.direction[k];
  const Eigen::Vector3d e(1, mu * Dk.x(), mu * Dk.y());
  const Eigen::Vector3d f(0, Dj.x() - Dk.x(), Dj.y() - Dk.y());
  const Eigen::Vector3d We = W * e, Wf = W * f;
  const double a11 = We[0], a12 = Wf[0], a21 = f.dot(We), a22 = f.dot(Wf);
  const double det = a11 * a22 - a12 * a21;
  if (!(std::abs(det) > 1e-14 * (std::abs(a11 * a22) + std::abs(a12 * a21)))) return false;
  const double b1 = -q[0], b2 = -f.dot(q);
  const double p = (b1 * a22 - a12 * b2) / det;
  double a = (a11 * b2 - a21 * b1) / det;
  if (!(p >= 0)) return false;
  const double slack = 1e-12 * mu * p;
  if (a < -slack || a > mu * p + slack) return false;
  a = std::clamp(a, 0.0, mu * p);
  const Eigen::Vector2d slip = (p * We + a * Wf + q).tail<2>();
  const double lambda = -Dj.dot(slip);
  if (!SlidingConditionsHold(slip, lambda, tolerance, directions)) return false;
  BeginSlidingAnswer(p, lambda, directions.count, z);
  z[1 + j] = a;
  z[1 + k] = mu * p - a;
  return true;
}

}  // namespace

bool SolvePyramidSliding(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                         const Eigen::Vector2d& toward, const PyramidDirections& directions,
                         double* z) {
  if (!(q[0] < 0) || !(mu > 0)) return false;
  const int d = directions.count;
  // The slip's sign conditions hold to rounding of the velocities the problem holds.
  const double tolerance = 1e-12 * q.cwiseAbs().maxCoeff();
  // Edges and faces nearest `toward` first: there the answer usually is, and which of several
  // answers (W's normal–tangent coupling can admit more than one) is taken is then the nearest.
  int first = 0;
  for (int i = 1; i < d; ++i) {
    if (directions.direction[i].dot(toward) > directions.direction[first].dot(toward)) first = i;
  }
  for (int step = 0; step < d; ++step) {
    // Edges first, first + 1, first − 1, first + 2, …, each with the face on its + side.
    const int offset = (step + 1) / 2 * (step % 2 == 1 ? 1 : -1);
    const int j = ((first + offset) % d + d) % d;
    if (TrySlidingEdge(W, q, mu, j, tolerance, directions, z)) return true;
    if (TrySlidingFace(W, q, mu, j, (j + 1) % d, tolerance, directions, z)) return true;
  }
  return false;
}

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
  // Otherwise friction pushes toward its tangential part, and the sliding answer is on the edge
  // or face there.
  Eigen::Vector2d toward = -q.tail<2>();
  if (local.invertible) {
    const Eigen::Vector3d r = -local.W_inverse * q;
    toward = r.tail<2>();
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
  // Sliding in closed form, edge by edge and face by face: Lemke's tableau (below) cost three
  // fifths of the 200-sphere bin's velocity-LCP step. It stays for what no edge or face answers
  // to rounding.
  if (SolvePyramidSliding(W, q, mu, toward, directions, z)) return true;
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
