#pragma once
// Paper 1's friction-pyramid LCP (eqs. 35–39), generalized to any friction polygon.
//
// Input: the affine map a = A c + b from contact force components to contact accelerations and
// a layout saying what each component is:
//  * unilateral: c_i ≥ 0 ⊥ a_i ≥ 0 (normals; also the split free variables of the quasistatic
//    problem);
//  * eliminated: c_i = κ_i c_n(i), a known multiple of a normal, with a_i unconstrained (the
//    friction of sliding contacts, eq. 12 / 27–28, and of spinning soft fingers);
//  * a friction group: 1 or 2 components c_T (tangential pair, or the torsion of a soft finger)
//    bounded by a polygon P = {c_T : d_kᵀ c_T ≤ μ c_n} (outward unit normals d_k, K facets) and
//    obeying maximum dissipation a_T = −Σ λ_k d_k, 0 ≤ λ_k ⊥ s_k = μ c_n − d_kᵀ c_T ≥ 0
//    (eq. 17–18 for the square, with λ the paper's a⁺/a⁻ and s its s⁺/s⁻).
// The free c_T is parametrized by the slacks of the group's first g facets ("pair"):
// c_T = D_P⁻¹(μ c_n e − s_P). The LCP is then
//   z = (c_unilateral, s_P of every group, λ of the other facets),
//   w = (a_unilateral, λ_P,                  s of the other facets).
// With the paper's square (facets −t, −o, +t, +o) this is exactly eq. (37)–(39):
// z = (c_Sn, c_Rn, s⁺_Rt, s⁺_Ro, a⁻_Rt, a⁻_Ro), w = (a_Sn, a_Rn, a⁺_Rt, a⁺_Ro, s⁻_Rt, s⁻_Ro),
// of size n_S + 5 n_R, in the paper's order.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb::trinkle {

struct FrictionGroup {
  std::vector<int> components;          // 1 or 2 force components (t, o) or (τ)
  int normal = 0;                       // the unilateral normal component it is bounded by
  double mu = 0;                        // μ (or μ_τ)
  std::vector<Eigen::Vector2d> facets;  // outward unit normals in (t, o) coordinates (x only if 1D)
};

// The paper's square pyramid (eq. 17) for a 2D group, or ±1 for a 1D (torsion) group.
std::vector<Eigen::Vector2d> SquareFacets(int dimension);
void SetSquareFacets(int dimension, std::vector<Eigen::Vector2d>& facets);  // into kept storage
// A regular K-gon circumscribing the friction disk, first facets −t and (nearly) −o.
std::vector<Eigen::Vector2d> RegularFacets(int count);

struct EliminatedComponent {
  int component = 0;
  int normal = 0;
  double coefficient = 0;  // c_component = coefficient · c_normal
};

struct ContactLcpLayout {
  int num_components = 0;
  std::vector<int> unilateral;  // in LCP order
  std::vector<EliminatedComponent> eliminated;
  std::vector<FrictionGroup> groups;
};

struct ContactLcp {
  LcpProblem lcp;
  ContactLcpLayout layout;
  Eigen::MatrixXd force_map;  // c = force_map · z (every component, eliminated ones included)
  // Position in z / w of each group's pair slacks (s_P) and other-facet multipliers (λ_O).
  std::vector<std::vector<int>> pair_index, other_index;
};

ContactLcp BuildContactLcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                           const ContactLcpLayout& layout);
// What BuildContactLcp works in, kept by callers that build one LCP after another.
struct ContactLcpScratch {
  std::vector<int> unilateral_z;  // z index of each unilateral component
  // D_P⁻¹ per group (at most 2 × 2: its values never reach the heap).
  std::vector<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 2, 2>> pair_inverse;
  Eigen::MatrixXd APhi;  // A Φ
};
// The same into `out` (storage reused).
void BuildContactLcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                     const ContactLcpLayout& layout, ContactLcpScratch& scratch, ContactLcp& out);

// The facet multipliers λ of group g (all K facets, the pair's read from w) for an answer.
Eigen::VectorXd FacetMultipliers(const ContactLcp& lcp, int group, const Eigen::VectorXd& z,
                                 const Eigen::VectorXd& w);

// The complementary basis (which z are positive, as SolveComplementaryBasis takes it) that contact
// forces `c` (every component, e.g. last step's) would have in `lcp`: a
// pressed normal is in it; a group's pair slacks s_P where their facet is not reached, and its
// other facets' multipliers λ_O where it is (a sliding or limit-sticking contact). `z` gets `c` as
// the LCP's unknowns (λ = 0): the point a singular basis is re-solved nearest to. A guess only:
// the caller certifies what the basis gives.
void GuessContactLcpBasis(const ContactLcp& lcp, const Eigen::VectorXd& c, std::vector<char>& guess,
                          Eigen::VectorXd& z);

}  // namespace coulomb::trinkle
