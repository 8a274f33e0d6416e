#include "coulomb/complementarity/contact_block_system.h"

#include <klu.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "coulomb/math/sparse_assembly.h"
#include "coulomb/math/vector_growth.h"

namespace coulomb {

struct ContactBlockSystem::KluFactors {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  KluFactors() { klu_defaults(&common); }
  ~KluFactors() {
    if (numeric != nullptr) klu_free_numeric(&numeric, &common);
    if (symbolic != nullptr) klu_free_symbolic(&symbolic, &common);
  }
  KluFactors(const KluFactors&) = delete;
  KluFactors& operator=(const KluFactors&) = delete;
};

ContactBlockSystem::~ContactBlockSystem() = default;

ContactBlockSystem::ContactBlockSystem(const Eigen::SparseMatrix<double>& W,
                                       const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor,
                                       const Eigen::VectorXd* diagonal) {
  Build(W, factor, diagonal);
}

void ContactBlockSystem::Build(const Eigen::SparseMatrix<double>& W,
                               const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor,
                               const Eigen::VectorXd* diagonal) {
  if (klu_ != nullptr) {  // the analysis belongs to the old pattern
    if (klu_->numeric != nullptr) klu_free_numeric(&klu_->numeric, &klu_->common);
    if (klu_->symbolic != nullptr) klu_free_symbolic(&klu_->symbolic, &klu_->common);
  }
  const int nb = static_cast<int>(W.rows() / 3);
  // The block pairs (i, j), column block by column block (a marker per row block dedupes), then
  // bucketed by row block: O(nnz), no sort of the entries.
  std::vector<std::pair<int, int>>& by_column = by_column_;
  by_column.clear();
  std::vector<int>& seen = seen_;
  seen.assign(static_cast<std::size_t>(nb), -1);
  for (int j = 0; j < nb; ++j) {
    seen[j] = j;
    by_column.emplace_back(j, j);
    for (int col = 3 * j; col < 3 * j + 3; ++col) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(W, col); it; ++it) {
        const int i = static_cast<int>(it.row() / 3);
        if (seen[i] != j) seen[i] = j, by_column.emplace_back(i, j);
      }
    }
  }
  row_start_.assign(static_cast<std::size_t>(nb) + 1, 0);
  for (const auto& pair : by_column) ++row_start_[pair.first + 1];
  for (int i = 0; i < nb; ++i) row_start_[i + 1] += row_start_[i];
  std::vector<std::pair<int, int>>& pairs = pairs_;  // row-block order, columns rising
  pairs.resize(by_column.size());
  next_.assign(row_start_.begin(), row_start_.end() - 1);
  for (const auto& pair : by_column) pairs[next_[pair.first]++] = pair;
  column_.resize(pairs.size());
  diagonal_.resize(static_cast<std::size_t>(nb));
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    column_[k] = pairs[k].second;
    if (pairs[k].first == pairs[k].second) diagonal_[pairs[k].first] = static_cast<int>(k);
  }
  blocks_.resize(pairs.size());
  ReadBlocks(W);
  system_ = blocks_;
  // The patterns' copies grow geometrically (assign would take exactly each new island's size).
  const auto copy = [](const int* begin, Eigen::Index size, std::vector<int>& out) {
    math::ReserveGrowing(out, static_cast<std::size_t>(size));
    out.assign(begin, begin + size);
  };
  copy(W.outerIndexPtr(), W.outerSize() + 1, w_outer_);
  copy(W.innerIndexPtr(), W.nonZeros(), w_inner_);
  g_outer_.clear();
  g_inner_.clear();
  if (factor != nullptr) {
    copy(factor->outerIndexPtr(), factor->outerSize() + 1, g_outer_);
    copy(factor->innerIndexPtr(), factor->nonZeros(), g_inner_);
  }
  augmented_ = false;
  dense_ = 3 * nb <= kDenseRows;
  if (dense_) return;
  augmented_ = factor != nullptr && factor->rows() == W.rows() && factor->nonZeros() < W.nonZeros();
  if (augmented_) {
    BuildAugmentedPattern(*factor, diagonal);
    return;
  }
  math::TripletBuffer& entries = triplets_;
  entries.clear();
  for (const auto& [i, j] : pairs) {
    for (int c = 0; c < 3; ++c) {
      for (int a = 0; a < 3; ++a) entries.add(3 * i + a, 3 * j + c, 1.0);
    }
  }
  math::AssignFromTriplets(entries, 3 * nb, 3 * nb, sparse_);
  value_index_.resize(9 * pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto [i, j] = pairs[k];
    for (int c = 0; c < 3; ++c) {
      const int first = Position(3 * i, 3 * j + c);
      for (int a = 0; a < 3; ++a) value_index_[9 * k + 3 * c + a] = first + a;
    }
  }
}

