// UseSingleThreadedNumerics: the libraries under a Newton step stay on the calling thread.

#include "coulomb/base/numerics_threads.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "coulomb/math/sparse_cholesky.h"

namespace coulomb {
namespace {

int ThreadsOfThisProcess() {
  int count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/task"))
    ++count;
  return count;
}

// The 7-point Laplacian of an n³ grid plus the identity (SPD), lower triangle: a 3-D pattern
// whose supernodes are large enough for CHOLMOD's parallel loops (hundreds of columns).
Eigen::SparseMatrix<double> GridLaplacian(int n) {
  const auto index = [n](int i, int j, int k) { return (i * n + j) * n + k; };
  std::vector<Eigen::Triplet<double>> entries;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        const int a = index(i, j, k);
        entries.emplace_back(a, a, 7.0);
        if (i > 0) entries.emplace_back(a, index(i - 1, j, k), -1.0);
        if (j > 0) entries.emplace_back(a, index(i, j - 1, k), -1.0);
        if (k > 0) entries.emplace_back(a, index(i, j, k - 1), -1.0);
      }
    }
  }
  Eigen::SparseMatrix<double> lower(n * n * n, n * n * n);
  lower.setFromTriplets(entries.begin(), entries.end());
  return lower;
}

// Before the fix, Debian's CHOLMOD opened its supernodal loops on four OpenMP threads whatever
// omp_set_num_threads said: three more threads here, spinning beside the step.
TEST(NumericsThreads, SupernodalCholeskyStartsNoThreads) {
  UseSingleThreadedNumerics();
  const int before = ThreadsOfThisProcess();
  const Eigen::SparseMatrix<double> lower = GridLaplacian(18);
  math::CholeskyFactor factor;
  ASSERT_TRUE(factor.Factor(lower, math::CholeskyMethod::kSupernodal));
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(lower.rows(), -1.0, 1.0);
  Eigen::VectorXd x;
  factor.Solve(b, x);
  const Eigen::SparseMatrix<double> full = lower.selfadjointView<Eigen::Lower>();
  EXPECT_LT((full * x - b).norm(), 1e-10 * b.norm());  // it did factor the matrix
  EXPECT_EQ(ThreadsOfThisProcess(), before);
}

}  // namespace
}  // namespace coulomb
