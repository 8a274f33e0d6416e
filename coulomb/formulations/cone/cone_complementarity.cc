#include "coulomb/formulations/cone/cone_complementarity.h"

#include <utility>

#include "coulomb/base/stopwatch.h"

namespace coulomb {

ContactSolution SolveConeComplementarity(const contact::ContactProblem& problem,
                                         const ConeParams& params,
                                         const Eigen::VectorXd& warm_start) {
  LocalContactProblem local;
  FrictionContactProblem friction;
  ContactSolution out;
  SolveConeComplementarity(problem, params, warm_start, local, friction, out);
  return out;
}

void SolveConeComplementarity(const contact::ContactProblem& problem, const ConeParams& params,
                              const Eigen::VectorXd& warm_start, LocalContactProblem& local,
                              FrictionContactProblem& fc, ContactSolution& out,
                              NonsmoothNewtonWorkspace* newton) {
  const Stopwatch clock;
  out.Reset();
  if (problem.num_contacts() == 0) {
    out.status = LcpStatus::kSolved;
    out.v_next = problem.v_star;
    out.impulses.resize(0);
    return;
  }
  MakeLocalContactProblem(problem, params.position_correction, params.max_correction_speed, local);
  // Swapped, not copied: both keep their storage for the next step. (The member swaps: std::swap
  // of two sparse matrices copies them, six allocations a step.)
  fc.W.swap(local.W);
  fc.q.swap(local.q);
  fc.W_factor.swap(local.G);
  fc.W_diagonal.swap(local.W_diagonal);
  fc.mu = problem.mu;
  FrictionContactResult scratch;
  FrictionContactResult& r = newton != nullptr ? newton->result : scratch;
  SolveFrictionContact(fc, params.solver, params.settings, warm_start, newton, r);
  out.status = r.status;
  out.message = r.message;
  out.iterations = r.iterations;
  out.residual = r.error;
  if (r.r.size() == fc.q.size()) {
    out.impulses = r.r;
  } else {
    out.impulses.setZero(fc.q.size());
  }
  out.v_next = problem.v_star;
  out.v_next.noalias() += local.MinvJt * out.impulses;
  out.seconds = clock.Seconds();
}

}  // namespace coulomb
