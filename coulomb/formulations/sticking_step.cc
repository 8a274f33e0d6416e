// The sticking step (sticking_step.h).

#include "coulomb/formulations/sticking_step.h"

#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {

void ReserveStickingStep(int blocks, StickingScratch& scratch) {
  scratch.local_of_block.reserve(static_cast<std::size_t>(blocks));
  scratch.blocks.reserve(kMaxStickingVelocities);
  constexpr int kRows = 3 * kMaxStickingContacts, n = kMaxStickingVelocities;
  math::ResizeKeepingStorage(scratch.J, kRows, n);
  math::ResizeKeepingStorage(scratch.A, n, n);
  math::ResizeKeepingStorage(scratch.block, n, n);
  for (Eigen::VectorXd* vector : {&scratch.u, &scratch.dr, &scratch.r_before}) {
    math::ReserveStorage(*vector, kRows);
  }
  for (Eigen::VectorXd* vector : {&scratch.w, &scratch.t, &scratch.v_before}) {
    math::ReserveStorage(*vector, n);
  }
}

bool ApplyStickingStep(const ContactRows& rows, std::span<const int> contacts, Eigen::VectorXd& r,
                       Eigen::VectorXd& v, StickingScratch& s) {
  const auto m = static_cast<Eigen::Index>(contacts.size());
  if (m == 0 || m > kMaxStickingContacts) return false;
  for (const int k : contacts) {
    const Eigen::Vector3d rk = r.segment<3>(3 * k);
    if (rows.contacts[k].compliance != 0 || !(rk[0] > 0) ||
        !(rk.tail<2>().norm() < rows.mu[k] * rk[0])) {
      return false;  // not every contact sticks: Newton's
    }
  }
  // The island's velocities: its blocks side by side, in the order its contacts meet them.
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
  if (n == 0 || n > kMaxStickingVelocities) return false;
  math::ResizeKeepingStorage(s.J, 3 * m, n);
  s.J.setZero();
  math::ResizeKeepingStorage(s.u, 3 * m);
  for (Eigen::Index i = 0; i < m; ++i) {
    const int k = contacts[i];
    const ContactRows::Row& row = rows.contacts[k];
    for (const ContactRows::Side& side : row.sides) {
      if (side.size == 0) continue;
      s.J.block(3 * i, s.local_of_block[side.block], 3, side.size) =
          Eigen::Map<const Eigen::Matrix3Xd>(rows.J.data() + side.offset, 3, side.size);
    }
    s.u.segment<3>(3 * i) = ContactRowVelocity(rows, k, v) + row.bias;
  }
  // A = Jᵀ J. A J short of full column rank (a sphere's one contact leaves its spin free) is
  // not this step's: Newton's.
  math::ResizeKeepingStorage(s.A, n, n);
  s.A.noalias() = s.J.transpose() * s.J;
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> A_factor(s.A);
  if (A_factor.info() != Eigen::Success) return false;
  math::ResizeKeepingStorage(s.w, n);
  s.w.noalias() = s.J.transpose() * s.u;
  A_factor.solveInPlace(s.w);
  // t = M w, block by block from the rows' M⁻¹ blocks.
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
  A_factor.solveInPlace(s.t);  // x = A⁻¹ M w
  math::ResizeKeepingStorage(s.dr, 3 * m);
  s.dr.noalias() = -s.J * s.t;
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
