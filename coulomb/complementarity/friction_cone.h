#pragma once
// The Coulomb friction cone K_μ = {r : ‖r_T‖ ≤ μ r_N} in normal-first coordinates r = (r_N, r_T1,
// r_T2), and the acceptance test of a frictional contact solution (docs/notes/complementarity.md
// §3.3).

#include <Eigen/Dense>

#include "coulomb/complementarity/friction_contact_problem.h"

namespace coulomb {

// Euclidean projection onto K_μ (μ ≥ 0; μ = 0 is the normal half-line).
Eigen::Vector3d ProjectOntoFrictionCone(const Eigen::Vector3d& r, double mu);

// De Saxcé's modified velocity û = u + (μ ‖u_T‖, 0, 0): K*_μ ∋ û ⊥ r ∈ K_μ is Coulomb's law
// with maximum dissipation (eq. 29–34 of paper 1 at the velocity level).
Eigen::Vector3d DeSaxceVelocity(const Eigen::Vector3d& u, double mu);

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
double AbhResidualSquared(const Eigen::Vector3d& r, const Eigen::Vector3d& u, double mu);
// The certificate of r whose contact velocities u = W r + q are already in `certificate.u`
// (computed from body velocities by the solvers that never form W); q_norm = ‖q‖.
void CertifyContactVelocities(const Eigen::VectorXd& r, const Eigen::VectorXd& mu, double q_norm,
                              FrictionContactCertificate& certificate);

}  // namespace coulomb
