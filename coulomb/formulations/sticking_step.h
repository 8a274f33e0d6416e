#pragma once
// One exact step for an island whose contacts all stick, for where Gauss–Seidel stalls on it (a
// 10⁶ kg box on a 1 kg one, a hyperstatic stack): the least-squares velocity change that stops
// every contact, and impulses that make it.
//
// With every contact of the island sticking, the answer has u = J v⁺ + b = 0 on all of them.
// From the current (r, v) with contact velocities u (3 m rows, the island's n velocities):
//   Δv = −w,  w = argmin ‖J w − u‖ = A⁻¹ Jᵀ u,  A = Jᵀ J,
//   Δr = −J A⁻¹ M w,
// so that M⁻¹ Jᵀ Δr = −M⁻¹ A A⁻¹ M w = Δv (the impulses make the velocity change) and
// u + J Δv = (I − J A⁻¹ Jᵀ) u, zero whenever u lies in J's range (b consistent, as at rest).
// Δr is the smallest change in range(J); W = J M⁻¹ Jᵀ itself is singular on such islands (more
// contact rows than velocities), which is why Gauss–Seidel wanders there. Whether the result is
// an answer (impulses still inside their cones, u zero to the tolerance) is the caller's
// certificate; a step that fails it is undone.

#include <Eigen/Dense>
#include <span>
#include <vector>

namespace coulomb {

struct ContactRows;  // contact_sweeps.h

// The largest island the step takes: A is dense n × n (a few 6-velocity bodies). Above it Newton
// (or the sweeps' cap) decides.
inline constexpr int kMaxStickingVelocities = 96;
inline constexpr int kMaxStickingContacts = 64;

struct StickingScratch {
  std::vector<int> local_of_block;  // per mass block, its first velocity in the island, or −1
  struct IslandBlock {
    int block, start, size, local;  // v[start, start + size) are the island's [local, ...)
  };
  std::vector<IslandBlock> blocks;  // the island's blocks, in the order its contacts meet them
  Eigen::MatrixXd A, block;  // Jᵀ J over the island's velocities, one M⁻¹ block's factor
  Eigen::VectorXd w, t, dr, r_before, v_before;
};

// Room for the largest island the step takes, on a scene of `blocks` mass blocks.
void ReserveStickingStep(int blocks, StickingScratch& scratch);

// Applies the step to the island's contacts (indices into rows) in r and v when every one of
// them sticks (r_N > 0, strictly inside its cone, no compliance) and the island is small enough;
// false, with r and v untouched, otherwise.
bool ApplyStickingStep(const ContactRows& rows, std::span<const int> contacts, Eigen::VectorXd& r,
                       Eigen::VectorXd& v, StickingScratch& scratch);
// Puts back the r and v of the island before the last ApplyStickingStep.
void UndoStickingStep(std::span<const int> contacts, Eigen::VectorXd& r, Eigen::VectorXd& v,
                      const StickingScratch& scratch);

}  // namespace coulomb
