#pragma once
// One contact's Stewart–Trinkle pyramid LCP (docs/notes/complementarity.md §4), the local
// problem of the velocity LCP's Gauss–Seidel sweeps: with the other contacts frozen into
// u = W r + q, find z = (p_n, β₁…β_d, λ) ≥ 0 with
//   w_n = u_n ⊥ p_n,   w_j = D_jᵀ u_T + λ ⊥ β_j,   w_λ = μ p_n − Σ β_j ⊥ λ,
// D_j = (cos 2πj/d, sin 2πj/d): the friction polygon inscribed in the cone, λ the slip speed.

#include <Eigen/Dense>
#include <array>

#include "coulomb/complementarity/single_contact_solver.h"

namespace coulomb {

inline constexpr int kMaxPyramidDirections = 10;

struct PyramidDirections {
  int count = 4;
  std::array<Eigen::Vector2d, kMaxPyramidDirections> direction;
};
// The d directions D_j; d in [3, kMaxPyramidDirections].
PyramidDirections MakePyramidDirections(int d);

// Solves the local LCP of W (3 × 3, with its inverse) and q exactly into z (d + 2 values):
// separation and sticking in closed form, sliding by Lemke (small_lemke.h); false when Lemke
// ends on a ray (z untouched).
bool SolvePyramidContact(const LocalDelassus& W, const Eigen::Vector3d& q, double mu,
                         const PyramidDirections& directions, double* z);
// The sliding answer (p_n > 0, λ ≥ 0, Σ β = μ p_n) of the same LCP in closed form, for q_n < 0
// and μ > 0: friction on one edge D_j of the pyramid (r = p_n (1, μ D_j)) or on the face between
// two neighbouring edges, whose β split makes the slip equally opposed to both. The edges and
// faces nearest the tangential direction `toward` are tried first. False when none is the answer
// to rounding (z then partly written).
bool SolvePyramidSliding(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                         const Eigen::Vector2d& toward, const PyramidDirections& directions,
                         double* z);
// z's (n, t, o) impulse.
Eigen::Vector3d PyramidContactImpulse(const double* z, const PyramidDirections& directions);
// max_i |min(z_i, w_i)| of z against the contact velocity u: the LCP's natural residual.
double PyramidNaturalResidual(const double* z, const Eigen::Vector3d& u, double mu,
                              const PyramidDirections& directions);

}  // namespace coulomb
