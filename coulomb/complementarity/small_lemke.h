#pragma once
// Lemke's method for a small LCP (n ≤ kSmallLcpMaxSize) on a dense tableau held on the stack:
// the one-contact problems a Gauss–Seidel sweep solves thousands of times per step (the
// Stewart–Trinkle pyramid of one contact, d + 2 rows), where the general solver's allocation
// and refactorization (lemke.h) cost more than the pivots. Same method: covering vector of ones,
// complementary pivoting, lexicographic ratio test (the pyramid's λ row has a zero diagonal and
// q_λ = 0, so ties are the rule, not the exception).

#include <Eigen/Dense>

namespace coulomb {

inline constexpr int kSmallLcpMaxSize = 12;

using SmallLcpMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kSmallLcpMaxSize, kSmallLcpMaxSize>;
using SmallLcpVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kSmallLcpMaxSize, 1>;

// Finds z ≥ 0 with w = M z + q ≥ 0 and zᵀ w = 0; false (z untouched) on a secondary ray, a pivot
// cap or n out of range.
bool SolveSmallLcp(const SmallLcpMatrix& M, const SmallLcpVector& q, SmallLcpVector& z);

}  // namespace coulomb
