// MakeContactRows (contact_sweeps.h): each contact's Jacobian rows, M⁻¹ J_iᵀ and W_ii, and the
// islands and ground-up order the sweeps visit them in.

#include <algorithm>
#include <array>
#include <climits>
#include <utility>

#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/math/dense_resize.h"
#include "coulomb/math/vector_growth.h"

namespace coulomb {
namespace {

using Side = ContactRows::Side;

// Y = M_bb⁻¹ J_sᵀ and W += J_s Y for one side (fixed sizes for a free body's six DoFs).
template <int N>
void AddSide(const double* J, const double* Minv, int n, double* Y, Eigen::Matrix3d& W) {
  const Eigen::Map<const Eigen::Matrix<double, 3, N>> Js(J, 3, n);
  const Eigen::Map<const Eigen::Matrix<double, N, N>> M(Minv, n, n);
  Eigen::Map<Eigen::Matrix<double, N, 3>> Ys(Y, n, 3);
  Ys.noalias() = M * Js.transpose();
  W.noalias() += Js * Ys;
}

// The same for a lone centred free body, M⁻¹ = diag(s I, N) (ContactRows::Side::free_body):
// Y = (s Gᵀ, N Hᵀ) for J_s = [G H], a third of the dense product's flops. (The dense product's
// other terms are exact zeros.)
void AddFreeBodySide(const double* J, const double* inverse, double* Y, Eigen::Matrix3d& W) {
  const Eigen::Map<const Eigen::Matrix<double, 3, 6>> Js(J);
  const Eigen::Map<const Eigen::Matrix3d> N(inverse + 1);
  Eigen::Map<Eigen::Matrix<double, 6, 3>> Ys(Y);
  Ys.topRows<3>() = inverse[0] * Js.leftCols<3>().transpose();
  Ys.bottomRows<3>().noalias() = N * Js.rightCols<3>().transpose();
  W.noalias() += Js * Ys;
}

// (J_k v, J_k w) in one pass over contact k's rows, each summed as ContactRowVelocity sums it.
std::pair<Eigen::Vector3d, Eigen::Vector3d> ContactRowVelocities(const ContactRows& rows, int k,
                                                                 const Eigen::VectorXd& v,
                                                                 const Eigen::VectorXd& w) {
  Eigen::Vector3d u = Eigen::Vector3d::Zero(), uw = Eigen::Vector3d::Zero();
  for (const Side& side : rows.contacts[k].sides) {
    if (side.size == 6) {
      const Eigen::Map<const Eigen::Matrix<double, 3, 6>> Js(rows.J.data() + side.offset);
      u.noalias() += Js * v.segment<6>(side.start);
      uw.noalias() += Js * w.segment<6>(side.start);
    } else if (side.size > 0) {
      const Eigen::Map<const Eigen::Matrix3Xd> Js(rows.J.data() + side.offset, 3, side.size);
      u.noalias() += Js * v.segment(side.start, side.size);
      uw.noalias() += Js * w.segment(side.start, side.size);
    }
  }
  return {u, uw};
}

void OrderByIslandAndDepth(const contact::ContactProblem& problem, ContactRows& rows);

// Contact k's rows straight into its slots of `pool` when its three rows share one compressed
// pattern made of one run of consecutive columns per side (the layout contact_rows_assembly.cc
// writes in place for free bodies): every slot is then written. False, with nothing written,
// otherwise. (Entry by entry, finding each column's side, was most of FillJacobianRows.)
bool CopyConsecutiveRuns(const Eigen::SparseMatrix<double, Eigen::RowMajor>& J, int k,
                         const ContactRows::Row& row, std::vector<double>& pool) {
  if (!J.isCompressed()) return false;
  const int* outer = J.outerIndexPtr() + 3 * k;
  const int* inner = J.innerIndexPtr();
  const int n = outer[1] - outer[0];
  if (outer[2] - outer[1] != n || outer[3] - outer[2] != n) return false;
  int covered = 0;
  for (const Side& side : row.sides) covered += side.size;
  if (covered != n) return false;
  // One pattern for the three rows, then its runs checked once.
  if (!std::equal(inner + outer[0], inner + outer[1], inner + outer[1]) ||
      !std::equal(inner + outer[0], inner + outer[1], inner + outer[2])) {
    return false;
  }
  std::array<int, 2> first{};  // each side's first entry in its rows
  for (int s = 0; s < 2; ++s) {
    const Side& side = row.sides[s];
    if (side.size == 0) continue;
    int e = 0;
    while (e < n && inner[outer[0] + e] != side.start) ++e;
    if (n - e < side.size) return false;
    for (int j = 0; j < side.size; ++j) {
      if (inner[outer[0] + e + j] != side.start + j) return false;
    }
    first[s] = e;
  }
  const double* values = J.valuePtr();
  for (int s = 0; s < 2; ++s) {
    const Side& side = row.sides[s];
    double* out = pool.data() + side.offset;
    if (side.size == 6) {  // a free body's: three strided rows into one 3 × 6 block, unrolled
      using Rows =
          Eigen::Map<const Eigen::Matrix<double, 3, 6, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;
      Eigen::Map<Eigen::Matrix<double, 3, 6>> block(out);
      block = Rows(values + outer[0] + first[s], Eigen::OuterStride<>(n));
      continue;
    }
    for (int j = 0; j < side.size; ++j) {
      for (int a = 0; a < 3; ++a) out[3 * j + a] = values[outer[a] + first[s] + j];
    }
  }
  return true;
}

// The sides of every contact, the islands and their order, the sides' offsets in the pools, and
// J's entries copied into them. The pools are laid out in the sweep order (island by island,
// ground up), not the problem's: a sweep then reads them front to back instead of jumping, which
// on a pile whose rows outgrow the caches is most of a contact update's time (the values and
// every operation on them are the same; only their addresses change).
void FillJacobianRows(const contact::ContactProblem& problem, ContactRows& rows) {
  const int nc = problem.num_contacts();
  const auto& blocks = problem.mass.blocks();
  rows.contacts.resize(nc);
  for (int k = 0; k < nc; ++k) {
    const auto [a, b] = problem.contact_blocks[k];
    ContactRows::Row& row = rows.contacts[k];
    row.sides = {};
    const std::array<int, 2> sides = {a, b != a ? b : -1};
    for (int j = 0; j < 2; ++j) {
      if (sides[j] < 0) continue;
      const multibody::DofBlock& block = blocks[sides[j]];
      row.sides[j] = {sides[j], block.start, block.size, 0};
    }
  }
  OrderByIslandAndDepth(problem, rows);
  int pool = 0;
  for (const int k : rows.order) {
    for (Side& side : rows.contacts[k].sides) {
      if (side.size == 0) continue;
      side.offset = pool;
      pool += 3 * side.size;
    }
  }
  math::ReserveGrowing(rows.J, static_cast<std::size_t>(pool));
  rows.J.resize(pool);  // each contact's slots are written or zeroed below
  rows.MinvJt.resize(pool);
  // Where column `col` of contact k's rows goes in the pool (−1: on neither side, which a
  // Jacobian built from the contact's two bodies never has).
  const auto slot = [&rows](int k, int col) {
    for (const Side& side : rows.contacts[k].sides) {
      if (side.size > 0 && col >= side.start && col < side.start + side.size) {
        return side.offset + 3 * (col - side.start);
      }
    }
    return -1;
  };
  const Eigen::SparseMatrix<double, Eigen::RowMajor>& J = problem.J;
  for (int k = 0; k < nc; ++k) {
    if (CopyConsecutiveRuns(J, k, rows.contacts[k], rows.J)) continue;
    for (const Side& side : rows.contacts[k].sides) {
      std::fill_n(rows.J.begin() + side.offset, 3 * side.size, 0.0);
    }
    // A geometric contact's three rows share one column pattern (contact_problem.cc emits them
    // so): one pass writes each column's three entries side by side.
    if (J.isCompressed()) {
      const int* outer = J.outerIndexPtr() + 3 * k;
      const int* inner = J.innerIndexPtr();
      const int n = outer[1] - outer[0];
      if (outer[2] - outer[1] == n && outer[3] - outer[2] == n &&
          std::equal(inner + outer[0], inner + outer[1], inner + outer[1]) &&
          std::equal(inner + outer[0], inner + outer[1], inner + outer[2])) {
        const double* values = J.valuePtr();
        for (int e = 0; e < n; ++e) {
          const int at = slot(k, inner[outer[0] + e]);
          if (at < 0) continue;
          for (int a = 0; a < 3; ++a) rows.J[at + a] = values[outer[a] + e];
        }
        continue;
      }
    }
    for (int a = 0; a < 3; ++a) {
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(J, 3 * k + a); it; ++it) {
        const int at = slot(k, static_cast<int>(it.col()));
        if (at >= 0) rows.J[at + a] = it.value();
      }
    }
  }
}

// The dense M⁻¹ of every block a contact touches (its cost is the block's factorization's).
void InvertTouchedBlocks(const contact::ContactProblem& problem, ContactRows& rows) {
  const auto& blocks = problem.mass.blocks();
  ContactRows::Scratch& s = rows.scratch;
  s.block_offset.assign(blocks.size(), -1);
  int total = 0;
  for (const ContactRows::Row& row : rows.contacts) {
    for (const Side& side : row.sides) {
      if (side.size == 0 || s.block_offset[side.block] >= 0) continue;
      s.block_offset[side.block] = total;
      total += side.size * side.size;
    }
  }
  s.Minv.resize(total);
  s.free_body.assign(blocks.size(), -1);
  rows.free_body_inverse.clear();
  for (int b = 0; b < static_cast<int>(blocks.size()); ++b) {
    if (s.block_offset[b] < 0) continue;
    const int n = blocks[b].size;
    const Eigen::Map<Eigen::MatrixXd> Minv(s.Minv.data() + s.block_offset[b], n, n);
    problem.mass.InvertBlock(b, Minv);
    if (n != 6) continue;
    // diag(s I, N), to the bit: a lone centred free body's (its mass block is diag(m I, I_c)
    // exactly, and the Cholesky factor keeps every zero of a block-diagonal matrix).
    const Eigen::Map<const Eigen::Matrix<double, 6, 6>> M6(Minv.data());  // fixed-size reads
    const double inverse_mass = M6(0, 0);
    if (M6.topLeftCorner<3, 3>() != inverse_mass * Eigen::Matrix3d::Identity() ||
        !M6.block<3, 3>(3, 0).isZero(0) || !M6.block<3, 3>(0, 3).isZero(0)) {
      continue;
    }
    s.free_body[b] = static_cast<int>(rows.free_body_inverse.size());
    const std::size_t at = rows.free_body_inverse.size();
    rows.free_body_inverse.resize(at + 10);
    rows.free_body_inverse[at] = inverse_mass;
    Eigen::Map<Eigen::Matrix3d>(rows.free_body_inverse.data() + at + 1) =
        M6.bottomRightCorner<3, 3>();  // column-major, as N is read
  }
}

// Whether every contact is between one and the same block and something without velocities (a
// box on a slope, a ball on the ground): most small scenes, whose step the general ordering's
// counting sort, union–find and sort cost 3–4 % (callgrind: 844 of 26 424 instructions on a
// sliding box, 430 of 10 727 on a rolling ball).
bool OnOneGroundedBlock(const ContactRows& rows) {
  if (rows.contacts.empty()) return false;
  const auto block = [](const ContactRows::Row& row) {
    const int a = row.sides[0].block, b = row.sides[1].block;
    return (a >= 0) == (b >= 0) ? -1 : std::max(a, b);
  };
  const int first = block(rows.contacts.front());
  if (first < 0) return false;
  for (const ContactRows::Row& row : rows.contacts) {
    if (block(row) != first) return false;
  }
  return true;
}

int Find(std::vector<int>& parent, int b) {
  while (parent[b] != b) b = parent[b] = parent[parent[b]];
  return b;
}

// Islands (contacts connected through blocks with velocities; the world joins none) and, inside
// each, breadth-first depth from the blocks that rest on something without velocities: Gauss–Seidel
// carries a stack's weight down in one sweep when visiting it ground up.
void OrderByIslandAndDepth(const contact::ContactProblem& problem, ContactRows& rows) {
  const int nc = rows.num_contacts();
  if (OnOneGroundedBlock(rows)) {
    // One island, every contact at depth 0: the order below would be the contacts' own.
    rows.order.resize(nc);
    for (int k = 0; k < nc; ++k) rows.order[k] = k;
    rows.island_start.assign({0, nc});
    return;
  }
  const int nb = static_cast<int>(problem.mass.blocks().size());
  ContactRows::Scratch& s = rows.scratch;
  s.parent.resize(nb);
  for (int b = 0; b < nb; ++b) s.parent[b] = b;
  // The contacts on each block, by a counting sort over the contacts in order.
  s.touching_start.assign(nb + 1, 0);
  for (int k = 0; k < nc; ++k) {
    for (const Side& side : rows.contacts[k].sides) {
      if (side.block >= 0) ++s.touching_start[side.block + 1];
    }
  }
  for (int b = 0; b < nb; ++b) s.touching_start[b + 1] += s.touching_start[b];
  s.touching.resize(s.touching_start[nb]);
  s.queue.assign(s.touching_start.begin(), s.touching_start.end() - 1);  // next free slot
  for (int k = 0; k < nc; ++k) {
    for (const Side& side : rows.contacts[k].sides) {
      if (side.block >= 0) s.touching[s.queue[side.block]++] = k;
    }
  }
  s.depth.assign(nb, INT_MAX);
  s.queue.clear();
  for (int k = 0; k < nc; ++k) {
    const auto& sides = rows.contacts[k].sides;
    const int a = sides[0].block, b = sides[1].block;
    if (a >= 0 && b >= 0) s.parent[Find(s.parent, a)] = Find(s.parent, b);
    const int grounded = (a >= 0) != (b >= 0) ? std::max(a, b) : -1;
    if (grounded >= 0 && s.depth[grounded] != 0) {
      s.depth[grounded] = 0;
      s.queue.push_back(grounded);
    }
  }
  for (std::size_t head = 0; head < s.queue.size(); ++head) {
    const int b = s.queue[head];
    for (int t = s.touching_start[b]; t < s.touching_start[b + 1]; ++t) {
      const int k = s.touching[t];
      const auto& sides = rows.contacts[k].sides;
      const int other = sides[0].block == b ? sides[1].block : sides[0].block;
      if (other >= 0 && s.depth[other] > s.depth[b] + 1) {
        s.depth[other] = s.depth[b] + 1;
        s.queue.push_back(other);
      }
    }
  }
  // Islands numbered by their first contact, so the order depends on the data alone.
  s.island_of.assign(nb, -1);
  s.keys.resize(nc);
  int islands = 0;
  for (int k = 0; k < nc; ++k) {
    const auto& sides = rows.contacts[k].sides;
    const int any = sides[0].block >= 0 ? sides[0].block : sides[1].block;
    int island = islands;
    int depth = INT_MAX;
    if (any >= 0) {
      int& id = s.island_of[Find(s.parent, any)];
      if (id < 0) id = islands;
      island = id;
      for (const Side& side : sides) {
        if (side.block >= 0) depth = std::min(depth, s.depth[side.block]);
      }
    }
    if (island == islands) ++islands;
    s.keys[k] = {island, depth, k};
  }
  std::sort(s.keys.begin(), s.keys.end());
  rows.order.resize(nc);
  rows.island_start.clear();
  for (int i = 0; i < nc; ++i) {
    rows.order[i] = s.keys[i][2];
    if (i == 0 || s.keys[i][0] != s.keys[i - 1][0]) rows.island_start.push_back(i);
  }
  rows.island_start.push_back(nc);
}

}  // namespace

