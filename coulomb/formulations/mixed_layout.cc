#include "coulomb/formulations/mixed_layout.h"

#include <fmt/format.h>

#include <algorithm>

#include "coulomb/multibody/dynamics.h"

namespace coulomb {
namespace {

using contact::ContactProblem;

// The rigid block whose velocities move a point with Jacobian J (3 × nv), −1 for none.
int BlockOf(const ContactProblem& rigid, const Eigen::MatrixXd& J) {
  const std::vector<multibody::DofBlock>& blocks = rigid.mass.blocks();
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    if (!J.middleCols(blocks[k].start, blocks[k].size).isZero(0)) return static_cast<int>(k);
  }
  return -1;
}

// Each attachment's vertex: its T (the attachment point's Jacobian on the tree's velocities) and
// c = −g0/δt, and each body's tree.
std::string Attach(const CoupledStepInput& in, const std::vector<DeformableBlock>& bodies,
                   MixedLayout& layout) {
  const ContactProblem& rigid = *in.rigid;
  std::vector<int> first_body(bodies.size(), -1);  // the rigid body of each one's first attachment
  for (const fem::VertexAttachment& at : in.deformables->attachments) {
    const DeformableBlock& b = bodies[at.deformable];
    BodyLayout& L = layout.bodies[at.deformable];
    const auto it = std::lower_bound(b.vertices.begin(), b.vertices.end(), at.vertex);
    if (it == b.vertices.end() || *it != at.vertex) continue;  // a fixed vertex
    const auto k = static_cast<std::size_t>(it - b.vertices.begin());
    if (L.column[k] < 0) continue;  // attached twice: the first one holds it
    const Eigen::MatrixXd J = multibody::CalcPointJacobian(*in.model, *in.data, at.body, at.p_B);
    const int tree = BlockOf(rigid, J);
    if (first_body[at.deformable] < 0) {
      first_body[at.deformable] = at.body;
      L.tree = tree;
    } else if (tree != L.tree) {
      return fmt::format(
          "deformable body '{}' is attached to bodies '{}' and '{}', which move with different "
          "trees: the cone and velocity-lcp formulations carry an attached body with one tree; "
          "run it with --formulation sap",
          in.deformables->bodies[at.deformable].name,
          in.model->bodies[first_body[at.deformable]].name, in.model->bodies[at.body].name);
    }
    L.column[k] = -1;
    L.T[k] = tree >= 0 ? Eigen::MatrixXd(J.middleCols(rigid.mass.blocks()[tree].start,
                                                      rigid.mass.blocks()[tree].size))
                       : Eigen::MatrixXd(3, 0);
    const Eigen::Vector3d x = (*in.states)[at.deformable].x.col(at.vertex);
    L.c[k] = -(x - in.data->X_world[at.body].Apply(at.p_B)) / rigid.time_step;
  }
  return "";
}

// The rows of body d's participating velocities that are attached (A) and the others (C).
void SplitRows(const BodyLayout& L, std::vector<int>& A, std::vector<int>& C) {
  A.clear();
  C.clear();
  for (std::size_t k = 0; k < L.column.size(); ++k) {
    for (int i = 0; i < 3; ++i) (L.column[k] < 0 ? A : C).push_back(3 * static_cast<int>(k) + i);
  }
}

Eigen::MatrixXd Rows(const Eigen::MatrixXd& X, const std::vector<int>& rows,
                     const std::vector<int>& cols) {
  Eigen::MatrixXd out(rows.size(), cols.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < cols.size(); ++j) out(i, j) = X(rows[i], cols[j]);
  }
  return out;
}

Eigen::VectorXd Rows(const Eigen::VectorXd& x, const std::vector<int>& rows) {
  Eigen::VectorXd out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) out[i] = x[rows[i]];
  return out;
}

// A block of the mixed problem while it is assembled: its mass and, when it must be solved for
// its free motion, M_z z* (else v* as it is).
struct BlockSystem {
  Eigen::MatrixXd M;
  Eigen::VectorXd rhs, v_star, v;
  Eigen::MatrixXd reduction;  // mimic joints of a tree (contact_problem.h), or empty
  bool solve = false;
};

