// Anderson acceleration of an island's sweeps (sweep_acceleration.h).

#include "coulomb/formulations/sweep_acceleration.h"

#include <algorithm>

#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

// The island's (r, v) packed into out: r contact by contact, then v range by range.
void Pack(const SweepAcceleration& a, const Eigen::VectorXd& r, const Eigen::VectorXd& v,
          Eigen::VectorXd& out) {
  int at = 0;
  for (const int k : a.contacts) {
    out.segment<3>(at) = r.segment<3>(3 * k);
    at += 3;
  }
  for (const auto& [start, size] : a.dofs) {
    out.segment(at, size) = v.segment(start, size);
    at += size;
  }
}

void Unpack(const SweepAcceleration& a, const Eigen::VectorXd& in, Eigen::VectorXd& r,
            Eigen::VectorXd& v) {
  int at = 0;
  for (const int k : a.contacts) {
    r.segment<3>(3 * k) = in.segment<3>(at);
    at += 3;
  }
  for (const auto& [start, size] : a.dofs) {
    v.segment(start, size) = in.segment(at, size);
    at += size;
  }
}

// Records the secant pair of the last two sweeps in column `next`, and its Gram row.
void StoreSecant(SweepAcceleration& a) {
  const int j = a.next;
  a.dG.col(j) = a.g - a.g_last;
  a.dF.col(j) = a.f - a.f_last;
  a.stored = std::min(a.stored + 1, a.depth);
  a.next = (a.next + 1) % a.depth;
  for (int i = 0; i < a.stored; ++i) {
    a.gram(i, j) = a.gram(j, i) = a.dF.col(i).dot(a.dF.col(j));
  }
}

}  // namespace

void BeginSweepAcceleration(const ContactRows& rows, std::span<const int> island, int depth,
                            const Eigen::VectorXd& r, SweepAcceleration& a) {
  a.depth = std::clamp(depth, 0, kMaxAccelerationDepth);
  a.contacts.assign(island.begin(), island.end());
  a.dofs.clear();
  int blocks = 0;
  for (const int k : island) {
    for (const ContactRows::Side& side : rows.contacts[k].sides) {
      blocks = std::max(blocks, side.block + 1);
    }
  }
  a.block_seen.assign(blocks, 0);
  int nv = 0;
  for (const int k : island) {
    for (const ContactRows::Side& side : rows.contacts[k].sides) {
      if (side.size == 0 || a.block_seen[side.block]) continue;
      a.block_seen[side.block] = 1;
      a.dofs.push_back({side.start, side.size});
      nv += side.size;
    }
  }
  a.nr = 3 * static_cast<int>(island.size());
  const int n = a.nr + nv;
  math::ResizeKeepingStorage(a.x, a.nr);
  for (int i = 0; i < static_cast<int>(island.size()); ++i) {
    a.x.segment<3>(3 * i) = r.segment<3>(3 * island[i]);
  }
  math::ResizeKeepingStorage(a.g, n);
  math::ResizeKeepingStorage(a.g_last, n);
  math::ResizeKeepingStorage(a.f, a.nr);
  math::ResizeKeepingStorage(a.f_last, a.nr);
  math::ResizeKeepingStorage(a.dG, n, std::max(a.depth, 1));
  math::ResizeKeepingStorage(a.dF, a.nr, std::max(a.depth, 1));
  a.gram.resize(a.depth, a.depth);
  a.stored = a.next = a.restarts = 0;
  a.has_last = false;
}

void AccelerateSweep(SweepAcceleration& a, Eigen::VectorXd& r, Eigen::VectorXd& v) {
  if (a.depth <= 0) return;
  Pack(a, r, v, a.g);
  a.f = a.g.head(a.nr) - a.x;
  if (a.has_last) {
    if (a.f.squaredNorm() > a.f_last.squaredNorm()) {
      // The residual grew: the secants describe another piece of the map. Measured on the landing
      // bin (NSGS at 1e-4, depth 5): clearing at any growth 78 sweeps a step; at 4× growth 193,
      // never 136, and at half the last residual 195 (plain sweeps: 200).
      a.stored = a.next = 0;
      ++a.restarts;
    } else {
      StoreSecant(a);
    }
  }
  a.g_last = a.g;
  a.f_last = a.f;
  a.has_last = true;
  if (a.stored > 0) {
    const int m = a.stored;
    a.rhs.noalias() = a.dF.leftCols(m).transpose() * a.f;
    SweepAcceleration::Small gram = a.gram.topLeftCorner(m, m);
    // A relative Tikhonov term keeps nearly parallel secants from blowing γ up.
    gram.diagonal().array() += 1e-12 * gram.diagonal().maxCoeff() + 1e-300;
    a.gamma = gram.ldlt().solve(a.rhs);
    if (a.gamma.allFinite()) {
      a.g.noalias() -= a.dG.leftCols(m) * a.gamma;
      Unpack(a, a.g, r, v);
    }
  }
  a.x = a.g.head(a.nr);
}

void ReserveSweepAcceleration(int contacts, int blocks, int nv, int depth, SweepAcceleration& a) {
  const int nr = 3 * contacts;
  depth = std::clamp(depth, 1, kMaxAccelerationDepth);
  a.contacts.reserve(contacts);
  a.dofs.reserve(blocks);
  a.block_seen.reserve(blocks);
  for (Eigen::VectorXd* vector : {&a.x, &a.f, &a.f_last}) math::ReserveStorage(*vector, nr);
  for (Eigen::VectorXd* vector : {&a.g, &a.g_last}) math::ReserveStorage(*vector, nr + nv);
  math::ResizeKeepingStorage(a.dG, nr + nv, depth);
  math::ResizeKeepingStorage(a.dF, nr, depth);
}

}  // namespace coulomb
