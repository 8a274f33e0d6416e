#pragma once
// The velocities of a mixed ContactProblem (mixed_step.h) and where each comes from.
//
// A deformable body attached to a rigid tree moves its attached vertices with the tree: their
// velocities are not unknowns but v_A = T v_tree + c, with T the attachment points' Jacobians
// and c = −g0/δt closing the attachment's position error in one step. Substituted into the
// step's momentum balance (the minimum of ½‖v − v*‖²_M + ½‖w − w*‖²_Â over the tree's v and the
// body's participating w = (v_A, v_C)), the tree and the body's other participating vertices C
// become one block of velocities z = (v_tree, v_C) with
//   M_z = [M + Tᵀ Â_AA T, Tᵀ Â_AC; Â_CA T, Â_CC],
//   M_z z* = [M v* + Tᵀ (Â_AA (w*_A − c) + Â_AC w*_C); Â_CA (w*_A − c) + Â_CC w*_C],
// exact for the linearized step, so the contact-level solvers see the attachment as the mass the
// finger carries. Bodies attached to a static body (no velocities) keep T = 0. A body attached
// to two trees would merge them; it is refused (SAP takes it).

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/coupled_step.h"
#include "coulomb/formulations/deformable_blocks.h"

namespace coulomb {

// Where one deformable body's participating vertices are.
struct BodyLayout {
  int tree = -1;   // the rigid block its attachments tie it to (−1: none, or static bodies)
  int block = -1;  // its mixed block: the tree's, or its own (−1: nothing of it moves)
  // Per participating vertex (in DeformableBlock::vertices order): the mixed column of its x
  // velocity, or −1 when it is attached; then T (3 × the tree's size, or 0 columns) and c.
  std::vector<int> column;
  std::vector<Eigen::MatrixXd> T;
  std::vector<Eigen::Vector3d> c;
  bool attached() const;
};

struct MixedLayout {
  std::vector<int> rigid_column;  // per rigid velocity, its column in the mixed problem
  std::vector<multibody::DofBlock> blocks;
  std::vector<BodyLayout> bodies;
};

// The mixed problem's blocks, masses, v and v* (into p, with p.deformable_blocks), and the layout
// of its velocities; "" or why the step cannot be posed this way. With `fold_attachments` false
// every body keeps its participating vertices in a block of its own, for a formulation that
// enforces the attachments as constraints (mixed_step.h).
std::string LayOutMixedBlocks(const CoupledStepInput& input,
                              const std::vector<DeformableBlock>& bodies, bool fold_attachments,
                              MixedLayout& layout, contact::ContactProblem& p);

// Body d's participating velocities w (DeformableBlock::vertices order) from the mixed v.
Eigen::VectorXd ParticipatingVelocity(const MixedLayout& layout, const DeformableBlock& body, int d,
                                      const Eigen::VectorXd& v);

}  // namespace coulomb
