#pragma once
// Random LCPs with known structure, deterministic by seed, for tests and benchmarks.
//
// Matrix classes (docs/notes/complementarity.md §1.5): P-matrix, symmetric PSD (rank deficient,
// with a planted solution so one exists), strictly copositive (copositive-plus, not P0 in general).
// Contact-structured LCPs from a random multibody contact system: the velocity-level
// Stewart–Trinkle/Anitescu–Potra LCP (§4) and paper 1's acceleration-level pyramid LCP
// (eqs. 37–39, §0), both including deliberately redundant contacts (boxes resting on 4 corners).

#include <Eigen/Dense>
#include <cstdint>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb::testing {

LcpProblem MakePMatrixLcp(int n, std::uint64_t seed);
// M = B Bᵀ with B n×rank; q = w* − M z* for a planted complementary pair (z*, w*) ≥ 0.
LcpProblem MakeSymmetricPsdLcp(int n, int rank, std::uint64_t seed);
// M = N + S with N ≥ 0 (positive diagonal) and S skew: xᵀMx > 0 for x ≥ 0, x ≠ 0.
LcpProblem MakeStrictlyCopositiveLcp(int n, std::uint64_t seed);
// Symmetric positive definite with a strictly dominant diagonal (PGS converges).
LcpProblem MakeDiagonallyDominantLcp(int n, std::uint64_t seed);

// A random set of rigid bodies touching the ground and each other.
struct RandomContactSystem {
  int num_contacts = 0;
  Eigen::MatrixXd delassus;  // 3nc × 3nc, J M⁻¹ Jᵀ, rows (n, t, o) per contact
  Eigen::VectorXd velocity;  // 3nc contact-frame free velocity J v*
  Eigen::VectorXd accel;     // 3nc contact-frame acceleration of the free motion J M⁻¹ f
};
RandomContactSystem MakeRandomContactSystem(int num_contacts, std::uint64_t seed);

// Velocity-level LCP with d friction directions: size nc (d + 2).
LcpProblem MakeStewartTrinkleLcp(const RandomContactSystem& system, int directions, double mu);
// Paper 1's pyramid LCP with the first `num_sliding` contacts sliding in random directions:
// size n_S + 5 n_R.
LcpProblem MakeTrinklePyramidLcp(const RandomContactSystem& system, int num_sliding, double mu,
                                 std::uint64_t seed);

}  // namespace coulomb::testing
