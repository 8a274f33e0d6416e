#include "coulomb/formulations/sweep_levels.h"

#include <algorithm>

#include "coulomb/formulations/contact_sweeps.h"

namespace coulomb {

void SortByKey(std::span<const int> items, const std::vector<int>& key, int keys,
               std::vector<int>& start, int* out) {
  start.assign(static_cast<std::size_t>(keys) + 1, 0);
  for (std::size_t i = 0; i < items.size(); ++i) ++start[static_cast<std::size_t>(key[i]) + 1];
  for (std::size_t l = 1; l < start.size(); ++l) start[l] += start[l - 1];
  for (std::size_t i = 0; i < items.size(); ++i)
    out[start[static_cast<std::size_t>(key[i])]++] = items[i];
  // `start` now holds each key's end; shifted back to starts.
  for (std::size_t l = start.size() - 1; l > 0; --l) start[l] = start[l - 1];
  start[0] = 0;
}

void ScheduleLevels(const ContactRows& rows, std::span<const int> island, SweepLevels& levels) {
  const auto n = island.size();
  levels.key.resize(n);
  int top = -1;
  for (std::size_t i = 0; i < n; ++i) {
    int level = 0;
    for (const ContactRows::Side& side : rows.contacts[island[i]].sides) {
      if (side.size == 0) continue;  // the world: no velocities to share
      const auto block = static_cast<std::size_t>(side.block);
      if (block >= levels.last_level.size()) levels.last_level.resize(block + 1, -1);
      level = std::max(level, levels.last_level[block] + 1);
    }
    for (const ContactRows::Side& side : rows.contacts[island[i]].sides) {
      if (side.size > 0) levels.last_level[static_cast<std::size_t>(side.block)] = level;
    }
    levels.key[i] = level;
    top = std::max(top, level);
  }
  levels.order.resize(n);
  SortByKey(island, levels.key, top + 1, levels.start, levels.order.data());
  // Within a level, by the first mass block: the threads' pieces of successive levels then touch
  // mostly the same bodies, whose velocities stay in one core's cache (split in island order,
  // every level's read of v fetched lines the other core had just written). The order within
  // a level changes nothing: its contacts share no block.
  const auto first_block = [&rows](int k) {
    const auto& sides = rows.contacts[k].sides;
    return sides[0].size > 0 ? sides[0].block : sides[1].block;
  };
  for (int l = 0; l + 1 < static_cast<int>(levels.start.size()); ++l) {
    std::sort(levels.order.begin() + levels.start[l], levels.order.begin() + levels.start[l + 1],
              [&](int a, int b) { return first_block(a) < first_block(b); });
  }
  for (const int k : island) {  // back to "none" for the next island or step
    for (const ContactRows::Side& side : rows.contacts[k].sides) {
      if (side.size > 0) levels.last_level[static_cast<std::size_t>(side.block)] = -1;
    }
  }
}

void ReserveSweepLevels(int contacts, int blocks, SweepLevels& levels) {
  const auto n = static_cast<std::size_t>(contacts);
  levels.order.reserve(n);
  levels.start.reserve(n + 1);
  levels.key.reserve(n);
  levels.measure.reserve(n);
  levels.last_level.resize(std::max(levels.last_level.size(), static_cast<std::size_t>(blocks)),
                           -1);
}

}  // namespace coulomb