void MakeContactRows(const contact::ContactProblem& problem, const PositionCorrection& correction,
                     ContactRows& rows) {
  const int nc = problem.num_contacts();
  FillJacobianRows(problem, rows);
  InvertTouchedBlocks(problem, rows);
  const bool compliant = problem.compliance.size() == nc;
  const double h = problem.time_step;
  math::ResizeKeepingStorage(rows.mu, nc);
  rows.mu = problem.mu;
  rows.v_star = problem.v_star;
  if (static_cast<int>(problem.points.size()) == nc) {
    rows.points = problem.points;  // into kept storage
  } else {
    rows.points.clear();
  }
  math::ResizeKeepingStorage(rows.q, 3 * nc);
  for (int k = 0; k < nc; ++k) {
    ContactRows::Row& row = rows.contacts[k];
    Eigen::Matrix3d W = Eigen::Matrix3d::Zero();
    for (Side& side : row.sides) {
      if (side.size == 0) continue;
      side.free_body = rows.scratch.free_body[side.block];
      const double* Minv = rows.scratch.Minv.data() + rows.scratch.block_offset[side.block];
      const double* J = rows.J.data() + side.offset;
      double* Y = rows.MinvJt.data() + side.offset;
      if (side.free_body >= 0) {
        AddFreeBodySide(J, rows.free_body_inverse.data() + side.free_body, Y, W);
      } else if (side.size == 6) {
        AddSide<6>(J, Minv, 6, Y, W);
      } else {
        AddSide<Eigen::Dynamic>(J, Minv, side.size, Y, W);
      }
    }
    W = (0.5 * (W + W.transpose())).eval();  // exactly symmetric, as Zᵀ Z is
    // A compliant contact's deflection c γ / h² on the normal diagonal (MakeLocalContactProblem).
    row.compliance = compliant && problem.compliance[k] > 0 ? problem.compliance[k] / (h * h) : 0;
    W(0, 0) += row.compliance;
    row.W = MakeLocalDelassus(W);
    const auto [u, u_star] = ContactRowVelocities(rows, k, problem.v, problem.v_star);
    row.bias = {-RequiredNormalVelocity(problem, k, u[0], correction), 0, 0};
    rows.q.segment<3>(3 * k) = u_star + row.bias;
  }
}

}  // namespace coulomb
