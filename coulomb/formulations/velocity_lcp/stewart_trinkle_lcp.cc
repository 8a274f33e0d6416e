#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "coulomb/base/small_vector.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

// cos and sin of direction k of d, as the row of G that maps (t, o) onto it.
Eigen::Vector2d Direction(int k, int d) {
  const double angle = 2.0 * std::numbers::pi * k / d;
  return {std::cos(angle), std::sin(angle)};
}

// The (n, t, o) part of M and q: G W Gᵀ and G q, where G maps (normal impulses, then d direction
// impulses per contact) to the (n, t, o) components. Each row of G has one or two nonzeros, so
// this sums the same products a dense G W Gᵀ would, without forming G.
void FillForceRows(const Eigen::MatrixXd& W, const Eigen::VectorXd& q, int nc, int d,
                   Eigen::MatrixXd& gw, LcpProblem& lcp) {
  const int forces = nc * (1 + d);
  // The d directions once (their cos and sin were a tenth of a one-contact step when computed
  // per use).
  SmallVector<Eigen::Vector2d, 16> directions;
  for (int k = 0; k < d; ++k) directions.push_back(Direction(k, d));
  // gw = G W (forces × 3 n_c), row by row of G.
  gw.setZero(forces, 3 * nc);
  for (int c = 0; c < nc; ++c) {
    gw.row(c) = W.row(3 * c);
    for (int k = 0; k < d; ++k) {
      const Eigen::Vector2d& g = directions[k];
      gw.row(nc + c * d + k) = g[0] * W.row(3 * c + 1) + g[1] * W.row(3 * c + 2);
    }
  }
  // M_ff = (G W) Gᵀ, column by column of Gᵀ.
  for (int c = 0; c < nc; ++c) {
    lcp.M.col(c).head(forces) = gw.col(3 * c);
    lcp.q[c] = q[3 * c];
    for (int k = 0; k < d; ++k) {
      const Eigen::Vector2d& g = directions[k];
      lcp.M.col(nc + c * d + k).head(forces) = g[0] * gw.col(3 * c + 1) + g[1] * gw.col(3 * c + 2);
      lcp.q[nc + c * d + k] = g[0] * q[3 * c + 1] + g[1] * q[3 * c + 2];
    }
  }
}

void Make(const Eigen::MatrixXd& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
          int directions, Eigen::MatrixXd& gw, LcpProblem& lcp) {
  const int nc = static_cast<int>(mu.size());
  const int d = directions;
  const int m = nc * (d + 2), forces = nc * (1 + d);
  lcp.M.setZero(m, m);
  lcp.q.setZero(m);
  FillForceRows(W, q, nc, d, gw, lcp);
  for (int c = 0; c < nc; ++c) {
    for (int k = 0; k < d; ++k) {
      lcp.M(nc + c * d + k, forces + c) = 1.0;   // E
      lcp.M(forces + c, nc + c * d + k) = -1.0;  // −Eᵀ
    }
    lcp.M(forces + c, c) = mu[c];  // U
  }
  lcp.name = "stewart-trinkle";
}

}  // namespace

LcpProblem MakeStewartTrinkleLcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& mu, int directions) {
  LcpProblem lcp;
  Eigen::MatrixXd gw;
  Make(W, q, mu, directions, gw, lcp);
  return lcp;
}

void MakeStewartTrinkleLcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& mu, int directions, Eigen::MatrixXd& gw,
                           LcpProblem& lcp) {
  Make(W, q, mu, directions, gw, lcp);
}

void GuessStewartTrinkleBasis(const Eigen::VectorXd& impulses, const Eigen::VectorXd& mu,
                              int directions, std::vector<char>& guess, Eigen::VectorXd& z) {
  const int nc = static_cast<int>(mu.size());
  const int d = directions;
  const int forces = nc * (1 + d);
  guess.assign(static_cast<std::size_t>(nc) * static_cast<std::size_t>(d + 2), 0);
  math::ResizeKeepingStorage(z, nc * (d + 2));
  z.setZero();
  if (impulses.size() != 3 * nc) return;
  const double sector = 2.0 * std::numbers::pi / d;
  // Pressed: p_n above the rounding of the largest normal impulse (a sliding box's fourth corner
  // carries 1e-51 N s of the last answer's noise, with a tangential impulse of either sign).
  double largest = 0;
  for (int c = 0; c < nc; ++c) largest = std::max(largest, impulses[3 * c]);
  for (int c = 0; c < nc; ++c) {
    const double p_n = impulses[3 * c];
    if (!(p_n > 1e-9 * largest)) continue;  // separating (or no warm start): w_n in the basis
    guess[c] = 1;
    z[c] = p_n;
    if (!(mu[c] > 0.0)) continue;  // frictionless: β = 0, and λ free of any row it could meet
    const double t = impulses[3 * c + 1], o = impulses[3 * c + 2];
    if (!std::isfinite(t) || !std::isfinite(o)) continue;
    // t = a D_j0 + b D_j1 on the two directions around the impulse's angle θ:
    // a = |t| sin(φ1 − θ) / sin s, b = |t| sin(θ − φ0) / sin s.
    double theta = std::atan2(o, t);
    if (theta < 0.0) theta += 2.0 * std::numbers::pi;
    const int j0 = std::min(static_cast<int>(theta / sector), d - 1);
    const int j1 = (j0 + 1) % d;
    const double magnitude = std::hypot(t, o);
    const double a = magnitude * std::sin((j0 + 1) * sector - theta) / std::sin(sector);
    const double b = magnitude * std::sin(theta - j0 * sector) / std::sin(sector);
    // Sliding: the impulse on the pyramid's face, Σβ = μ p_n (to the rounding of last step's
    // answer and its re-expression in new frames).
    // No friction at all (a cube resting flat): β = 0 with w_β = 0 too, and leaving β out keeps
    // the basis the size of the pressed contacts, as Lemke's vertex answers have it (two β per
    // corner made the 10-cube stack's 60-unknown bases singular at every step).
    if (!(a + b > 1e-9 * mu[c] * p_n)) continue;
    const bool sliding = a + b >= (1.0 - 1e-6) * mu[c] * p_n;
    const double lean = 1e-6 * (a + b);
    guess[nc + c * d + j0] = a > lean ? 1 : 0;
    guess[nc + c * d + j1] = b > lean ? 1 : 0;
    guess[forces + c] = sliding ? 1 : 0;
    z[nc + c * d + j0] = a;
    z[nc + c * d + j1] = b;
  }
}

void CompleteSlipSpeeds(const LcpProblem& lcp, int num_contacts, int directions, Eigen::VectorXd& z,
                        Eigen::VectorXd& w) {
  const int nc = num_contacts, d = directions, forces = nc * (1 + d);
  w.noalias() = lcp.M * z;
  w += lcp.q;
  for (int c = 0; c < nc; ++c) {
    if (z[forces + c] != 0.0) continue;
    bool pushes = false;
    for (int j = 0; j < d; ++j) pushes = pushes || z[nc + c * d + j] != 0.0;
    if (pushes) continue;
    // w_j = D_jᵀ u_T + λ for every direction j: the smallest λ ≥ 0 that makes them all ≥ 0.
    double slip = 0;
    for (int j = 0; j < d; ++j) slip = std::max(slip, -w[nc + c * d + j]);
    z[forces + c] = slip;
  }
}

}  // namespace coulomb
