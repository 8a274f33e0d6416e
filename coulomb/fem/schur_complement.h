#pragma once
// The Schur complement of a sparse SPD matrix over its participating DoFs (paper 2 §V;
// docs/notes/sap-and-deformables.md §2.3): with the DoFs split into eliminated (n) and
// participating (p),
//   Â = A_pp − A_pn A_nn⁻¹ A_np,
// from one sparse Cholesky of A_nn (AMD ordering inside the partition). SAP then solves for the
// participating velocities only, with Â as the clique's matrix, and the eliminated ones follow:
//   Δv_n = −A_nn⁻¹ A_np Δv_p.
// The same factorization solves A x = b by block elimination (the free motion v*).

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <vector>

#include "coulomb/math/sparse_cholesky.h"

namespace coulomb::fem {

class SchurComplement {
 public:
  // `participating`: DoF indices (sorted, unique) that stay; every other DoF is eliminated.
  // `factor`, when given, factors A_nn instead of a factor of its own: kept by the caller from
  // step to step, it reuses its symbolic analysis while the eliminated DoFs and A's pattern are
  // the same (the same factor bit for bit, sooner). It must outlive this object.
  SchurComplement(const Eigen::SparseMatrix<double>& A, std::vector<int> participating,
                  math::CholeskyFactor* factor = nullptr);
  SchurComplement(const SchurComplement&) = delete;
  SchurComplement& operator=(const SchurComplement&) = delete;
  bool ok() const { return ok_; }
  const Eigen::MatrixXd& reduced() const { return A_hat_; }  // Â, p × p
  const std::vector<int>& participating() const { return participating_; }

  // x = A⁻¹ b, by block elimination through Â.
  Eigen::VectorXd Solve(const Eigen::VectorXd& b) const;
  // The full Δv whose participating part is dv_p and whose eliminated part is −A_nn⁻¹ A_np dv_p.
  Eigen::VectorXd Extend(const Eigen::VectorXd& dv_p) const;

 private:
  std::vector<int> participating_, eliminated_;
  // The supernodal Cholesky of A_nn (math/sparse_cholesky.h, AMD ordering): X = A_nn⁻¹ A_np
  // has as many right-hand sides as participating DoFs, which its dense supernodes solve with
  // BLAS 3.
  math::CholeskyFactor own_;
  math::CholeskyFactor* nn_ = &own_;
  Eigen::SparseMatrix<double> A_np_;
  Eigen::MatrixXd X_;  // A_nn⁻¹ A_np, n × p
  Eigen::MatrixXd A_hat_;
  Eigen::LLT<Eigen::MatrixXd> hat_;
  bool ok_ = true;
};

}  // namespace coulomb::fem
