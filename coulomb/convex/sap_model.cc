#include "coulomb/convex/sap_model.h"

#include <algorithm>
#include <tuple>

namespace coulomb::convex {
namespace {

using Triplets = std::vector<Eigen::Triplet<double>>;

void AddDenseBlock(const Eigen::MatrixXd& block, int row0, int col0, Triplets& triplets) {
  for (int j = 0; j < block.cols(); ++j) {
    for (int i = 0; i < block.rows(); ++i) triplets.emplace_back(row0 + i, col0 + j, block(i, j));
  }
}

// The lower triangle of a symmetric block on the diagonal.
void AddLowerBlock(const Eigen::MatrixXd& block, int offset, Triplets& triplets) {
  for (int j = 0; j < block.cols(); ++j) {
    for (int i = j; i < block.rows(); ++i) {
      triplets.emplace_back(offset + i, offset + j, block(i, j));
    }
  }
}

}  // namespace

SapModel MakeSapModel(const SapProblem& problem) {
  SapModel m;
  const int num_cliques = static_cast<int>(problem.cliques.size());
  std::vector<bool> touched(num_cliques, false);
  m.row_offset.reserve(problem.constraints.size() + 1);
  m.row_offset.push_back(0);
  for (const SapConstraint& c : problem.constraints) {
    touched[c.jacobian.clique_a] = true;
    if (c.jacobian.clique_b >= 0) touched[c.jacobian.clique_b] = true;
    m.row_offset.push_back(m.row_offset.back() + c.jacobian.rows());
  }
  m.clique_offset.assign(num_cliques, -1);
  for (int k = 0; k < num_cliques; ++k) {
    if (!touched[k]) continue;
    m.participating.push_back(k);
    m.clique_offset[k] = m.size;
    m.size += problem.cliques[k].size();
  }
  Triplets a_triplets, j_triplets;
  m.v_star.resize(m.size);
  for (int k : m.participating) {
    const SapClique& clique = problem.cliques[k];
    AddDenseBlock(clique.A, m.clique_offset[k], m.clique_offset[k], a_triplets);
    m.v_star.segment(m.clique_offset[k], clique.size()) =
        problem.v_star.segment(clique.start, clique.size());
  }
  m.A.resize(m.size, m.size);
  m.A.setFromTriplets(a_triplets.begin(), a_triplets.end());
  m.inverse_sqrt_diagonal = m.A.diagonal().cwiseSqrt().cwiseInverse();
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const SapJacobian& jac = problem.constraints[i].jacobian;
    AddDenseBlock(jac.J_a, m.row_offset[i], m.clique_offset[jac.clique_a], j_triplets);
    if (jac.clique_b >= 0) {
      AddDenseBlock(jac.J_b, m.row_offset[i], m.clique_offset[jac.clique_b], j_triplets);
    }
  }
  m.J.resize(m.rows(), m.size);
  m.J.setFromTriplets(j_triplets.begin(), j_triplets.end());
  return m;
}

Eigen::VectorXd GatherParticipating(const SapProblem& problem, const SapModel& model,
                                    const Eigen::VectorXd& full) {
  Eigen::VectorXd compact(model.size);
  for (int k : model.participating) {
    const SapClique& c = problem.cliques[k];
    compact.segment(model.clique_offset[k], c.size()) = full.segment(c.start, c.size());
  }
  return compact;
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
  out.gamma.resize(model.rows());
  if (with_hessian) out.G.reserve(problem.constraints.size());
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const SapConstraint& c = problem.constraints[i];
    const int r = c.jacobian.rows();
    ConstraintEvaluation e = EvaluateConstraint(c, v_c.segment(model.row_offset[i], r));
    out.gamma.segment(model.row_offset[i], r) = e.gamma;
    out.cost += e.cost;
    if (with_hessian) out.G.push_back(std::move(e.G));
  }
  return out;
}

namespace {

// The slot of entry (row, col) of a compressed column-major matrix.
int SlotOf(const Eigen::SparseMatrix<double>& H, int row, int col) {
  const int* begin = H.innerIndexPtr() + H.outerIndexPtr()[col];
  const int* end = H.innerIndexPtr() + H.outerIndexPtr()[col + 1];
  return static_cast<int>(std::lower_bound(begin, end, row) - H.innerIndexPtr());
}

// Slots of the lower triangle of the block on `cols` × `cols` (offset into H), column by
// column, rows from the diagonal down.
std::vector<int> LowerSlots(const Eigen::SparseMatrix<double>& H, int offset,
                            const std::vector<int>& cols) {
  std::vector<int> slots;
  const int n = static_cast<int>(cols.size());
  slots.reserve(static_cast<std::size_t>(n) * (n + 1) / 2);
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < n; ++i) slots.push_back(SlotOf(H, offset + cols[i], offset + cols[j]));
  }
  return slots;
}

std::vector<int> DenseSlots(const Eigen::SparseMatrix<double>& H, int row0,
                            const std::vector<int>& rows, int col0, const std::vector<int>& cols) {
  std::vector<int> slots;
  slots.reserve(rows.size() * cols.size());
  for (const int j : cols) {
    for (const int i : rows) slots.push_back(SlotOf(H, row0 + i, col0 + j));
  }
  return slots;
}

std::vector<int> AllColumns(int n) {
  std::vector<int> cols(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) cols[j] = j;
  return cols;
}

