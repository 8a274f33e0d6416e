#include "coulomb/complementarity/friction_contact_problem.h"

#include <fmt/format.h>

#include <cmath>

namespace coulomb {

std::string ValidateFrictionContactProblem(const FrictionContactProblem& p) {
  const Eigen::Index m = 3 * p.mu.size();
  if (p.W.rows() != m || p.W.cols() != m) {
    return fmt::format("W is {} x {} but 3 n_c = {}", p.W.rows(), p.W.cols(), m);
  }
  if (p.q.size() != m) return fmt::format("q has {} entries but 3 n_c = {}", p.q.size(), m);
  for (int k = 0; k < p.W.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(p.W, k); it; ++it) {
      if (!std::isfinite(it.value())) {
        return fmt::format("W[{}][{}] = {} is not finite", it.row(), it.col(), it.value());
      }
    }
  }
  if (!p.q.allFinite()) return "q has a NaN or infinite entry";
  for (Eigen::Index c = 0; c < p.mu.size(); ++c) {
    if (!(std::isfinite(p.mu[c]) && p.mu[c] >= 0)) {
      return fmt::format("mu[{}] = {} must be finite and >= 0", c, p.mu[c]);
    }
  }
  return "";
}

}  // namespace coulomb
