#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

#include <cmath>
#include <numbers>

namespace coulomb {

LcpProblem MakeStewartTrinkleLcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& mu, int directions) {
  const int nc = static_cast<int>(mu.size());
  const int d = directions;
  // G maps (normal impulses, then d direction impulses per contact) to the (n, t, o) components.
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(nc * (1 + d), 3 * nc);
  for (int c = 0; c < nc; ++c) {
    G(c, 3 * c) = 1.0;
    for (int k = 0; k < d; ++k) {
      const double angle = 2.0 * std::numbers::pi * k / d;
      G(nc + c * d + k, 3 * c + 1) = std::cos(angle);
      G(nc + c * d + k, 3 * c + 2) = std::sin(angle);
    }
  }
  const int m = nc * (d + 2), forces = nc * (1 + d);
  LcpProblem lcp;
  lcp.M = Eigen::MatrixXd::Zero(m, m);
  lcp.M.topLeftCorner(forces, forces) = G * W * G.transpose();
  for (int c = 0; c < nc; ++c) {
    for (int k = 0; k < d; ++k) {
      lcp.M(nc + c * d + k, forces + c) = 1.0;   // E
      lcp.M(forces + c, nc + c * d + k) = -1.0;  // −Eᵀ
    }
    lcp.M(forces + c, c) = mu[c];  // U
  }
  lcp.q = Eigen::VectorXd::Zero(m);
  lcp.q.head(forces) = G * q;
  lcp.name = "stewart-trinkle";
  return lcp;
}

}  // namespace coulomb
