#include "coulomb/base/small_vector.h"

#include <gtest/gtest.h>

#include <numeric>

namespace coulomb {
namespace {

TEST(SmallVector, KeepsEveryElementInOrderAcrossTheMoveToTheHeap) {
  SmallVector<int, 4> v;
  EXPECT_TRUE(v.empty());
  for (int i = 0; i < 11; ++i) {
    v.push_back(i * i);
    ASSERT_EQ(v.size(), static_cast<std::size_t>(i + 1));
    for (int j = 0; j <= i; ++j) ASSERT_EQ(v[j], j * j) << "after " << i + 1 << " pushes";
  }
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 385);  // Σ i², i < 11
  v.clear();
  EXPECT_TRUE(v.empty());
  v.push_back(7);  // back inside after a clear
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(*v.begin(), 7);
}

TEST(SmallVector, CopiesAndSwapsAreIndependentOnBothSidesOfTheLimit) {
  SmallVector<int, 3> small{1, 2}, large{1, 2, 3, 4, 5};
  SmallVector<int, 3> small_copy = small, large_copy = large;
  small_copy.push_back(9);
  large_copy[0] = 9;
  EXPECT_EQ(small.size(), 2u);
  EXPECT_EQ(large[0], 1);
  std::swap(small, large);
  EXPECT_EQ(small.size(), 5u);
  EXPECT_EQ(small[4], 5);
  EXPECT_EQ(large.size(), 2u);
  EXPECT_EQ(large[1], 2);
}

}  // namespace
}  // namespace coulomb
