#pragma once
// Global semismooth Newton on the Alart–Curnier function (NSN-AC, docs/notes/complementarity.md
// §3.3), optionally inside a proximal-point loop (PPA-NSN).
//
// Per contact, with x = r − P u (P = diag(ρ_N, ρ_T, ρ_T), ρ_N = 1/W_NN, ρ_T = 1/λ_max(W_TT)):
//   G_N = r_N − max(0, x_N),   G_T = r_T − Proj_{disk of radius μ max(0, x_N)}(x_T),
// and G(r) = 0 is Coulomb's law. Newton steps use a generalized Jacobian of G and an Armijo
// line search on ½‖G‖². Rank-deficient W (hyperstatic stacks, the main cause of NSN failure per
// ABH) is handled by the proximal loop: each outer iteration solves FC(W + σI, q − σ r_k, μ),
// whose Jacobian is nonsingular, and r_k converges to a solution of the original problem.

#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "coulomb/base/deadline.h"
#include "coulomb/complementarity/friction_contact_result.h"

namespace coulomb {

struct NonsmoothNewtonParams {
  double tolerance = 1e-10;  // on FrictionContactCertificate::error
  int max_iterations = 100;  // Newton iterations per (inner) solve
  // Proximal weight σ relative to max diag(W); 0 turns the proximal loop off (plain NSN).
  double proximal = 0;
  int max_proximal_iterations = 200;
  Deadline deadline;  // checked every Newton iteration: time_limit with the iterate so far
};

class ContactBlockSystem;

// What Newton keeps from one call to the next (speed only: an empty one gives the same answer
// up to rounding): the block system of the last problem, taken again while W's and G's sparsity
// patterns are the same, with its KLU analysis and last pivots (contact_block_system.h). Copies
// start empty.
struct NonsmoothNewtonWorkspace {
  std::unique_ptr<ContactBlockSystem> system;
  // Newton's vectors and Jacobian blocks, sized by the first solve of a size and reused.
  Eigen::VectorXd r, rho, u, G, G_trial, trial, step, rhs, q_k;
  std::vector<Eigen::Matrix3d> left, right;
  FrictionContactCertificate certificate;
  // The result of the caller's solve, kept for its storage (the cone formulation's step).
  FrictionContactResult result;
  NonsmoothNewtonWorkspace();
  ~NonsmoothNewtonWorkspace();
  NonsmoothNewtonWorkspace(const NonsmoothNewtonWorkspace&);
  NonsmoothNewtonWorkspace& operator=(const NonsmoothNewtonWorkspace&);
  NonsmoothNewtonWorkspace(NonsmoothNewtonWorkspace&&) noexcept;
  NonsmoothNewtonWorkspace& operator=(NonsmoothNewtonWorkspace&&) noexcept;
};

FrictionContactResult SolveNonsmoothNewton(const FrictionContactProblem& problem,
                                           const NonsmoothNewtonParams& params = {},
                                           const Eigen::VectorXd& warm_start = {},
                                           NonsmoothNewtonWorkspace* workspace = nullptr);
// The same into `result`, whose storage is reused: with a workspace, a solve of a size already
// seen allocates nothing.
void SolveNonsmoothNewton(const FrictionContactProblem& problem,
                          const NonsmoothNewtonParams& params, const Eigen::VectorXd& warm_start,
                          NonsmoothNewtonWorkspace* workspace, FrictionContactResult& result);

}  // namespace coulomb
