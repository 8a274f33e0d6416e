// AssignFromTriplets against Eigen's setFromTriplets (the independent reference): the same
// matrix to the bit, duplicates included, for both storage orders, and no allocation once warm.

#include "coulomb/math/sparse_assembly.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "coulomb/base/random.h"

namespace coulomb::math {
namespace {

// Ours and Eigen's matrix of buffer's entries, compared entry by entry and bit by bit.
template <int Options>
void ExpectSameAsEigen(TripletBuffer& buffer, int rows, int cols,
                       Eigen::SparseMatrix<double, Options, int>& ours) {
  AssignFromTriplets(buffer, rows, cols, ours);
  Eigen::SparseMatrix<double, Options, int> reference(rows, cols);
  reference.setFromTriplets(buffer.entries.begin(), buffer.entries.end());
  ASSERT_TRUE(ours.isCompressed());
  ASSERT_EQ(ours.nonZeros(), reference.nonZeros());
  for (int o = 0; o <= ours.outerSize(); ++o) {
    ASSERT_EQ(ours.outerIndexPtr()[o], reference.outerIndexPtr()[o]) << "outer " << o;
  }
  for (int k = 0; k < ours.nonZeros(); ++k) {
    ASSERT_EQ(ours.innerIndexPtr()[k], reference.innerIndexPtr()[k]);
    ASSERT_EQ(ours.valuePtr()[k], reference.valuePtr()[k]);  // bit for bit
  }
}

// `entries` random entries of a rows × cols matrix: few distinct positions, so many duplicates;
// values of mixed magnitude expose the summation order.
void FillRandomly(int rows, int cols, int entries, SplitMix64& rng, TripletBuffer& buffer) {
  buffer.clear();
  for (int e = 0; e < entries && rows > 0 && cols > 0; ++e) {
    const int r = static_cast<int>(rng.Next() % static_cast<std::uint64_t>(rows));
    const int c = static_cast<int>(rng.Next() % static_cast<std::uint64_t>(cols));
    buffer.add(r, c, (rng.Uniform() - 0.5) * std::pow(10.0, static_cast<int>(rng.Next() % 12)));
  }
}

template <int Options>
void ExpectSameAsEigen(int rows, int cols, int entries, std::uint64_t seed) {
  SplitMix64 rng(seed);
  TripletBuffer buffer;
  Eigen::SparseMatrix<double, Options, int> ours;
  for (int trial = 0; trial < 3; ++trial) {  // reuse the same buffer and matrix
    FillRandomly(rows, cols, entries, rng, buffer);
    ExpectSameAsEigen(buffer, rows, cols, ours);
  }
}

TEST(AssignFromTriplets, EntriesAlreadyInStorageOrderAreCopiedAsEigenStoresThem) {
  // Column by column, rows rising, some columns empty: the copy path; then one entry out of
  // order and one duplicate, each of which must take the sorting path and agree too.
  TripletBuffer buffer;
  for (int col = 0; col < 6; col += 2) {
    for (int row = col % 3; row < 5; ++row) buffer.add(row, col, 1.0 + row + 10.0 * col);
  }
  Eigen::SparseMatrix<double> ours;
  ExpectSameAsEigen(buffer, 5, 6, ours);
  buffer.add(0, 1, 7.0);
  ExpectSameAsEigen(buffer, 5, 6, ours);
  buffer.entries.pop_back();
  buffer.add(4, 4, 0.5);  // duplicate of the last entry
  ExpectSameAsEigen(buffer, 5, 6, ours);
}

TEST(AssignFromTriplets, GivesEigensMatrixBitForBitWithDuplicates) {
  ExpectSameAsEigen<Eigen::ColMajor>(7, 5, 60, 1);
  ExpectSameAsEigen<Eigen::RowMajor>(7, 5, 60, 2);
  ExpectSameAsEigen<Eigen::ColMajor>(40, 300, 500, 3);  // empty columns among full ones
  ExpectSameAsEigen<Eigen::RowMajor>(300, 40, 500, 4);
  ExpectSameAsEigen<Eigen::ColMajor>(3, 3, 0, 5);  // no entries at all
}

// A matrix whose size follows the contact count: shrinking (down to no columns at all) and
// growing again still gives Eigen's matrix, and a size that fits the outer index's block keeps
// it, where the C library can say how large the block is.
template <int Options>
void ExpectResizesAsEigen(std::uint64_t seed) {
  SplitMix64 rng(seed);
  TripletBuffer buffer;
  Eigen::SparseMatrix<double, Options, int> ours;
  const int outer_sizes[] = {300, 40, 0, 120, 300, 500, 7};
  const int* block = nullptr;
  int largest = -1;
  for (const int outer : outer_sizes) {
    const int rows = Options == Eigen::RowMajor ? outer : 30;
    const int cols = Options == Eigen::RowMajor ? 30 : outer;
    FillRandomly(rows, cols, 4 * outer, rng, buffer);
    ExpectSameAsEigen(buffer, rows, cols, ours);
#if defined(__GLIBC__)
    if (outer <= largest) {
      EXPECT_EQ(ours.outerIndexPtr(), block) << outer;
    }
#endif
    block = ours.outerIndexPtr();
    largest = std::max(largest, outer);
  }
}

TEST(ResizeKeepingStorage, ShrinkingAndGrowingAgainGivesEigensMatrixInTheSameBlock) {
  ExpectResizesAsEigen<Eigen::ColMajor>(6);
  ExpectResizesAsEigen<Eigen::RowMajor>(7);
}

// A matrix and buffer reserved for 40 rows of 12 entries take a 3-row and then a 40-row
// assembly without a new block, and give Eigen's matrix both times.
TEST(ReserveSparse, AMatrixReservedUpFrontAssemblesInItsBlocks) {
  Eigen::SparseMatrix<double, Eigen::RowMajor> J;
  TripletBuffer buffer;
  ReserveSparse(J, 40, 40 * 12);
  buffer.Reserve(40 * 12, 40);
  EXPECT_EQ(J.nonZeros(), 0);
  const double* values = J.valuePtr();
  const int* outer = J.outerIndexPtr();
  const Eigen::Triplet<double>* entries = buffer.entries.data();
  for (const int rows : {3, 40}) {
    buffer.clear();
    for (int r = 0; r < rows; ++r) {
      for (int c = 11; c >= 0; --c) buffer.add(r, (5 * r + 7 * c) % 30, 1.0 + r + 0.5 * c);
    }
    AssignFromTriplets(buffer, rows, 30, J);
    Eigen::SparseMatrix<double, Eigen::RowMajor> eigen(rows, 30);
    eigen.setFromTriplets(buffer.entries.begin(), buffer.entries.end());
    EXPECT_EQ(Eigen::MatrixXd(J), Eigen::MatrixXd(eigen)) << rows;
    EXPECT_EQ(buffer.entries.data(), entries);
    EXPECT_EQ(J.valuePtr(), values);
#if defined(__GLIBC__)
    EXPECT_EQ(J.outerIndexPtr(), outer);
#endif
  }
}

}  // namespace
}  // namespace coulomb::math
