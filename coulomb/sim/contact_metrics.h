#pragma once
// Physical-accuracy measures of one step's contact solution (docs/notes/complementarity.md §7,
// after Le Lidec et al.'s ContactBench), engine-independent so every formulation is judged alike.
// From the impulses γ_i = (γ_N, γ_T) and the contact velocities u_i = J_i v⁺ (relative, normal
// first):
//  * signorini:     max_i |γ_N (u_N + φ/h)| / h, in W: the normal impulse against the rate at
//                   which the end-of-step gap φ + h u_N opens (a contact that starts within the
//                   margin and closes its gap during the step is not a violation)
//  * cone:          max_i ‖γ_i − P_K(γ_i)‖ (N s, impulses outside the Coulomb cone)
//  * dissipation:   max over sliding contacts of (μ γ_N − ‖γ_T‖) ‖u_T‖ / h (W: a sliding contact
//                   must sit on the cone boundary), and of the misalignment ‖γ̂_T + û_T‖;
//  * gliding:       max_i max(0, u_N) over contacts with γ_N > 0 (m/s: the spurious normal
//                   velocity of convex relaxations while sliding)

#include <Eigen/Dense>

#include "coulomb/contact/contact_problem.h"

namespace coulomb::sim {

struct ContactMetrics {
  double signorini = 0, cone = 0, dissipation = 0, misalignment = 0, gliding = 0;
};

// `impulses` 3 n_c and v_next (nv) of the step's solution for `problem`.
ContactMetrics CalcContactMetrics(const contact::ContactProblem& problem,
                                  const Eigen::VectorXd& impulses, const Eigen::VectorXd& v_next);
// The same from the contact velocities u = J v⁺ (3 n_c) the caller already has.
ContactMetrics CalcContactMetricsFromVelocities(const contact::ContactProblem& problem,
                                                const Eigen::VectorXd& impulses,
                                                const Eigen::VectorXd& u);

}  // namespace coulomb::sim