int ContactBlockSystem::BlockIndex(int i, int j) const {
  const auto first = column_.begin() + row_start_[i], last = column_.begin() + row_start_[i + 1];
  return static_cast<int>(std::lower_bound(first, last, j) - column_.begin());
}

void ContactBlockSystem::ReadBlocks(const Eigen::SparseMatrix<double>& W) {
  for (Eigen::Matrix3d& block : blocks_) block.setZero();
  for (int col = 0; col < W.outerSize(); ++col) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(W, col); it; ++it) {
      const int row = static_cast<int>(it.row());
      blocks_[BlockIndex(row / 3, col / 3)](row % 3, col % 3) += it.value();
    }
  }
}

void ContactBlockSystem::ReadFactorRows(const Eigen::SparseMatrix<double, Eigen::RowMajor>& G) {
  factor_values_.assign(3 * factor_columns_.size(), 0.0);
  for (int i = 0; i < num_contacts(); ++i) {
    const auto first = factor_columns_.begin() + factor_start_[i];
    const auto last = factor_columns_.begin() + factor_start_[i + 1];
    auto rows = FactorRows(i);
    for (int a = 0; a < 3; ++a) {
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(G, 3 * i + a); it; ++it) {
        const auto at = std::lower_bound(first, last, static_cast<int>(it.col()));
        rows(a, at - first) = it.value();
      }
    }
  }
}

bool ContactBlockSystem::SamePattern(
    const Eigen::SparseMatrix<double>& W,
    const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor) const {
  const auto same = [](const std::vector<int>& kept, const int* data, Eigen::Index size) {
    return static_cast<Eigen::Index>(kept.size()) == size &&
           std::equal(kept.begin(), kept.end(), data);
  };
  if (!W.isCompressed() || !same(w_outer_, W.outerIndexPtr(), W.outerSize() + 1) ||
      !same(w_inner_, W.innerIndexPtr(), W.nonZeros())) {
    return false;
  }
  // Only the augmented system is built on G's pattern; the dense and plain sparse ones use W
  // alone. (G's pattern changes whenever an entry of J L⁻ᵀ happens to be exactly zero: a box on
  // a slope rebuilt its system at every step for that.)
  if (!augmented_) return true;
  return factor != nullptr && factor->isCompressed() &&
         same(g_outer_, factor->outerIndexPtr(), factor->outerSize() + 1) &&
         same(g_inner_, factor->innerIndexPtr(), factor->nonZeros());
}

void ContactBlockSystem::Refresh(const Eigen::SparseMatrix<double>& W,
                                 const Eigen::SparseMatrix<double, Eigen::RowMajor>* factor,
                                 const Eigen::VectorXd* diagonal) {
  ReadBlocks(W);
  // New values may need other pivots than the last factorization's: the next Factor factors
  // afresh on the kept analysis instead of refactoring on stale pivots.
  if (klu_ != nullptr && klu_->numeric != nullptr) klu_free_numeric(&klu_->numeric, &klu_->common);
  if (!augmented_) return;
  const int m = 3 * num_contacts();
  if (diagonal != nullptr && diagonal->size() == m) {
    extra_diagonal_ = *diagonal;
  } else {
    extra_diagonal_.setZero(m);
  }
  ReadFactorRows(*factor);
  double* values = sparse_.valuePtr();
  for (std::size_t e = 0; e < transpose_index_.size(); ++e) {
    values[transpose_index_[e]] = factor_values_[e];
  }
}

int ContactBlockSystem::Position(int row, int col) const {
  const int* outer = sparse_.outerIndexPtr();
  const int* inner = sparse_.innerIndexPtr();
  return static_cast<int>(std::lower_bound(inner + outer[col], inner + outer[col + 1], row) -
                          inner);
}