// Adds attached body d (participating rows A attached, C free, C's place in the block at
// `offset`) to its block: the substitution v_A = T v_tree + c of mixed_layout.h.
void AddAttachedBody(const DeformableBlock& b, const BodyLayout& L, const Eigen::VectorXd& v_now,
                     int tree_size, int offset, BlockSystem& s) {
  std::vector<int> A, C;
  SplitRows(L, A, C);
  const Eigen::MatrixXd& A_hat = b.schur->reduced();
  const Eigen::VectorXd w_star = b.Participating(b.v_star);
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(A.size()), tree_size);
  Eigen::VectorXd c(A.size());
  for (std::size_t k = 0, row = 0; k < L.column.size(); ++k) {
    if (L.column[k] >= 0) continue;
    if (tree_size > 0) T.middleRows<3>(static_cast<Eigen::Index>(row)) = L.T[k];
    c.segment<3>(static_cast<Eigen::Index>(row)) = L.c[k];
    row += 3;
  }
  const Eigen::MatrixXd AA = Rows(A_hat, A, A), AC = Rows(A_hat, A, C), CC = Rows(A_hat, C, C);
  const Eigen::VectorXd pull = AA * (Rows(w_star, A) - c) + AC * Rows(w_star, C);
  const auto m = static_cast<Eigen::Index>(C.size());
  s.M.topLeftCorner(tree_size, tree_size) += T.transpose() * AA * T;
  s.M.block(0, offset, tree_size, m) = T.transpose() * AC;
  s.M.block(offset, 0, m, tree_size) = AC.transpose() * T;
  s.M.block(offset, offset, m, m) = CC;
  s.rhs.head(tree_size) += T.transpose() * pull;
  s.rhs.segment(offset, m) = AC.transpose() * (Rows(w_star, A) - c) + CC * Rows(w_star, C);
  s.v.segment(offset, m) = Rows(v_now, C);
  s.solve = true;
}

// Columns: each tree, followed by the free participating vertices of the bodies attached to
// it; then each other body with free participating vertices as a block of its own.
int PlaceColumns(const ContactProblem& rigid, const std::vector<DeformableBlock>& bodies,
                 MixedLayout& layout) {
  const std::vector<multibody::DofBlock>& trees = rigid.mass.blocks();
  layout.rigid_column.resize(rigid.nv());
  layout.blocks.clear();
  int nv = 0;
  const auto place_free_vertices = [&](BodyLayout& L, int block) {
    for (int& column : L.column) {
      if (column < 0) continue;
      column = nv;
      nv += 3;
      L.block = block;
    }
    if (L.attached()) L.block = block;
  };
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const int start = nv;
    for (int i = 0; i < trees[t].size; ++i) layout.rigid_column[trees[t].start + i] = nv++;
    for (std::size_t d = 0; d < bodies.size(); ++d) {
      if (bodies[d].schur && layout.bodies[d].tree == static_cast<int>(t)) {
        place_free_vertices(layout.bodies[d], static_cast<int>(t));
      }
    }
    layout.blocks.push_back({start, nv - start});
  }
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    BodyLayout& L = layout.bodies[d];
    if (!bodies[d].schur || L.tree >= 0) continue;
    const int start = nv;
    place_free_vertices(L, static_cast<int>(layout.blocks.size()));
    if (nv > start) layout.blocks.push_back({start, nv - start});
    if (nv == start) L.block = -1;  // every participating vertex held by a static body
  }
  return nv;
}

// A tree's block as the rigid problem has it, grown to make room for its attached bodies.
BlockSystem TreeSystem(const ContactProblem& rigid, std::size_t t, int size) {
  const multibody::DofBlock& tree = rigid.mass.blocks()[t];
  const int n = tree.size;
  BlockSystem s;
  s.M = Eigen::MatrixXd::Zero(size, size);
  s.M.topLeftCorner(n, n) = rigid.M_blocks[t];
  s.v_star = rigid.v_star.segment(tree.start, n);
  s.v = Eigen::VectorXd::Zero(size);
  s.v.head(n) = rigid.v.segment(tree.start, n);
  s.rhs = Eigen::VectorXd::Zero(size);
  s.rhs.head(n) = rigid.M_blocks[t] * s.v_star;
  if (t < rigid.mimic_reductions.size() && rigid.mimic_reductions[t].size() > 0) {
    const Eigen::MatrixXd& T_m = rigid.mimic_reductions[t];
    s.reduction = Eigen::MatrixXd::Zero(size, T_m.cols() + size - n);
    s.reduction.topLeftCorner(n, T_m.cols()) = T_m;
    s.reduction.bottomRightCorner(size - n, size - n).setIdentity();
  }
  return s;
}

