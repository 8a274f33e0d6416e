#include "coulomb/formulations/trinkle/acceleration_step.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "coulomb/formulations/trinkle/polygonal_friction_lcp.h"
#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

// Newton-restitution impact at the current configuration: no forces during the impact.
// Touching contacts get n·v⁺ ≥ −e n·v⁻ (their gap counts as zero). A speculative one stays out
// of the acceleration problem, so the applied forces still change its normal velocity by Δu_n
// after the impact: n·v⁺ ≥ −(φ + h Δu_n)/h lets it close its gap by the end of the step and
// no further.
// `du` = J (v* − v), the change of the contact velocities by the applied forces over the step.
const ContactSolution& ResolveImpact(const contact::ContactProblem& problem,
                                     const Eigen::VectorXd& du,
                                     const AccelerationStepParams& params,
                                     AccelerationStepWorkspace& ws) {
  contact::ContactProblem& impact = ws.impact;
  impact = problem;  // into the kept copy's storage
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
  SolveVelocityLcp(impact, velocity, {}, ws.impact_local, ws.impact_solution, nullptr,
                   &ws.impact_lcp);
  return ws.impact_solution;
}

// The acceleration-level LCP layout of the active contacts (components 3k, 3k+1, 3k+2):
// rolling contacts get the paper's square pyramid, sliding ones eq. (12). Into `layout`'s
// storage.
void MakeLayout(const Eigen::VectorXd& u, const Eigen::VectorXd& mu,
                const std::vector<char>& rolling, trinkle::ContactLcpLayout& layout,
                std::vector<trinkle::FrictionGroup>& spare_groups) {
  const int n = static_cast<int>(mu.size());
  layout.num_components = 3 * n;
  layout.unilateral.clear();
  layout.eliminated.clear();
  for (int k = 0; k < n; ++k) layout.unilateral.push_back(3 * k);
  int groups = 0;
  for (int k = 0; k < n; ++k) groups += rolling[k] && mu[k] != 0 ? 1 : 0;
  // Groups beyond this step's count wait in `spare_groups`, keeping their vectors' storage for
  // when a contact rolls again.
  while (static_cast<int>(layout.groups.size()) > groups) {
    spare_groups.push_back(std::move(layout.groups.back()));
    layout.groups.pop_back();
  }
  while (static_cast<int>(layout.groups.size()) < groups && !spare_groups.empty()) {
    layout.groups.push_back(std::move(spare_groups.back()));
    spare_groups.pop_back();
  }
  layout.groups.resize(groups);
  int g = 0;
  for (int k = 0; k < n; ++k) {
    const Eigen::Vector2d slip = u.segment<2>(3 * k + 1);
    if (mu[k] == 0) {
      // Frictionless (a joint limit posed as a contact, or μ = 0): no tangential force, and
      // no pyramid, whose facets would be rows of zeros for Lemke.
      for (int d = 0; d < 2; ++d) layout.eliminated.push_back({3 * k + 1 + d, 3 * k, 0.0});
    } else if (!rolling[k]) {
      for (int d = 0; d < 2; ++d) {
        layout.eliminated.push_back({3 * k + 1 + d, 3 * k, -mu[k] * slip[d] / slip.norm()});
      }
    } else {
      trinkle::FrictionGroup& group = layout.groups[g++];
      group.components.assign({3 * k + 1, 3 * k + 2});
      group.normal = 3 * k;
      group.mu = mu[k];
      trinkle::SetSquareFacets(2, group.facets);
    }
  }
}

