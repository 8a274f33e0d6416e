#include "coulomb/sim/contact_metrics.h"

#include <algorithm>
#include <cmath>

#include "coulomb/complementarity/friction_cone.h"

namespace coulomb::sim {

ContactMetrics CalcContactMetrics(const contact::ContactProblem& problem,
                                  const Eigen::VectorXd& impulses, const Eigen::VectorXd& v_next) {
  return CalcContactMetricsFromVelocities(problem, impulses, problem.J * v_next);
}

ContactMetrics CalcContactMetricsFromVelocities(const contact::ContactProblem& problem,
                                                const Eigen::VectorXd& impulses,
                                                const Eigen::VectorXd& u) {
  ContactMetrics m;
  const int nc = problem.num_contacts();
  if (nc == 0 || impulses.size() != 3 * nc || u.size() != 3 * nc) return m;
  const double h = problem.time_step;
  // Sliding: tangential speed above 1e-6 m/s or 1e-6 of the largest contact speed.
  const double slip_threshold = std::max(1e-6, 1e-6 * u.lpNorm<Eigen::Infinity>());
  for (int i = 0; i < nc; ++i) {
    const Eigen::Vector3d g = impulses.segment<3>(3 * i);
    const Eigen::Vector3d ui = u.segment<3>(3 * i);
    const double mu = problem.mu[i];
    m.signorini = std::max(m.signorini, std::abs(g[0] * (ui[0] + problem.phi[i] / h)) / h);
    m.cone = std::max(m.cone, (g - ProjectOntoFrictionCone(g, mu)).norm());
    if (g[0] > 0) m.gliding = std::max(m.gliding, std::max(0.0, ui[0]));
    const double slip = ui.tail<2>().norm(), friction = g.tail<2>().norm();
    if (slip > slip_threshold && g[0] > 0) {
      m.dissipation = std::max(m.dissipation, std::abs(mu * g[0] - friction) * slip / h);
      if (friction > 0) {
        m.misalignment =
            std::max(m.misalignment, (g.tail<2>() / friction + ui.tail<2>() / slip).norm());
      }
    }
  }
  return m;
}

}  // namespace coulomb::sim
