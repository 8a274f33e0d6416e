#include "coulomb/complementarity/lcp_scaling.h"

#include <cmath>

#include "coulomb/math/dense_resize.h"

namespace coulomb {

Eigen::VectorXd ComputeLcpScaling(const Eigen::MatrixXd& M) {
  Eigen::VectorXd d;
  ComputeLcpScaling(M, d);
  return d;
}

void ComputeLcpScaling(const Eigen::MatrixXd& M, Eigen::VectorXd& d) {
  const Eigen::Index n = M.rows();
  math::ResizeKeepingStorage(d, n);  // a stepper's LCP changes size with its contacts
  d.setOnes();
  if (n == 0) return;
  const double max_abs = M.cwiseAbs().maxCoeff();
  if (max_abs == 0) return;
  const double negligible = 1e-12 * max_abs;
  for (Eigen::Index i = 0; i < n; ++i) {
    double s = std::abs(M(i, i));
    if (s <= negligible) {
      s = std::sqrt(M.row(i).cwiseAbs().maxCoeff() * M.col(i).cwiseAbs().maxCoeff());
    }
    // A row and column of zeros carries no scale; leave it alone.
    d[i] = s > negligible ? 1.0 / std::sqrt(s) : 1.0;
  }
}

LcpProblem ScaleLcp(const LcpProblem& problem, const Eigen::VectorXd& d) {
  LcpProblem scaled;
  scaled.name = problem.name;
  ScaleLcp(problem, d, scaled);
  return scaled;
}

void ScaleLcp(const LcpProblem& problem, const Eigen::VectorXd& d, LcpProblem& scaled) {
  math::ResizeKeepingStorage(scaled.M, problem.M.rows(), problem.M.cols());
  math::ResizeKeepingStorage(scaled.q, problem.q.size());
  scaled.M = d.asDiagonal() * problem.M * d.asDiagonal();
  scaled.q = d.cwiseProduct(problem.q);
}

}  // namespace coulomb