// Masses and free motions, block by block: the trees', then each body's in its own block or
// substituted into its tree's.
std::vector<BlockSystem> BlockSystems(const CoupledStepInput& in,
                                      const std::vector<DeformableBlock>& bodies,
                                      const MixedLayout& layout) {
  const ContactProblem& rigid = *in.rigid;
  const std::vector<multibody::DofBlock>& trees = rigid.mass.blocks();
  std::vector<BlockSystem> systems(layout.blocks.size());
  for (std::size_t t = 0; t < trees.size(); ++t) {
    systems[t] = TreeSystem(rigid, t, layout.blocks[t].size);
  }
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    const DeformableBlock& b = bodies[d];
    const BodyLayout& L = layout.bodies[d];
    if (!b.schur || L.block < 0) continue;
    const Eigen::VectorXd v_now = b.Participating((*in.states)[d].Velocities());
    BlockSystem& s = systems[L.block];
    if (!L.attached()) {  // a block of its own, as it is
      s.M = b.schur->reduced();
      s.v_star = b.Participating(b.v_star);
      s.v = v_now;
      continue;
    }
    const int tree_size = L.tree >= 0 ? trees[L.tree].size : 0;
    if (L.tree < 0) {
      s.M = Eigen::MatrixXd::Zero(layout.blocks[L.block].size, layout.blocks[L.block].size);
      s.rhs = Eigen::VectorXd::Zero(s.M.rows());
      s.v = s.rhs;
    }
    // Its free vertices' place in the block (they were given consecutive columns).
    const auto free = std::find_if(L.column.begin(), L.column.end(), [](int c) { return c >= 0; });
    const int offset = free == L.column.end() ? 0 : *free - layout.blocks[L.block].start;
    AddAttachedBody(b, L, v_now, tree_size, offset, s);
  }
  return systems;
}

// The problem's block masses, factored, and its v and v* (blocks with attached bodies solve
// M_z z* = rhs for theirs).
std::string FactorAndSolve(std::vector<BlockSystem>& systems, const MixedLayout& layout, int nv,
                           ContactProblem& p) {
  p.M_blocks.clear();
  p.mimic_reductions.clear();
  bool reduced = false;
  for (BlockSystem& s : systems) {
    p.M_blocks.push_back(s.M);
    p.mimic_reductions.push_back(s.reduction);
    reduced = reduced || s.reduction.size() > 0;
  }
  if (!reduced) p.mimic_reductions.clear();
  p.mass.Factor(p.M_blocks, layout.blocks, reduced ? &p.mimic_reductions : nullptr);
  if (!p.mass.ok()) return "a deformable body's Schur complement is not positive definite";
  p.v.resize(nv);
  p.v_star.resize(nv);
  for (std::size_t k = 0; k < systems.size(); ++k) {
    BlockSystem& s = systems[k];
    if (s.solve) {
      Eigen::MatrixXd z = s.rhs;
      p.mass.SolveLowerBlockInPlace(static_cast<int>(k), z);
      p.mass.SolveUpperBlockInPlace(static_cast<int>(k), z);
      s.v_star = z.col(0);
    }
    p.v_star.segment(layout.blocks[k].start, layout.blocks[k].size) = s.v_star;
    p.v.segment(layout.blocks[k].start, layout.blocks[k].size) = s.v;
  }
  return "";
}

}  // namespace

bool BodyLayout::attached() const {
  return std::any_of(column.begin(), column.end(), [](int c) { return c < 0; });
}

std::string LayOutMixedBlocks(const CoupledStepInput& in,
                              const std::vector<DeformableBlock>& bodies, bool fold_attachments,
                              MixedLayout& layout, ContactProblem& p) {
  layout.bodies.assign(bodies.size(), {});
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    const std::size_t n = bodies[d].vertices.size();
    layout.bodies[d].column.assign(n, 0);
    layout.bodies[d].T.assign(n, {});
    layout.bodies[d].c.assign(n, Eigen::Vector3d::Zero());
  }
  if (fold_attachments) {
    if (std::string error = Attach(in, bodies, layout); !error.empty()) return error;
  }
  const int nv = PlaceColumns(*in.rigid, bodies, layout);
  // The blocks after the trees are the bodies' own.
  const std::size_t trees = in.rigid->mass.blocks().size();
  p.deformable_blocks.assign(layout.blocks.size(), 0);
  std::fill(p.deformable_blocks.begin() + static_cast<std::ptrdiff_t>(trees),
            p.deformable_blocks.end(), 1);
  std::vector<BlockSystem> systems = BlockSystems(in, bodies, layout);
  return FactorAndSolve(systems, layout, nv, p);
}

Eigen::VectorXd ParticipatingVelocity(const MixedLayout& layout, const DeformableBlock& b, int d,
                                      const Eigen::VectorXd& v) {
  const BodyLayout& L = layout.bodies[static_cast<std::size_t>(d)];
  Eigen::VectorXd w(3 * static_cast<Eigen::Index>(b.vertices.size()));
  for (std::size_t k = 0; k < b.vertices.size(); ++k) {
    const auto row = 3 * static_cast<Eigen::Index>(k);
    if (L.column[k] >= 0) {
      w.segment<3>(row) = v.segment<3>(L.column[k]);
    } else {
      w.segment<3>(row) = L.c[k];
      if (L.T[k].cols() > 0) {
        w.segment<3>(row) += L.T[k] * v.segment(layout.blocks[L.tree].start, L.T[k].cols());
      }
    }
  }
  return w;
}

}  // namespace coulomb
