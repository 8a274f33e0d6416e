#include "coulomb/convex/sap_model.h"

#include <algorithm>
#include <tuple>

#include "coulomb/math/dense_resize.h"

namespace coulomb::convex {
namespace {

void AddDenseBlock(const Eigen::MatrixXd& block, int row0, int col0,
                   math::TripletBuffer& triplets) {
  for (int j = 0; j < block.cols(); ++j) {
    for (int i = 0; i < block.rows(); ++i) triplets.add(row0 + i, col0 + j, block(i, j));
  }
}

}  // namespace

SapModel MakeSapModel(const SapProblem& problem) {
  SapModel m;
  SapModelScratch scratch;
  MakeSapModel(problem, m, scratch);
  return m;
}

void MakeSapModel(const SapProblem& problem, SapModel& m, SapModelScratch& scratch) {
  const int num_cliques = static_cast<int>(problem.cliques.size());
  std::vector<char>& touched = scratch.touched;
  touched.assign(num_cliques, 0);
  m.participating.clear();
  m.size = 0;
  m.row_offset.clear();
  m.row_offset.push_back(0);
  for (const SapConstraint& c : problem.constraints) {
    touched[c.jacobian.clique_a] = 1;
    if (c.jacobian.clique_b >= 0) touched[c.jacobian.clique_b] = 1;
    m.row_offset.push_back(m.row_offset.back() + c.jacobian.rows());
  }
  m.clique_offset.assign(num_cliques, -1);
  for (int k = 0; k < num_cliques; ++k) {
    if (!touched[k]) continue;
    m.participating.push_back(k);
    m.clique_offset[k] = m.size;
    m.size += problem.cliques[k].size();
  }
  math::TripletBuffer& a_triplets = scratch.A;
  math::TripletBuffer& j_triplets = scratch.J;
  a_triplets.clear();
  j_triplets.clear();
  math::ResizeKeepingStorage(m.v_star, m.size);
  for (int k : m.participating) {
    const SapClique& clique = problem.cliques[k];
    AddDenseBlock(clique.A, m.clique_offset[k], m.clique_offset[k], a_triplets);
    m.v_star.segment(m.clique_offset[k], clique.size()) =
        problem.v_star.segment(clique.start, clique.size());
  }
  math::AssignFromTriplets(a_triplets, m.size, m.size, m.A);
  math::ResizeKeepingStorage(m.inverse_sqrt_diagonal, m.size);
  m.inverse_sqrt_diagonal = m.A.diagonal().cwiseSqrt().cwiseInverse();
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const SapJacobian& jac = problem.constraints[i].jacobian;
    AddDenseBlock(jac.J_a, m.row_offset[i], m.clique_offset[jac.clique_a], j_triplets);
    if (jac.clique_b >= 0) {
      AddDenseBlock(jac.J_b, m.row_offset[i], m.clique_offset[jac.clique_b], j_triplets);
    }
  }
  math::AssignFromTriplets(j_triplets, m.rows(), m.size, m.J);
}

Eigen::VectorXd GatherParticipating(const SapProblem& problem, const SapModel& model,
                                    const Eigen::VectorXd& full) {
  Eigen::VectorXd compact;
  GatherParticipating(problem, model, full, compact);
  return compact;
}

void GatherParticipating(const SapProblem& problem, const SapModel& model,
                         const Eigen::VectorXd& full, Eigen::VectorXd& compact) {
  math::ResizeKeepingStorage(compact, model.size);
  for (int k : model.participating) {
    const SapClique& c = problem.cliques[k];
    compact.segment(model.clique_offset[k], c.size()) = full.segment(c.start, c.size());
  }
}

void ScatterParticipating(const SapProblem& problem, const SapModel& model,
                          const Eigen::VectorXd& compact, Eigen::VectorXd& full) {
  for (int k : model.participating) {
    const SapClique& c = problem.cliques[k];
    full.segment(c.start, c.size()) = compact.segment(model.clique_offset[k], c.size());
  }
}

ConstraintsEvaluation EvaluateConstraints(const SapProblem& problem, const SapModel& model,
                                          const Eigen::VectorXd& v_c, bool with_hessian) {
  ConstraintsEvaluation out;
  EvaluateConstraints(problem, model, v_c, with_hessian, out);
  return out;
}

