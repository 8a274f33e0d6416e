#pragma once
// How a large island is swept by several threads with the answer of one.
//
// Contact k's Gauss–Seidel update reads and writes the velocities of its two mass blocks and its
// own impulse, nothing else; so two updates commute unless they share a block, and a sweep's
// result depends only on the order of the pairs that do. A contact's level is one more than the
// highest level of the contacts before it in the sweep order that share a block with it. Swept
// level by level, every such pair keeps its order and no two contacts of one level share a block:
// the same floating-point operations on the same values as the sequential sweep, however many
// threads split a level and however they split it (docs/determinism.md).
//
// The levels are as wide as the order allows: the 2 000-body clutter's island of 13 700 contacts
// (ground up, contact_rows.cc) has ~370 levels of ~37 contacts. Reordering for wider levels
// changes the answer and was measured worse: colours over the whole island lose the ground-up
// order (12 % more sweeps, slower on one thread).

#include <span>
#include <vector>

namespace coulomb {

struct ContactRows;  // contact_sweeps.h

struct SweepLevels {
  std::vector<int> order;       // the island's contacts, level by level, in sweep order within one
  std::vector<int> start;       // level l is order[start[l], start[l + 1])
  std::vector<int> key;         // scratch: per island position, its level
  std::vector<int> last_level;  // scratch per mass block (−1: none yet)
  std::vector<double> measure;  // per island position: its contact's measure², for sums in order
  int num_levels() const { return static_cast<int>(start.size()) - 1; }
};

// The levels of `island` (contact indices into rows, in sweep order).
void ScheduleLevels(const ContactRows& rows, std::span<const int> island, SweepLevels& levels);

// Counting sort of `items` by `key` (per item, values in [0, keys)), stable, into `out`; `start`
// becomes the first position of each key (keys + 1 entries). Shared with sweep_parts.cc.
void SortByKey(std::span<const int> items, const std::vector<int>& key, int keys,
               std::vector<int>& start, int* out);

// Room for islands of up to `contacts` contacts over `blocks` mass blocks.
void ReserveSweepLevels(int contacts, int blocks, SweepLevels& levels);

}  // namespace coulomb
