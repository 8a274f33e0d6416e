#include "apps/coulomb/peers/siconos_fc3d.h"

#include <cstdlib>
#include <cstring>

#include "coulomb/base/stopwatch.h"

#ifdef COULOMB_HAVE_SICONOS
#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <NumericsVerbose.h>
#include <SolverOptions.h>
#endif

namespace coulomb::peers {

std::vector<SiconosFc3dSolver> SiconosFc3dSolvers() {
#ifdef COULOMB_HAVE_SICONOS
  return {{"siconos-nsgs", SICONOS_FRICTION_3D_NSGS},
          {"siconos-nsn-ac", SICONOS_FRICTION_3D_NSN_AC},
          {"siconos-nsn-fb", SICONOS_FRICTION_3D_NSN_FB}};
#else
  return {};
#endif
}

FrictionContactResult SolveWithSiconos(const FrictionContactProblem& problem,
                                       const SiconosFc3dSolver& solver, double tolerance,
                                       int max_iterations) {
  FrictionContactResult result;
  result.solver = solver.name;
#ifdef COULOMB_HAVE_SICONOS
  const int nc = problem.num_contacts(), m = 3 * nc;
  // The problem owns (and frees) its matrix and vectors: hand it malloc'd copies. Dense W,
  // column-major like Eigen's.
  NumericsMatrix* W = NM_create(NM_DENSE, m, m);
  Eigen::Map<Eigen::MatrixXd>(W->matrix0, m, m) = Eigen::MatrixXd(problem.W);
  auto* q = static_cast<double*>(std::malloc(sizeof(double) * m));
  auto* mu = static_cast<double*>(std::malloc(sizeof(double) * nc));
  std::memcpy(q, problem.q.data(), sizeof(double) * m);
  std::memcpy(mu, problem.mu.data(), sizeof(double) * nc);
  ::FrictionContactProblem* fc = frictionContactProblem_new_with_data(3, nc, W, q, mu);
  numerics_set_verbose(0);  // nothing on stdout: --json must stay parseable
  SolverOptions* options = solver_options_create(solver.id);
  options->dparam[SICONOS_DPARAM_TOL] = tolerance;
  options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(m), u = Eigen::VectorXd::Zero(m);
  const Stopwatch clock;
  const int info = fc3d_driver(fc, r.data(), u.data(), options);
  const double seconds = clock.Seconds();
  result.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  solver_options_delete(options);
  frictionContactProblem_free(fc);
  SetFrictionContactAnswer(problem, r, info == 0 ? LcpStatus::kSolved : LcpStatus::kIterationLimit,
                           tolerance, result);
  result.seconds = seconds;
  if (info != 0) result.message = "Siconos reported info " + std::to_string(info);
#else
  (void)problem;
  (void)tolerance;
  (void)max_iterations;
  result.message = "built without Siconos numerics";
#endif
  return result;
}

}  // namespace coulomb::peers
