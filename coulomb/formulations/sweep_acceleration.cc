// Anderson acceleration of an island's sweeps (sweep_acceleration.h).

#include "coulomb/formulations/sweep_acceleration.h"

#include <algorithm>
#include <utility>

#include "coulomb/base/thread_pool.h"
#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

constexpr int kPartials = 2 * kMaxAccelerationDepth + 1;  // per piece: ‖f‖², ΔFᵀ Δf_new, ΔFᵀ f

int ContactPieces(const SweepAcceleration& a) {
  return (static_cast<int>(a.contacts.size()) + kAccelerationPiece - 1) / kAccelerationPiece;
}
int RangePieces(const SweepAcceleration& a) {
  return (static_cast<int>(a.dofs.size()) + kAccelerationPiece - 1) / kAccelerationPiece;
}
// Items [first, second) of piece q, out of `count` contacts or ranges.
std::pair<int, int> Piece(int count, int q) {
  return {q * kAccelerationPiece, std::min(count, (q + 1) * kAccelerationPiece)};
}

// What the record pass does with a piece: pack g and f only (no secant yet), or also record the
// secant in column j and its inner products with the m columns stored after it.
struct Record {
  bool secant = false;
  int j = 0, m = 0;
};

// Piece q of the contacts: g = the sweep's r, f = g − x, and with a secant ΔG_j = g − g_last,
// ΔF_j = f − f_last and the piece's ΔF_iᵀ ΔF_j, ΔF_iᵀ f.
void RecordContacts(SweepAcceleration& a, const Eigen::VectorXd& r, int q, const Record& record) {
  const auto [c0, c1] = Piece(static_cast<int>(a.contacts.size()), q);
  for (int c = c0; c < c1; ++c) a.g.segment<3>(3 * c) = r.segment<3>(3 * a.contacts[c]);
  const int e0 = 3 * c0, length = 3 * (c1 - c0);
  const auto g = a.g.segment(e0, length);
  auto f = a.f.segment(e0, length);
  f = g - a.x.segment(e0, length);
  double* partial = a.partial.data() + static_cast<std::ptrdiff_t>(q) * kPartials;
  partial[0] = f.squaredNorm();
  if (!record.secant) return;
  a.dG.col(record.j).segment(e0, length) = g - a.g_last.segment(e0, length);
  auto dF_j = a.dF.col(record.j).segment(e0, length);
  dF_j = f - a.f_last.segment(e0, length);
  for (int i = 0; i < record.m; ++i) {
    const auto dF_i = a.dF.col(i).segment(e0, length);
    partial[1 + i] = dF_i.dot(dF_j);
    partial[1 + kMaxAccelerationDepth + i] = dF_i.dot(f);
  }
}

// Piece q of the velocity ranges: g = the sweep's v there, and ΔG_j = g − g_last.
void RecordRanges(SweepAcceleration& a, const Eigen::VectorXd& v, int q, const Record& record) {
  const auto [d0, d1] = Piece(static_cast<int>(a.dofs.size()), q);
  for (int d = d0; d < d1; ++d) {
    a.g.segment(a.dof_at[d], a.dofs[d][1]) = v.segment(a.dofs[d][0], a.dofs[d][1]);
  }
  if (!record.secant) return;
  const int e0 = a.dof_at[d0], length = a.dof_at[d1] - e0;
  a.dG.col(record.j).segment(e0, length) = a.g.segment(e0, length) - a.g_last.segment(e0, length);
}

// The mixed iterate g − ΔG γ over packed entries [e0, e0 + length), into `out`.
template <class Out>
void Mix(const SweepAcceleration& a, int e0, int length, Out&& out) {
  out = a.g.segment(e0, length);
  for (int i = 0; i < static_cast<int>(a.gamma.size()); ++i) {
    out -= a.gamma[i] * a.dG.col(i).segment(e0, length);
  }
}

// Piece q of the contacts, mixed: into x and back into r.
void MixContacts(SweepAcceleration& a, Eigen::VectorXd& r, int q) {
  const auto [c0, c1] = Piece(static_cast<int>(a.contacts.size()), q);
  Mix(a, 3 * c0, 3 * (c1 - c0), a.x.segment(3 * c0, 3 * (c1 - c0)));
  for (int c = c0; c < c1; ++c) r.segment<3>(3 * a.contacts[c]) = a.x.segment<3>(3 * c);
}

void MixRanges(const SweepAcceleration& a, Eigen::VectorXd& v, int q) {
  const auto [d0, d1] = Piece(static_cast<int>(a.dofs.size()), q);
  for (int d = d0; d < d1; ++d) {
    Mix(a, a.dof_at[d], a.dofs[d][1], v.segment(a.dofs[d][0], a.dofs[d][1]));
  }
}

