#include "coulomb/fem/schur_complement.h"

namespace coulomb::fem {
namespace {

// Rows/columns `rows` × `cols` of a sparse matrix, as a sparse matrix.
Eigen::SparseMatrix<double> Select(const Eigen::SparseMatrix<double>& A,
                                   const std::vector<int>& rows, const std::vector<int>& cols) {
  std::vector<int> row_of(A.rows(), -1), col_of(A.cols(), -1);
  for (std::size_t i = 0; i < rows.size(); ++i) row_of[rows[i]] = static_cast<int>(i);
  for (std::size_t j = 0; j < cols.size(); ++j) col_of[cols[j]] = static_cast<int>(j);
  std::vector<Eigen::Triplet<double>> triplets;
  for (int k = 0; k < A.outerSize(); ++k) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(A, k); it; ++it) {
      const int r = row_of[it.row()], c = col_of[it.col()];
      if (r >= 0 && c >= 0) triplets.emplace_back(r, c, it.value());
    }
  }
  Eigen::SparseMatrix<double> S(static_cast<Eigen::Index>(rows.size()),
                                static_cast<Eigen::Index>(cols.size()));
  S.setFromTriplets(triplets.begin(), triplets.end());
  return S;
}

Eigen::VectorXd Gather(const Eigen::VectorXd& x, const std::vector<int>& index) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(index.size()));
  for (std::size_t i = 0; i < index.size(); ++i) out[i] = x[index[i]];
  return out;
}

}  // namespace

SchurComplement::SchurComplement(const Eigen::SparseMatrix<double>& A,
                                 std::vector<int> participating, math::CholeskyFactor* factor)
    : participating_(std::move(participating)) {
  if (factor != nullptr) nn_ = factor;
  std::vector<bool> kept(A.rows(), false);
  for (int i : participating_) kept[i] = true;
  for (int i = 0; i < A.rows(); ++i) {
    if (!kept[i]) eliminated_.push_back(i);
  }
  const Eigen::SparseMatrix<double> A_pp = Select(A, participating_, participating_);
  A_np_ = Select(A, eliminated_, participating_);
  if (!eliminated_.empty()) {
    const Eigen::SparseMatrix<double> A_nn_lower =
        Select(A, eliminated_, eliminated_).triangularView<Eigen::Lower>();
    ok_ = nn_->Factor(A_nn_lower, math::CholeskyMethod::kSupernodal, math::FillOrdering::kAmd);
    if (!ok_) return;
    X_ = nn_->Solve(Eigen::MatrixXd(A_np_));
    A_hat_ = Eigen::MatrixXd(A_pp) - Eigen::MatrixXd(A_np_.transpose()) * X_;
  } else {
    X_.resize(0, static_cast<Eigen::Index>(participating_.size()));
    A_hat_ = Eigen::MatrixXd(A_pp);
  }
  A_hat_ = 0.5 * (A_hat_ + A_hat_.transpose());  // round-off
  hat_.compute(A_hat_);
  ok_ = hat_.info() == Eigen::Success;
}

Eigen::VectorXd SchurComplement::Solve(const Eigen::VectorXd& b) const {
  const Eigen::VectorXd b_p = Gather(b, participating_), b_n = Gather(b, eliminated_);
  Eigen::VectorXd x_p, x_n;
  if (eliminated_.empty()) {
    x_p = hat_.solve(b_p);
  } else {
    const Eigen::VectorXd y = nn_->Solve(b_n);
    x_p = hat_.solve(b_p - A_np_.transpose() * y);
    x_n = y - X_ * x_p;
  }
  Eigen::VectorXd x(b.size());
  for (std::size_t i = 0; i < participating_.size(); ++i) x[participating_[i]] = x_p[i];
  for (std::size_t i = 0; i < eliminated_.size(); ++i) x[eliminated_[i]] = x_n[i];
  return x;
}

Eigen::VectorXd SchurComplement::Extend(const Eigen::VectorXd& dv_p) const {
  Eigen::VectorXd dv(static_cast<Eigen::Index>(participating_.size() + eliminated_.size()));
  for (std::size_t i = 0; i < participating_.size(); ++i) dv[participating_[i]] = dv_p[i];
  if (!eliminated_.empty()) {
    const Eigen::VectorXd dv_n = -X_ * dv_p;
    for (std::size_t i = 0; i < eliminated_.size(); ++i) dv[eliminated_[i]] = dv_n[i];
  }
  return dv;
}

}  // namespace coulomb::fem
