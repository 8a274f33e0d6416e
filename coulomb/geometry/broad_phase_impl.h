#pragma once
// Template part of broad_phase.h.

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace coulomb::geometry {

template <class Filter>
std::vector<std::pair<int, int>> FindCandidatePairs(const std::vector<Aabb>& boxes,
                                                    Filter&& filter) {
  BroadPhaseScratch scratch;
  std::vector<std::pair<int, int>> pairs;
  FindCandidatePairs(boxes, filter, scratch, pairs);
  return pairs;
}

namespace broad_phase {

template <class Filter>
void Add(const std::vector<Aabb>& boxes, int a, int b, Filter& filter,
         std::vector<std::pair<int, int>>& pairs) {
  if (!boxes[a].Overlaps(boxes[b])) return;
  const int i = std::min(a, b), j = std::max(a, b);
  if (filter(i, j)) pairs.emplace_back(i, j);
}

template <class Filter>
void SweepAndPrune(const std::vector<Aabb>& boxes, Filter& filter, std::vector<int>& order,
                   std::vector<std::pair<int, int>>& pairs) {
  order.resize(boxes.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return boxes[a].lower.x() < boxes[b].lower.x(); });
  for (std::size_t k = 0; k < order.size(); ++k) {
    const Aabb& a = boxes[order[k]];
    for (std::size_t m = k + 1; m < order.size(); ++m) {
      if (boxes[order[m]].lower.x() > a.upper.x()) break;  // sorted: no later box reaches a
      Add(boxes, order[k], order[m], filter, pairs);
    }
  }
}

// Cell coordinates take 21 bits each in a key (offset by half the range).
inline constexpr std::int64_t kCellRange = std::int64_t{1} << 20;

inline std::uint64_t CellKey(std::int64_t x, std::int64_t y, std::int64_t z) {
  return (static_cast<std::uint64_t>(x + kCellRange) << 42) |
         (static_cast<std::uint64_t>(y + kCellRange) << 21) |
         static_cast<std::uint64_t>(z + kCellRange);
}

// Each box's largest side into s.extents (−1: not finite), and the grid's cell: as large as the
// largest box of at most twice the median size, so that the grid's boxes span at most two cells
// per axis and the few larger ones go to the list of large boxes.
inline double CellSize(const std::vector<Aabb>& boxes, BroadPhaseScratch& s) {
  const int n = static_cast<int>(boxes.size());
  s.extents.resize(static_cast<std::size_t>(n));
  s.sorted_extents.clear();
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d side = boxes[i].upper - boxes[i].lower;
    const double extent = side.allFinite() ? side.maxCoeff() : -1.0;
    s.extents[i] = extent;
    if (extent >= 0) s.sorted_extents.push_back(extent);
  }
  double cell = 0;
  if (!s.sorted_extents.empty()) {
    const auto middle = s.sorted_extents.begin() + s.sorted_extents.size() / 2;
    std::nth_element(s.sorted_extents.begin(), middle, s.sorted_extents.end());
    const double limit = 2 * *middle;
    for (const double e : s.sorted_extents) {
      if (e <= limit) cell = std::max(cell, e);
    }
  }
  return cell > 0 ? cell : 1.0;  // points only: any cell holds them
}

template <class Filter>
void Grid(const std::vector<Aabb>& boxes, Filter& filter, BroadPhaseScratch& s,
          std::vector<std::pair<int, int>>& pairs) {
  const int n = static_cast<int>(boxes.size());
  const double cell = CellSize(boxes, s);
  s.large.clear();
  s.cells.clear();
  for (int i = 0; i < n; ++i) {
    const Eigen::Vector3d corner = (boxes[i].lower / cell).array().floor();
    if (!(s.extents[i] >= 0 && s.extents[i] <= cell) ||
        !(corner.cwiseAbs().maxCoeff() < static_cast<double>(kCellRange - 2))) {
      s.extents[i] = -1;
      s.large.push_back(i);
      continue;
    }
    s.cells.emplace_back(
        CellKey(static_cast<std::int64_t>(corner.x()), static_cast<std::int64_t>(corner.y()),
                static_cast<std::int64_t>(corner.z())),
        i);
  }
  std::sort(s.cells.begin(), s.cells.end());
  // Two boxes no larger than a cell overlap only if their lower corners' cells differ by at most
  // one along every axis: each cell meets itself and its 13 neighbours that come after it.
  static constexpr std::array<std::array<int, 3>, 13> kForward = {{{0, 0, 1},
                                                                   {0, 1, -1},
                                                                   {0, 1, 0},
                                                                   {0, 1, 1},
                                                                   {1, -1, -1},
                                                                   {1, -1, 0},
                                                                   {1, -1, 1},
                                                                   {1, 0, -1},
                                                                   {1, 0, 0},
                                                                   {1, 0, 1},
                                                                   {1, 1, -1},
                                                                   {1, 1, 0},
                                                                   {1, 1, 1}}};
  const auto mask = (std::uint64_t{1} << 21) - 1;
  for (std::size_t begin = 0; begin < s.cells.size();) {
    const std::uint64_t key = s.cells[begin].first;
    std::size_t end = begin;
    while (end < s.cells.size() && s.cells[end].first == key) ++end;
    for (std::size_t a = begin; a < end; ++a) {
      for (std::size_t b = a + 1; b < end; ++b) {
        Add(boxes, s.cells[a].second, s.cells[b].second, filter, pairs);
      }
    }
    const auto x = static_cast<std::int64_t>(key >> 42) - kCellRange;
    const auto y = static_cast<std::int64_t>((key >> 21) & mask) - kCellRange;
    const auto z = static_cast<std::int64_t>(key & mask) - kCellRange;
    for (const auto& d : kForward) {
      const std::uint64_t other = CellKey(x + d[0], y + d[1], z + d[2]);
      auto it = std::lower_bound(s.cells.begin() + static_cast<std::ptrdiff_t>(end), s.cells.end(),
                                 std::make_pair(other, -1));
      for (; it != s.cells.end() && it->first == other; ++it) {
        for (std::size_t a = begin; a < end; ++a) {
          Add(boxes, s.cells[a].second, it->second, filter, pairs);
        }
      }
    }
    begin = end;
  }
  // The large boxes against every box (each pair of large boxes once).
  for (const int l : s.large) {
    for (int j = 0; j < n; ++j) {
      if (j == l || (s.extents[j] < 0 && j < l)) continue;
      Add(boxes, l, j, filter, pairs);
    }
  }
}

}  // namespace broad_phase

template <class Filter>
void FindCandidatePairs(const std::vector<Aabb>& boxes, Filter&& filter, BroadPhaseScratch& scratch,
                        std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  if (static_cast<int>(boxes.size()) <= kGridBoxes) {
    broad_phase::SweepAndPrune(boxes, filter, scratch.order, pairs);
  } else {
    broad_phase::Grid(boxes, filter, scratch, pairs);
  }
  std::sort(pairs.begin(), pairs.end());  // deterministic order regardless of the search
}

}  // namespace coulomb::geometry