void ContactBlockSystem::BuildAugmentedPattern(
    const Eigen::SparseMatrix<double, Eigen::RowMajor>& G, const Eigen::VectorXd* diagonal) {
  const int nb = num_contacts(), m = 3 * nb, k = static_cast<int>(G.cols());
  if (diagonal != nullptr && diagonal->size() == m) {
    extra_diagonal_ = *diagonal;
  } else {
    extra_diagonal_.setZero(m);
  }
  // Per contact, the columns of G its three rows touch, sorted and without repeats.
  factor_start_.resize(static_cast<std::size_t>(nb) + 1);
  factor_columns_.clear();
  for (int i = 0; i < nb; ++i) {
    factor_start_[i] = static_cast<int>(factor_columns_.size());
    for (int a = 0; a < 3; ++a) {
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(G, 3 * i + a); it; ++it) {
        factor_columns_.push_back(static_cast<int>(it.col()));
      }
    }
    const auto first = factor_columns_.begin() + factor_start_[i];
    std::sort(first, factor_columns_.end());
    factor_columns_.erase(std::unique(first, factor_columns_.end()), factor_columns_.end());
  }
  factor_start_[nb] = static_cast<int>(factor_columns_.size());
  ReadFactorRows(G);
  math::TripletBuffer& entries = triplets_;
  entries.clear();
  for (int i = 0; i < nb; ++i) {
    for (int c = 0; c < 3; ++c) {
      for (int a = 0; a < 3; ++a) entries.add(3 * i + a, 3 * i + c, 1.0);
    }
    const auto rows = FactorRows(i);
    for (int n = 0; n < FactorWidth(i); ++n) {
      const int col = factor_columns_[factor_start_[i] + n];
      for (int a = 0; a < 3; ++a) {
        entries.add(3 * i + a, m + col, 1.0);         // L_i G_i
        entries.add(m + col, 3 * i + a, rows(a, n));  // Gᵀ
      }
    }
  }
  for (int d = 0; d < k; ++d) entries.add(m + d, m + d, -1.0);
  // Gᵀ and −I are constant; the L_i G_i and diagonal blocks are overwritten by Factor. (No
  // entry repeats, so summing duplicates changes nothing.)
  math::AssignFromTriplets(entries, m + k, m + k, sparse_);
  value_index_.resize(9 * static_cast<std::size_t>(nb));
  factor_index_.clear();
  transpose_index_.clear();
  for (int i = 0; i < nb; ++i) {
    for (int c = 0; c < 3; ++c) {
      const int first = Position(3 * i, 3 * i + c);
      for (int a = 0; a < 3; ++a) value_index_[9 * i + 3 * c + a] = first + a;
    }
    for (int n = 0; n < FactorWidth(i); ++n) {
      const int col = factor_columns_[factor_start_[i] + n];
      const int first = Position(3 * i, m + col);
      for (int a = 0; a < 3; ++a) {
        factor_index_.push_back(first + a);
        transpose_index_.push_back(Position(m + col, 3 * i + a));
      }
    }
  }
}

void ContactBlockSystem::Multiply(const Eigen::VectorXd& x, double shift,
                                  Eigen::VectorXd& y) const {
  y.resize(x.size());
  for (int i = 0; i < num_contacts(); ++i) {
    Eigen::Vector3d sum = shift * x.segment<3>(3 * i);
    for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) {
      sum.noalias() += blocks_[k] * x.segment<3>(3 * column_[k]);
    }
    y.segment<3>(3 * i) = sum;
  }
}

