// math/dense_resize.h: a vector sized per contact keeps its block through shrinking and growing
// again, and behaves as Eigen's resized vector in every use.

#include "coulomb/math/dense_resize.h"

#include <gtest/gtest.h>

#include <Eigen/Core>

namespace coulomb::math {
namespace {

// Fills v with values of its own index, through Eigen, and checks them back and in a copy.
void ExpectUsableAsAnEigenVector(Eigen::VectorXd& v, Eigen::Index n) {
  ASSERT_EQ(v.size(), n);
  v = Eigen::VectorXd::LinSpaced(n, 0.0, static_cast<double>(n) - 1.0);
  const Eigen::VectorXd copy = v;
  ASSERT_EQ(copy.size(), n);
  for (Eigen::Index i = 0; i < n; ++i) EXPECT_EQ(copy[i], static_cast<double>(i));
  EXPECT_EQ(v.sum(), n * (n - 1) / 2.0);
}

TEST(DenseResizeKeepingStorage, ShrinkingAndGrowingAgainKeepsTheBlock) {
  Eigen::VectorXd v;
  const Eigen::Index sizes[] = {300, 40, 0, 120, 300, 3, 0, 1};
  ResizeKeepingStorage(v, sizes[0]);
  ExpectUsableAsAnEigenVector(v, sizes[0]);
  const double* block = v.data();
  for (const Eigen::Index n : sizes) {
    ResizeKeepingStorage(v, n);
    ExpectUsableAsAnEigenVector(v, n);
#if defined(__GLIBC__) && EIGEN_MALLOC_ALREADY_ALIGNED
    EXPECT_EQ(v.data(), block) << n;
    EXPECT_GE(StorageCapacity(v), 300) << n;
#endif
  }
  // Eigen's own resize still works on a vector whose block is larger than its size.
  v.resize(17);
  ExpectUsableAsAnEigenVector(v, 17);
}

TEST(DenseResizeKeepingStorage, GrowsGeometricallyWhenTheBlockIsFull) {
  Eigen::VectorXd v;
  int new_blocks = 0;
  const double* block = nullptr;
  for (Eigen::Index n = 1; n <= 1000; ++n) {  // a count that creeps up one at a time
    ResizeKeepingStorage(v, n);
    ASSERT_EQ(v.size(), n);
    v[n - 1] = 1.0;
    if (v.data() != block) ++new_blocks;
    block = v.data();
    EXPECT_GE(StorageCapacity(v), n);
  }
#if defined(__GLIBC__) && EIGEN_MALLOC_ALREADY_ALIGNED
  EXPECT_LE(new_blocks, 12);  // doubling: about log2(1000) blocks, not 1000
#endif
  EXPECT_GE(new_blocks, 1);
}

}  // namespace
}  // namespace coulomb::math
