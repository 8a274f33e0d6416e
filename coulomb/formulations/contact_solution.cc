#include "coulomb/formulations/contact_solution.h"

namespace coulomb {

LocalContactProblem MakeLocalContactProblem(const contact::ContactProblem& problem,
                                            double position_correction) {
  LocalContactProblem local;
  const Eigen::LLT<Eigen::MatrixXd> mass(problem.M);
  local.MinvJt = mass.solve(problem.J.transpose());
  local.W = problem.J * local.MinvJt;
  local.q = problem.J * problem.v_star;
  for (int k = 0; k < problem.num_contacts(); ++k) {
    local.q[3 * k] += position_correction * problem.phi[k] / problem.time_step;
  }
  return local;
}

}  // namespace coulomb
