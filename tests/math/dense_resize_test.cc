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

// A vector reserved up front keeps its size and values, and then grows into its block.
TEST(DenseResizeKeepingStorage, ReservingKeepsSizeAndValues) {
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(5, 1.0, 5.0);
  ReserveStorage(v, 600);
  ASSERT_EQ(v.size(), 5);
  EXPECT_EQ(v, Eigen::VectorXd::LinSpaced(5, 1.0, 5.0));
  EXPECT_GE(StorageCapacity(v), 600);
  const double* block = v.data();
  ResizeKeepingStorage(v, 600);
  ExpectUsableAsAnEigenVector(v, 600);
#if defined(__GLIBC__) && EIGEN_MALLOC_ALREADY_ALIGNED
  EXPECT_EQ(v.data(), block);
#endif
}

// A matrix slot that holds a 3 × 6 block, then none, then 3 × 12, keeps one block (SAP's
// constraint slots, reused for contacts on one or two trees), and works as Eigen's matrix.
TEST(DenseResizeKeepingStorage, AMatrixChangingShapeKeepsItsBlock) {
  Eigen::MatrixXd m;
  ResizeKeepingStorage(m, 3, 12);
  const double* block = m.data();
  const Eigen::Index shapes[][2] = {{3, 6}, {0, 0}, {6, 6}, {1, 7}, {3, 12}, {12, 3}};
  for (const auto& shape : shapes) {
    ResizeKeepingStorage(m, shape[0], shape[1]);
    ASSERT_EQ(m.rows(), shape[0]);
    ASSERT_EQ(m.cols(), shape[1]);
    m = Eigen::MatrixXd::Constant(shape[0], shape[1], 2.0);  // same shape: Eigen keeps the block
    const Eigen::MatrixXd copy = m;
    EXPECT_EQ(copy.sum(), 2.0 * static_cast<double>(shape[0] * shape[1]));
#if defined(__GLIBC__) && EIGEN_MALLOC_ALREADY_ALIGNED
    EXPECT_EQ(m.data(), block) << shape[0] << " x " << shape[1];
    EXPECT_GE(StorageCapacity(m), 36);
#endif
  }
  ResizeKeepingStorage(m, 10, 10);  // beyond the block: a new one, at least twice as large
  EXPECT_EQ(m.size(), 100);
  EXPECT_GE(StorageCapacity(m), 100);
  m.setIdentity();
  EXPECT_EQ(m.trace(), 10.0);
}

}  // namespace
}  // namespace coulomb::math
