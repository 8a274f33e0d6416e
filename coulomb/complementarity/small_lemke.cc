#include "coulomb/complementarity/small_lemke.h"

#include <array>
#include <cmath>

namespace coulomb {
namespace {

constexpr int kMaxColumns = 2 * kSmallLcpMaxSize + 2;
using Tableau =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kSmallLcpMaxSize, kMaxColumns>;

void Pivot(Tableau& T, int row, int column) {
  T.row(row) /= T(row, column);
  for (int i = 0; i < T.rows(); ++i) {
    if (i != row && T(i, column) != 0) T.row(i) -= T(i, column) * T.row(row);
  }
}

// The leaving row for `column`: the smallest ratio rhs / a over a > eps, ties broken
// lexicographically on the rows of B⁻¹ (the tableau's first n columns) divided by a, which
// keeps Lemke from cycling on degenerate problems; the artificial variable's row wins a tie so
// the path ends as soon as it can. −1: a ray.
int RatioTest(const Tableau& T, int column, int n, const std::array<int, kSmallLcpMaxSize>& basis,
              double eps) {
  const int rhs = 2 * n + 1, artificial = 2 * n;
  int best = -1;
  double best_ratio = 0;
  for (int i = 0; i < n; ++i) {
    const double a = T(i, column);
    if (!(a > eps)) continue;
    const double ratio = T(i, rhs) / a;
    if (best < 0 || ratio < best_ratio - 1e-12 * (1 + std::abs(best_ratio))) {
      best = i, best_ratio = ratio;
      continue;
    }
    if (ratio > best_ratio + 1e-12 * (1 + std::abs(best_ratio))) continue;
    if (basis[best] == artificial) continue;
    if (basis[i] == artificial) {
      best = i, best_ratio = ratio;
      continue;
    }
    const double b = T(best, column);
    for (int k = 0; k < n; ++k) {
      const double mine = T(i, k) / a, theirs = T(best, k) / b;
      if (mine == theirs) continue;
      if (mine < theirs) best = i, best_ratio = ratio;
      break;
    }
  }
  return best;
}

}  // namespace

bool SolveSmallLcp(const SmallLcpMatrix& M, const SmallLcpVector& q, SmallLcpVector& z) {
  const int n = static_cast<int>(q.size());
  if (n < 1 || n > kSmallLcpMaxSize || M.rows() != n || M.cols() != n) return false;
  if (q.minCoeff() >= 0) {
    z.setZero(n);
    return true;
  }
  // I w − M z − e z₀ = q, basis w.
  const int artificial = 2 * n, rhs = 2 * n + 1;
  Tableau T = Tableau::Zero(n, 2 * n + 2);
  T.leftCols(n).setIdentity();
  T.block(0, n, n, n) = -M;
  T.col(artificial).setConstant(-1);
  T.col(rhs) = q;
  std::array<int, kSmallLcpMaxSize> basis{};
  for (int i = 0; i < n; ++i) basis[i] = i;
  const double eps = 1e-12 * std::max(1.0, M.cwiseAbs().maxCoeff());
  int row = 0;
  q.minCoeff(&row);
  Pivot(T, row, artificial);
  int leaving = basis[row];
  basis[row] = artificial;
  for (int pivots = 0; pivots < 50 + 10 * n; ++pivots) {
    const int entering = leaving < n ? leaving + n : leaving - n;
    row = RatioTest(T, entering, n, basis, eps);
    if (row < 0) return false;  // a secondary ray
    leaving = basis[row];
    Pivot(T, row, entering);
    basis[row] = entering;
    if (leaving == artificial) {
      z.setZero(n);
      for (int i = 0; i < n; ++i) {
        if (basis[i] >= n && basis[i] < 2 * n) z[basis[i] - n] = std::max(0.0, T(i, rhs));
      }
      return z.allFinite();
    }
  }
  return false;
}

}  // namespace coulomb
