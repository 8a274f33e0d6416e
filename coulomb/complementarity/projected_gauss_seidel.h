#pragma once
// Projected Gauss–Seidel / SOR (docs/notes/complementarity.md §2.4): z_i ← max(0, z_i − ω (q_i +
// M_i· z) / M_ii). Converges for symmetric positive semidefinite M with a positive diagonal (and
// for some H-/P-matrices); it needs M_ii > 0 and returns kNotApplicable otherwise, which includes
// paper 1's LCP and the Stewart–Trinkle LCP (zero diagonals). Linear convergence: a fast,
// low-accuracy method; its answers carry the same certificate as everyone else's.

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"

namespace coulomb {

struct ProjectedGaussSeidelParams {
  double omega = 1.0;  // relaxation in (0, 2); 1 is Gauss–Seidel
  int max_sweeps = 20000;
  int check_every = 10;  // certificate evaluated every this many sweeps (costs a sweep)
  double acceptance_tolerance = kLcpCertifyTolerance;
};

// Starts from `start` (projected onto z ≥ 0) when given, else from z = 0.
LcpResult SolveProjectedGaussSeidel(const LcpProblem& problem,
                                    const ProjectedGaussSeidelParams& params = {},
                                    const Eigen::VectorXd* start = nullptr);

}  // namespace coulomb
