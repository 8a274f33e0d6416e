#pragma once
// The 3 × 3 block structure of a Delassus matrix W, and a linear system with the same block
// pattern whose blocks are rewritten and refactored many times (the semismooth Newton
// Jacobians of nonsmooth_newton.cc: row block i is L_i W_i,: plus a diagonal term).
//
// Three ways to factor A = L (W + shift I) + R (L, R block diagonal), chosen once:
// * dense partial-pivoting LU, up to kDenseRows rows, faster there than sparse bookkeeping;
// * a sparse LU of A itself: W couples two contacts only when they share a body;
// * when W = G Gᵀ + diag(c) is given with a sparse G (G = J L_M⁻ᵀ, k = n_v columns), a sparse LU
//   of the augmented system [L (diag(c) + shift I) + R, L G; Gᵀ, −I] [x; y] = [b; 0], whose
//   Schur complement is A. On a pile every contact of a body couples with every other contact
//   of that body and its neighbours, so W is far denser than G (pyramid of 15 boxes: 306 rows,
//   W ~30 % full, G 4 %).

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <memory>
#include <vector>

#include "coulomb/math/sparse_assembly.h"

// SuiteSparse's KLU (LGPL-2.1+): a sparse LU made for small, very sparse unsymmetric systems
// refactored with one pattern again and again, which is this class's job exactly; Eigen's
// SparseLU took 100 µs per 120-row factorization here, mostly in its symbolic bookkeeping.

namespace coulomb {

class ContactBlockSystem {
 public:
  static constexpr int kDenseRows = 48;

  // Reads W's 3 × 3 blocks (every block holding a stored entry; the diagonal blocks always).
  // `factor` and `diagonal`, when given, are G and c with W = G Gᵀ + diag(c).
  explicit ContactBlockSystem(const Eigen::SparseMatrix<double>& W,
                              const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor = nullptr,
                              const Eigen::VectorXd* diagonal = nullptr);
  // Builds the system of another W (and G, c) in this one's storage, as the constructor does:
  // a new pattern without new allocations once the storage has held one as large. KLU's
  // analysis is redone at the next Factor.
  void Build(const Eigen::SparseMatrix<double>& W,
             const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor,
             const Eigen::VectorXd* diagonal);
  ~ContactBlockSystem();
  ContactBlockSystem(const ContactBlockSystem&) = delete;
  ContactBlockSystem& operator=(const ContactBlockSystem&) = delete;

  // True when W (and G, in the augmented mode) have the sparsity pattern this system was built
  // from: Refresh can then take their new values and keep the pattern and KLU's analysis.
  bool SamePattern(const Eigen::SparseMatrix<double>& W,
                   const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor) const;
  // Takes W's, G's and c's values on the same pattern (SamePattern), keeping KLU's symbolic
  // analysis (the next Factor factors afresh on it, then refactors as before).
  void Refresh(const Eigen::SparseMatrix<double>& W,
               const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor,
               const Eigen::VectorXd* diagonal);

  int num_contacts() const { return static_cast<int>(row_start_.size()) - 1; }
  // The diagonal block W_ii.
  const Eigen::Matrix3d& DiagonalBlock(int i) const { return blocks_[diagonal_[i]]; }
  // y = (W + shift I) x over the stored blocks.
  void Multiply(const Eigen::VectorXd& x, double shift, Eigen::VectorXd& y) const;

  // Sets the system matrix to A_ij = L_i (W_ij + shift δ_ij I) + δ_ij R_i, block by block, and
  // factors it. False when the factorization failed (singular or not finite).
  bool Factor(const std::vector<Eigen::Matrix3d>& left, const std::vector<Eigen::Matrix3d>& right,
              double shift);
  // Solves A x = b with the last factors; the residual ‖A x − b‖ is checked by the caller.
  Eigen::VectorXd Solve(const Eigen::VectorXd& b) const;
  // The same into x (no allocation once x and the scratch are sized); b and x must differ.
  void Solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;
  // ‖A x − b‖ for the current A.
  double Residual(const Eigen::VectorXd& x, const Eigen::VectorXd& b) const;
  // A as a dense matrix (fallback factorizations and tests).
  Eigen::MatrixXd Dense() const;

 private:
  int Position(int row, int col) const;  // index of a stored entry in sparse_'s values
  int BlockIndex(int i, int j) const;    // index in blocks_ of block (i, j)
  void ReadBlocks(const Eigen::SparseMatrix<double>& W);
  void ReadFactorRows(const Eigen::SparseMatrix<double, Eigen::RowMajor>& G);
  // The patterns this system was built from (SamePattern).
  std::vector<int> w_outer_, w_inner_, g_outer_, g_inner_;
  void BuildAugmentedPattern(const Eigen::SparseMatrix<double, Eigen::RowMajor>& G,
                             const Eigen::VectorXd* diagonal);
  // Block-row storage: the blocks of row block i are blocks_[row_start_[i] .. row_start_[i+1]),
  // in increasing column block column_[k].
  std::vector<int> row_start_, column_, diagonal_;
  std::vector<Eigen::Matrix3d> blocks_;  // W's blocks
  std::vector<Eigen::Matrix3d> system_;  // A's blocks, same layout
  std::vector<int> value_index_;         // per block, its 9 positions in sparse_'s values
  Eigen::SparseMatrix<double> sparse_;   // A or the augmented matrix, column-major
  // Augmented mode: per contact i, the columns of G its rows touch (factor_columns_ from
  // factor_start_[i] to factor_start_[i + 1]), G on them (3 per column, FactorRows(i)), and the
  // positions of L_i G_i and of Gᵀ's entries in sparse_'s values (3 per column, same order);
  // c per row. Flat arrays, so that a new pattern reuses their capacity.
  bool augmented_ = false;
  std::vector<int> factor_start_, factor_columns_, factor_index_, transpose_index_;
  std::vector<double> factor_values_, product_values_;  // G's rows, and L_i G_i (scratch)
  Eigen::Map<Eigen::Matrix<double, 3, Eigen::Dynamic>> FactorRows(int i) {
    return {factor_values_.data() + 3 * factor_start_[i], 3, FactorWidth(i)};
  }
  Eigen::Index FactorWidth(int i) const { return factor_start_[i + 1] - factor_start_[i]; }
  Eigen::VectorXd extra_diagonal_;
  // Build's scratch: block pairs by column and by row block, markers, and the triplets.
  std::vector<std::pair<int, int>> by_column_, pairs_;
  std::vector<int> seen_, next_;
  math::TripletBuffer triplets_;
  struct KluFactors;  // KLU's symbolic and numeric objects (contact_block_system.cc)
  std::unique_ptr<KluFactors> klu_;
  Eigen::MatrixXd dense_matrix_;           // A, dense mode (kept for its storage)
  mutable Eigen::VectorXd solve_scratch_;  // KLU's right-hand side and answer (augmented size)
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_lu_;
  bool dense_ = true;
};

}  // namespace coulomb
