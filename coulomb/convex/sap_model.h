#pragma once
// The participating part of a SapProblem, in the compact form the Newton iteration works on
// (docs/notes/sap-and-deformables.md §1: only cliques touched by a constraint enter the solve; the
// others keep v = v*). J is stacked over all constraints as one sparse matrix over the
// participating velocities.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

#include "coulomb/convex/sap_constraint.h"
#include "coulomb/convex/sap_problem.h"
#include "coulomb/math/sparse_assembly.h"

namespace coulomb::convex {

// How much room SolveSap's workspace makes up front (ReserveSapWorkspace), so that solves of
// problems up to that size allocate nothing of their own.
struct SapSize {
  int constraints = 0;  // of at most 3 rows each (contacts)
  int velocities = 0;   // nv
  int cliques = 0;
  int clique_values = 0;  // Σ size² over the cliques
  int columns = 0;        // the most velocities one constraint touches, both cliques together
};

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
// The same into `model`, its storage and the triplet buffers' reused.
struct SapModelScratch {
  std::vector<char> touched;
  math::TripletBuffer A, J;
};
void MakeSapModel(const SapProblem& problem, SapModel& model, SapModelScratch& scratch);
void ReserveSapModel(const SapSize& size, SapModel& model, SapModelScratch& scratch);
// The most entries the lower triangle of the Hessian of a problem up to `size` has: the cliques'
// lower triangles and, per constraint, at most columns² more.
Eigen::Index MaxHessianEntries(const SapSize& size);

// Participating entries of a full velocity, and back (entries outside keep `full`).
Eigen::VectorXd GatherParticipating(const SapProblem& problem, const SapModel& model,
                                    const Eigen::VectorXd& full);
void GatherParticipating(const SapProblem& problem, const SapModel& model,
                         const Eigen::VectorXd& full, Eigen::VectorXd& compact);
void ScatterParticipating(const SapProblem& problem, const SapModel& model,
                          const Eigen::VectorXd& compact, Eigen::VectorXd& full);

// Every constraint evaluated at the stacked constraint velocity v_c = J v.
struct ConstraintsEvaluation {
  Eigen::VectorXd gamma;            // stacked impulses
  double cost = 0;                  // Σ ℓ_i
  std::vector<ConstraintMatrix> G;  // per constraint (only when asked for)
};
ConstraintsEvaluation EvaluateConstraints(const SapProblem& problem, const SapModel& model,
                                          const Eigen::VectorXd& v_c, bool with_hessian);
// The same into `out` (storage reused).
void EvaluateConstraints(const SapProblem& problem, const SapModel& model,
                         const Eigen::VectorXd& v_c, bool with_hessian, ConstraintsEvaluation& out);
void ReserveConstraintsEvaluation(const SapSize& size, ConstraintsEvaluation& evaluation);

// The lower triangle of H = A + Jᵀ G J. Its sparsity pattern is fixed by the clique graph (a
// block for every clique pair a constraint couples, whatever the values of G), so it is built
// once per problem with a map from every block entry to its slot, and each Newton iteration only
// writes values; the symbolic analysis of one step then serves every iteration, and every later
// step with the same contact graph. Build again for each problem: a kept SapHessian reuses its
// storage, so a warm step's build allocates nothing.
class SapHessian {
 public:
  SapHessian() = default;
  SapHessian(const SapProblem& problem, const SapModel& model) { Build(problem, model); }
  // The pattern and slots of `problem`, which must outlive every Assemble that follows.
  void Build(const SapProblem& problem, const SapModel& model);
  const Eigen::SparseMatrix<double>& Assemble(const std::vector<ConstraintMatrix>& G);
  // Room for problems up to `size`: their Build allocates nothing.
  void Reserve(const SapSize& size);

 private:
  // A constraint's blocks cover only the clique columns its Jacobian touches: a vertex contact
  // on a deformable body's clique of thousands of DoFs adds a 3 × 3 block, not a dense one.
  // Columns and slots live in two pools, each constraint holding ranges of them: one array per
  // pool rather than five per constraint, so a constraint count that climbs while a pile lands
  // grows two arrays geometrically instead of allocating for each new constraint.
  struct Range {
    int start = 0, size = 0;
  };
  struct ConstraintSlots {
    Range cols_a, cols_b;  // nonzero Jacobian columns within each clique, sorted (column pool)
    Range aa, bb, ab;      // slots of J_aᵀGJ_a, J_bᵀGJ_b (lower) and the coupling block
    bool b_first = false;  // the coupling block is J_bᵀ G J_a (clique b has higher rows)
  };
  // The slots of every clique's and constraint's entries in H_ (its pattern set), into
  // slot_pool_.
  void FillSlots(const SapProblem& problem, const SapModel& model);
  // The scratch matrices at room for a constraint touching `widest` columns of one clique.
  void SizeScratch(int widest);
  const SapProblem* problem_ = nullptr;
  std::vector<int> participating_;
  Eigen::SparseMatrix<double> H_;
  std::vector<int> column_pool_, slot_pool_;
  std::vector<Range> clique_slots_;  // per participating clique, its lower A entries
  std::vector<ConstraintSlots> constraint_slots_;
  math::TripletBuffer pattern_;
  std::vector<int> all_columns_;  // 0, 1, …: a whole clique's columns
  // Scratch, sized for the widest constraint: the touched columns of a constraint's blocks,
  // Jᵀ G and one block of H.
  Eigen::MatrixXd Ja_, Jb_;
  Eigen::MatrixXd JtG_, block_;
};

}  // namespace coulomb::convex
