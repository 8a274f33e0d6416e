#pragma once
// The one-contact problem FC(W, q, μ) with W 3 × 3: the local solver of NSGS.
//
// It is solved exactly by enumerating Coulomb's three regimes instead of by a local Newton
// method, because ABH (docs/notes/complementarity.md §3.3) found NSGS failures on hard 3 × 3
// problems come from the local Newton solver; here every candidate is checked against the law
// itself:
//   separation  r = 0,            valid when u_N = q_N ≥ 0;
//   sticking    u = 0,            r = −W⁻¹ q, valid when r ∈ K_μ;
//   sliding     u_N = 0, r = r_N (1, −μ d), u_T = α d with α ≥ 0 and d = (cos θ, sin θ):
//               r_N(θ) = −q_N / (W_NN − μ W_NT d) and the scalar equation u_T(θ) × d(θ) = 0,
//               whose roots are bracketed on a grid of θ and refined by bisection.

#include <Eigen/Dense>

namespace coulomb {

enum class ContactRegime { kSeparated, kSticking, kSliding, kFallback };

struct SingleContactSolution {
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  ContactRegime regime = ContactRegime::kSeparated;
};

// `previous` orders the sliding candidates (the closest to it wins when several exist) and
// seeds the projected fixed point used only if no regime yields a solution.
SingleContactSolution SolveSingleContact(const Eigen::Matrix3d& W, const Eigen::Vector3d& q,
                                         double mu, const Eigen::Vector3d& previous);

// W with what every solve on it needs, computed once: Gauss–Seidel solves the same contact's
// problem with a new q at every sweep.
struct LocalDelassus {
  Eigen::Matrix3d W = Eigen::Matrix3d::Zero();
  Eigen::Matrix3d W_inverse = Eigen::Matrix3d::Zero();  // when `invertible`
  bool invertible = false;  // positive definite with a positive diagonal: sticking is r = −W⁻¹ q
};
LocalDelassus MakeLocalDelassus(const Eigen::Matrix3d& W);
SingleContactSolution SolveSingleContact(const LocalDelassus& W, const Eigen::Vector3d& q,
                                         double mu, const Eigen::Vector3d& previous);

}  // namespace coulomb
