#pragma once
// The Coulomb friction cone K_μ = {r : ‖r_T‖ ≤ μ r_N} in normal-first coordinates r = (r_N, r_T1,
// r_T2), and the acceptance test of a frictional contact solution (docs/notes/complementarity.md
// §3.3).

#include <Eigen/Dense>

#include "coulomb/complementarity/friction_contact_problem.h"

namespace coulomb {

// (The three per-contact formulas below are defined here so that the contact sweeps, which call
// them several times per contact and step, inline them: as calls they were a fifth of a small
// scene's step.)

// Euclidean projection onto K_μ (μ ≥ 0; μ = 0 is the normal half-line).
inline Eigen::Vector3d ProjectOntoFrictionCone(const Eigen::Vector3d& r, double mu) {
  const double rn = r[0];
  const double rt = r.tail<2>().norm();
  if (rn >= 0 && rt <= mu * rn) return r;              // inside K_μ
  if (mu * rt <= -rn) return Eigen::Vector3d::Zero();  // inside the polar cone
  // Onto the boundary ray: minimize ‖(a, μ a ŝ) − r‖ over a ≥ 0.
  const double a = (rn + mu * rt) / (1.0 + mu * mu);
  Eigen::Vector3d p;
  p[0] = a;
  p.tail<2>() = (rt > 0 ? mu * a / rt : 0.0) * r.tail<2>();
  return p;
}

// De Saxcé's modified velocity û = u + (μ ‖u_T‖, 0, 0): K*_μ ∋ û ⊥ r ∈ K_μ is Coulomb's law
// with maximum dissipation (eq. 29–34 of paper 1 at the velocity level).
inline Eigen::Vector3d DeSaxceVelocity(const Eigen::Vector3d& u, double mu) {
  Eigen::Vector3d hat = u;
  hat[0] += mu * u.tail<2>().norm();
  return hat;
}

// How well r solves FC(W, q, μ), computed from the data alone (never from a solver's state).
struct FrictionContactCertificate {
  // Acary–Brémond–Huber's error: ‖r − P_K(r − û)‖ / max(‖q‖, 1e-300-guard) with û = De Saxcé's
  // velocity of u = W r + q; the measure FCLib and Siconos report, so our numbers compare.
  double error = 0;
  double cone_violation = 0;   // max_i ‖r_i − P_K(r_i)‖, N s
  double dual_violation = 0;   // max_i distance of û_i to K*_μ, m/s
  double complementarity = 0;  // max_i |⟨r_i, û_i⟩|
  Eigen::VectorXd u;           // W r + q
};

FrictionContactCertificate CertifyFrictionContact(const FrictionContactProblem& problem,
                                                  const Eigen::VectorXd& r);
// The same into `certificate`, reusing its u's storage (no allocation once sized).
void CertifyFrictionContact(const FrictionContactProblem& problem, const Eigen::VectorXd& r,
                            FrictionContactCertificate& certificate);

// Contact i's share of the ABH error's numerator, ‖r − P_K(r − û)‖² with û De Saxcé's velocity
// of u: the one formula every certificate sums.
inline double AbhResidualSquared(const Eigen::Vector3d& r, const Eigen::Vector3d& u, double mu) {
  return (r - ProjectOntoFrictionCone(r - DeSaxceVelocity(u, mu), mu)).squaredNorm();
}
// The certificate of r whose contact velocities u = W r + q are already in `certificate.u`
// (computed from body velocities by the solvers that never form W); q_norm = ‖q‖.
void CertifyContactVelocities(const Eigen::VectorXd& r, const Eigen::VectorXd& mu, double q_norm,
                              FrictionContactCertificate& certificate);
// Its error alone, ‖F‖ / ‖q‖ (the other measures cost three more projections per contact, which
// a time step that only needs the verdict does not pay).
double AbhErrorOfVelocities(const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                            const Eigen::VectorXd& mu, double q_norm);

}  // namespace coulomb
