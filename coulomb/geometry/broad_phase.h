#pragma once
// Broad phase: world-aligned bounding boxes and a sweep-and-prune along x, which finds every
// pair whose boxes (inflated by the contact margin) overlap in O(n log n + pairs). Half-spaces
// are unbounded and pair with everything. A dynamic AABB tree can replace this behind the same
// function when scenes become large and mostly static.

#include <Eigen/Dense>
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

// Index pairs (i < j) of overlapping boxes, sorted, excluding pairs for which `filter(i, j)`
// returns false (same body, parent–child, collision groups).
template <class Filter>
std::vector<std::pair<int, int>> FindCandidatePairs(const std::vector<Aabb>& boxes,
                                                    Filter&& filter);

std::vector<std::pair<int, int>> FindCandidatePairs(const std::vector<Aabb>& boxes);
// The same into `pairs`, with `order` as scratch (both keep their capacity).
template <class Filter>
void FindCandidatePairs(const std::vector<Aabb>& boxes, Filter&& filter, std::vector<int>& order,
                        std::vector<std::pair<int, int>>& pairs);

}  // namespace coulomb::geometry

#include "coulomb/geometry/broad_phase_impl.h"
