#pragma once
// The project's one sparse Cholesky (CHOLMOD): factors a symmetric positive definite matrix
// given by its lower triangle and keeps the symbolic analysis while the sparsity pattern is
// unchanged. SAP's Newton Hessian (within a step the pattern never changes, across steps only
// when the contact graph does) and the FEM Schur complement's eliminated block use it.
//
// Owned by the caller and passed to the solver, so the solver stays a function of its inputs;
// the cache changes only how fast an answer comes, never the answer. Copying gives an empty
// cache.

#include <Eigen/Sparse>
#include <memory>
#include <vector>

namespace coulomb::math {

// CHOLMOD's two algorithms: supernodal (dense BLAS on groups of columns; wins on large, dense
// cliques such as deformable bodies) and simplicial (column by column; wins on the small 6×6
// blocks of rigid clutter, and spawns no BLAS threads). Auto lets CHOLMOD choose from the
// flop count of the symbolic analysis.
enum class CholeskyMethod { kAuto, kSupernodal, kSimplicial };

// The fill-reducing ordering. AMD (minimum degree) is the default and what the spec names;
// METIS (nested dissection) cuts a 3-D pile's contact graph into halves recursively, which
// bounds the fill of the Cholesky factor better on large piles (bench/clutter_bench). Both are
// deterministic.
enum class FillOrdering { kAmd, kMetis };

// What the current factor was made from: the matrix last factored (lower triangle), how, and
// its tag. Factoring it again gives the same factor bit for bit (CHOLMOD's analysis and numeric
// factorization are deterministic), which is how a checkpoint keeps a lagged factor
// (sim/checkpoint.h): the next steps' preconditioned CG iterates depend on it.
struct CholeskySource {
  Eigen::SparseMatrix<double> lower;  // 0 × 0 before any factorization
  CholeskyMethod method = CholeskyMethod::kAuto;
  FillOrdering ordering = FillOrdering::kAmd;
  std::vector<int> tag;
};

class CholeskyFactor {
 public:
  CholeskyFactor();
  ~CholeskyFactor();
  CholeskyFactor(const CholeskyFactor&);
  CholeskyFactor& operator=(const CholeskyFactor&);
  CholeskyFactor(CholeskyFactor&&) noexcept;
  CholeskyFactor& operator=(CholeskyFactor&&) noexcept;

  // Factors the symmetric matrix whose lower triangle is given. False if it is not positive
  // definite (numerically).
  bool Factor(const Eigen::SparseMatrix<double>& lower,
              CholeskyMethod method = CholeskyMethod::kAuto,
              FillOrdering ordering = FillOrdering::kAmd);
  // Room for factoring n × n matrices of up to `non_zeros` lower entries, and their tags,
  // without allocating outside CHOLMOD (which allocates through its hooks).
  void Reserve(Eigen::Index n, Eigen::Index non_zeros);
  Eigen::VectorXd Solve(const Eigen::VectorXd& b) const;
  void Solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;  // into x's storage
  Eigen::MatrixXd Solve(const Eigen::MatrixXd& B) const;           // column by column, as above
  int symbolic_analyses() const;  // how many times the pattern had to be analysed
  int factorizations() const;
  // How many solves with the factor cost as much as one numeric factorization, from CHOLMOD's
  // flop count of the analysis: flops(L) / (4 nnz(L)), a forward and a backward sweep. 0 before
  // any analysis. Deterministic: it depends on the sparsity pattern only.
  double SolvesPerFactorization() const;
  double FactorizationFlops() const;  // CHOLMOD's count for the analysed pattern; 0 before
  // What the current factor was made for (SAP: the participating cliques), so that a later
  // problem uses it as a preconditioner only when its unknowns mean the same.
  const std::vector<int>& tag() const;
  void set_tag(const std::vector<int>& tag);  // copied into the kept tag's storage
  // Kept by Factor (a copy of `lower`: O(nnz), beside the factorization's O(flops)).
  CholeskySource source() const;
  // Rebuilds the factor `source` describes (nothing when it is empty); false if it does not
  // factor, which leaves an empty tag (it then preconditions nothing).
  bool Restore(const CholeskySource& source);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace coulomb::math
