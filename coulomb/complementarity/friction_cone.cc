#include "coulomb/complementarity/friction_cone.h"

#include <algorithm>
#include <cmath>

namespace coulomb {

FrictionContactCertificate CertifyFrictionContact(const FrictionContactProblem& problem,
                                                  const Eigen::VectorXd& r) {
  FrictionContactCertificate c;
  CertifyFrictionContact(problem, r, c);
  return c;
}

void CertifyFrictionContact(const FrictionContactProblem& problem, const Eigen::VectorXd& r,
                            FrictionContactCertificate& c) {
  c.u.noalias() = problem.W * r;
  c.u += problem.q;
  CertifyContactVelocities(r, problem.mu, problem.q.norm(), c);
}

void CertifyContactVelocities(const Eigen::VectorXd& r, const Eigen::VectorXd& mu, double q_norm,
                              FrictionContactCertificate& c) {
  c.cone_violation = c.dual_violation = c.complementarity = 0;
  double residual2 = 0;
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    const double mu_i = mu[i];
    const Eigen::Vector3d ri = r.segment<3>(3 * i);
    const Eigen::Vector3d ui = c.u.segment<3>(3 * i);
    const Eigen::Vector3d hat = DeSaxceVelocity(ui, mu_i);
    residual2 += AbhResidualSquared(ri, ui, mu_i);
    c.cone_violation = std::max(c.cone_violation, (ri - ProjectOntoFrictionCone(ri, mu_i)).norm());
    // K*_μ is the cone of aperture 1/μ: distance of û to it, via the projection onto K_{1/μ}
    // (for μ = 0, K* is the half-space u_N ≥ 0).
    const double dual =
        mu_i > 0 ? (hat - ProjectOntoFrictionCone(hat, 1.0 / mu_i)).norm() : std::max(0.0, -hat[0]);
    c.dual_violation = std::max(c.dual_violation, dual);
    c.complementarity = std::max(c.complementarity, std::abs(ri.dot(hat)));
  }
  c.error = std::sqrt(residual2) / (q_norm > 1e-300 ? q_norm : 1.0);
}

double AbhErrorOfVelocities(const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                            const Eigen::VectorXd& mu, double q_norm) {
  double residual2 = 0;
  for (Eigen::Index i = 0; i < mu.size(); ++i) {
    residual2 += AbhResidualSquared(r.segment<3>(3 * i), u.segment<3>(3 * i), mu[i]);
  }
  return std::sqrt(residual2) / (q_norm > 1e-300 ? q_norm : 1.0);
}

}  // namespace coulomb
