#pragma once
// Template part of broad_phase.h.

#include <algorithm>
#include <cmath>
#include <numeric>

namespace coulomb::geometry {

template <class Filter>
std::vector<std::pair<int, int>> FindCandidatePairs(const std::vector<Aabb>& boxes,
                                                    Filter&& filter) {
  std::vector<int> order;
  std::vector<std::pair<int, int>> pairs;
  FindCandidatePairs(boxes, filter, order, pairs);
  return pairs;
}

template <class Filter>
void FindCandidatePairs(const std::vector<Aabb>& boxes, Filter&& filter, std::vector<int>& order,
                        std::vector<std::pair<int, int>>& pairs) {
  order.resize(boxes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return boxes[a].lower.x() < boxes[b].lower.x(); });
  pairs.clear();
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Aabb& a = boxes[order[k]];
    for (std::size_t m = k + 1; m < order.size(); ++m) {
      const Aabb& b = boxes[order[m]];
      if (b.lower.x() > a.upper.x()) break;  // sorted: no later box reaches back to a
      if (!a.Overlaps(b)) continue;
      const int i = std::min(order[k], order[m]), j = std::max(order[k], order[m]);
      if (filter(i, j)) pairs.emplace_back(i, j);
    }
  }
  std::sort(pairs.begin(), pairs.end());  // deterministic order regardless of the sweep
}

}  // namespace coulomb::geometry
