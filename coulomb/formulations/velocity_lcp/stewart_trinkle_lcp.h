#pragma once
// The velocity-level LCP of Stewart–Trinkle / Anitescu–Potra (docs/notes/complementarity.md §4)
// from a local contact problem u = W r + q in normal-first frames (FCLib's convention):
//   z = (p_n, β, λ),  w = (u_n, λ e + Dᵀ u, μ p_n − eᵀ β),
// with d friction directions per contact spanning the tangent plane (an inscribed polygon).
// Size n_c (d + 2). Lemke processes it for every μ ≥ 0 (Anitescu–Potra).

#include <Eigen/Dense>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

// W: 3 n_c × 3 n_c Delassus matrix, q: 3 n_c free velocity, mu: n_c, directions ≥ 3.
LcpProblem MakeStewartTrinkleLcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& q,
                                 const Eigen::VectorXd& mu, int directions);
// The same into `lcp` (storage reused), with `gw` as scratch for G W: no allocation once the
// sizes have been seen.
void MakeStewartTrinkleLcp(const Eigen::MatrixXd& W, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& mu, int directions, Eigen::MatrixXd& gw,
                           LcpProblem& lcp);

}  // namespace coulomb
