#include "coulomb/formulations/cone/cone_complementarity.h"

#include "coulomb/base/stopwatch.h"

namespace coulomb {

ContactSolution SolveConeComplementarity(const contact::ContactProblem& problem,
                                         const ConeParams& params,
                                         const Eigen::VectorXd& warm_start) {
  const Stopwatch clock;
  ContactSolution out;
  if (problem.num_contacts() == 0) {
    out.status = LcpStatus::kSolved;
    out.v_next = problem.v_star;
    out.impulses.resize(0);
    return out;
  }
  const LocalContactProblem local =
      MakeLocalContactProblem(problem, params.position_correction, params.max_correction_speed);
  FrictionContactProblem fc;
  fc.W = local.W;
  fc.q = local.q;
  fc.mu = problem.mu;
  fc.W_factor = local.G;
  fc.W_diagonal = local.W_diagonal;
  const FrictionContactResult r =
      SolveFrictionContact(fc, params.solver, params.settings, warm_start);
  out.status = r.status;
  out.message = r.message;
  out.iterations = r.iterations;
  out.residual = r.error;
  out.impulses = r.r.size() == fc.q.size() ? r.r : Eigen::VectorXd::Zero(fc.q.size());
  out.v_next = problem.v_star + local.MinvJt * out.impulses;
  out.seconds = clock.Seconds();
  return out;
}

}  // namespace coulomb
