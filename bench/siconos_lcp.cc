#include "bench/siconos_lcp.h"

#include "coulomb/base/stopwatch.h"

#ifdef COULOMB_HAVE_SICONOS
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>
#endif

namespace coulomb::bench {

PeerLcpResult SolveWithSiconosLemke(const LcpProblem& problem, int max_pivots) {
  PeerLcpResult out;
#ifdef COULOMB_HAVE_SICONOS
  const int n = problem.size();
  NumericsMatrix* M = NM_create(NM_DENSE, n, n);
  // Siconos dense storage is column-major, like Eigen's default.
  Eigen::Map<Eigen::MatrixXd>(M->matrix0, n, n) = problem.M;
  Eigen::VectorXd q = problem.q;
  LinearComplementarityProblem lcp{n, M, q.data()};
  SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
  options->iparam[SICONOS_IPARAM_MAX_ITER] = max_pivots;
  out.z = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  const Stopwatch clock;
  lcp_lexicolemke(&lcp, out.z.data(), w.data(), &out.info, options);
  out.seconds = clock.Seconds();
  out.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  out.available = true;
  solver_options_delete(options);
  NM_free(M);
#else
  (void)problem;
  (void)max_pivots;
#endif
  return out;
}

}  // namespace coulomb::bench
