#pragma once
// The acceptance test for an LCP answer (docs/notes/complementarity.md §6.3), computed on the
// original, unscaled data so that no solver can certify itself through its own scaling.

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

// Default acceptance threshold for pivoting methods and polished interior-point answers.
inline constexpr double kLcpCertifyTolerance = 1e-10;

struct LcpCertificate {
  // ‖min(z, w)‖∞ / (1 + ‖q‖∞): the normalized natural residual, zero exactly at solutions.
  double natural_residual = 0;
  // max(0, −min z) and max(0, −min w), both divided by (1 + ‖q‖∞).
  double z_infeasibility = 0;
  double w_infeasibility = 0;
  // max |z_i w_i| / ((1 + ‖z‖∞)(1 + ‖w‖∞)).
  double complementarity = 0;
  // z^T w / n (unnormalized average gap; reported, not used for acceptance).
  double mean_gap = 0;
  // False when z or w has a NaN or infinite entry; such an answer never passes.
  bool finite = false;

  // Largest of the four normalized measures (infinity when not finite).
  double Worst() const;
  bool Passes(double tolerance = kLcpCertifyTolerance) const;
};

// Certifies z for LCP(q, M). w = M z + q is accumulated in long double. When w_out is
// given it receives that w (rounded to double).
LcpCertificate CertifyLcp(const LcpProblem& problem, const Eigen::VectorXd& z,
                          Eigen::VectorXd* w_out = nullptr);

}  // namespace coulomb
