#include "coulomb/complementarity/interior_point_common.h"

#include <algorithm>

#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/fischer_burmeister_newton.h"

namespace coulomb {

double StepToBoundary(const Eigen::VectorXd& x, const Eigen::VectorXd& dx) {
  double alpha = 1.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (dx[i] < 0.0) alpha = std::min(alpha, -x[i] / dx[i]);
  }
  return alpha;
}

Eigen::VectorXd RoundAndPolish(const LcpProblem& problem, const Eigen::VectorXd& z,
                               const Eigen::VectorXd& w, double tolerance, bool newton_polish) {
  Eigen::VectorXd best = z;
  double best_worst = CertifyLcp(problem, z).Worst();
  if (const auto rounded = SolveComplementaryBasis(problem, GuessBasis(z, w), &z)) {
    const double worst = CertifyLcp(problem, *rounded).Worst();
    if (worst < best_worst) {
      best = *rounded;
      best_worst = worst;
    }
  }
  if (newton_polish && !(best_worst <= tolerance)) {
    FischerBurmeisterParams params;
    params.max_iterations = 30;
    params.acceptance_tolerance = tolerance;
    const LcpResult polished = SolveFischerBurmeister(problem, params, &best);
    if (polished.certificate.Worst() < best_worst) best = polished.z;
  }
  return best;
}

}  // namespace coulomb