// body(piece) for every piece, contacts' then ranges', on the workers when there are several.
template <class Body>
void ForEachPiece(const SweepAcceleration& a, ThreadPool* workers, Body&& body) {
  const int pieces = ContactPieces(a) + RangePieces(a);
  const auto run = [&](int from, int to) {
    for (int q = from; q < to; ++q) body(q);
  };
  if (workers != nullptr && workers->size() > 1 && pieces >= 2 * workers->size()) {
    workers->ParallelFor(pieces, run);
  } else {
    run(0, pieces);
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
  a.dof_at.resize(a.dofs.size() + 1);
  a.dof_at[0] = a.nr;
  for (std::size_t d = 0; d < a.dofs.size(); ++d) a.dof_at[d + 1] = a.dof_at[d] + a.dofs[d][1];
  a.partial.resize(static_cast<std::size_t>(ContactPieces(a)) * kPartials);
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
  a.rhs.resize(a.depth);
  a.stored = a.next = a.restarts = 0;
  a.has_last = false;
}

void AccelerateSweep(SweepAcceleration& a, Eigen::VectorXd& r, Eigen::VectorXd& v,
                     ThreadPool* workers) {
  if (a.depth <= 0) return;
  // Pass 1: pack the sweep's output and, with a last one, the secant to it in the next column.
  Record record;
  if (a.has_last) record = {true, a.next, std::min(a.stored + 1, a.depth)};
  const int contact_pieces = ContactPieces(a);
  ForEachPiece(a, workers, [&](int q) {
    if (q < contact_pieces) {
      RecordContacts(a, r, q, record);
    } else {
      RecordRanges(a, v, q - contact_pieces, record);
    }
  });
  double f_norm2 = 0;
  for (int q = 0; q < contact_pieces; ++q) {
    f_norm2 += a.partial[static_cast<std::size_t>(q) * kPartials];
  }
  if (a.has_last) {
    if (f_norm2 > a.f_last_norm2) {
      // The residual grew: the secants describe another piece of the map. Measured on the landing
      // bin (NSGS at 1e-4, depth 5): clearing at any growth 78 sweeps a step; at 4× growth 193,
      // never 136, and at half the last residual 195 (plain sweeps: 200). (The column just written
      // is dropped with the others.)
      a.stored = a.next = 0;
      ++a.restarts;
    } else {
      a.stored = record.m;
      a.next = (a.next + 1) % a.depth;
      for (int i = 0; i < a.stored; ++i) {
        double gram = 0, rhs = 0;
        for (int q = 0; q < contact_pieces; ++q) {
          const double* partial = a.partial.data() + static_cast<std::ptrdiff_t>(q) * kPartials;
          gram += partial[1 + i];
          rhs += partial[1 + kMaxAccelerationDepth + i];
        }
        a.gram(i, record.j) = a.gram(record.j, i) = gram;
        a.rhs[i] = rhs;
      }
    }
  }
  a.has_last = true;
  a.f_last_norm2 = f_norm2;
  bool mixed = false;
  if (a.stored > 0) {
    const int m = a.stored;
    SweepAcceleration::Small gram = a.gram.topLeftCorner(m, m);
    // A relative Tikhonov term keeps nearly parallel secants from blowing γ up.
    gram.diagonal().array() += 1e-12 * gram.diagonal().maxCoeff() + 1e-300;
    a.gamma = gram.ldlt().solve(a.rhs.head(m));
    mixed = a.gamma.allFinite();
  }
  // Pass 2: the mixed iterate g − ΔG γ back into r and v, and as the next sweep's start x.
  if (mixed) {
    ForEachPiece(a, workers, [&](int q) {
      if (q < contact_pieces) {
        MixContacts(a, r, q);
      } else {
        MixRanges(a, v, q - contact_pieces);
      }
    });
  } else {
    a.x = a.g.head(a.nr);  // r and v are the sweep's already
  }
  // What was packed is the next step's "last": swapped, not copied.
  a.g.swap(a.g_last);
  a.f.swap(a.f_last);
}

void ReserveSweepAcceleration(int contacts, int blocks, int nv, int depth, SweepAcceleration& a) {
  const int nr = 3 * contacts;
  depth = std::clamp(depth, 1, kMaxAccelerationDepth);
  a.contacts.reserve(contacts);
  a.dofs.reserve(blocks);
  a.dof_at.reserve(blocks + 1);
  a.partial.reserve(static_cast<std::size_t>(contacts / kAccelerationPiece + 1) * kPartials);
  a.block_seen.reserve(blocks);
  for (Eigen::VectorXd* vector : {&a.x, &a.f, &a.f_last}) math::ReserveStorage(*vector, nr);
  for (Eigen::VectorXd* vector : {&a.g, &a.g_last}) math::ReserveStorage(*vector, nr + nv);
  math::ResizeKeepingStorage(a.dG, nr + nv, depth);
  math::ResizeKeepingStorage(a.dF, nr, depth);
}

}  // namespace coulomb
