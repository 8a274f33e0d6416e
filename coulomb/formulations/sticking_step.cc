// The sticking step (sticking_step.h).

#include "coulomb/formulations/sticking_step.h"

#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {

void ReserveStickingStep(int blocks, StickingScratch& scratch) {
  scratch.local_of_block.reserve(static_cast<std::size_t>(blocks));
  scratch.blocks.reserve(kMaxStickingVelocities);
  constexpr int kRows = 3 * kMaxStickingContacts, n = kMaxStickingVelocities;
  math::ResizeKeepingStorage(scratch.A, n, n);
  math::ResizeKeepingStorage(scratch.block, n, n);
  for (Eigen::VectorXd* vector : {&scratch.dr, &scratch.r_before}) {
    math::ReserveStorage(*vector, kRows);
  }
  for (Eigen::VectorXd* vector : {&scratch.w, &scratch.t, &scratch.v_before}) {
    math::ReserveStorage(*vector, n);
  }
}

namespace {

// r_N > 0 and strictly inside the cone, no compliance, on every contact.
bool AllStick(const ContactRows& rows, std::span<const int> contacts, const Eigen::VectorXd& r) {
  for (const int k : contacts) {
    const Eigen::Vector3d rk = r.segment<3>(3 * k);
    if (rows.contacts[k].compliance != 0 || !(rk[0] > 0) ||
        !(rk.tail<2>().norm() < rows.mu[k] * rk[0])) {
      return false;
    }
  }
  return true;
}

// The island's velocities: its blocks side by side, in the order its contacts meet them.
// Returns their count.
int MapIslandVelocities(const ContactRows& rows, std::span<const int> contacts,
                        StickingScratch& s) {
  s.local_of_block.assign(rows.scratch.block_offset.size(), -1);
  s.blocks.clear();
  int n = 0;
  for (const int k : contacts) {
    for (const ContactRows::Side& side : rows.contacts[k].sides) {
      if (side.size == 0 || s.local_of_block[side.block] >= 0) continue;
      s.local_of_block[side.block] = n;
      s.blocks.push_back({side.block, side.start, side.size, n});
      n += side.size;
    }
  }
  return n;
}

// A = Jᵀ J and w = Jᵀ u contact by contact: each touches the blocks of its two sides only (a
// stack's A is block tridiagonal; the dense product of the island's J cost ten times more).
void AccumulateNormalEquations(const ContactRows& rows, std::span<const int> contacts,
                               const Eigen::VectorXd& v, int n, StickingScratch& s) {
  math::ResizeKeepingStorage(s.A, n, n);
  s.A.setZero();
  math::ResizeKeepingStorage(s.w, n);
  s.w.setZero();
  for (const int k : contacts) {
    const ContactRows::Row& row = rows.contacts[k];
    const Eigen::Vector3d u = ContactRowVelocity(rows, k, v) + row.bias;
    for (const ContactRows::Side& a : row.sides) {
      if (a.size == 0) continue;
      const Eigen::Map<const Eigen::Matrix3Xd> Ja(rows.J.data() + a.offset, 3, a.size);
      const int la = s.local_of_block[a.block];
      s.w.segment(la, a.size).noalias() += Ja.transpose() * u;
      for (const ContactRows::Side& b : row.sides) {
        if (b.size == 0) continue;
        const Eigen::Map<const Eigen::Matrix3Xd> Jb(rows.J.data() + b.offset, 3, b.size);
        s.A.block(la, s.local_of_block[b.block], a.size, b.size).noalias() += Ja.transpose() * Jb;
      }
    }
  }
}

// t = M w, block by block from the rows' M⁻¹ blocks; false if one is not positive definite.
bool MultiplyByMass(const ContactRows& rows, int n, StickingScratch& s) {
  math::ResizeKeepingStorage(s.t, n);
  for (const StickingScratch::IslandBlock& b : s.blocks) {
    math::ResizeKeepingStorage(s.block, b.size, b.size);
    s.block = Eigen::Map<const Eigen::MatrixXd>(
        rows.scratch.Minv.data() + rows.scratch.block_offset[b.block], b.size, b.size);
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> Minv_factor(s.block);
    if (Minv_factor.info() != Eigen::Success) return false;
    auto t = s.t.segment(b.local, b.size);
    t = s.w.segment(b.local, b.size);
    Minv_factor.solveInPlace(t);
  }
  return true;
}

// dr = −J x over the island's contacts, x = s.t.
void ImpulseChange(const ContactRows& rows, std::span<const int> contacts, StickingScratch& s) {
  math::ResizeKeepingStorage(s.dr, 3 * static_cast<Eigen::Index>(contacts.size()));
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    Eigen::Vector3d dr = Eigen::Vector3d::Zero();
    for (const ContactRows::Side& a : rows.contacts[contacts[i]].sides) {
      if (a.size == 0) continue;
      dr.noalias() -= Eigen::Map<const Eigen::Matrix3Xd>(rows.J.data() + a.offset, 3, a.size) *
                      s.t.segment(s.local_of_block[a.block], a.size);
    }
    s.dr.segment<3>(3 * static_cast<Eigen::Index>(i)) = dr;
  }
}

}  // namespace

bool ApplyStickingStep(const ContactRows& rows, std::span<const int> contacts, Eigen::VectorXd& r,
                       Eigen::VectorXd& v, StickingScratch& s) {
  const auto m = static_cast<Eigen::Index>(contacts.size());
  if (m == 0 || m > kMaxStickingContacts) return false;
  if (!AllStick(rows, contacts, r)) return false;  // Newton's
  const int n = MapIslandVelocities(rows, contacts, s);
  if (n == 0 || n > kMaxStickingVelocities) return false;
  AccumulateNormalEquations(rows, contacts, v, n, s);
  // A J short of full column rank (a sphere's one contact leaves its spin free) is not this
  // step's: Newton's.
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> A_factor(s.A);
  if (A_factor.info() != Eigen::Success) return false;
  A_factor.solveInPlace(s.w);
  if (!MultiplyByMass(rows, n, s)) return false;
  A_factor.solveInPlace(s.t);  // x = A⁻¹ M w
  ImpulseChange(rows, contacts, s);
  if (!s.dr.allFinite() || !s.w.allFinite()) return false;
  // Apply, keeping what was there for UndoStickingStep.
  math::ResizeKeepingStorage(s.r_before, 3 * m);
  math::ResizeKeepingStorage(s.v_before, n);
  for (const StickingScratch::IslandBlock& b : s.blocks) {
    s.v_before.segment(b.local, b.size) = v.segment(b.start, b.size);
  }
  // v moves by M⁻¹ Jᵀ Δr through the rows (−w in exact arithmetic): v and r stay each other's
  // to rounding, whatever A's conditioning did to w.
  for (Eigen::Index i = 0; i < m; ++i) {
    const int k = contacts[i];
    s.r_before.segment<3>(3 * i) = r.segment<3>(3 * k);
    r.segment<3>(3 * k) += s.dr.segment<3>(3 * i);
    ApplyContactImpulse(rows, k, s.dr.segment<3>(3 * i), v);
  }
  return true;
}

void UndoStickingStep(std::span<const int> contacts, Eigen::VectorXd& r, Eigen::VectorXd& v,
                      const StickingScratch& s) {
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    r.segment<3>(3 * contacts[i]) = s.r_before.segment<3>(3 * static_cast<Eigen::Index>(i));
  }
  for (const StickingScratch::IslandBlock& b : s.blocks) {
    v.segment(b.start, b.size) = s.v_before.segment(b.local, b.size);
  }
}

}  // namespace coulomb
