#include "apps/coulomb/trinkle/trinkle_solver.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "apps/coulomb/trinkle/trinkle_system.h"

namespace coulomb::trinkle {

std::vector<ContactState> ClassifyContacts(const TrinkleProblem& problem, const TrinkleSystem& s,
                                           double velocity_tolerance) {
  std::vector<ContactState> states(problem.contacts.size());
  for (std::size_t j = 0; j < problem.contacts.size(); ++j) {
    const int k = s.offset[j];
    const Eigen::Vector2d vT(s.contact_velocity[k + 1], s.contact_velocity[k + 2]);
    if (vT.norm() > velocity_tolerance) {
      states[j].translation = SlipState::kSliding;
      states[j].slip_direction = vT.normalized();
    }
    if (problem.contacts[j].soft_finger()) {
      states[j].spinning = std::abs(s.contact_velocity[k + 3]) > velocity_tolerance;
    }
  }
  return states;
}

namespace {

using FacetSets = std::vector<std::vector<Eigen::Vector2d>>;  // per contact (rolling ones used)

// The layout of eq. (37)–(39): normals of sliding contacts first, then rolling ones (the paper's
// z = (c_Sn, c_Rn, ...)); sliding friction eliminated; one friction group per rolling contact
// (and per non-spinning soft finger).
ContactLcpLayout MakeLayout(const TrinkleProblem& problem, const TrinkleSystem& s,
                            const std::vector<ContactState>& states, const FacetSets& facets) {
  ContactLcpLayout layout;
  layout.num_components = s.num_components;
  for (const SlipState wanted : {SlipState::kSliding, SlipState::kRolling}) {
    for (std::size_t j = 0; j < states.size(); ++j) {
      if (states[j].translation == wanted) layout.unilateral.push_back(s.offset[j]);
    }
  }
  if (problem.frictionless) return layout;  // friction components stay 0
  for (std::size_t j = 0; j < states.size(); ++j) {
    const TrinkleContact& c = problem.contacts[j];
    const int k = s.offset[j];
    if (states[j].translation == SlipState::kSliding) {
      for (int d = 0; d < 2; ++d) {  // eq. (12): c_T = −μ c_n v_T / ‖v_T‖
        layout.eliminated.push_back({k + 1 + d, k, -c.mu * states[j].slip_direction[d]});
      }
    } else {
      layout.groups.push_back({{k + 1, k + 2}, k, c.mu, facets[j]});
    }
    if (c.soft_finger()) {
      if (states[j].spinning) {  // §2.5: c_τ = −sgn(φ̇) μ_τ c_n
        const double spin = s.contact_velocity[k + 3];
        layout.eliminated.push_back({k + 3, k, spin > 0 ? -c.mu_torsion : c.mu_torsion});
      } else {
        layout.groups.push_back({{k + 3}, k, c.mu_torsion, SquareFacets(1)});
      }
    }
  }
  return layout;
}

// The LCP of eq. (37)–(39) for given contact states and polygons, with the affine map a = A c + b
// it was built from (A, b cover the quasistatic u± components too). `ok` is false when the mass
// matrix of the free dofs is not positive definite.
struct AssembledLcp {
  ContactLcp lcp;
  Eigen::MatrixXd A;
  Eigen::VectorXd b;
  bool ok = true;
};

AssembledLcp AssembleLcp(const TrinkleProblem& problem, const TrinkleSystem& s,
                         const std::vector<ContactState>& states, const FacetSets& facets) {
  AssembledLcp out;
  ContactLcpLayout layout = MakeLayout(problem, s, states, facets);
  const int m = s.num_components;
  if (problem.variant == TrinkleVariant::kQuasistatic) {
    // §2.5: with M q̈ = 0 the body accelerations u̇ are free. Split u̇ = u⁻ − u⁺ and pair u±
    // with ±(G c + f): both ≥ 0 forces G c + f = 0 exactly, and a = Gᵀ u̇ + κ. This sign makes
    // the (c, u) block skew-symmetric, hence monotone, the structure Lemke processes.
    const int n = s.num_dofs;
    out.A = Eigen::MatrixXd::Zero(m + 2 * n, m + 2 * n);
    out.b = Eigen::VectorXd::Zero(m + 2 * n);
    out.A.block(0, m, m, n) = -s.G.transpose();
    out.A.block(0, m + n, m, n) = s.G.transpose();
    out.A.block(m, 0, n, m) = s.G;
    out.A.block(m + n, 0, n, m) = -s.G;
    out.b.head(m) = s.bias;
    out.b.segment(m, n) = s.force;
    out.b.tail(n) = -s.force;
    layout.num_components = m + 2 * n;
    for (int i = 0; i < 2 * n; ++i) layout.unilateral.push_back(m + i);
  } else {
    const ContactDynamics dyn = ComputeContactDynamics(s);
    if (!dyn.ok) {
      out.ok = false;
      return out;
    }
    out.A = dyn.A;
    out.b = dyn.b;
  }
  out.lcp = BuildContactLcp(out.A, out.b, layout);
  return out;
}

// Solves one LCP for the given facets and fills everything but the check.
TrinkleSolution SolveLayout(const TrinkleProblem& problem, const TrinkleSystem& s,
                            const std::vector<ContactState>& states, const FacetSets& facets,
                            const TrinkleParams& params) {
  TrinkleSolution sol;
  sol.states = states;
  for (const ContactState& st : states) {
    (st.translation == SlipState::kSliding ? sol.num_sliding : sol.num_rolling) += 1;
  }
  const int m = s.num_components;
  AssembledLcp assembled = AssembleLcp(problem, s, states, facets);
  if (!assembled.ok) {
    sol.status = LcpStatus::kBadInput;
    sol.message =
        "the mass matrix of the bodies with unknown acceleration is not positive definite";
    return sol;
  }
  const Eigen::MatrixXd& A = assembled.A;
  const Eigen::VectorXd& b = assembled.b;
  sol.lcp = std::move(assembled.lcp);
  sol.lcp.lcp.name = fmt::format("trinkle(nS={}, nR={})", sol.num_sliding, sol.num_rolling);
  sol.lcp_result = SolveLcp(sol.lcp.lcp, params.solver, params.settings);
  sol.status = sol.lcp_result.status;
  sol.message = sol.lcp_result.message;
  const Eigen::VectorXd z = sol.lcp_result.z.size() == sol.lcp.lcp.size()
                                ? sol.lcp_result.z
                                : Eigen::VectorXd::Zero(sol.lcp.lcp.size());
  const Eigen::VectorXd all_forces = sol.lcp.force_map * z;
  const Eigen::VectorXd all_accelerations = A * all_forces + b;
  sol.forces = all_forces.head(m);
  sol.contact_acceleration = all_accelerations.head(m);
  if (problem.variant == TrinkleVariant::kQuasistatic) {
    const int n = s.num_dofs;
    sol.acceleration = all_forces.tail(n) - all_forces.segment(m, n);
    if (problem.manipulator) sol.joint_effort = problem.manipulator->effort;
  } else {
    const MotionRecovery motion = RecoverMotion(problem, s, sol.forces);
    sol.acceleration = motion.acceleration;
    sol.joint_effort = motion.joint_effort;
  }
  return sol;
}

double MaxConeRatio(const TrinkleProblem& problem, const TrinkleSystem& s,
                    const TrinkleSolution& sol, std::vector<int>* outside, double tolerance) {
  double worst = 0;
  for (std::size_t j = 0; j < problem.contacts.size(); ++j) {
    const TrinkleContact& c = problem.contacts[j];
    if (sol.states[j].translation != SlipState::kRolling || problem.frictionless) continue;
    const int k = s.offset[j];
    const double tangential = Eigen::Vector2d(sol.forces[k + 1], sol.forces[k + 2]).norm();
    const double bound = c.mu * sol.forces[k];
    // Round-off friction at a released contact (c_n = 0) is not a cone violation.
    if (tangential <= 1e-12 * (1.0 + sol.forces.lpNorm<Eigen::Infinity>())) continue;
    const double ratio = bound > 0 ? tangential / bound : INFINITY;
    worst = std::max(worst, ratio);
    if (outside != nullptr && ratio > 1.0 + tolerance) outside->push_back(static_cast<int>(j));
  }
  return worst;
}

// Appends facet d unless the polygon already has one within 1e-12 rad of it (a repeated facet
// would make the LCP degenerate without refining anything).
bool AddFacet(std::vector<Eigen::Vector2d>& facets, const Eigen::Vector2d& d) {
  for (const Eigen::Vector2d& f : facets) {
    if ((f - d).norm() < 1e-12) return false;
  }
  facets.push_back(d);
  return true;
}

void Finish(const TrinkleProblem& problem, const TrinkleSystem& s, const CheckOptions& options,
            TrinkleSolution& sol) {
  if (sol.status != LcpStatus::kSolved) return;
  sol.check = CheckTrinkleSolution(problem, s, sol, options);
  if (!sol.check.ok) {
    sol.status = LcpStatus::kInaccurate;
    sol.message = "model check failed:\n" + sol.check.Summary();
  }
}

TrinkleSolution BadInput(std::string reason) {
  TrinkleSolution bad;
  bad.status = LcpStatus::kBadInput;
  bad.message = std::move(reason);
  return bad;
}

}  // namespace

ContactLcp BuildTrinkleLcp(const TrinkleProblem& problem, const TrinkleParams& params) {
  if (!ValidateTrinkleProblem(problem).empty()) return {};
  const TrinkleSystem s = BuildTrinkleSystem(problem);
  const auto states = ClassifyContacts(problem, s, params.velocity_tolerance);
  const std::vector<Eigen::Vector2d> polygon =
      params.facets == 4 ? SquareFacets(2) : RegularFacets(std::max(3, params.facets));
  return AssembleLcp(problem, s, states, FacetSets(states.size(), polygon)).lcp;
}

TrinkleSolution SolveTrinkle(const TrinkleProblem& problem, const TrinkleParams& params) {
  if (const std::string defect = ValidateTrinkleProblem(problem); !defect.empty()) {
    return BadInput(defect);
  }
  const TrinkleSystem s = BuildTrinkleSystem(problem);
  const auto states = ClassifyContacts(problem, s, params.velocity_tolerance);
  const std::vector<Eigen::Vector2d> polygon =
      params.facets == 4 ? SquareFacets(2) : RegularFacets(std::max(3, params.facets));
  TrinkleSolution sol = SolveLayout(problem, s, states, FacetSets(states.size(), polygon), params);
  sol.max_cone_ratio = MaxConeRatio(problem, s, sol, nullptr, 0);
  CheckOptions options = params.check;
  options.velocity_tolerance = params.velocity_tolerance;
  options.cone_model = params.facets != 4;  // the pyramid equations (17)–(20) are the square's
  Finish(problem, s, options, sol);
  return sol;
}

TrinkleSolution SolveTrinkleCone(const TrinkleProblem& problem, const TrinkleParams& params,
                                 const ConeRefinementParams& refinement) {
  if (const std::string defect = ValidateTrinkleProblem(problem); !defect.empty()) {
    return BadInput(defect);
  }
  const TrinkleSystem s = BuildTrinkleSystem(problem);
  const auto states = ClassifyContacts(problem, s, params.velocity_tolerance);
  FacetSets facets(states.size(), SquareFacets(2));
  TrinkleSolution sol;
  for (int round = 0;; ++round) {
    sol = SolveLayout(problem, s, states, facets, params);
    sol.refinements = round;
    if (sol.status != LcpStatus::kSolved) break;
    std::vector<int> outside;
    sol.max_cone_ratio = MaxConeRatio(problem, s, sol, &outside, refinement.cone_tolerance);
    if (outside.empty()) break;
    if (round == refinement.max_rounds) {
      sol.status = LcpStatus::kIterationLimit;
      sol.message = fmt::format("cone refinement: {} rounds, max ‖c_T‖/(μ c_n) = {:.6f}", round,
                                sol.max_cone_ratio);
      return sol;
    }
    // Cutting planes tangent to the cone, at most two per violating contact and round:
    //  * in the direction of the offending force, which cuts the current answer off; the
    //    angular gap to the cone's tangent point halves each round;
    //  * at −â_T where the contact accelerates tangentially: eq. (13) wants the force at
    //    −μ c_n â_T, the tangent point of exactly this facet.
    bool added = false;
    for (int j : outside) {
      const int k = s.offset[j];
      const Eigen::Vector2d force(sol.forces[k + 1], sol.forces[k + 2]);
      const Eigen::Vector2d slip(sol.contact_acceleration[k + 1], sol.contact_acceleration[k + 2]);
      const double scale = 1.0 + sol.contact_acceleration.lpNorm<Eigen::Infinity>();
      added = AddFacet(facets[j], force.normalized()) || added;
      if (slip.norm() > 1e-9 * scale) added = AddFacet(facets[j], -slip.normalized()) || added;
    }
    // Every cut already present: the polygon is as fine as double precision resolves; accept
    // the answer with the ratio it reached (the checker's tolerance follows it).
    if (!added) break;
  }
  CheckOptions options = params.check;
  options.velocity_tolerance = params.velocity_tolerance;
  options.cone_model = true;
  // A force within ratio 1 + ε of the cone can point up to √(2ε) rad away from −â_T (it sits at
  // a polygon vertex next to the tangent point), so eq. (13) holds to that accuracy.
  const double reached = std::max(refinement.cone_tolerance, sol.max_cone_ratio - 1.0);
  options.tolerance = std::max(options.tolerance, std::sqrt(2 * reached));
  Finish(problem, s, options, sol);
  return sol;
}

}  // namespace coulomb::trinkle