void EvaluateConstraints(const SapProblem& problem, const SapModel& model,
                         const Eigen::VectorXd& v_c, bool with_hessian,
                         ConstraintsEvaluation& out) {
  math::ResizeKeepingStorage(out.gamma, model.rows());
  out.cost = 0;
  out.G.clear();
  if (with_hessian) out.G.reserve(problem.constraints.size());
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const SapConstraint& c = problem.constraints[i];
    const int r = c.jacobian.rows();
    ConstraintEvaluation e = EvaluateConstraint(c, v_c.segment(model.row_offset[i], r));
    out.gamma.segment(model.row_offset[i], r) = e.gamma;
    out.cost += e.cost;
    if (with_hessian) out.G.push_back(e.G);
  }
}

namespace {

// The slot of entry (row, col) of a compressed column-major matrix.
int SlotOf(const Eigen::SparseMatrix<double>& H, int row, int col) {
  const int* begin = H.innerIndexPtr() + H.outerIndexPtr()[col];
  const int* end = H.innerIndexPtr() + H.outerIndexPtr()[col + 1];
  return static_cast<int>(std::lower_bound(begin, end, row) - H.innerIndexPtr());
}

// Appends to `slots` the slots of the lower triangle of the block on `cols` × `cols` (offset
// into H), column by column, rows from the diagonal down.
void LowerSlots(const Eigen::SparseMatrix<double>& H, int offset, const int* cols, int n,
                std::vector<int>& slots) {
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < n; ++i) slots.push_back(SlotOf(H, offset + cols[i], offset + cols[j]));
  }
}

// Appends the slots of the block on `rows` × `cols`, column by column.
void DenseSlots(const Eigen::SparseMatrix<double>& H, int row0, const int* rows, int num_rows,
                int col0, const int* cols, int num_cols, std::vector<int>& slots) {
  for (int j = 0; j < num_cols; ++j) {
    for (int i = 0; i < num_rows; ++i) slots.push_back(SlotOf(H, row0 + rows[i], col0 + cols[j]));
  }
}

// Appends J's nonzero columns to `cols`; returns how many.
int NonzeroColumns(const Eigen::MatrixXd& J, std::vector<int>& cols) {
  const std::size_t before = cols.size();
  for (int j = 0; j < J.cols(); ++j) {
    if (!J.col(j).isZero(0)) cols.push_back(j);
  }
  return static_cast<int>(cols.size() - before);
}

// out = the columns `cols` of J (an indexed view would copy the index vector to the heap).
void GatherColumns(const Eigen::MatrixXd& J, const int* cols, Eigen::Block<Eigen::MatrixXd> out) {
  for (Eigen::Index c = 0; c < out.cols(); ++c) out.col(c) = J.col(cols[c]);
}

void ScatterLower(const Eigen::Ref<const Eigen::MatrixXd>& block, const int* slots,
                  double* values) {
  std::size_t k = 0;
  for (int j = 0; j < block.cols(); ++j) {
    for (int i = j; i < block.rows(); ++i) values[slots[k++]] += block(i, j);
  }
}

void ScatterDense(const Eigen::Ref<const Eigen::MatrixXd>& block, const int* slots,
                  double* values) {
  std::size_t k = 0;
  for (int j = 0; j < block.cols(); ++j) {
    for (int i = 0; i < block.rows(); ++i) values[slots[k++]] += block(i, j);
  }
}

}  // namespace

void SapHessian::FillSlots(const SapProblem& problem, const SapModel& model) {
  // Every slot into one pool, read back through the ranges (the column pool is complete now, so
  // its pointers stay valid while the slot pool grows).
  slot_pool_.clear();
  const auto add_lower = [&](int offset, const int* cols, int n, Range& out) {
    out.start = static_cast<int>(slot_pool_.size());
    LowerSlots(H_, offset, cols, n, slot_pool_);
    out.size = static_cast<int>(slot_pool_.size()) - out.start;
  };
  clique_slots_.resize(model.participating.size());
  int widest_clique = 0;
  for (int k : model.participating)
    widest_clique = std::max(widest_clique, problem.cliques[k].size());
  all_columns_.resize(static_cast<std::size_t>(widest_clique));
  for (int j = 0; j < widest_clique; ++j) all_columns_[static_cast<std::size_t>(j)] = j;
  for (std::size_t p = 0; p < model.participating.size(); ++p) {
    const int k = model.participating[p];
    add_lower(model.clique_offset[k], all_columns_.data(), problem.cliques[k].size(),
              clique_slots_[p]);
  }
  const int* columns = column_pool_.data();
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const SapJacobian& jac = problem.constraints[i].jacobian;
    ConstraintSlots& slots = constraint_slots_[i];
    const int a = model.clique_offset[jac.clique_a];
    add_lower(a, columns + slots.cols_a.start, slots.cols_a.size, slots.aa);
    slots.bb = slots.ab = {static_cast<int>(slot_pool_.size()), 0};
    if (jac.clique_b < 0) continue;
    const int b = model.clique_offset[jac.clique_b];
    add_lower(b, columns + slots.cols_b.start, slots.cols_b.size, slots.bb);
    slots.ab.start = static_cast<int>(slot_pool_.size());
    if (slots.b_first) {
      DenseSlots(H_, b, columns + slots.cols_b.start, slots.cols_b.size, a,
                 columns + slots.cols_a.start, slots.cols_a.size, slot_pool_);
    } else {
      DenseSlots(H_, a, columns + slots.cols_a.start, slots.cols_a.size, b,
                 columns + slots.cols_b.start, slots.cols_b.size, slot_pool_);
    }
    slots.ab.size = static_cast<int>(slot_pool_.size()) - slots.ab.start;
  }
}

