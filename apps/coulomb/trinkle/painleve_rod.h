#pragma once
// The Lötstedt/Painlevé rod (paper 1 §1.2, §2.5): a uniform rod of mass m and half-length l
// leaning at angle θ on the ground with one end, that end sliding. At the acceleration level the
// contact is a single sliding contact, so paper 1's LCP is 1 × 1: a_n = k c_n + b. When the end
// slides away from the rod's upper end, k = (1/m)(1 + 3 cos²θ − 3 μ sin θ cos θ) can be negative
// (only for μ > 4/3, the minimum over θ of (1/3 + cos²θ)/(sin θ cos θ)); then the problem has
// no solution (b < 0) or two (b > 0). b = −g + ω² l sin θ includes the centripetal term of a
// rotating rod. This module builds the rod as a TrinkleProblem and counts the solutions of its
// LCP by enumeration, so the map over (μ, θ) can be compared with the closed form.

#include "apps/coulomb/trinkle/trinkle_problem.h"

namespace coulomb::trinkle {

struct RodState {
  double mu = 0.5;
  double angle = 0.5;          // θ in (0, π/2), rad, between the rod and the ground
  double angular_speed = 0.0;  // ω about the horizontal axis ⊥ to the rod, rad/s
  double mass = 1.0;           // kg
  double half_length = 0.5;    // l, m
  double slip_speed = 1.0;     // m/s of the contact end, away from the upper end (Painlevé's case)
  double gravity = 9.81;       // m/s²
};

TrinkleProblem MakePainleveRod(const RodState& rod);

struct RodSolutionCount {
  int solutions = 0;       // distinct solutions of the acceleration-level LCP
  bool exhaustive = true;  // enumeration decided every basis
  double lcp_matrix = 0;   // the 1 × 1 LCP's M (k above), as built by the formulation
  double lcp_vector = 0;   // its q (b above)
};

RodSolutionCount CountRodSolutions(const RodState& rod);

}  // namespace coulomb::trinkle
