#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

#include <cmath>
#include <numbers>

#include "coulomb/base/small_vector.h"

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

}  // namespace coulomb