void SapHessian::Build(const SapProblem& problem, const SapModel& model) {
  problem_ = &problem;
  participating_ = model.participating;
  // The pattern: lower triangles of the participating cliques' blocks, and for every constraint
  // that couples two cliques the block of the columns it touches in each.
  math::TripletBuffer& pattern = pattern_;
  pattern.clear();
  for (int k : model.participating) {
    const int n = problem.cliques[k].size(), offset = model.clique_offset[k];
    for (int j = 0; j < n; ++j) {
      for (int i = j; i < n; ++i) pattern.add(offset + i, offset + j, 0.0);
    }
  }
  int widest = 0;
  column_pool_.clear();
  constraint_slots_.resize(problem.constraints.size());
  for (std::size_t c = 0; c < problem.constraints.size(); ++c) {
    const SapJacobian& jac = problem.constraints[c].jacobian;
    ConstraintSlots& slots = constraint_slots_[c];
    slots.cols_a.start = static_cast<int>(column_pool_.size());
    slots.cols_a.size = NonzeroColumns(jac.J_a, column_pool_);
    widest = std::max(widest, slots.cols_a.size);
    slots.cols_b = {static_cast<int>(column_pool_.size()), 0};
    slots.b_first = false;
    if (jac.clique_b >= 0) {
      slots.cols_b.size = NonzeroColumns(jac.J_b, column_pool_);
      widest = std::max(widest, slots.cols_b.size);
      slots.b_first = model.clique_offset[jac.clique_b] > model.clique_offset[jac.clique_a];
    }
  }
  for (std::size_t c = 0; c < problem.constraints.size(); ++c) {
    const SapJacobian& jac = problem.constraints[c].jacobian;
    const ConstraintSlots& slots = constraint_slots_[c];
    if (jac.clique_b < 0) continue;
    const int a = model.clique_offset[jac.clique_a], b = model.clique_offset[jac.clique_b];
    const auto [rows, row0, cols, col0] = slots.b_first
                                              ? std::tuple(slots.cols_b, b, slots.cols_a, a)
                                              : std::tuple(slots.cols_a, a, slots.cols_b, b);
    for (int j = 0; j < cols.size; ++j) {
      for (int i = 0; i < rows.size; ++i) {
        pattern.add(row0 + column_pool_[rows.start + i], col0 + column_pool_[cols.start + j], 0.0);
      }
    }
  }
  math::AssignFromTriplets(pattern, model.size, model.size, H_);
  FillSlots(problem, model);
  SizeScratch(widest);
}

void SapHessian::SizeScratch(int widest) {
  // Sized once for the widest constraint (resize reallocates only when the size changes).
  if (JtG_.rows() < widest) {
    JtG_.resize(widest, kMaxConstraintRows);
    block_.resize(widest, widest);
    Ja_.resize(kMaxConstraintRows, widest);
    Jb_.resize(kMaxConstraintRows, widest);
  }
}

