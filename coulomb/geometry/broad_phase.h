#pragma once
// Broad phase: world-aligned bounding boxes, and every pair whose boxes (inflated by the contact
// margin) overlap. Small scenes sweep and prune along x. Above kGridBoxes boxes a uniform grid
// takes over: along one axis a pile of 10 000 bodies in a 2.3 m bin overlapped ~600 others per
// body (48 ms a step in the sweep), while a grid whose cells are as large as the largest
// ordinary box only compares neighbours, O(n log n + pairs). Boxes the grid cannot hold
// (half-spaces, walls, anything larger than a cell) are tested against every box. Both give the
// same pairs, sorted.

#include <Eigen/Dense>
#include <cstdint>
#include <utility>
#include <vector>

#include "coulomb/geometry/shape.h"
#include "coulomb/math/spatial.h"

namespace coulomb::geometry {

struct Aabb {
  Eigen::Vector3d lower = Eigen::Vector3d::Constant(-INFINITY);
  Eigen::Vector3d upper = Eigen::Vector3d::Constant(INFINITY);
  bool Overlaps(const Aabb& o) const {
    return (lower.array() <= o.upper.array()).all() && (o.lower.array() <= upper.array()).all();
  }
};

// The world-aligned box of `shape` at X_WG, inflated by `margin` on every side.
Aabb ComputeAabb(const Shape& shape, const math::Transform& X_WG, double margin);

inline constexpr int kGridBoxes = 64;

// What the broad phase reuses from call to call (storage only).
struct BroadPhaseScratch {
  std::vector<int> order;                            // the sweep's boxes by lower x
  std::vector<double> extents;                       // per box: its largest side (−1: large)
  std::vector<double> sorted_extents;                // for the median
  std::vector<int> large;                            // boxes tested against every box
  std::vector<std::pair<std::uint64_t, int>> cells;  // grid boxes by their lower corner's cell
};

// Index pairs (i < j) of overlapping boxes, sorted, excluding pairs for which `filter(i, j)`
// returns false (same body, parent–child, collision groups).
template <class Filter>
std::vector<std::pair<int, int>> FindCandidatePairs(const std::vector<Aabb>& boxes,
                                                    Filter&& filter);

std::vector<std::pair<int, int>> FindCandidatePairs(const std::vector<Aabb>& boxes);
// The same into `pairs` (both keep their capacity).
template <class Filter>
void FindCandidatePairs(const std::vector<Aabb>& boxes, Filter&& filter, BroadPhaseScratch& scratch,
                        std::vector<std::pair<int, int>>& pairs);

}  // namespace coulomb::geometry

#include "coulomb/geometry/broad_phase_impl.h"
