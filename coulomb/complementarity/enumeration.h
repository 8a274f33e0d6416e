#pragma once
// Exhaustive enumeration of complementary bases for small LCPs (n ≤ 20): the ground truth for
// tests and for questions of existence and multiplicity (paper 1 §6 did not know which of its
// unsolved instances had solutions; docs/notes/complementarity.md §6.2).
//
// For every index set α ⊆ {1..n}: solve M_αα z_α = −q_α, set z_ᾱ = 0, keep z if z ≥ 0 and
// w = M z + q ≥ 0 (within `feasibility_tolerance`). Every solution whose support has a
// nonsingular principal block is found. When a block is singular but consistent, the solution
// set is an affine continuum: its minimum-norm point is kept if feasible, otherwise a linear
// program over the continuum (margin_lp.h) finds a feasible point or proves there is none. Only
// a block that LP cannot decide (its pivot cap) counts as undecided, and then "no solution" is no
// longer a proof (exhaustive = false).

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"

namespace coulomb {

struct EnumerationParams {
  int max_size = 20;                    // 2^n bases: 20 is about a million small solves
  double feasibility_tolerance = 1e-9;  // relative to 1 + ‖q‖∞
  double acceptance_tolerance = kLcpCertifyTolerance;
};

struct LcpEnumeration {
  LcpStatus status = LcpStatus::kBadInput;  // kSolved (≥ 1 solution), kNoSolution, kStalled
  std::vector<Eigen::VectorXd> solutions;   // distinct solutions (up to 1e-8 relative)
  bool exhaustive = true;                   // false when some singular block was undecided
  bool has_continuum = false;               // a consistent singular block held a solution
  std::int64_t bases_checked = 0;
  int undecided_blocks = 0;
  double seconds = 0;
  std::string message;
};

LcpEnumeration EnumerateLcpSolutions(const LcpProblem& problem,
                                     const EnumerationParams& params = {});

// The enumeration as an ordinary solver: returns the best-certified solution, kNoSolution when
// the enumeration proves there is none, and kStalled when it cannot decide.
LcpResult SolveEnumeration(const LcpProblem& problem, const EnumerationParams& params = {});

}  // namespace coulomb
