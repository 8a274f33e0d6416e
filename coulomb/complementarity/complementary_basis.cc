#include "coulomb/complementarity/complementary_basis.h"

namespace coulomb {

std::optional<Eigen::VectorXd> SolveComplementaryBasis(const LcpProblem& problem,
                                                       const std::vector<char>& in_alpha,
                                                       const Eigen::VectorXd* near) {
  const int n = problem.size();
  std::vector<int> alpha;
  for (int i = 0; i < n; ++i) {
    if (in_alpha[i]) alpha.push_back(i);
  }
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  const int k = static_cast<int>(alpha.size());
  if (k == 0) return z;
  Eigen::MatrixXd block(k, k);
  Eigen::VectorXd rhs(k);
  for (int a = 0; a < k; ++a) {
    rhs[a] = -problem.q[alpha[a]];
    for (int b = 0; b < k; ++b) block(a, b) = problem.M(alpha[a], alpha[b]);
  }
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(block);
  Eigen::VectorXd x;
  if (lu.rcond() > 1e-14) {
    x = lu.solve(rhs);
    for (int step = 0; step < 2; ++step) x += lu.solve(rhs - block * x);
  } else {
    if (near == nullptr) return std::nullopt;
    x.resize(k);
    for (int a = 0; a < k; ++a) x[a] = (*near)[alpha[a]];
    const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(block);
    for (int step = 0; step < 2; ++step) x += cod.solve(rhs - block * x);
    const double scale = 1.0 + rhs.lpNorm<Eigen::Infinity>() +
                         block.lpNorm<Eigen::Infinity>() * x.lpNorm<Eigen::Infinity>();
    if (!((rhs - block * x).lpNorm<Eigen::Infinity>() <= 1e-12 * scale)) return std::nullopt;
  }
  if (!x.allFinite()) return std::nullopt;
  for (int a = 0; a < k; ++a) z[alpha[a]] = x[a];
  return z;
}

std::vector<char> GuessBasis(const Eigen::VectorXd& z, const Eigen::VectorXd& w) {
  std::vector<char> alpha(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i) alpha[i] = z[i] > w[i] ? 1 : 0;
  return alpha;
}

}  // namespace coulomb
