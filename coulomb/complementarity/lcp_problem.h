#pragma once
// The linear complementarity problem LCP(q, M):
//   find z in R^n with  z >= 0,  w = M z + q >= 0,  z^T w = 0.
// Solvers take it by const reference and never modify it (they scale private copies).

#include <Eigen/Dense>
#include <string>

namespace coulomb {

struct LcpProblem {
  Eigen::MatrixXd M;  // n x n, any structure (dense storage)
  Eigen::VectorXd q;  // n
  std::string name;   // for reports only (file name or generator tag)

  int size() const { return static_cast<int>(q.size()); }
};

// Returns "" when the problem is well formed (square M, matching q, all entries finite),
// otherwise a sentence naming the first defect, e.g. "M[2][5] is NaN".
std::string ValidateLcp(const LcpProblem& problem);

}  // namespace coulomb
