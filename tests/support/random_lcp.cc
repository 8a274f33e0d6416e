#include "tests/support/random_lcp.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "coulomb/base/random.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

namespace coulomb::testing {
namespace {

Eigen::MatrixXd Gaussian(int rows, int cols, SplitMix64& rng) {
  Eigen::MatrixXd A(rows, cols);
  for (int j = 0; j < cols; ++j) {
    for (int i = 0; i < rows; ++i) A(i, j) = rng.Normal();
  }
  return A;
}

Eigen::VectorXd Gaussian(int n, SplitMix64& rng) {
  return Gaussian(n, 1, rng).col(0);
}

Eigen::Vector3d UnitVector(SplitMix64& rng) {
  Eigen::Vector3d v(rng.Normal(), rng.Normal(), rng.Normal());
  return v.normalized();
}

// Completes n to a right-handed frame (n, t, o) with n × t = o.
void Frame(const Eigen::Vector3d& n, Eigen::Vector3d& t, Eigen::Vector3d& o) {
  const Eigen::Vector3d helper =
      std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
  t = (helper - helper.dot(n) * n).normalized();
  o = n.cross(t);
}

}  // namespace

LcpProblem MakePMatrixLcp(int n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  const Eigen::MatrixXd B = Gaussian(n, n, rng);
  const Eigen::MatrixXd S = Gaussian(n, n, rng);
  LcpProblem p;
  // Positive definite (symmetric part BBᵀ/n + 0.1 I) plus a skew part: a nonsymmetric P-matrix.
  p.M = B * B.transpose() / n + 0.1 * Eigen::MatrixXd::Identity(n, n) + 0.5 * (S - S.transpose());
  p.q = Gaussian(n, rng);
  p.name = "random-P";
  return p;
}

LcpProblem MakeSymmetricPsdLcp(int n, int rank, std::uint64_t seed) {
  SplitMix64 rng(seed);
  const Eigen::MatrixXd B = Gaussian(n, rank, rng);
  LcpProblem p;
  p.M = B * B.transpose() / rank;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n), w = Eigen::VectorXd::Zero(n);
  for (int i = 0; i < n; ++i) {
    if (rng.Uniform() < 0.5) {
      z[i] = rng.Uniform(0.1, 2.0);
    } else {
      w[i] = rng.Uniform(0.0, 2.0);  // may be 0: degenerate on purpose
    }
  }
  p.q = w - p.M * z;
  p.name = "random-PSD";
  return p;
}

LcpProblem MakeStrictlyCopositiveLcp(int n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  Eigen::MatrixXd N(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) N(i, j) = rng.Uniform() < 0.3 ? rng.Uniform(0.0, 1.0) : 0.0;
  }
  N.diagonal().array() += 0.5;
  const Eigen::MatrixXd S = Gaussian(n, n, rng);
  LcpProblem p;
  p.M = N + (S - S.transpose());
  p.q = Gaussian(n, rng);
  p.name = "random-copositive";
  return p;
}

LcpProblem MakeDiagonallyDominantLcp(int n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  const Eigen::MatrixXd B = Gaussian(n, n, rng);
  LcpProblem p;
  p.M = 0.5 * (B + B.transpose()) / std::sqrt(static_cast<double>(n));
  for (int i = 0; i < n; ++i) p.M(i, i) = p.M.row(i).cwiseAbs().sum() + 0.5;
  p.q = Gaussian(n, rng);
  p.name = "random-dominant";
  return p;
}

