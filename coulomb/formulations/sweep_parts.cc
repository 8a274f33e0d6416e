#include "coulomb/formulations/sweep_parts.h"

#include <algorithm>
#include <cstdlib>

#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/formulations/sweep_levels.h"

namespace coulomb {
namespace {

// The axis (0, 1, 2) along which the island's contact points spread furthest; 0 without points.
int LongestAxis(const ContactRows& rows, std::span<const int> island) {
  if (rows.points.size() != rows.contacts.size() || island.empty()) return 0;
  Eigen::Vector3d lo = rows.points[island[0]], hi = lo;
  for (const int k : island) {
    lo = lo.cwiseMin(rows.points[k]);
    hi = hi.cwiseMax(rows.points[k]);
  }
  int axis = 0;
  (hi - lo).maxCoeff(&axis);
  return axis;
}

}  // namespace

void ScheduleParts(const ContactRows& rows, std::span<const int> island, int parts,
                   SweepParts& out) {
  parts = std::max(parts, 1);
  const auto n = island.size();
  const auto num_blocks = rows.scratch.block_offset.size();  // one per mass block, every step
  if (out.part.size() < num_blocks) out.part.resize(num_blocks, -1);
  if (out.sum.size() < num_blocks) out.sum.resize(num_blocks, 0.0);
  if (out.ends.size() < num_blocks) out.ends.resize(num_blocks, 0);
  const bool placed = rows.points.size() == rows.contacts.size();
  const int axis = LongestAxis(rows, island);
  // Each block's contact ends and the sum of their coordinates; the island's blocks, once each
  // (part = 0 marks a block seen).
  out.by_coordinate.clear();
  long total = 0;
  for (const int k : island) {
    const double x = placed ? rows.points[k][axis] : 0.0;
    for (const ContactRows::Side& side : rows.contacts[k].sides) {
      if (side.size == 0) continue;
      const auto b = static_cast<std::size_t>(side.block);
      if (out.part[b] < 0) {
        out.part[b] = 0;
        out.by_coordinate.emplace_back(0.0, side.block);
      }
      out.sum[b] += x;
      ++out.ends[b];
      ++total;
    }
  }
  // Blocks by mean coordinate (ties by index: the data decide), cut into slabs of about
  // total / parts contact ends each.
  for (auto& [mean, b] : out.by_coordinate) {
    mean = out.sum[static_cast<std::size_t>(b)] / out.ends[static_cast<std::size_t>(b)];
  }
  std::sort(out.by_coordinate.begin(), out.by_coordinate.end());
  long before = 0;
  for (const auto& [mean, b] : out.by_coordinate) {
    const auto block = static_cast<std::size_t>(b);
    out.part[block] = static_cast<int>(std::min<long>(parts - 1, before * parts / total));
    before += out.ends[block];
  }
  // Groups: the parts' interiors 0 … P − 1, the even cuts, the odd cuts, the rest (2P − 1).
  const int even_cuts = parts / 2, odd_cuts = (parts - 1) / 2;
  out.key.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    int lo = parts, hi = -1;
    for (const ContactRows::Side& side : rows.contacts[island[i]].sides) {
      if (side.size == 0) continue;
      lo = std::min(lo, out.part[static_cast<std::size_t>(side.block)]);
      hi = std::max(hi, out.part[static_cast<std::size_t>(side.block)]);
    }
    int group = 2 * parts - 1;
    if (lo == hi) {
      group = lo;
    } else if (hi == lo + 1) {
      group = lo % 2 == 0 ? parts + lo / 2 : parts + even_cuts + lo / 2;
    }
    out.key[i] = group;
  }
  out.order.resize(n);
  SortByKey(island, out.key, 2 * parts, out.group_start, out.order.data());
  out.phase_start = {0, parts, parts + even_cuts, parts + even_cuts + odd_cuts, 2 * parts};
  for (const auto& [mean, b] : out.by_coordinate) {  // back to "outside" for the next island
    const auto block = static_cast<std::size_t>(b);
    out.part[block] = -1;
    out.sum[block] = 0;
    out.ends[block] = 0;
  }
}

void ReserveSweepParts(int contacts, int blocks, SweepParts& parts) {
  const auto n = static_cast<std::size_t>(contacts);
  const auto nb = static_cast<std::size_t>(blocks);
  parts.order.reserve(n);
  parts.key.reserve(n);
  parts.by_coordinate.reserve(nb);
  parts.part.resize(std::max(parts.part.size(), nb), -1);
  parts.sum.resize(std::max(parts.sum.size(), nb), 0.0);
  parts.ends.resize(std::max(parts.ends.size(), nb), 0);
  parts.group_start.reserve(129);
  parts.phase_start.reserve(5);
}

}  // namespace coulomb