const Eigen::SparseMatrix<double>& SapHessian::Assemble(const std::vector<ConstraintMatrix>& G) {
  double* values = H_.valuePtr();
  std::fill(values, values + H_.nonZeros(), 0.0);
  const int* columns = column_pool_.data();
  const int* slot = slot_pool_.data();
  for (std::size_t p = 0; p < participating_.size(); ++p) {
    ScatterLower(problem_->cliques[participating_[p]].A, slot + clique_slots_[p].start, values);
  }
  for (std::size_t i = 0; i < problem_->constraints.size(); ++i) {
    const SapJacobian& jac = problem_->constraints[i].jacobian;
    const ConstraintSlots& slots = constraint_slots_[i];
    const int r = jac.rows();
    const int na = slots.cols_a.size;
    auto Ja = Ja_.topLeftCorner(r, na);
    GatherColumns(jac.J_a, columns + slots.cols_a.start, Ja);
    auto JtG = JtG_.topLeftCorner(na, r);
    JtG.noalias() = Ja.transpose() * G[i];
    auto aa = block_.topLeftCorner(na, na);
    aa.noalias() = JtG * Ja;
    ScatterLower(aa, slot + slots.aa.start, values);
    if (jac.clique_b < 0) continue;
    const int nb = slots.cols_b.size;
    auto Jb = Jb_.topLeftCorner(r, nb);
    GatherColumns(jac.J_b, columns + slots.cols_b.start, Jb);
    if (slots.b_first) {  // J_bᵀ G J_a = (J_aᵀ G J_b)ᵀ, G symmetric
      auto ba = block_.topLeftCorner(nb, na);
      ba.noalias() = Jb.transpose() * JtG.transpose();
      ScatterDense(ba, slot + slots.ab.start, values);
    } else {
      auto ab = block_.topLeftCorner(na, nb);
      ab.noalias() = JtG * Jb;
      ScatterDense(ab, slot + slots.ab.start, values);
    }
    auto JtG_b = JtG_.topLeftCorner(nb, r);
    JtG_b.noalias() = Jb.transpose() * G[i];
    auto bb = block_.topLeftCorner(nb, nb);
    bb.noalias() = JtG_b * Jb;
    ScatterLower(bb, slot + slots.bb.start, values);
  }
  return H_;
}

void ReserveSapModel(const SapSize& size, SapModel& model, SapModelScratch& scratch) {
  const auto cliques = static_cast<std::size_t>(size.cliques);
  const Eigen::Index rows = 3 * static_cast<Eigen::Index>(size.constraints);
  const Eigen::Index jacobian_entries = rows * size.columns;
  model.participating.reserve(cliques);
  model.clique_offset.reserve(cliques);
  model.row_offset.reserve(static_cast<std::size_t>(size.constraints) + 1);
  math::ReserveSparse(model.J, rows, jacobian_entries);
  math::ReserveSparse(model.A, size.velocities, size.clique_values);
  math::ReserveStorage(model.v_star, size.velocities);
  math::ReserveStorage(model.inverse_sqrt_diagonal, size.velocities);
  scratch.touched.reserve(cliques);
  scratch.A.Reserve(static_cast<std::size_t>(size.clique_values),
                    static_cast<std::size_t>(size.velocities));
  scratch.J.Reserve(static_cast<std::size_t>(jacobian_entries),
                    static_cast<std::size_t>(std::max<Eigen::Index>(rows, size.velocities)));
}

void ReserveConstraintsEvaluation(const SapSize& size, ConstraintsEvaluation& evaluation) {
  math::ReserveStorage(evaluation.gamma, 3 * static_cast<Eigen::Index>(size.constraints));
  evaluation.G.reserve(static_cast<std::size_t>(size.constraints));
}

Eigen::Index MaxHessianEntries(const SapSize& size) {
  // A constraint's blocks: its two cliques' lower triangles and their coupling, at most
  // columns² entries together; the cliques' own lower triangles at most clique_values.
  return size.clique_values +
         static_cast<Eigen::Index>(size.constraints) * size.columns * size.columns;
}

void SapHessian::Reserve(const SapSize& size) {
  const auto constraints = static_cast<std::size_t>(size.constraints);
  const auto cliques = static_cast<std::size_t>(size.cliques);
  const auto columns = static_cast<std::size_t>(size.columns);
  const auto entries = static_cast<std::size_t>(MaxHessianEntries(size));
  participating_.reserve(cliques);
  math::ReserveSparse(H_, size.velocities, static_cast<Eigen::Index>(entries));
  column_pool_.reserve(constraints * columns);
  slot_pool_.reserve(entries);
  clique_slots_.reserve(cliques);
  constraint_slots_.reserve(constraints);
  pattern_.Reserve(entries, static_cast<std::size_t>(size.velocities));
  SizeScratch(size.columns);  // at least one clique's columns
}

}  // namespace coulomb::convex
