#include "coulomb/complementarity/interior_point_common.h"

#include <algorithm>

#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/fischer_burmeister_newton.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {

double StepToBoundary(const Eigen::VectorXd& x, const Eigen::VectorXd& dx) {
  double alpha = 1.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (dx[i] < 0.0) alpha = std::min(alpha, -x[i] / dx[i]);
  }
  return alpha;
}

void RoundAndPolish(const LcpProblem& problem, const Eigen::VectorXd& z, const Eigen::VectorXd& w,
                    double tolerance, bool newton_polish, ComplementaryBasisWorkspace& ws,
                    Eigen::VectorXd& best) {
  math::ResizeKeepingStorage(best, z.size());
  best = z;
  double best_worst = CertifyLcp(problem, z, &ws.w).Worst();
  if (SolveComplementaryBasis(problem, GuessBasis(z, w, ws), &z, ws)) {
    const double worst = CertifyLcp(problem, ws.z, &ws.w).Worst();
    if (worst < best_worst) {
      best = ws.z;
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
}

}  // namespace coulomb
