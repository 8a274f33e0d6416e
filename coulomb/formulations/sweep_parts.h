#pragma once
// A large island cut into parts that threads sweep with one barrier per phase, not per level.
//
// The levels of sweep_levels.h keep the ground-up order's answer, but a pile's island of 10⁴
// contacts has hundreds of levels of a few dozen contacts each: a sweep is hundreds of barriers
// of microseconds of work (docs/ARCHITECTURE.md, "Threads"). Here the island's mass blocks are
// cut instead, into `parts` slabs across the island's longest extent: each block goes by the mean
// of its contact points along that axis, and the slabs hold about as many contact ends each. A
// contact whose blocks are in one part is *interior*; parts share no block through their
// interior contacts, so those sweep in parallel. A contact between parts c and c + 1 belongs to
// cut c; cuts two apart share no block either, so the even cuts sweep in parallel, then the odd
// ones; a contact across more than two parts comes last. Four phases a sweep, each in island
// order (ground up) within a group.
//
// The order is a function of the island alone (never of the thread count), so one thread and
// many perform the same floating-point operations and the answer is the same bits
// (docs/determinism.md). It is a different order from the plain ground-up sweep: the sweeps use
// it only for islands of at least `ContactSweepParams::partitioned_island_contacts`, whatever the
// number of threads.

#include <span>
#include <utility>
#include <vector>

namespace coulomb {

struct ContactRows;  // contact_sweeps.h

struct SweepParts {
  std::vector<int> order;        // the island's contacts, group by group, island order in one
  std::vector<int> group_start;  // group g is order[group_start[g], group_start[g + 1])
  // Phase f is groups [phase_start[f], phase_start[f + 1]): groups of one phase share no mass
  // block, so they may be swept at the same time.
  std::vector<int> phase_start;
  // Scratch: per mass block (its part, −1 outside the island; the sum of its contacts'
  // coordinates and their count), the island's blocks by coordinate, per island position.
  std::vector<int> part, ends, key;
  std::vector<double> sum;
  std::vector<std::pair<double, int>> by_coordinate;
  int num_phases() const { return static_cast<int>(phase_start.size()) - 1; }
};

// The groups and phases of `island` (contact indices into rows, in island order), cut into
// `parts` ≥ 1 parts by rows.points (without points, one part).
void ScheduleParts(const ContactRows& rows, std::span<const int> island, int parts,
                   SweepParts& out);

// Room for islands of up to `contacts` contacts over `blocks` mass blocks.
void ReserveSweepParts(int contacts, int blocks, SweepParts& parts);

}  // namespace coulomb