bool ContactBlockSystem::Factor(const std::vector<Eigen::Matrix3d>& left,
                                const std::vector<Eigen::Matrix3d>& right, double shift) {
  for (int i = 0; i < num_contacts(); ++i) {
    for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) {
      system_[k].noalias() = left[i] * blocks_[k];
    }
    system_[diagonal_[i]].noalias() += shift * left[i] + right[i];
  }
  if (dense_) {
    const int m = 3 * num_contacts();
    dense_matrix_.setZero(m, m);
    for (int i = 0; i < num_contacts(); ++i) {
      for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) {
        dense_matrix_.block<3, 3>(3 * i, 3 * column_[k]) = system_[k];
      }
    }
    if (!dense_matrix_.allFinite()) return false;
    dense_lu_.compute(dense_matrix_);
    return true;
  }
  double* values = sparse_.valuePtr();
  if (augmented_) {
    for (int i = 0; i < num_contacts(); ++i) {
      Eigen::Matrix3d T = right[i] + shift * left[i];
      T.noalias() += left[i] * extra_diagonal_.segment<3>(3 * i).asDiagonal();
      for (int c = 0; c < 3; ++c) {
        for (int a = 0; a < 3; ++a) values[value_index_[9 * i + 3 * c + a]] = T(a, c);
      }
      product_values_.resize(factor_values_.size());
      Eigen::Map<Eigen::Matrix<double, 3, Eigen::Dynamic>> LG(
          product_values_.data() + 3 * factor_start_[i], 3, FactorWidth(i));
      LG.noalias() = left[i] * FactorRows(i);
      for (Eigen::Index e = 3 * factor_start_[i]; e < 3 * factor_start_[i + 1]; ++e) {
        values[factor_index_[e]] = product_values_[e];
      }
    }
  } else {
    for (std::size_t k = 0; k < system_.size(); ++k) {
      for (int c = 0; c < 3; ++c) {
        for (int a = 0; a < 3; ++a) values[value_index_[9 * k + 3 * c + a]] = system_[k](a, c);
      }
    }
  }
  int* Ap = sparse_.outerIndexPtr();
  int* Ai = sparse_.innerIndexPtr();
  if (!klu_) klu_ = std::make_unique<KluFactors>();
  if (klu_->symbolic == nullptr) {  // first Factor of this pattern
    klu_->symbolic = klu_analyze(static_cast<int>(sparse_.rows()), Ap, Ai, &klu_->common);
    if (klu_->symbolic == nullptr) return false;
  }
  // Refactoring keeps the last pivot order: cheap, and fine while the matrix changes little;
  // a fresh factorization when it fails or the pivots have grown poor.
  if (klu_->numeric != nullptr) {
    if (klu_refactor(Ap, Ai, values, klu_->symbolic, klu_->numeric, &klu_->common) != 0 &&
        klu_rcond(klu_->symbolic, klu_->numeric, &klu_->common) != 0 &&
        klu_->common.rcond > 1e-12) {
      return true;
    }
    klu_free_numeric(&klu_->numeric, &klu_->common);
  }
  klu_->numeric = klu_factor(Ap, Ai, values, klu_->symbolic, &klu_->common);
  return klu_->numeric != nullptr;
}

Eigen::VectorXd ContactBlockSystem::Solve(const Eigen::VectorXd& b) const {
  Eigen::VectorXd x;
  Solve(b, x);
  return x;
}

void ContactBlockSystem::Solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  if (dense_) {
    x.resize(b.size());
    x = dense_lu_.solve(b);
    return;
  }
  Eigen::VectorXd& y = solve_scratch_;
  y.setZero(sparse_.rows());
  y.head(b.size()) = b;
  if (klu_ == nullptr || klu_->numeric == nullptr ||
      klu_solve(klu_->symbolic, klu_->numeric, static_cast<int>(y.size()), 1, y.data(),
                &klu_->common) == 0) {
    y.setConstant(std::numeric_limits<double>::quiet_NaN());  // the caller falls back
  }
  x = y.head(b.size());
}

double ContactBlockSystem::Residual(const Eigen::VectorXd& x, const Eigen::VectorXd& b) const {
  double sum2 = 0;
  for (int i = 0; i < num_contacts(); ++i) {
    Eigen::Vector3d r = -b.segment<3>(3 * i);
    for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) {
      r.noalias() += system_[k] * x.segment<3>(3 * column_[k]);
    }
    sum2 += r.squaredNorm();
  }
  return std::sqrt(sum2);
}

Eigen::MatrixXd ContactBlockSystem::Dense() const {
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(3 * num_contacts(), 3 * num_contacts());
  for (int i = 0; i < num_contacts(); ++i) {
    for (int k = row_start_[i]; k < row_start_[i + 1]; ++k) {
      A.block<3, 3>(3 * i, 3 * column_[k]) = system_[k];
    }
  }
  return A;
}

}  // namespace coulomb
