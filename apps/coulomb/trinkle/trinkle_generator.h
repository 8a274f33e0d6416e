#pragma once
// Random, physically meaningful instances of paper 1's problem (docs/notes/complementarity.md
// §6.1), deterministic by seed, for the Table 1–4 study.
//
// A geometry is a stack of boxes on the ground (box on ground, box on box), optionally pushed
// against a wall and grasped by two fingertips of a grounded arm (revolute chains whose mass
// matrix is assembled from link masses, as CRBA would), or a capsule resting on two supports.
// Each interface carries its corners and extra points of the same face, so the contact
// Jacobian is column-rank deficient on purpose. Velocities satisfy eq. (7)–(8): they are drawn in
// the null space of every normal row and of the tangential rows of the interfaces chosen to
// roll; the other contacts slide (S = {‖v_T‖ > 1e-6}).

#include <cstdint>
#include <optional>
#include <string>

#include "apps/coulomb/trinkle/trinkle_problem.h"
#include "coulomb/complementarity/friction_contact_problem.h"
#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb::trinkle {

struct GeneratorRequest {
  int num_sliding = 0;  // n_S wanted
  int num_rolling = 1;  // n_R wanted; the LCP size is n_S + 5 n_R
  int num_bodies = 0;   // 0: choose from the contact count (1..6)
  bool allow_arm = true;
  bool allow_wall = true;
};

struct GeneratedProblem {
  TrinkleProblem problem;   // μ = 0.5 everywhere; use WithFriction() for a sweep
  std::string description;  // e.g. "3 boxes, wall, arm(4 dof)"
  int num_bodies = 0;
  int num_sliding = 0, num_rolling = 0;
  int jacobian_rank = 0;  // rank of G (columns: contact components)
  int attempts = 0;       // seeds tried before the request was met
};

// Tries seeds derived from `seed` until the classified (n_S, n_R) equals the request (at most
// `max_attempts`); nothing when it cannot.
std::optional<GeneratedProblem> GenerateTrinkleProblem(const GeneratorRequest& request,
                                                       std::uint64_t seed, int max_attempts = 200);

// The same problem with μ at every contact (paper 1's sweep), μ_τ scaled alike for soft fingers.
TrinkleProblem WithFriction(const TrinkleProblem& problem, double mu);

// The velocity-level Stewart–Trinkle LCP of the same state (docs/notes/complementarity.md §4,
// §6.1): one step of size h with d friction directions per contact, from the Delassus matrix of the
// same bodies.
LcpProblem MakeVelocityLevelLcp(const TrinkleProblem& problem, double h, int directions);

// The local frictional-contact problem (FCLib's convention, normal first, u = W r + q) of the
// same state for one step h: the impulse-level form, for the cone solvers and FCLib files.
FrictionContactProblem MakeFrictionContactProblem(const TrinkleProblem& problem, double h);

}  // namespace coulomb::trinkle
