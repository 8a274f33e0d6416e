#include "coulomb/complementarity/lcp_certificate.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coulomb/math/dense_resize.h"

namespace coulomb {

double LcpCertificate::Worst() const {
  if (!finite) return std::numeric_limits<double>::infinity();
  return std::max({natural_residual, z_infeasibility, w_infeasibility, complementarity});
}

bool LcpCertificate::Passes(double tolerance) const {
  return finite && Worst() <= tolerance;
}

LcpCertificate CertifyLcp(const LcpProblem& problem, const Eigen::VectorXd& z,
                          Eigen::VectorXd* w_out) {
  LcpCertificate c;
  const int n = problem.size();
  if (z.size() != n) return c;  // finite = false: a wrong-sized answer never passes
  Eigen::VectorXd own;          // w's storage when the caller does not want it
  Eigen::VectorXd& w = w_out != nullptr ? *w_out : own;
  math::ResizeKeepingStorage(w, n);
  // Long double accumulation: the certificate must not inherit the rounding of the solver
  // that produced z (docs/notes/complementarity.md §6.3).
  for (int i = 0; i < n; ++i) {
    long double acc = problem.q[i];
    for (int j = 0; j < n; ++j) acc += static_cast<long double>(problem.M(i, j)) * z[j];
    w[i] = static_cast<double>(acc);
  }
  c.finite = z.allFinite() && w.allFinite();
  if (!c.finite) return c;
  if (n == 0) return c;
  const double scale = 1.0 + problem.q.lpNorm<Eigen::Infinity>();
  c.natural_residual = z.cwiseMin(w).cwiseAbs().maxCoeff() / scale;
  c.z_infeasibility = std::max(0.0, -z.minCoeff()) / scale;
  c.w_infeasibility = std::max(0.0, -w.minCoeff()) / scale;
  const double zn = z.lpNorm<Eigen::Infinity>();
  const double wn = w.lpNorm<Eigen::Infinity>();
  // Relative to (1 + ‖z‖∞)(1 + ‖w‖∞), not 1 + ‖z‖∞‖w‖∞: where every z_i is basic, w is zero up to
  // the rounding of M z (≈ ε ‖M‖ ‖z‖), so z_i w_i grows with ‖z‖² while ‖z‖∞‖w‖∞ stays ≈ 0. A
  // heavy body's three sliding contacts (z ≈ 1 050, w ≈ 1.8e-12) failed at 1.8e-9 for that alone.
  c.complementarity = z.cwiseProduct(w).cwiseAbs().maxCoeff() / ((1.0 + zn) * (1.0 + wn));
  c.mean_gap = z.dot(w) / n;
  return c;
}

}  // namespace coulomb
