#include "coulomb/complementarity/lcp_problem.h"

#include <cmath>
#include <string>

namespace coulomb {
namespace {

std::string Describe(double x) {
  return std::isnan(x) ? "NaN" : "infinite";
}

}  // namespace

std::string ValidateLcp(const LcpProblem& problem) {
  const auto rows = problem.M.rows();
  const auto cols = problem.M.cols();
  if (rows != cols) {
    return "M is " + std::to_string(rows) + "x" + std::to_string(cols) + ", not square";
  }
  if (problem.q.size() != rows) {
    return "q has " + std::to_string(problem.q.size()) + " entries but M is " +
           std::to_string(rows) + "x" + std::to_string(cols);
  }
  for (Eigen::Index i = 0; i < rows; ++i) {
    if (!std::isfinite(problem.q[i])) {
      return "q[" + std::to_string(i) + "] is " + Describe(problem.q[i]);
    }
    for (Eigen::Index j = 0; j < cols; ++j) {
      if (!std::isfinite(problem.M(i, j))) {
        return "M[" + std::to_string(i) + "][" + std::to_string(j) + "] is " +
               Describe(problem.M(i, j));
      }
    }
  }
  return "";
}

}  // namespace coulomb