// Lemke's processability is proven for copositive-plus M; a sliding contact's eq. (12) makes M
// non-symmetric and can take that away, so its secondary ray proves nothing. A small LCP is then
// decided by enumerating every complementary basis (as the portfolio does last): either a
// solution Lemke missed (one of the Solo-12's six failed steps had one) or a proof that none
// exists, which SolveAccelerationStep answers impulsively.
void DecideByEnumeration(const AccelerationStepParams& params, AccelerationStepWorkspace& ws) {
  const LcpProblem& lcp = ws.lcp.lcp;
  if (lcp.size() > params.settings.portfolio.enumeration_max_size) return;
  EnumerationParams enumeration = params.settings.enumeration;
  enumeration.max_size = params.settings.portfolio.enumeration_max_size;
  const std::string pivoting =
      fmt::format("{} ({})", ToString(ws.result.status), ws.result.message);
  const int pivots = ws.result.iterations;
  ws.result = SolveEnumeration(lcp, enumeration);
  ws.result.iterations += pivots;
  ws.result.message = fmt::format("after {}: enumeration: {}", pivoting, ws.result.message);
}

bool IsPivoting(LcpSolverKind kind) {
  return kind == LcpSolverKind::kLemke || kind == LcpSolverKind::kEnumeration ||
         kind == LcpSolverKind::kPortfolio;
}

// The answer of the basis that last step's forces (ws.warm_forces) imply, into ws.result, if it
// certifies at kWarmBasisAccuracy of Lemke's tolerance. Deterministic: the guess depends on the
// warm start alone, which the state (and so a checkpoint) carries.
bool SolveFromWarmStart(const AccelerationStepParams& params, AccelerationStepWorkspace& ws) {
  const LcpProblem& lcp = ws.lcp.lcp;
  if (ws.warm_forces.size() != ws.lcp.layout.num_components) return false;
  trinkle::GuessContactLcpBasis(ws.lcp, ws.warm_forces, ws.warm.guess, ws.warm_z);
  return SolveWarmBasis(lcp, ws.warm.guess, ws.warm_z, ws.warm) &&
         TakeWarmBasisAnswer(lcp, ws.warm.z,
                             kWarmBasisAccuracy * params.settings.lemke.acceptance_tolerance,
                             "lemke", ws.result);
}

