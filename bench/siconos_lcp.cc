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

const char* SiconosLcpName(SiconosLcpSolver solver) {
  switch (solver) {
    case SiconosLcpSolver::kLemke:
      return "siconos-lemke";
    case SiconosLcpSolver::kPgs:
      return "siconos-pgs";
    case SiconosLcpSolver::kNewtonFb:
      return "siconos-newton-fb";
  }
  return "siconos-?";
}

PeerLcpResult SolveWithSiconos(const LcpProblem& problem, SiconosLcpSolver solver,
                               int max_iterations, double tolerance) {
  PeerLcpResult out;
#ifdef COULOMB_HAVE_SICONOS
  const int n = problem.size();
  NumericsMatrix* M = NM_create(NM_DENSE, n, n);
  // Siconos dense storage is column-major, like Eigen's default.
  Eigen::Map<Eigen::MatrixXd>(M->matrix0, n, n) = problem.M;
  Eigen::VectorXd q = problem.q;
  LinearComplementarityProblem lcp{n, M, q.data()};
  const int id = solver == SiconosLcpSolver::kLemke ? SICONOS_LCP_LEMKE
                 : solver == SiconosLcpSolver::kPgs ? SICONOS_LCP_PGS
                                                    : SICONOS_LCP_NEWTON_FB_FBLSA;
  SolverOptions* options = solver_options_create(id);
  options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
  options->dparam[SICONOS_DPARAM_TOL] = tolerance;
  out.z = Eigen::VectorXd::Zero(n);
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  const Stopwatch clock;
  switch (solver) {
    case SiconosLcpSolver::kLemke:
      lcp_lexicolemke(&lcp, out.z.data(), w.data(), &out.info, options);
      break;
    case SiconosLcpSolver::kPgs:
      lcp_pgs(&lcp, out.z.data(), w.data(), &out.info, options);
      break;
    case SiconosLcpSolver::kNewtonFb:
      lcp_newton_FB(&lcp, out.z.data(), w.data(), &out.info, options);
      break;
  }
  out.seconds = clock.Seconds();
  out.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  out.available = true;
  solver_options_delete(options);
  NM_free(M);
#else
  (void)problem;
  (void)solver;
  (void)max_iterations;
  (void)tolerance;
#endif
  return out;
}

}  // namespace coulomb::bench
