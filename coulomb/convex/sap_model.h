#pragma once
// The participating part of a SapProblem, in the compact form the Newton iteration works on
// (spec §1: only cliques touched by a constraint enter the solve; the others keep v = v*).
// J is stacked over all constraints as one sparse matrix over the participating velocities.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

#include "coulomb/convex/sap_constraint.h"
#include "coulomb/convex/sap_problem.h"

namespace coulomb::convex {

struct SapModel {
  std::vector<int> participating;  // clique indices, in increasing order
  std::vector<int> clique_offset;  // per clique: first compact index, −1 if not participating
  int size = 0;                    // number of participating velocities
  std::vector<int> row_offset;     // per constraint: first row in J (and in γ), plus the total
  Eigen::SparseMatrix<double, Eigen::RowMajor> J;  // rows() × size
  Eigen::SparseMatrix<double> A;                   // size × size, block diagonal
  Eigen::VectorXd v_star;                          // participating part of v*
  Eigen::VectorXd inverse_sqrt_diagonal;           // diag(A)^(−1/2), scales the residual
  int rows() const { return row_offset.back(); }
};

SapModel MakeSapModel(const SapProblem& problem);

// Participating entries of a full velocity, and back (entries outside keep `full`).
Eigen::VectorXd GatherParticipating(const SapProblem& problem, const SapModel& model,
                                    const Eigen::VectorXd& full);
void ScatterParticipating(const SapProblem& problem, const SapModel& model,
                          const Eigen::VectorXd& compact, Eigen::VectorXd& full);

// Every constraint evaluated at the stacked constraint velocity v_c = J v.
struct ConstraintsEvaluation {
  Eigen::VectorXd gamma;           // stacked impulses
  double cost = 0;                 // Σ ℓ_i
  std::vector<Eigen::MatrixXd> G;  // per constraint (only when asked for)
};
ConstraintsEvaluation EvaluateConstraints(const SapProblem& problem, const SapModel& model,
                                          const Eigen::VectorXd& v_c, bool with_hessian);

// Lower triangle of H = A + Jᵀ G J, with the same sparsity pattern whatever the values of G
// (a block is present for every clique pair a constraint couples), so the symbolic analysis of
// one step serves every Newton iteration and every later step with the same contact graph.
Eigen::SparseMatrix<double> AssembleHessianLower(const SapProblem& problem, const SapModel& model,
                                                 const std::vector<Eigen::MatrixXd>& G);

}  // namespace coulomb::convex