// Solves a = A c + b over the active contacts (ws.A, ws.b, ws.u_active, ws.mu) into ws.result
// and ws.c. A sliding contact whose slip would reverse within the step is re-classified as
// rolling and the problem solved again: the explicit step would otherwise chatter around the
// slip-to-roll transition. Rolling contacts also remove their residual slip over the step
// (b_T += u_T / h), bounded by the friction pyramid.
void SolveAccelerationLcp(double h, const AccelerationStepParams& params,
                          AccelerationStepWorkspace& ws) {
  const Eigen::MatrixXd& A = ws.A;
  const Eigen::VectorXd& b = ws.b;
  const Eigen::VectorXd& u = ws.u_active;
  const Eigen::VectorXd& mu = ws.mu;
  const int n = static_cast<int>(mu.size());
  std::vector<char>& rolling = ws.rolling;
  rolling.resize(n);
  for (int k = 0; k < n; ++k) rolling[k] = u.segment<2>(3 * k + 1).norm() <= params.slip_speed;
  ws.solver_switch.clear();
  ws.result.iterations = 0;
  for (int attempt = 0; attempt <= n; ++attempt) {
    Eigen::VectorXd& bias = ws.bias;
    bias = b;
    for (int k = 0; k < n; ++k) {
      if (rolling[k]) bias.segment<2>(3 * k + 1) += u.segment<2>(3 * k + 1) / h;
    }
    MakeLayout(u, mu, rolling, ws.layout, ws.spare_groups);
    trinkle::BuildContactLcp(A, bias, ws.layout, ws.lcp_scratch, ws.lcp);
    const trinkle::ContactLcp& lcp = ws.lcp;
    const int previous_iterations = ws.result.iterations;
    LcpSolverKind kind = params.solver;
    if (IsPivoting(kind) && lcp.lcp.size() > 2 * params.max_pivoting_rows) {
      kind = LcpSolverKind::kMehrotra;
      ws.solver_switch.clear();  // kept storage: formatted in place
      fmt::format_to(
          std::back_inserter(ws.solver_switch),
          "{} acceleration LCP rows exceed twice solver.max_pivoting_rows = {} for {}: ipm ran "
          "instead",
          lcp.lcp.size(), params.max_pivoting_rows, ToString(params.solver));
    }
    const bool warm =
        params.warm_basis && kind == LcpSolverKind::kLemke && SolveFromWarmStart(params, ws);
    if (!warm) SolveLcp(lcp.lcp, kind, params.settings, ws.solver, ws.result);
    if (!ws.result.solved() && kind != LcpSolverKind::kPortfolio) DecideByEnumeration(params, ws);
    ws.result.iterations += previous_iterations;
    if (!ws.result.solved()) return;
    ws.c.noalias() = lcp.force_map * ws.result.z;
    ws.a.noalias() = A * ws.c;  // then + bias: the rounding of A c + bias
    ws.a += bias;
    bool changed = false;
    for (int k = 0; k < n; ++k) {
      const Eigen::Vector2d slip = u.segment<2>(3 * k + 1);
      if (!rolling[k] && mu[k] != 0 && (slip + h * ws.a.segment<2>(3 * k + 1)).dot(slip) < 0) {
        rolling[k] = 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
}

// a = A c + b over the active contacts (ws.active), from the step's W, the applied forces' M⁻¹f,
// J̇v and the drift correction: into ws.A, ws.b, ws.u_active and ws.mu.
void GatherAccelerationProblem(const contact::ContactProblem& problem,
                               const AccelerationStepParams& params,
                               AccelerationStepWorkspace& ws) {
  const int nc = problem.num_contacts();
  const int na = static_cast<int>(ws.active.size());
  const std::vector<int>& active = ws.active;
  const Eigen::VectorXd& u = ws.u;
  const double h = problem.time_step;
  Eigen::MatrixXd& W = ws.W;
  W = ws.local.W;
  Eigen::VectorXd& Minv_f = ws.Minv_f;
  Minv_f = ws.f;
  problem.mass.SolveInPlace(Minv_f);
  const double tau = params.stabilization_steps * h;
  Eigen::MatrixXd& A = ws.A;
  A.resize(3 * na, 3 * na);
  Eigen::VectorXd &b = ws.b, &u_active = ws.u_active, &mu = ws.mu;
  b.resize(3 * na);
  u_active.resize(3 * na);
  mu.resize(na);
  for (int i = 0; i < na; ++i) {
    const int k = active[i];
    mu[i] = problem.mu[k];
    u_active.segment<3>(3 * i) = u.segment<3>(3 * k);
    for (int j = 0; j < na; ++j) A.block<3, 3>(3 * i, 3 * j) = W.block<3, 3>(3 * k, 3 * active[j]);
    b.segment<3>(3 * i).noalias() = problem.J.middleRows<3>(3 * k) * Minv_f;
    if (problem.contact_velocity_rate.size() == 3 * nc) {
      b.segment<3>(3 * i) += problem.contact_velocity_rate.segment<3>(3 * k);
    }
    // Drift correction (Baumgarte): drives u_n and φ to zero with time constant τ.
    b[3 * i] += 2 * u[3 * k] / tau + problem.phi[k] / (tau * tau);
  }
}

// The step at the velocity level from v (after the impacts), for an acceleration LCP without a
// certified answer. When that LCP is proven to have none (LcpStatus::kNoSolution: every
// complementary basis checked), no finite contact forces exist in this state — Painlevé's
// paradox — and an impulsive contact force is the model's answer (Mason and Wang, paper 1 §1:
// "no physical basis for not allowing impulsive solutions when bodies are rigid"), so the step
// is certified by the velocity LCP's own certificate and its solver switch says what happened.
// Otherwise the failure stands and the impulses only let the run go on.
void ResolveImpulsively(const contact::ContactProblem& problem, const Eigen::VectorXd& v,
                        int active_contacts, ContactSolution& out) {
  contact::ContactProblem rest = problem;
  rest.v = v;
  rest.v_star = v + (problem.v_star - problem.v);
  const ContactSolution fallback = SolveVelocityLcp(rest, {});
  out.v_next = fallback.v_next;
  out.impulses += fallback.impulses;
  out.iterations += fallback.iterations;
  if (out.status == LcpStatus::kNoSolution) {
    out.status = fallback.status;
    out.residual = fallback.residual;
    out.solver_switch = fmt::format(
        "the acceleration-level LCP of {} contacts has no solution (Painlevé; every "
        "complementary basis checked): the step was resolved impulsively at the velocity level",
        active_contacts);
    out.message = fallback.ok() ? "" : "impulsive resolution: " + fallback.message;
    return;
  }
  out.message += "; resolved impulsively at the velocity level";
}

// The active contacts' kinds, their sweep biases and the dense LCP's row count (a rolling
// contact with friction takes five rows, any other one), into ws.sweep_problem. With u = J v the
// contact velocities after the impacts, h a = J v⁺ − u + h (J̇v + drift)
// (GatherAccelerationProblem's b scaled by h), and a rolling contact's tangents also remove their
// slip (+ u_T, as SolveAccelerationLcp's b_T += u_T / h).
int ClassifyActiveContacts(const contact::ContactProblem& problem,
                           const AccelerationStepParams& params, AccelerationStepWorkspace& ws) {
  const int nc = problem.num_contacts();
  const int na = static_cast<int>(ws.active.size());
  const double h = problem.time_step;
  const double tau = params.stabilization_steps * h;
  const bool rate = problem.contact_velocity_rate.size() == 3 * nc;
  AccelerationSweepProblem& sp = ws.sweep_problem;
  sp.time_step = h;
  sp.active = ws.active;
  sp.kind.resize(na);
  sp.bias.resize(na);
  sp.kappa.resize(na);
  sp.slip.resize(na);
  math::ResizeKeepingStorage(sp.mu, na);
  int rows = 0;
  for (int i = 0; i < na; ++i) {
    const int k = ws.active[i];
    const Eigen::Vector3d u = ws.u.segment<3>(3 * k);
    const Eigen::Vector2d slip = u.tail<2>();
    const double mu = problem.mu[k];
    const bool rolling = slip.norm() <= params.slip_speed;
    sp.mu[i] = mu;
    sp.slip[i] = slip;
    sp.kind[i] = mu == 0   ? AccelerationContactKind::kFrictionless
                 : rolling ? AccelerationContactKind::kRolling
                           : AccelerationContactKind::kSliding;
    sp.kappa[i] = sp.kind[i] == AccelerationContactKind::kSliding
                      ? Eigen::Vector2d(-mu * slip / slip.norm())
                      : Eigen::Vector2d::Zero();
    Eigen::Vector3d bias = -u;
    if (rate) bias += h * problem.contact_velocity_rate.segment<3>(3 * k);
    bias[0] += h * (2 * u[0] / tau + problem.phi[k] / (tau * tau));
    if (rolling) bias.tail<2>() += slip;
    sp.bias[i] = bias;
    rows += sp.kind[i] == AccelerationContactKind::kRolling ? 5 : 1;
  }
  return rows;
}

// The acceleration problem by contact sweeps (acceleration_sweeps.h), sliding contacts whose slip
// would reverse within the step re-classified as SolveAccelerationLcp does. True when
// certified: then `out` has v⁺, the active contacts' impulses added and the residual.
bool SolveAccelerationBySweeps(const contact::ContactProblem& problem,
                               const AccelerationStepParams& params,
                               const Eigen::VectorXd& warm_start, AccelerationStepWorkspace& ws,
                               ContactSolution& out) {
  AccelerationSweepProblem& sp = ws.sweep_problem;
  AccelerationSweepResult& result = ws.sweep_result;
  MakeContactRows(problem, PositionCorrection{.fraction = 0}, ws.rows);
  sp.v0 = ws.v + ws.free_change;
  AccelerationSweepParams sweep;
  sweep.tolerance = params.settings.pgs.acceptance_tolerance;
  sweep.max_sweeps = params.settings.pgs.max_sweeps;
  sweep.check_every = params.settings.pgs.check_every;
  sweep.acceleration_depth = params.acceleration_depth;
  // Reversing slides roll over inside the sweeps, at every certificate (roll_reversing_slides):
  // a certified answer has none left, so no re-solve follows as on the dense path.
  SolveAccelerationSweeps(ws.rows, sp, sweep, warm_start, result);
  out.iterations += result.sweeps;
  if (!result.solved()) return false;
  out.residual = result.residual;
  out.v_next = result.v;
  out.impulses += result.r;
  return true;
}

}  // namespace

void ReserveAccelerationStep(int contacts, const AccelerationStepParams& params,
                             AccelerationStepWorkspace& ws) {
  const int rows = std::min(5 * contacts, 2 * params.max_pivoting_rows);
  ReserveLemke(rows, ws.solver.lemke);
  ReserveComplementaryBasis(rows, ws.warm);
  math::ReserveStorage(ws.warm_z, rows);
  math::ReserveStorage(ws.warm_forces, 3 * contacts);
  ws.result.message.reserve(kLcpMessageRoom);
  // The impact LCP: the velocity LCP's n_c (d + 2) rows with its default d.
  ReservePivoting(std::min(contacts * (VelocityLcpParams{}.directions + 2),
                           VelocityLcpParams{}.max_pivoting_rows),
                  ws.impact_lcp);
}

ContactSolution SolveAccelerationStep(const contact::ContactProblem& problem,
                                      const AccelerationStepParams& params) {
  AccelerationStepWorkspace workspace;
  ContactSolution out;
  SolveAccelerationStep(problem, params, {}, workspace, out);
  return out;
}

namespace {

// Stage 1 of the step: u = J v and du = J (v* − v) (the applied forces' share) into ws, and, when
// a touching contact approaches faster than impact_speed or a near one would close within the
// step, the impact LCP's answer: ws.v and out.impulses after the impacts, u recomputed there.
void ResolveImpacts(const contact::ContactProblem& problem, const AccelerationStepParams& params,
                    AccelerationStepWorkspace& ws, ContactSolution& out) {
  const int nc = problem.num_contacts();
  const double h = problem.time_step;
  Eigen::VectorXd& v = ws.v;
  Eigen::VectorXd& u = ws.u;
  u.noalias() = problem.J * v;
  Eigen::VectorXd& du = ws.du;
  du.noalias() = problem.J * ws.free_change;  // by the applied forces
  bool impacting = false;
  for (int k = 0; k < nc; ++k) {
    impacting = impacting || (problem.phi[k] <= params.contact_distance
                                  ? u[3 * k] < -params.impact_speed
                                  : problem.phi[k] + h * (u[3 * k] + du[3 * k]) < 0);
  }
  if (!impacting) return;
  const ContactSolution& impact = ResolveImpact(problem, du, params, ws);
  out.iterations += impact.iterations;
  if (!impact.ok()) {
    out.status = impact.status;
    out.message = "impact LCP: " + impact.message;
  }
  v = impact.v_next;
  out.impulses = impact.impulses;
  u.noalias() = problem.J * v;
}

}  // namespace

void SolveAccelerationStep(const contact::ContactProblem& problem,
                           const AccelerationStepParams& params, const Eigen::VectorXd& warm_start,
                           AccelerationStepWorkspace& ws, ContactSolution& out) {
  const int nc = problem.num_contacts();
  const double h = problem.time_step;
  out.Reset();
  out.status = LcpStatus::kSolved;
  out.impulses.setZero(3 * nc);
  // f (applied minus bias and damping forces), recovered from the free motion v* = v + h M⁻¹ f.
  ws.free_change = problem.v_star - problem.v;
  problem.MultiplyMass(ws.free_change, ws.f);
  ws.f /= h;
  Eigen::VectorXd& v = ws.v;
  v = problem.v;
  // 1. Impacts.
  ResolveImpacts(problem, params, ws, out);
  const Eigen::VectorXd& u = ws.u;
  const Eigen::VectorXd& du = ws.du;
  const auto touching = [&](int k) { return problem.phi[k] <= params.contact_distance; };
  // 2. The acceleration problem of the persistent contacts: touching ones that free motion
  // would not separate within the step. (Judging by u alone left out a contact lifted by drift
  // correction to a few mm/s: the body then fell freely for one step, g h² deep, every third
  // step, and sank through the ground.)
  std::vector<int>& active = ws.active;
  active.clear();
  for (int k = 0; k < nc; ++k) {
    if (touching(k) && u[3 * k] + du[3 * k] <= params.separation_speed) active.push_back(k);
  }
  const int na = static_cast<int>(active.size());
  Eigen::VectorXd& c_active = ws.c_active;
  c_active.setZero(3 * na);
  // Last step's forces on the active contacts: its impulses over h (as the step's are h c).
  math::ResizeKeepingStorage(ws.warm_forces, warm_start.size() == 3 * nc ? 3 * na : 0);
  for (int i = 0; i < na && warm_start.size() == 3 * nc; ++i) {
    ws.warm_forces.segment<3>(3 * i) = warm_start.segment<3>(3 * active[i]) / h;
  }
  // Large problems (and pgs as asked) by contact sweeps; the dense LCP where they do not certify.
  const int lcp_rows = na > 0 ? ClassifyActiveContacts(problem, params, ws) : 0;
  const bool too_large = lcp_rows > params.max_pivoting_rows;
  if (na > 0 && (too_large || params.solver == LcpSolverKind::kProjectedGaussSeidel)) {
    if (too_large) {
      fmt::format_to(std::back_inserter(out.solver_switch),
                     "{} acceleration LCP rows exceed solver.max_pivoting_rows = {} for {}: "
                     "contact sweeps (pgs) ran instead",
                     lcp_rows, params.max_pivoting_rows, ToString(params.solver));
    }
    if (SolveAccelerationBySweeps(problem, params, warm_start, ws, out)) return;
    fmt::format_to(std::back_inserter(out.solver_switch), "{}{}; the dense LCP ran",
                   out.solver_switch.empty() ? "" : "; ", ws.sweep_result.message);
  }
  LocalContactProblem& local = ws.local;
  MakeLocalContactProblem(problem, PositionCorrection{.fraction = 0}, local);
  if (na > 0) {
    GatherAccelerationProblem(problem, params, ws);
    SolveAccelerationLcp(h, params, ws);
    const LcpResult& r = ws.result;
    out.iterations += r.iterations;
    if (!ws.solver_switch.empty()) {
      fmt::format_to(std::back_inserter(out.solver_switch), "{}{}",
                     out.solver_switch.empty() ? "" : "; ", ws.solver_switch);
    }
    out.residual = r.certificate.Worst();
    if (!r.solved()) {
      out.status = r.status;
      out.message = fmt::format(
          "acceleration-level LCP ({} contacts): {}{}; the contact forces of this state may not "
          "exist (Painlevé)",
          na, ToString(r.status), r.message.empty() ? "" : " — " + r.message);
      if (params.impulsive_fallback) {
        ResolveImpulsively(problem, v, na, out);
        return;
      }
    } else {
      c_active = ws.c;
    }
  }
  // 3. v⁺ = v + h M⁻¹ (f + Jᵀ c): the impulses of the step are h c.
  Eigen::VectorXd& gamma = ws.gamma;
  gamma.setZero(3 * nc);
  for (int i = 0; i < na; ++i) gamma.segment<3>(3 * active[i]) = h * c_active.segment<3>(3 * i);
  // As Eigen evaluates v* + (v − v₀) + M⁻¹Jᵀγ (the sum first, then the product accumulated into
  // it), without its temporary.
  out.v_next = problem.v_star + (v - problem.v);
  out.v_next.noalias() += local.MinvJt * gamma;
  out.impulses += gamma;
}

}  // namespace coulomb
