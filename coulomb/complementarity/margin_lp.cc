#include "coulomb/complementarity/margin_lp.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace coulomb {

namespace {

// Primal simplex on tableau T (last row: the objective's negated reduced costs, last column: the
// right-hand side) from the feasible `basis`, until optimal, or until the cap row's slack
// (`cap_slack`) leaves the basis: t = 1 is the cap, nothing better exists. Returns the pivots.
int PivotToOptimum(Eigen::MatrixXd& T, std::vector<int>& basis, int cap_slack, int max_pivots) {
  const int rows = static_cast<int>(T.rows()) - 1;
  const int cols = static_cast<int>(T.cols()) - 1;
  const int rhs = cols;
  const int cap_row = rows - 1;
  int pivots = 0;
  int degenerate_streak = 0;
  const double eps = 1e-12;
  while (pivots < max_pivots) {
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
    // With y free a direction can be unbounded while s is not: it cannot raise s, so stop.
    if (leave < 0) break;
    degenerate_streak = ratio_min <= 1e-14 ? degenerate_streak + 1 : 0;
    const double pivot = T(leave, enter);
    T.row(leave) /= pivot;
    const Eigen::RowVectorXd pivot_row = T.row(leave);
    for (int i = 0; i <= rows; ++i) {
      if (i != leave && T(i, enter) != 0.0) T.row(i) -= T(i, enter) * pivot_row;
    }
    basis[leave] = enter;
    ++pivots;
    if (basis[cap_row] != cap_slack) break;  // the cap row's slack left: s = 1 + c
  }
  return pivots;
}

}  // namespace

MarginLpResult MaximizeMargin(const Eigen::MatrixXd& G, const Eigen::VectorXd& g,
                              bool nonnegative) {
  MarginLpResult out;
  const int m = static_cast<int>(G.rows());
  const int d = static_cast<int>(G.cols());
  // Columns: y (as y⁺ − y⁻ when free), then s, then one slack per row. With y ≥ 0 its rows
  // −y_j + s ≤ c come first, so that the Phase I of the feasible interior point method keeps
  // its tableau (rows −z + s ≤ c, −(M z + q) + s ≤ c, the cap).
  const int parts = nonnegative ? 1 : 2;
  const int vars = parts * d;
  const int own_rows = nonnegative ? d : 0;
  const int rows = own_rows + m + 1;
  const int cols = vars + 1 + rows;
  const int s_col = vars;
  const int rhs = cols;
  const double c = 1.0 + std::max(0.0, m > 0 ? -g.minCoeff() : 0.0);
  Eigen::MatrixXd T = Eigen::MatrixXd::Zero(rows + 1, cols + 1);  // last row: objective
  for (int j = 0; j < own_rows; ++j) {
    T(j, j) = -1.0;  // −y_j + s ≤ c
    T(j, s_col) = 1.0;
    T(j, rhs) = c;
  }
  for (int i = 0; i < m; ++i) {
    const int r = own_rows + i;  // −(G y)_i + s ≤ g_i + c
    T.row(r).head(d) = -G.row(i);
    if (!nonnegative) T.row(r).segment(d, d) = G.row(i);
    T(r, s_col) = 1.0;
    T(r, rhs) = g[i] + c;
  }
  const int cap_row = rows - 1;
  T(cap_row, s_col) = 1.0;  // s ≤ 1 + c  (t ≤ 1)
  T(cap_row, rhs) = 1.0 + c;
  for (int i = 0; i < rows; ++i) T(i, vars + 1 + i) = 1.0;
  T(rows, s_col) = -1.0;  // objective row holds −(reduced costs) of "maximize s"

  std::vector<int> basis(rows);
  for (int i = 0; i < rows; ++i) basis[i] = vars + 1 + i;
  const int max_pivots = 50 * rows + 1000;
  out.pivots = PivotToOptimum(T, basis, vars + 1 + cap_row, max_pivots);
  out.pivot_limit = out.pivots >= max_pivots;
  Eigen::VectorXd x = Eigen::VectorXd::Zero(vars + 1);
  for (int i = 0; i < rows; ++i) {
    if (basis[i] <= vars) x[basis[i]] = std::max(T(i, rhs), 0.0);
  }
  out.y = nonnegative ? Eigen::VectorXd(x.head(d)) : Eigen::VectorXd(x.head(d) - x.segment(d, d));
  // Margin measured on the point itself rather than trusted from the tableau.
  const Eigen::VectorXd slack = G * out.y + g;
  out.margin = m > 0 ? slack.minCoeff() : 1.0;
  if (nonnegative && d > 0) out.margin = std::min(out.y.minCoeff(), out.margin);
  return out;
}

}  // namespace coulomb
