#include "coulomb/convex/sap_model.h"

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

Eigen::SparseMatrix<double> AssembleHessianLower(const SapProblem& problem, const SapModel& model,
                                                 const std::vector<Eigen::MatrixXd>& G) {
  Triplets triplets;
  for (int k : model.participating) {
    AddLowerBlock(problem.cliques[k].A, model.clique_offset[k], triplets);
  }
  for (std::size_t i = 0; i < problem.constraints.size(); ++i) {
    const SapJacobian& jac = problem.constraints[i].jacobian;
    const int a = model.clique_offset[jac.clique_a];
    AddLowerBlock(jac.J_a.transpose() * G[i] * jac.J_a, a, triplets);
    if (jac.clique_b < 0) continue;
    const int b = model.clique_offset[jac.clique_b];
    AddLowerBlock(jac.J_b.transpose() * G[i] * jac.J_b, b, triplets);
    if (a > b) {
      AddDenseBlock(jac.J_a.transpose() * G[i] * jac.J_b, a, b, triplets);
    } else {
      AddDenseBlock(jac.J_b.transpose() * G[i] * jac.J_a, b, a, triplets);
    }
  }
  Eigen::SparseMatrix<double> H(model.size, model.size);
  H.setFromTriplets(triplets.begin(), triplets.end());
  return H;
}

}  // namespace coulomb::convex
