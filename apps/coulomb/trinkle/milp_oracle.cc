#include "apps/coulomb/trinkle/milp_oracle.h"

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_scaling.h"

#ifdef COULOMB_HAVE_CBC
#include <coin/Cbc_C_Interface.h>

#include <string>
#include <vector>
#endif

namespace coulomb::app {

MilpVerdict DecideLcpExistence(const LcpProblem& original, double bound, double time_limit) {
  MilpVerdict verdict;
#ifdef COULOMB_HAVE_CBC
  const Stopwatch clock;
  verdict.available = true;
  const int n = original.size();
  // Scale so that U means the same thing for every instance.
  const Eigen::VectorXd d = ComputeLcpScaling(original.M);
  LcpProblem p = ScaleLcp(original, d);
  const double s = std::max(1.0, p.q.lpNorm<Eigen::Infinity>());
  p.q /= s;
  // Columns: z_0..z_{n−1}, y_0..y_{n−1}. Rows: [z − U y ≤ 0], [M z ≥ −q], [M z + U y ≤ U − q].
  std::vector<int> start, index;
  std::vector<double> value;
  for (int j = 0; j < n; ++j) {  // z_j
    start.push_back(static_cast<int>(index.size()));
    index.push_back(j);
    value.push_back(1.0);
    for (int i = 0; i < n; ++i) {
      if (p.M(i, j) == 0.0) continue;
      index.push_back(n + i);
      value.push_back(p.M(i, j));
      index.push_back(2 * n + i);
      value.push_back(p.M(i, j));
    }
  }
  for (int j = 0; j < n; ++j) {  // y_j
    start.push_back(static_cast<int>(index.size()));
    index.push_back(j);
    value.push_back(-bound);
    index.push_back(2 * n + j);
    value.push_back(bound);
  }
  start.push_back(static_cast<int>(index.size()));
  std::vector<double> col_lo(2 * n, 0.0), col_hi(2 * n), obj(2 * n, 0.0);
  for (int j = 0; j < n; ++j) {
    col_hi[j] = bound;
    col_hi[n + j] = 1.0;
  }
  const double inf = 1e30;
  std::vector<double> row_lo(3 * n), row_hi(3 * n);
  for (int i = 0; i < n; ++i) {
    row_lo[i] = -inf;
    row_hi[i] = 0.0;
    row_lo[n + i] = -p.q[i];
    row_hi[n + i] = inf;
    row_lo[2 * n + i] = -inf;
    row_hi[2 * n + i] = bound - p.q[i];
  }
  Cbc_Model* model = Cbc_newModel();
  Cbc_loadProblem(model, 2 * n, 3 * n, start.data(), index.data(), value.data(), col_lo.data(),
                  col_hi.data(), obj.data(), row_lo.data(), row_hi.data());
  for (int j = 0; j < n; ++j) Cbc_setInteger(model, n + j);
  Cbc_setLogLevel(model, 0);
  Cbc_setMaximumSeconds(model, time_limit);
  Cbc_solve(model);
  if (Cbc_isProvenInfeasible(model)) {
    verdict.existence = Existence::kNo;
  } else if (Cbc_isProvenOptimal(model)) {
    // Re-solve the basis the binaries chose from the original data and certify it.
    const double* x = Cbc_getColSolution(model);
    std::vector<char> alpha(n);
    Eigen::VectorXd z(n);
    for (int j = 0; j < n; ++j) {
      alpha[j] = x[n + j] > 0.5 ? 1 : 0;
      z[j] = x[j] * s * d[j];
    }
    ComplementaryBasisWorkspace basis;
    const bool exact = SolveComplementaryBasis(original, alpha, &z, basis);
    const bool certified = (exact && CertifyLcp(original, basis.z).Passes(1e-8)) ||
                           CertifyLcp(original, z).Passes(1e-6);
    verdict.existence = certified ? Existence::kYes : Existence::kUnknown;
  }
  Cbc_deleteModel(model);
  verdict.seconds = clock.Seconds();
#else
  (void)original;
  (void)bound;
  (void)time_limit;
#endif
  return verdict;
}

}  // namespace coulomb::app