std::vector<int> NonzeroColumns(const Eigen::MatrixXd& J) {
  std::vector<int> cols;
  for (int j = 0; j < J.cols(); ++j) {
    if (!J.col(j).isZero(0)) cols.push_back(j);
  }
  return cols;
}

void ScatterLower(const Eigen::Ref<const Eigen::MatrixXd>& block, const std::vector<int>& slots,
                  double* values) {
  std::size_t k = 0;
  for (int j = 0; j < block.cols(); ++j) {
    for (int i = j; i < block.rows(); ++i) values[slots[k++]] += block(i, j);
  }
}

void ScatterDense(const Eigen::Ref<const Eigen::MatrixXd>& block, const std::vector<int>& slots,
                  double* values) {
  std::size_t k = 0;
  for (int j = 0; j < block.cols(); ++j) {
    for (int i = 0; i < block.rows(); ++i) values[slots[k++]] += block(i, j);
  }
}

}  // namespace

SapHessian::SapHessian(const SapProblem& problem, const SapModel& model)
    : problem_(problem), participating_(model.participating) {
  // The pattern: lower triangles of the participating cliques' blocks, and for every constraint
  // that couples two cliques the block of the columns it touches in each.
  Triplets pattern;
  for (int k : model.participating) {
    const int n = problem.cliques[k].size();
    AddLowerBlock(Eigen::MatrixXd::Zero(n, n), model.clique_offset[k], pattern);
  }
  int widest = 0;
  for (const SapConstraint& c : problem.constraints) {
    const SapJacobian& jac = c.jacobian;
    ConstraintSlots slots;
    slots.cols_a = NonzeroColumns(jac.J_a);
    widest = std::max(widest, static_cast<int>(slots.cols_a.size()));
    if (jac.clique_b >= 0) {
      slots.cols_b = NonzeroColumns(jac.J_b);
      widest = std::max(widest, static_cast<int>(slots.cols_b.size()));
      const int a = model.clique_offset[jac.clique_a], b = model.clique_offset[jac.clique_b];
      slots.b_first = b > a;
      const auto& [rows, row0, cols, col0] = slots.b_first
                                                 ? std::tie(slots.cols_b, b, slots.cols_a, a)
                                                 : std::tie(slots.cols_a, a, slots.cols_b, b);
      for (const int j : cols) {
        for (const int i : rows) pattern.emplace_back(row0 + i, col0 + j, 0.0);
      }
    }
    constraint_slots_.push_back(std::move(slots));
  }
  H_.resize(model.size, model.size);
  H_.setFromTriplets(pattern.begin(), pattern.end());
  for (int k : model.participating) {
    clique_slots_.push_back(
        LowerSlots(H_, model.clique_offset[k], AllColumns(problem.cliques[k].size())));
  }
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const SapJacobian& jac = problem.constraints[i].jacobian;
    ConstraintSlots& slots = constraint_slots_[i];
    const int a = model.clique_offset[jac.clique_a];
    slots.aa = LowerSlots(H_, a, slots.cols_a);
    if (jac.clique_b >= 0) {
      const int b = model.clique_offset[jac.clique_b];
      slots.bb = LowerSlots(H_, b, slots.cols_b);
      slots.ab = slots.b_first ? DenseSlots(H_, b, slots.cols_b, a, slots.cols_a)
                               : DenseSlots(H_, a, slots.cols_a, b, slots.cols_b);
    }
  }
  JtG_.resize(widest, kMaxConstraintRows);
  block_.resize(widest, widest);
}

const Eigen::SparseMatrix<double>& SapHessian::Assemble(const std::vector<ConstraintMatrix>& G) {
  double* values = H_.valuePtr();
  std::fill(values, values + H_.nonZeros(), 0.0);
  for (std::size_t p = 0; p < participating_.size(); ++p) {
    ScatterLower(problem_.cliques[participating_[p]].A, clique_slots_[p], values);
  }
  for (std::size_t i = 0; i < problem_.constraints.size(); ++i) {
    const SapJacobian& jac = problem_.constraints[i].jacobian;
    const ConstraintSlots& slots = constraint_slots_[i];
    const int r = jac.rows();
    Ja_ = jac.J_a(Eigen::all, slots.cols_a);
    const int na = static_cast<int>(slots.cols_a.size());
    auto JtG = JtG_.topLeftCorner(na, r);
    JtG.noalias() = Ja_.transpose() * G[i];
    auto aa = block_.topLeftCorner(na, na);
    aa.noalias() = JtG * Ja_;
    ScatterLower(aa, slots.aa, values);
    if (jac.clique_b < 0) continue;
    Jb_ = jac.J_b(Eigen::all, slots.cols_b);
    const int nb = static_cast<int>(slots.cols_b.size());
    if (slots.b_first) {  // J_bᵀ G J_a = (J_aᵀ G J_b)ᵀ, G symmetric
      auto ba = block_.topLeftCorner(nb, na);
      ba.noalias() = Jb_.transpose() * JtG.transpose();
      ScatterDense(ba, slots.ab, values);
    } else {
      auto ab = block_.topLeftCorner(na, nb);
      ab.noalias() = JtG * Jb_;
      ScatterDense(ab, slots.ab, values);
    }
    auto JtG_b = JtG_.topLeftCorner(nb, r);
    JtG_b.noalias() = Jb_.transpose() * G[i];
    auto bb = block_.topLeftCorner(nb, nb);
    bb.noalias() = JtG_b * Jb_;
    ScatterLower(bb, slots.bb, values);
  }
  return H_;
}

}  // namespace coulomb::convex
