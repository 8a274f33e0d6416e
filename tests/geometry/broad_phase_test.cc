#include "coulomb/geometry/broad_phase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "coulomb/base/random.h"
#include "coulomb/geometry/narrow_phase.h"

namespace coulomb::geometry {
namespace {

TEST(BroadPhase, SweepAndPruneFindsExactlyTheOverlappingPairs) {
  SplitMix64 rng(3);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 300; ++i) {
    Aabb b;
    const Eigen::Vector3d c(rng.Uniform(0, 10), rng.Uniform(0, 10), rng.Uniform(0, 10));
    const Eigen::Vector3d h(rng.Uniform(0.1, 0.6), rng.Uniform(0.1, 0.6), rng.Uniform(0.1, 0.6));
    b.lower = c - h;
    b.upper = c + h;
    boxes.push_back(b);
  }
  boxes.push_back(Aabb{});  // an unbounded half-space pairs with everything
  std::vector<std::pair<int, int>> brute;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
      if (boxes[i].Overlaps(boxes[j])) brute.emplace_back(i, j);
    }
  }
  EXPECT_EQ(FindCandidatePairs(boxes), brute);
  EXPECT_GE(brute.size(), 300u);
}

// Above kGridBoxes the grid: a pile's worth of boxes of mixed sizes (points, a few far larger
// than the rest), unbounded half-spaces, long walls, a box with a non-finite pose and boxes far
// from the origin, against every pair tested.
TEST(BroadPhase, TheGridFindsExactlyTheOverlappingPairs) {
  SplitMix64 rng(11);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 3000; ++i) {
    const Eigen::Vector3d c(rng.Uniform(-2, 2), rng.Uniform(-2, 2), rng.Uniform(0, 3));
    const double size = i % 97 == 0   ? rng.Uniform(0.5, 1.5)     // larger than any cell
                        : i % 89 == 0 ? 0.0                       // a point
                                      : rng.Uniform(0.02, 0.12);  // the pile
    const Eigen::Vector3d h(size * rng.Uniform(0.3, 1), size * rng.Uniform(0.3, 1), size / 2);
    boxes.push_back(Aabb{c - h, c + h});
  }
  boxes.push_back(Aabb{});  // the ground: unbounded
  boxes.push_back(Aabb{Eigen::Vector3d(-2.1, -2.1, 0), Eigen::Vector3d(-1.9, 2.1, 3)});  // a wall
  boxes.push_back(Aabb{Eigen::Vector3d::Constant(NAN), Eigen::Vector3d::Constant(NAN)});
  boxes.push_back(Aabb{Eigen::Vector3d::Constant(1e9), Eigen::Vector3d::Constant(1e9 + 0.1)});
  boxes.push_back(Aabb{Eigen::Vector3d::Constant(1e9 + 0.05), Eigen::Vector3d::Constant(1e9 + 1)});
  std::vector<std::pair<int, int>> brute;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(boxes.size()); ++j) {
      if (boxes[i].Overlaps(boxes[j]) && (i + j) % 7 != 0) brute.emplace_back(i, j);
    }
  }
  BroadPhaseScratch scratch;
  std::vector<std::pair<int, int>> pairs;
  for (int pass = 0; pass < 2; ++pass) {  // the second reuses the scratch
    FindCandidatePairs(
        boxes, [](int i, int j) { return (i + j) % 7 != 0; }, scratch, pairs);
    EXPECT_EQ(pairs, brute);
  }
  EXPECT_GE(brute.size(), 5000u);
  EXPECT_EQ(std::count(brute.begin(), brute.end(), std::make_pair(3003, 3004)), 1);  // far out
}

TEST(BroadPhase, AabbBoundsEveryContactWitness) {
  // A rotated box: its AABB must contain all 8 corners, and be tight (touch some corner per side).
  const Box box{Eigen::Vector3d(0.3, 0.2, 0.1)};
  const math::Transform X{
      Eigen::AngleAxisd(0.8, Eigen::Vector3d(1, 1, 0).normalized()).toRotationMatrix(),
      Eigen::Vector3d(1, 2, 3)};
  const Aabb aabb = ComputeAabb(box, X, 0.0);
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = -lo;
  for (int corner = 0; corner < 8; ++corner) {
    const Eigen::Vector3d p = X.Apply(Eigen::Vector3d(
        (corner & 1 ? 1 : -1) * 0.3, (corner & 2 ? 1 : -1) * 0.2, (corner & 4 ? 1 : -1) * 0.1));
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  EXPECT_LT((aabb.lower - lo).norm(), 1e-12);
  EXPECT_LT((aabb.upper - hi).norm(), 1e-12);
}

TEST(BroadPhase, FilterRemovesPairs) {
  std::vector<Aabb> boxes(3, Aabb{Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()});
  const auto pairs = FindCandidatePairs(boxes, [](int i, int j) { return !(i == 0 && j == 1); });
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0], std::make_pair(0, 2));
}

}  // namespace
}  // namespace coulomb::geometry
