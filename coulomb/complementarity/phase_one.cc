#include "coulomb/complementarity/phase_one.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace coulomb {

PhaseOneResult FindStrictlyFeasiblePoint(const LcpProblem& problem, double min_margin) {
  PhaseOneResult out;
  const int n = problem.size();
  if (n == 0) {
    out.strictly_feasible = true;
    out.margin = 1;
    return out;
  }
  const double c = 1.0 + std::max(0.0, -problem.q.minCoeff());
  // Structural variables x = (z_0..z_{n−1}, s); slack j of row i is column n + 1 + i.
  const int rows = 2 * n + 1;
  const int cols = n + 1 + rows;
  const int s_col = n;
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(rows + 1, cols + 1);  // last row: objective
  const int rhs = cols;
  for (int i = 0; i < n; ++i) {
    T(i, i) = -1.0;  // −z_i + s ≤ c
    T(i, s_col) = 1.0;
    T(i, rhs) = c;
    T.row(n + i).head(n) = -problem.M.row(i);  // −(M z)_i + s ≤ q_i + c
    T(n + i, s_col) = 1.0;
    T(n + i, rhs) = problem.q[i] + c;
  }
  const int cap_row = 2 * n;
  T(cap_row, s_col) = 1.0;  // s ≤ 1 + c  (t ≤ 1)
  T(cap_row, rhs) = 1.0 + c;
  for (int i = 0; i < rows; ++i) T(i, n + 1 + i) = 1.0;
  T(rows, s_col) = -1.0;  // objective row holds −(reduced costs) of "maximize s"

  std::vector<int> basis(rows);
  for (int i = 0; i < rows; ++i) basis[i] = n + 1 + i;
  const int max_pivots = 50 * rows + 1000;
  int degenerate_streak = 0;
  const double eps = 1e-12;
  while (out.pivots < max_pivots) {
    // Entering column: most negative objective coefficient (Dantzig), or the first negative
    // one (Bland) after a streak of degenerate pivots, which rules out cycling.
    const bool bland = degenerate_streak > 50;
    int enter = -1;
    double best = -eps;
    for (int j = 0; j < cols; ++j) {
      if (T(rows, j) < best) {
        enter = j;
        best = T(rows, j);
        if (bland) break;
      }
    }
    if (enter < 0) break;  // optimal
    int leave = -1;
    double ratio_min = 0;
    for (int i = 0; i < rows; ++i) {
      const double a = T(i, enter);
      if (a <= eps) continue;
      const double ratio = std::max(T(i, rhs), 0.0) / a;
      if (leave < 0 || ratio < ratio_min - 1e-14 ||
          (bland && std::abs(ratio - ratio_min) <= 1e-14 && basis[i] < basis[leave])) {
        leave = i;
        ratio_min = ratio;
      }
    }
    if (leave < 0) break;  // cannot happen: s is bounded by its own row
    degenerate_streak = ratio_min <= 1e-14 ? degenerate_streak + 1 : 0;
    const double pivot = T(leave, enter);
    T.row(leave) /= pivot;
    const Eigen::RowVectorXd pivot_row = T.row(leave);
    for (int i = 0; i <= rows; ++i) {
      if (i != leave && T(i, enter) != 0.0) T.row(i) -= T(i, enter) * pivot_row;
    }
    basis[leave] = enter;
    ++out.pivots;
    // t = 1 is the cap: nothing better exists, stop early.
    if (basis[cap_row] != n + 1 + cap_row) {
      // the cap row's slack left: s = 1 + c
      break;
    }
  }
  out.pivot_limit = out.pivots >= max_pivots;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n + 1);
  for (int i = 0; i < rows; ++i) {
    if (basis[i] <= n) x[basis[i]] = std::max(T(i, rhs), 0.0);
  }
  out.z = x.head(n);
  // Margin measured on the point itself rather than trusted from the tableau.
  const Eigen::VectorXd w = problem.M * out.z + problem.q;
  out.margin = std::min(out.z.minCoeff(), w.minCoeff());
  out.strictly_feasible = out.margin > min_margin;
  return out;
}

}  // namespace coulomb
