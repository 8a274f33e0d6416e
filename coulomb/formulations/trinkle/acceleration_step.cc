#include "coulomb/formulations/trinkle/acceleration_step.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "coulomb/base/stopwatch.h"
#include "coulomb/formulations/trinkle/polygonal_friction_lcp.h"
#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"

namespace coulomb {
namespace {

// Newton-restitution impact at the current configuration: no forces during the impact.
// Touching contacts get n·v⁺ ≥ −e n·v⁻ (their gap counts as zero). A speculative one stays out
// of the acceleration problem, so the applied forces still change its normal velocity by Δu_n
// after the impact: n·v⁺ ≥ −(φ + h Δu_n)/h lets it close its gap by the end of the step and
// no further.
// `du` = J (v* − v), the change of the contact velocities by the applied forces over the step.
ContactSolution ResolveImpact(const contact::ContactProblem& problem, const Eigen::VectorXd& du,
                              const AccelerationStepParams& params) {
  contact::ContactProblem impact = problem;
  impact.v_star = problem.v;
  for (Eigen::Index k = 0; k < impact.phi.size(); ++k) {
    impact.phi[k] = impact.phi[k] <= params.contact_distance
                        ? 0
                        : impact.phi[k] + problem.time_step * du[3 * k];
  }
  VelocityLcpParams velocity;
  velocity.position_correction = 1;
  velocity.solver = params.solver;
  velocity.settings = params.settings;
  return SolveVelocityLcp(impact, velocity);
}

// The acceleration-level LCP layout of the active contacts (components 3k, 3k+1, 3k+2):
// rolling contacts get the paper's square pyramid, sliding ones eq. (12).
trinkle::ContactLcpLayout MakeLayout(const Eigen::VectorXd& u, const Eigen::VectorXd& mu,
                                     const std::vector<bool>& rolling) {
  const int n = static_cast<int>(mu.size());
  trinkle::ContactLcpLayout layout;
  layout.num_components = 3 * n;
  for (int k = 0; k < n; ++k) layout.unilateral.push_back(3 * k);
  for (int k = 0; k < n; ++k) {
    const Eigen::Vector2d slip = u.segment<2>(3 * k + 1);
    if (!rolling[k]) {
      for (int d = 0; d < 2; ++d) {
        layout.eliminated.push_back({3 * k + 1 + d, 3 * k, -mu[k] * slip[d] / slip.norm()});
      }
    } else {
      layout.groups.push_back({{3 * k + 1, 3 * k + 2}, 3 * k, mu[k], trinkle::SquareFacets(2)});
    }
  }
  return layout;
}

struct AccelerationLcpAnswer {
  LcpResult result;
  Eigen::VectorXd c;          // 3 per active contact
  std::string solver_switch;  // non-empty when another solver than params.solver ran
};

bool IsPivoting(LcpSolverKind kind) {
  return kind == LcpSolverKind::kLemke || kind == LcpSolverKind::kEnumeration ||
         kind == LcpSolverKind::kPortfolio;
}

// Solves a = A c + b over the active contacts. A sliding contact whose slip would reverse within
// the step is re-classified as rolling and the problem solved again: the explicit step would
// otherwise chatter around the slip-to-roll transition. Rolling contacts also remove their
// residual slip over the step (b_T += u_T / h), bounded by the friction pyramid.
AccelerationLcpAnswer SolveAccelerationLcp(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                           const Eigen::VectorXd& u, const Eigen::VectorXd& mu,
                                           double h, const AccelerationStepParams& params) {
  const int n = static_cast<int>(mu.size());
  std::vector<bool> rolling(n);
  for (int k = 0; k < n; ++k) rolling[k] = u.segment<2>(3 * k + 1).norm() <= params.slip_speed;
  AccelerationLcpAnswer answer;
  for (int attempt = 0; attempt <= n; ++attempt) {
    Eigen::VectorXd bias = b;
    for (int k = 0; k < n; ++k) {
      if (rolling[k]) bias.segment<2>(3 * k + 1) += u.segment<2>(3 * k + 1) / h;
    }
    const trinkle::ContactLcp lcp = trinkle::BuildContactLcp(A, bias, MakeLayout(u, mu, rolling));
    const int previous_iterations = answer.result.iterations;
    LcpSolverKind kind = params.solver;
    if (IsPivoting(kind) && lcp.lcp.size() > params.max_pivoting_rows) {
      kind = LcpSolverKind::kMehrotra;
      answer.solver_switch = fmt::format(
          "{} acceleration LCP rows exceed solver.max_pivoting_rows = {} for {}: ipm ran instead",
          lcp.lcp.size(), params.max_pivoting_rows, ToString(params.solver));
    }
    answer.result = SolveLcp(lcp.lcp, kind, params.settings);
    answer.result.iterations += previous_iterations;
    if (!answer.result.solved()) return answer;
    answer.c = lcp.force_map * answer.result.z;
    const Eigen::VectorXd a = A * answer.c + bias;
    bool changed = false;
    for (int k = 0; k < n; ++k) {
      const Eigen::Vector2d slip = u.segment<2>(3 * k + 1);
      if (!rolling[k] && (slip + h * a.segment<2>(3 * k + 1)).dot(slip) < 0) {
        rolling[k] = changed = true;
      }
    }
    if (!changed) break;
  }
  return answer;
}

}  // namespace

ContactSolution SolveAccelerationStep(const contact::ContactProblem& problem,
                                      const AccelerationStepParams& params) {
  const Stopwatch clock;
  const int nc = problem.num_contacts();
  const double h = problem.time_step;
  ContactSolution out;
  out.status = LcpStatus::kSolved;
  out.impulses = Eigen::VectorXd::Zero(3 * nc);
  // f (applied minus bias and damping forces), recovered from the free motion v* = v + h M⁻¹ f.
  const Eigen::VectorXd f = problem.MultiplyMass(problem.v_star - problem.v) / h;
  Eigen::VectorXd v = problem.v;
  // 1. Impacts.
  Eigen::VectorXd u = problem.J * v;
  const Eigen::VectorXd du = problem.J * (problem.v_star - problem.v);  // by the applied forces
  bool impacting = false;
  const auto touching = [&](int k) { return problem.phi[k] <= params.contact_distance; };
  for (int k = 0; k < nc; ++k) {
    impacting = impacting || (touching(k) ? u[3 * k] < -params.impact_speed
                                          : problem.phi[k] + h * (u[3 * k] + du[3 * k]) < 0);
  }
  if (impacting) {
    const ContactSolution impact = ResolveImpact(problem, du, params);
    out.iterations += impact.iterations;
    if (!impact.ok()) {
      out.status = impact.status;
      out.message = "impact LCP: " + impact.message;
    }
    v = impact.v_next;
    out.impulses = impact.impulses;
    u = problem.J * v;
  }
  // 2. The acceleration problem of the persistent contacts: touching ones that free motion
  // would not separate within the step. (Judging by u alone left out a contact lifted by drift
  // correction to a few mm/s: the body then fell freely for one step, g h² deep, every third
  // step, and sank through the ground.)
  std::vector<int> active;
  for (int k = 0; k < nc; ++k) {
    if (touching(k) && u[3 * k] + du[3 * k] <= params.separation_speed) active.push_back(k);
  }
  const int na = static_cast<int>(active.size());
  Eigen::VectorXd c_active = Eigen::VectorXd::Zero(3 * na);
  const LocalContactProblem local = MakeLocalContactProblem(problem, 0.0);
  if (na > 0) {
    const Eigen::MatrixXd W(local.W);
    const Eigen::VectorXd Minv_f = problem.mass.Solve(f);
    const double tau = params.stabilization_steps * h;
    Eigen::MatrixXd A(3 * na, 3 * na);
    Eigen::VectorXd b(3 * na), u_active(3 * na), mu(na);
    for (int i = 0; i < na; ++i) {
      const int k = active[i];
      mu[i] = problem.mu[k];
      u_active.segment<3>(3 * i) = u.segment<3>(3 * k);
      for (int j = 0; j < na; ++j)
        A.block<3, 3>(3 * i, 3 * j) = W.block<3, 3>(3 * k, 3 * active[j]);
      b.segment<3>(3 * i) = problem.J.middleRows<3>(3 * k) * Minv_f;
      if (problem.contact_velocity_rate.size() == 3 * nc) {
        b.segment<3>(3 * i) += problem.contact_velocity_rate.segment<3>(3 * k);
      }
      // Drift correction (Baumgarte): drives u_n and φ to zero with time constant τ.
      b[3 * i] += 2 * u[3 * k] / tau + problem.phi[k] / (tau * tau);
    }
    const AccelerationLcpAnswer answer = SolveAccelerationLcp(A, b, u_active, mu, h, params);
    const LcpResult& r = answer.result;
    out.iterations += r.iterations;
    if (!answer.solver_switch.empty()) out.solver_switch = answer.solver_switch;
    out.residual = r.certificate.Worst();
    if (!r.solved()) {
      out.status = r.status;
      out.message = fmt::format(
          "acceleration-level LCP ({} contacts): {}{}; the contact forces of this state may not "
          "exist (Painlevé)",
          na, ToString(r.status), r.message.empty() ? "" : " — " + r.message);
      if (params.impulsive_fallback) {
        contact::ContactProblem rest = problem;
        rest.v = v;
        rest.v_star = v + (problem.v_star - problem.v);
        const ContactSolution fallback = SolveVelocityLcp(rest, {});
        out.v_next = fallback.v_next;
        out.impulses += fallback.impulses;
        out.message += "; resolved impulsively at the velocity level";
        out.seconds = clock.Seconds();
        return out;
      }
    } else {
      c_active = answer.c;
    }
  }
  // 3. v⁺ = v + h M⁻¹ (f + Jᵀ c): the impulses of the step are h c.
  Eigen::VectorXd gamma = Eigen::VectorXd::Zero(3 * nc);
  for (int i = 0; i < na; ++i) gamma.segment<3>(3 * active[i]) = h * c_active.segment<3>(3 * i);
  out.v_next = problem.v_star + (v - problem.v) + local.MinvJt * gamma;
  out.impulses += gamma;
  out.seconds = clock.Seconds();
  return out;
}

}  // namespace coulomb
