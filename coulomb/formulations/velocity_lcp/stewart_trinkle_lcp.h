#pragma once
// The velocity-level LCP of Stewart–Trinkle / Anitescu–Potra (docs/notes/complementarity.md §4)
// from a local contact problem u = W r + q in normal-first frames (FCLib's convention):
//   z = (p_n, β, λ),  w = (u_n, λ e + Dᵀ u, μ p_n − eᵀ β),
// with d friction directions per contact spanning the tangent plane (an inscribed polygon).
// Size n_c (d + 2). Lemke processes it for every μ ≥ 0 (Anitescu–Potra).

#include <Eigen/Dense>
#include <vector>

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

// The complementary basis (which of z = (p_n, β, λ) are positive, as SolveComplementaryBasis takes
// it) that impulses `impulses` (3 n_c in (n, t, o), e.g. last step's, re-expressed in this step's
// frames) would have: a pressed contact has p_n in it; its tangential impulse, written on the two
// pyramid directions around it, puts those β that it leans on in it (one edge of the pyramid, or
// two when the impulse lies between them); a contact whose Σβ reaches μ p_n slides, which puts λ
// in it. A guess only: the caller
// certifies what the basis gives. `z` gets the impulses as LCP unknowns (λ = 0): the point a
// singular basis (a box on four corners) is re-solved nearest to.
void GuessStewartTrinkleBasis(const Eigen::VectorXd& impulses, const Eigen::VectorXd& mu,
                              int directions, std::vector<char>& guess, Eigen::VectorXd& z);

// A contact without friction impulse (Σβ = 0: separating, frictionless, or pressed by nothing
// but rounding) and λ = 0 still has to meet w_j = D_jᵀ u_T + λ ≥ 0: its λ is the slip speed
// max(0, −min_j D_jᵀ u_T), which changes no other unknown's row (λ enters only its own β rows).
// Sets it for every such contact of the LCP's answer `z`; `w` is scratch (M z + q before).
void CompleteSlipSpeeds(const LcpProblem& lcp, int num_contacts, int directions, Eigen::VectorXd& z,
                        Eigen::VectorXd& w);

}  // namespace coulomb