RandomContactSystem MakeRandomContactSystem(int num_contacts, std::uint64_t seed) {
  SplitMix64 rng(seed);
  // Bodies: about one per four contacts; each rests on the ground on four corners
  // (rank-deficient on purpose), the rest of the contacts join random pairs.
  const int num_bodies = std::max(1, num_contacts / 5);
  struct Body {
    Eigen::Matrix<double, 6, 6> inverse_mass = Eigen::Matrix<double, 6, 6>::Zero();
    Eigen::Vector3d half_extent;
  };
  std::vector<Body> bodies(num_bodies);
  for (Body& b : bodies) {
    b.half_extent =
        Eigen::Vector3d(rng.Uniform(0.05, 0.5), rng.Uniform(0.05, 0.5), rng.Uniform(0.05, 0.5));
    const double density = rng.Uniform(500, 5000);
    const Eigen::Vector3d e = 2 * b.half_extent;
    const double m = density * e.prod();
    const Eigen::Vector3d inertia(m * (e.y() * e.y() + e.z() * e.z()) / 12,
                                  m * (e.x() * e.x() + e.z() * e.z()) / 12,
                                  m * (e.x() * e.x() + e.y() * e.y()) / 12);
    b.inverse_mass.topLeftCorner<3, 3>() = Eigen::Matrix3d::Identity() / m;
    b.inverse_mass.bottomRightCorner<3, 3>() = inertia.cwiseInverse().asDiagonal();
  }
  const int dofs = 6 * num_bodies;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3 * num_contacts, dofs);
  // Row of J for the velocity of point r (relative to the COM) of body b along u.
  const auto add_point_row = [&](int row, int b, const Eigen::Vector3d& r, const Eigen::Vector3d& u,
                                 double sign) {
    J.block<1, 3>(row, 6 * b) += sign * u.transpose();
    J.block<1, 3>(row, 6 * b + 3) += sign * r.cross(u).transpose();
  };
  for (int c = 0; c < num_contacts; ++c) {
    const int a = c / 4 < num_bodies ? c / 4 : static_cast<int>(rng.Below(num_bodies));
    Eigen::Vector3d n, t, o, r;
    const Eigen::Vector3d& h = bodies[a].half_extent;
    int other = -1;
    if (c / 4 < num_bodies) {  // a box corner on the ground
      n = Eigen::Vector3d::UnitZ();
      r = Eigen::Vector3d((c & 1) ? h.x() : -h.x(), (c & 2) ? h.y() : -h.y(), -h.z());
    } else {  // a point on the box surface, against another body or a wall
      n = UnitVector(rng);
      r = Eigen::Vector3d(rng.Uniform(-1, 1) * h.x(), rng.Uniform(-1, 1) * h.y(),
                          rng.Uniform(-1, 1) * h.z());
      if (num_bodies > 1 && rng.Uniform() < 0.7) {
        other = static_cast<int>(rng.Below(num_bodies - 1));
        if (other >= a) ++other;
      }
    }
    Frame(n, t, o);
    const Eigen::Vector3d dirs[3] = {n, t, o};
    for (int k = 0; k < 3; ++k) {
      add_point_row(3 * c + k, a, r, dirs[k], 1.0);
      if (other >= 0) {
        const Eigen::Vector3d r_other(rng.Uniform(-1, 1) * bodies[other].half_extent.x(),
                                      rng.Uniform(-1, 1) * bodies[other].half_extent.y(),
                                      rng.Uniform(-1, 1) * bodies[other].half_extent.z());
        add_point_row(3 * c + k, other, r_other, dirs[k], -1.0);
      }
    }
  }
  Eigen::MatrixXd inverse_mass = Eigen::MatrixXd::Zero(dofs, dofs);
  for (int b = 0; b < num_bodies; ++b)
    inverse_mass.block<6, 6>(6 * b, 6 * b) = bodies[b].inverse_mass;
  RandomContactSystem s;
  s.num_contacts = num_contacts;
  s.delassus = J * inverse_mass * J.transpose();
  // Free motion: gravity over one 1 ms step plus random velocities; forces: gravity + noise.
  Eigen::VectorXd v(dofs), f(dofs);
  for (int b = 0; b < num_bodies; ++b) {
    const double m = 1.0 / bodies[b].inverse_mass(0, 0);
    for (int k = 0; k < 6; ++k) {
      v[6 * b + k] = 0.1 * rng.Normal();
      f[6 * b + k] = m * rng.Normal();
    }
    v[6 * b + 2] -= 9.81e-3;
    f[6 * b + 2] -= 9.81 * m;
  }
  s.velocity = J * v;
  s.accel = J * (inverse_mass * f);
  return s;
}

LcpProblem MakeStewartTrinkleLcp(const RandomContactSystem& system, int directions, double mu) {
  return coulomb::MakeStewartTrinkleLcp(system.delassus, system.velocity,
                                        Eigen::VectorXd::Constant(system.num_contacts, mu),
                                        directions);
}

LcpProblem MakeTrinklePyramidLcp(const RandomContactSystem& system, int num_sliding, double mu,
                                 std::uint64_t seed) {
  SplitMix64 rng(seed);
  const int nc = system.num_contacts;
  const int ns = std::min(num_sliding, nc);
  const int nr = nc - ns;
  // Contact force components x = (c_Sn, c_Rn, c_Rt, c_Ro) → full force vector via the known
  // sliding directions (eq. 27–28): c_St = −μ c_Sn v̂_t, c_So = −μ c_Sn v̂_o.
  const int nx = ns + 3 * nr;
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(3 * nc, nx);
  // Rows P pick (a_Sn, a_Rn, a_Rt, a_Ro) out of the 3nc accelerations.
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(nx, 3 * nc);
  for (int s = 0; s < ns; ++s) {
    const double angle = rng.Uniform(0, 2 * std::numbers::pi);
    G(3 * s, s) = 1.0;
    G(3 * s + 1, s) = -mu * std::cos(angle);
    G(3 * s + 2, s) = -mu * std::sin(angle);
    P(s, 3 * s) = 1.0;
  }
  for (int r = 0; r < nr; ++r) {
    const int c = ns + r;
    for (int k = 0; k < 3; ++k) {
      G(3 * c + k, ns + k * nr + r) = 1.0;
      P(ns + k * nr + r, 3 * c + k) = 1.0;
    }
  }
  const Eigen::MatrixXd A = P * system.delassus * G;  // square, nx × nx
  const Eigen::VectorXd b = P * system.accel;
  // Substitute c_Rt = s⁺_t − μ c_Rn (same for o): z = (c_Sn, c_Rn, s⁺_t, s⁺_o, a⁻_t, a⁻_o).
  const int n = ns + 5 * nr;
  LcpProblem p;
  p.M = Eigen::MatrixXd::Zero(n, n);
  p.q = Eigen::VectorXd::Zero(n);
  const int rn = ns, rt = ns + nr, ro = ns + 2 * nr, am_t = ns + 3 * nr, am_o = ns + 4 * nr;
  p.M.topLeftCorner(nx, nx) = A;
  p.M.block(0, rn, nx, nr) -= mu * (A.block(0, rt, nx, nr) + A.block(0, ro, nx, nr));
  p.q.head(nx) = b;
  for (int r = 0; r < nr; ++r) {
    p.M(rt + r, am_t + r) = 1.0;  // a⁺_t = a_t + a⁻_t
    p.M(ro + r, am_o + r) = 1.0;
    p.M(am_t + r, rn + r) = 2 * mu;  // s⁻_t = 2μ c_n − s⁺_t
    p.M(am_t + r, rt + r) = -1.0;
    p.M(am_o + r, rn + r) = 2 * mu;
    p.M(am_o + r, ro + r) = -1.0;
  }
  p.name = "trinkle-pyramid";
  return p;
}

}  // namespace coulomb::testing
