#include "coulomb/math/dense_factorizations.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>

namespace coulomb::math {
namespace {

std::size_t Square(int n) {
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
}

Eigen::Map<const Eigen::MatrixXd> Factors(const std::vector<double>& storage, int n) {
  return {storage.data(), n, n};
}

}  // namespace

void ReserveLu(DenseLu& f, int n) {
  f.lu.reserve(Square(n));
  f.pivots.reserve(static_cast<std::size_t>(n));
  f.work.reserve(2 * static_cast<std::size_t>(n));
}

Eigen::Map<Eigen::MatrixXd> PrepareLu(DenseLu& f, int n) {
  f.n = n;
  f.lu.resize(Square(n));
  f.pivots.resize(static_cast<std::size_t>(n));
  return {f.lu.data(), n, n};
}

namespace {

// Panel width and the chunk sizes of the trailing update: every product Eigen forms here is
// small enough for its packing buffers to live on the stack (Eigen takes the heap above 128 KiB),
// so the factorization allocates nothing.
constexpr int kPanel = 32;
constexpr int kChunkRows = 256;
constexpr int kChunkCols = 64;

// Columns [k0, k0 + kb) of the LU, rows k0 on, finished left-looking from the panel's own
// earlier columns (the trailing updates brought the earlier panels' share); rows are swapped
// across the whole matrix, as LAPACK's getrf does.
void FactorPanel(Eigen::Map<Eigen::MatrixXd>& a, int k0, int kb, DenseLu& f) {
  const int n = f.n;
  for (int k = k0; k < k0 + kb; ++k) {
    auto column = a.col(k);
    const int done = k - k0;
    if (done > 0) {
      a.block(k0, k0, done, done)
          .triangularView<Eigen::UnitLower>()
          .solveInPlace(column.segment(k0, done));
      column.tail(n - k).noalias() -= a.block(k, k0, n - k, done) * column.segment(k0, done);
    }
    int p = k;
    for (int i = k + 1; i < n; ++i) {
      if (std::abs(a(i, k)) > std::abs(a(p, k))) p = i;
    }
    f.pivots[static_cast<std::size_t>(k)] = p;
    if (p != k) a.row(k).swap(a.row(p));
    const double pivot = a(k, k);
    if (pivot == 0.0) {  // the column below is zero too: nothing to scale
      f.singular = true;
      continue;
    }
    column.tail(n - k - 1) /= pivot;
  }
}

}  // namespace

void FactorLu(DenseLu& f) {
  const int n = f.n;
  Eigen::Map<Eigen::MatrixXd> a(f.lu.data(), n, n);
  f.norm1 = n == 0 ? 0.0 : a.cwiseAbs().colwise().sum().maxCoeff();
  f.singular = false;
  // Blocked right-looking LU (Golub & Van Loan Alg. 3.2.2): factor a panel, solve for the block
  // row of U beside it, update the trailing block by one matrix product.
  for (int k0 = 0; k0 < n; k0 += kPanel) {
    const int kb = std::min(kPanel, n - k0);
    FactorPanel(a, k0, kb, f);
    const int rest = n - k0 - kb;
    if (rest == 0) break;
    const auto L11 = a.block(k0, k0, kb, kb).triangularView<Eigen::UnitLower>();
    for (int c = 0; c < rest; c += kChunkCols) {
      const int cols = std::min(kChunkCols, rest - c);
      auto U12 = a.block(k0, k0 + kb + c, kb, cols);
      L11.solveInPlace(U12);
      for (int r = 0; r < rest; r += kChunkRows) {
        const int rows = std::min(kChunkRows, rest - r);
        a.block(k0 + kb + r, k0 + kb + c, rows, cols).noalias() -=
            a.block(k0 + kb + r, k0, rows, kb) * U12;
      }
    }
  }
}

void SolveLuInPlace(const DenseLu& f, Eigen::Ref<Eigen::VectorXd> b) {
  const auto a = Factors(f.lu, f.n);
  for (int k = 0; k < f.n; ++k) std::swap(b[k], b[f.pivots[static_cast<std::size_t>(k)]]);
  a.triangularView<Eigen::UnitLower>().solveInPlace(b);
  a.triangularView<Eigen::Upper>().solveInPlace(b);
}

void SolveLuColumnsInPlace(const DenseLu& f, Eigen::Ref<Eigen::MatrixXd> B) {
  const int n = f.n;
  const auto a = Factors(f.lu, n);
  for (int k = 0; k < n; ++k) B.row(k).swap(B.row(f.pivots[static_cast<std::size_t>(k)]));
  // Blocked substitution, panel by panel, in chunks of columns and rows: one triangular solve
  // of the whole n × n factor would pack it into buffers beyond Eigen's stack limit and so on
  // the heap, at every call (FactorLu's trailing products are chunked for the same reason).
  for (int c = 0; c < B.cols(); c += kChunkCols) {
    const int cols = std::min<int>(kChunkCols, static_cast<int>(B.cols()) - c);
    for (int k0 = 0; k0 < n; k0 += kPanel) {  // L Y = P B, top down
      const int kb = std::min(kPanel, n - k0);
      auto Y1 = B.block(k0, c, kb, cols);
      a.block(k0, k0, kb, kb).triangularView<Eigen::UnitLower>().solveInPlace(Y1);
      for (int r = k0 + kb; r < n; r += kChunkRows) {
        const int rows = std::min(kChunkRows, n - r);
        B.block(r, c, rows, cols).noalias() -= a.block(r, k0, rows, kb) * Y1;
      }
    }
    for (int k0 = ((n - 1) / kPanel) * kPanel; n > 0 && k0 >= 0; k0 -= kPanel) {  // U X = Y
      const int kb = std::min(kPanel, n - k0);
      auto X1 = B.block(k0, c, kb, cols);
      a.block(k0, k0, kb, kb).triangularView<Eigen::Upper>().solveInPlace(X1);
      for (int r = 0; r < k0; r += kChunkRows) {
        const int rows = std::min(kChunkRows, k0 - r);
        B.block(r, c, rows, cols).noalias() -= a.block(r, k0, rows, kb) * X1;
      }
    }
  }
}

void SolveLuTransposedInPlace(const DenseLu& f, Eigen::Ref<Eigen::VectorXd> b) {
  // A = Pᵀ L U, so Aᵀ = Uᵀ Lᵀ P: solve with Uᵀ, then Lᵀ, then undo the swaps last to first.
  const auto a = Factors(f.lu, f.n);
  a.triangularView<Eigen::Upper>().transpose().solveInPlace(b);
  a.triangularView<Eigen::UnitLower>().transpose().solveInPlace(b);
  for (int k = f.n - 1; k >= 0; --k) std::swap(b[k], b[f.pivots[static_cast<std::size_t>(k)]]);
}

double EstimateReciprocalCondition(DenseLu& f) {
  const int n = f.n;
  if (n == 0) return std::numeric_limits<double>::infinity();
  if (f.singular || f.norm1 == 0.0) return 0.0;
  f.work.resize(2 * static_cast<std::size_t>(n));
  Eigen::Map<Eigen::VectorXd> x(f.work.data(), n);
  Eigen::Map<Eigen::VectorXd> z(f.work.data() + n, n);
  // ‖A⁻¹‖₁ is the largest ‖A⁻¹ x‖₁ over ‖x‖₁ = 1, reached at a unit vector; climb towards it
  // along the subgradient sign(A⁻¹x)ᵀ A⁻¹, starting from the centre of the simplex.
  x.setConstant(1.0 / n);
  SolveLuInPlace(f, x);
  double estimate = x.lpNorm<1>();
  int last_j = -1;
  for (int step = 0; step < 5 && n > 1; ++step) {
    for (int i = 0; i < n; ++i) z[i] = x[i] >= 0.0 ? 1.0 : -1.0;
    SolveLuTransposedInPlace(f, z);
    Eigen::Index j = 0;
    const double largest = z.cwiseAbs().maxCoeff(&j);
    if (static_cast<int>(j) == last_j || (step > 0 && largest <= z.dot(x) / estimate)) break;
    last_j = static_cast<int>(j);
    x.setZero();
    x[j] = 1.0;
    SolveLuInPlace(f, x);
    const double next = x.lpNorm<1>();
    if (next <= estimate) break;
    estimate = next;
  }
  // Higham's safeguard against matrices that fool the climb: an alternating test vector.
  for (int i = 0; i < n; ++i) {
    x[i] = (i % 2 == 0 ? 1.0 : -1.0) * (1.0 + static_cast<double>(i) / std::max(1, n - 1));
  }
  SolveLuInPlace(f, x);
  estimate = std::max(estimate, 2.0 * x.lpNorm<1>() / (3.0 * n));
  if (!std::isfinite(estimate) || estimate == 0.0) return 0.0;
  return 1.0 / (estimate * f.norm1);
}

void ReserveMinNorm(DenseMinNorm& f, int n) {
  const auto size = static_cast<std::size_t>(n);
  f.qr.reserve(Square(n));
  for (std::vector<double>* v : {&f.tau, &f.tau_z, &f.scratch}) v->reserve(size);
  f.columns.reserve(size);
}

Eigen::Map<Eigen::MatrixXd> PrepareMinNorm(DenseMinNorm& f, int n) {
  const auto size = static_cast<std::size_t>(n);
  f.n = n;
  f.qr.resize(Square(n));
  f.tau.resize(size);
  f.tau_z.resize(size);
  f.columns.resize(size);
  f.scratch.resize(size);
  return {f.qr.data(), n, n};
}

namespace {

// Householder QR with column pivoting, B P = Q R, stopped at the numerical rank; each reflector
// I − τ v vᵀ (v₀ = 1) is stored below the diagonal of its column.
void FactorColumnPivotedQr(DenseMinNorm& f) {
  const int n = f.n;
  Eigen::Map<Eigen::MatrixXd> a(f.qr.data(), n, n);
  for (int j = 0; j < n; ++j) f.columns[static_cast<std::size_t>(j)] = j;
  f.rank = 0;
  double first = 0;
  for (int k = 0; k < n; ++k) {
    // The trailing column of largest norm (norms recomputed each step: no downdating drift).
    int p = k;
    for (int c = k; c < n; ++c) {
      f.scratch[static_cast<std::size_t>(c)] = a.col(c).tail(n - k).norm();
      if (f.scratch[static_cast<std::size_t>(c)] > f.scratch[static_cast<std::size_t>(p)]) p = c;
    }
    if (p != k) {
      a.col(k).swap(a.col(p));
      std::swap(f.columns[static_cast<std::size_t>(k)], f.columns[static_cast<std::size_t>(p)]);
    }
    const double norm = f.scratch[static_cast<std::size_t>(p)];
    if (k == 0) first = norm;
    if (!(norm > n * std::numeric_limits<double>::epsilon() * first)) break;  // the rest is ~0
    // The reflector maps the column to β e₀, β = −sign(x₀) ‖x‖ (no cancellation in x₀ − β).
    const double x0 = a(k, k);
    const double beta = x0 >= 0.0 ? -norm : norm;
    const int below = n - k - 1;
    a.col(k).tail(below) /= (x0 - beta);
    const double tau = (beta - x0) / beta;
    f.tau[static_cast<std::size_t>(k)] = tau;
    a(k, k) = beta;
    for (int c = k + 1; c < n; ++c) {
      const double w = a(k, c) + a.col(k).tail(below).dot(a.col(c).tail(below));
      a(k, c) -= tau * w;
      a.col(c).tail(below) -= (tau * w) * a.col(k).tail(below);
    }
    f.rank = k + 1;
  }
}

// [R₁₁ R₁₂] = [T₁₁ 0] Z: for rows i = rank − 1 down to 0, a reflector from the right on the
// coordinates {i, rank, …, n − 1} zeroes row i of R₁₂; its vector is stored where those zeros
// would be.
void FactorRightReflections(DenseMinNorm& f) {
  const int n = f.n, rank = f.rank, tail = n - rank;
  Eigen::Map<Eigen::MatrixXd> a(f.qr.data(), n, n);
  for (int i = rank - 1; i >= 0; --i) {
    auto row_tail = a.row(i).segment(rank, tail);
    const double norm = std::sqrt(a(i, i) * a(i, i) + row_tail.squaredNorm());
    if (tail == 0 || row_tail.squaredNorm() == 0.0) {
      f.tau_z[static_cast<std::size_t>(i)] = 0.0;
      continue;
    }
    const double x0 = a(i, i);
    const double beta = x0 >= 0.0 ? -norm : norm;
    row_tail /= (x0 - beta);
    const double tau = (beta - x0) / beta;
    f.tau_z[static_cast<std::size_t>(i)] = tau;
    a(i, i) = beta;
    for (int r = 0; r < i; ++r) {
      const double w = a(r, i) + a.row(r).segment(rank, tail).dot(row_tail);
      a(r, i) -= tau * w;
      a.row(r).segment(rank, tail) -= (tau * w) * row_tail;
    }
  }
}

}  // namespace

void FactorMinNorm(DenseMinNorm& f) {
  FactorColumnPivotedQr(f);
  FactorRightReflections(f);
}

void SolveMinNorm(DenseMinNorm& f, const Eigen::Ref<const Eigen::VectorXd>& r,
                  Eigen::Ref<Eigen::VectorXd> x) {
  const int n = f.n, rank = f.rank, tail = n - rank;
  const auto a = Factors(f.qr, n);
  Eigen::Map<Eigen::VectorXd> y(f.scratch.data(), n);
  y = r;
  // c = Qᵀ r: the first `rank` reflectors are all that reach c's first `rank` entries.
  for (int k = 0; k < rank; ++k) {
    const int below = n - k - 1;
    const double w = y[k] + a.col(k).tail(below).dot(y.tail(below));
    const double tw = f.tau[static_cast<std::size_t>(k)] * w;
    y[k] -= tw;
    y.tail(below) -= tw * a.col(k).tail(below);
  }
  // T₁₁ w₁ = c₁; y = Zᵀ [w₁; 0], the right reflectors in the order they were made undone.
  a.topLeftCorner(rank, rank).triangularView<Eigen::Upper>().solveInPlace(y.head(rank));
  y.tail(tail).setZero();
  for (int i = 0; i < rank; ++i) {
    const double tau = f.tau_z[static_cast<std::size_t>(i)];
    if (tau == 0.0) continue;
    const auto v = a.row(i).segment(rank, tail);
    const double w = y[i] + v.dot(y.tail(tail).transpose());
    y[i] -= tau * w;
    y.tail(tail) -= (tau * w) * v.transpose();
  }
  for (int i = 0; i < n; ++i) x[f.columns[static_cast<std::size_t>(i)]] = y[i];
}

}  // namespace coulomb::math
