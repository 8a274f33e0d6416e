#include "coulomb/sim/step.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "coulomb/base/stopwatch.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/mixed_step.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/math/dense_resize.h"
#include "coulomb/math/vector_growth.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/actuator.h"

namespace coulomb::sim {
namespace {

// J̇ v by a forward difference along the motion: the contact velocities of the same contacts
// (matched by id) detected afresh at q ⊕ δ v, so contact points move as they do in rolling and
// the rate is that of the contact, not of a material point. Unmatched contacts get zero. Into
// w.problem.contact_velocity_rate, with w.velocity_rate as scratch.
void CalcContactVelocityRate(const Model& model, Data& data) {
  constexpr double kDelta = 1e-7;  // s: the FD error O(δ) is far below the drift correction
  StepWorkspace& w = data.step;
  StepWorkspace::VelocityRate& s = w.velocity_rate;
  const State& state = data.state;
  const contact::ContactProblem& problem = w.problem;
  const geometry::ContactSet& contacts = w.detection.contacts;
  // Limit contacts (after the geometric ones) are rows of constant e_dof: their rate is zero.
  const int nc = problem.num_geometric_contacts();
  Eigen::VectorXd& rate = w.problem.contact_velocity_rate;
  rate.setZero(3 * problem.num_contacts());
  s.q = state.q;
  multibody::IntegrateConfigurationInPlace(model.multibody, state.v, kDelta, s.q);
  multibody::CalcForwardKinematics(model.multibody, data.multibody, s.q, state.v);
  geometry::FindContacts(model.world, data.multibody.X_world, w.reach, w.collision, s.moved,
                         nullptr, &data.workers);
  s.matched.contacts.clear();
  s.index.clear();
  for (int k = 0; k < nc; ++k) {
    for (const geometry::Contact& c : s.moved.contacts.contacts) {
      if (c.id != 0 && c.id == contacts.contacts[k].id) {
        s.matched.contacts.push_back(c);
        s.index.push_back(k);
        break;
      }
    }
  }
  if (s.matched.contacts.empty()) return;
  s.zero_tau.setZero(model.multibody.nv);
  contact::BuildContactProblem(model.multibody, data.multibody, s.q, state.v, s.zero_tau, s.matched,
                               problem.time_step, s.later);
  s.u_later.noalias() = s.later.J * state.v;
  s.u_now.noalias() = problem.J * state.v;
  for (std::size_t i = 0; i < s.index.size(); ++i) {
    rate.segment<3>(3 * s.index[i]) = (s.u_later.segment<3>(3 * static_cast<Eigen::Index>(i)) -
                                       s.u_now.segment<3>(3 * s.index[i])) /
                                      kDelta;
  }
}

}  // namespace

void StepReport::Reset() {
  unsupported_pairs = 0;
  status = LcpStatus::kSolved;
  message.clear();
  solver_switch.clear();
  iterations = 0;
  residual = max_penetration = 0;
  contacts.contacts.clear();
  metrics = {};
  profile = {};
  factor_seconds = 0;
  factorizations = 0;
  deformable_contacts.clear();
  deformable_impulses.resize(0);
  limit_impulses.resize(0);
  participating_dofs = 0;
  linearizations = 0;
}

namespace {

// Stage 1: the generalized forces of this step and, under a formulation that takes PD
// controllers implicitly (SAP's drive constraints, or folded into the step's mass by the cone and
// the velocity LCP; stable for any gains), the drives; paper 1's stepper applies PD controllers
// as explicit torques.
void CalcStepForces(const Model& model, Data& data, const Eigen::VectorXd* applied) {
  const FormulationSupport& supports = model.settings.formulation->supports;
  const bool implicit_pd = supports.implicit_pd_drives || supports.folded_pd_drives;
  const State& state = data.state;
  CalcActuation(model.multibody, model.actuators, state.time, state.q, state.v,
                implicit_pd ? PdHandling::kImplicit : PdHandling::kExplicit, data.step.tau);
  if (applied != nullptr) data.step.tau += *applied;
  data.step.drives.clear();
  if (implicit_pd) {
    CalcDrives(model.multibody, model.actuators, state.time + model.time_step, state.q,
               data.step.drives);
  }
}

// Stage 2: contacts at the current poses, out to how far each geometry can travel in the step.
void FindStepContacts(const Model& model, Data& data) {
  StepReport& report = data.report;
  StepWorkspace& w = data.step;
  multibody::CalcForwardKinematics(model.multibody, data.multibody, data.state.q, data.state.v);
  geometry::SpeculativeReach(model.world, data.multibody.velocity, model.time_step, w.reach);
  const bool relative = model.settings.formulation->supports.relative_speculative_contacts;
  if (relative) {
    geometry::CalcSpeculativeMotion(model.world, data.multibody.X_world, data.multibody.velocity,
                                    model.time_step, model.multibody.gravity, w.motion);
  }
  geometry::FindContacts(model.world, data.multibody.X_world, w.reach, w.collision, w.detection,
                         relative ? &w.motion : nullptr, &data.workers);
  report.unsupported_pairs = w.detection.unsupported_pairs;
  for (const geometry::Contact& c : w.detection.contacts.contacts) {
    report.max_penetration = std::max(report.max_penetration, -c.phi);
  }
  if (!model.deformables.empty()) {
    report.deformable_contacts = contact::FindDeformableContacts(
        model.deformables, data.state.deformables, model.world, data.multibody.X_world,
        model.world.margin, model.time_step);
    for (const contact::DeformableContact& c : report.deformable_contacts) {
      report.max_penetration = std::max(report.max_penetration, -c.phi);
    }
  }
}

// Stage 3: the contact problem of this step.
void BuildStepProblem(const Model& model, Data& data) {
  StepWorkspace& w = data.step;
  const State& state = data.state;
  // A formulation without constraint rows of its own takes the joint limits as contacts.
  const contact::LimitRows limit_rows = model.settings.formulation->supports.joint_limits
                                            ? contact::LimitRows::kConstraintsOnly
                                            : contact::LimitRows::kAsContacts;
  // FindStepContacts left the kinematics at (q, v).
  const bool folded = model.settings.formulation->supports.folded_pd_drives;
  contact::BuildContactProblemAtPoses(model.multibody, data.multibody, state.q, state.v, w.tau,
                                      w.detection.contacts, model.time_step, w.problem, limit_rows,
                                      folded ? &w.drives : nullptr);
  w.problem.drives.clear();
  if (!folded) w.problem.drives = w.drives;
  if (model.settings.formulation->supports.contact_velocity_rate) {
    CalcContactVelocityRate(model, data);
  }
}

// The coupled step of rigid and FEM bodies. A nonlinear material's step is linear only about
// the point where it is taken (fem::AssembleFemStepAt): the first solve takes it at the last
// velocities and, while the bodies' momentum balance at the answer misses Newton's tolerance,
// the next one retakes it at that answer, warm-started from its impulses: Newton's method on
// the coupled problem, with the formulation's convex contact solve as each iteration. Its
// tangent is PSD-projected (per tet, and per cell for mean dilatation), so it converges
// linearly, fast early in the cylinder's load and at 0.9–0.95 per solve late in it; the balance
// counts as met at 1e-3 of the step's momentum scale (10⁵ × Newton's free-motion tolerance),
// which the cylinder's steps reach in 1–3 solves. The solve with the smallest error is kept;
// above the tolerance the step is reported inaccurate.
CoupledSolution SolveNonlinearCoupledStep(const Model& model, Data& data) {
  StepWorkspace& w = data.step;
  const Formulation& formulation = *model.settings.formulation;
  const std::vector<fem::FemState>& states = data.state.deformables;
  CoupledStepInput input{&w.problem,      &model.multibody,
                         &data.multibody, &model.deformables,
                         &states,         &data.report.deformable_contacts,
                         &w.warm_start,   &w.deformable_warm_start};
  const bool nonlinear = std::any_of(
      model.deformables.bodies.begin(), model.deformables.bodies.end(),
      [](const fem::FemBody& b) { return b.model != fem::MaterialModel::kCorotatedLinear; });
  data.report.linearizations = 1;
  if (!nonlinear) {
    return SolveCoupledAsContactProblem(input, formulation, model.settings, data.formulation);
  }
  std::vector<Eigen::VectorXd> at;
  at.reserve(states.size());
  for (const fem::FemState& state : states) at.push_back(state.Velocities());
  input.linearize_at = &at;
  std::vector<std::optional<fem::StepStart>> starts(states.size());
  input.step_starts = &starts;
  constexpr int kMaxLinearizations = 12;
  constexpr double kBalanceTolerance = 1e5;  // × fem::LinearModelError's unit
  CoupledSolution best;
  int pass = 1;
  int iterations = 0, factorizations = 0;  // over every solve: the step's work
  double factor_seconds = 0;
  for (;; ++pass) {
    CoupledSolution solved =
        SolveCoupledAsContactProblem(input, formulation, model.settings, data.formulation);
    iterations += solved.rigid.iterations;
    factorizations += solved.rigid.factorizations;
    factor_seconds += solved.rigid.factor_seconds;
    const bool usable =
        solved.rigid.status == LcpStatus::kSolved || solved.rigid.status == LcpStatus::kInaccurate;
    if (!usable && pass > 1) break;  // keep the best usable one
    // The next linearization is taken at this answer even when it is worse than the best so
    // far: Newton without a line search is not monotone, and on the cylinder a worse solve was
    // followed by better ones.
    at = solved.v;
    w.warm_start = solved.rigid.impulses;
    const std::size_t nc = data.report.deformable_contacts.size();
    for (std::size_t k = 0; k < nc && solved.impulses.size() == 3 * static_cast<Eigen::Index>(nc);
         ++k) {
      w.deformable_warm_start.col(static_cast<Eigen::Index>(k)) =
          math::ContactFrame(data.report.deformable_contacts[k].normal) *
          solved.impulses.segment<3>(3 * static_cast<Eigen::Index>(k));
    }
    if (pass == 1 || (usable && solved.linear_model_error < best.linear_model_error)) {
      best = std::move(solved);
    }
    if (!usable || best.linear_model_error <= kBalanceTolerance || pass == kMaxLinearizations) {
      break;
    }
  }
  data.report.linearizations = pass;
  best.rigid.iterations = iterations;
  best.rigid.factorizations = factorizations;
  best.rigid.factor_seconds = factor_seconds;
  if (best.linear_model_error > kBalanceTolerance && best.rigid.status == LcpStatus::kSolved) {
    best.rigid.status = LcpStatus::kInaccurate;
    best.rigid.message = fmt::format(
        "the deformable bodies' nonlinear momentum balance misses its tolerance {:.3g}-fold "
        "after {} linearizations; reduce the time step",
        best.linear_model_error / kBalanceTolerance, pass);
  }
  return best;
}

// Stage 4: the formulation, warm-started from the contacts that persist; with deformable bodies,
// its coupled solve of rigid and FEM bodies together.
void SolveStep(const Model& model, Data& data) {
  StepWorkspace& w = data.step;
  StepReport& report = data.report;
  const Formulation& formulation = *model.settings.formulation;
  w.deformable_v.clear();
  CoupledSolution coupled;
  WarmStartContacts(w.detection.contacts, w.problem.frames, data.multibody.X_world,
                    data.state.contacts, w.warm_start);
  // Limit contacts after the geometric ones.
  if (const Eigen::Index geometric = w.warm_start.size();
      geometric != 3 * w.problem.num_contacts()) {
    math::ResizeKeepingStorage(w.warm_start, 3 * w.problem.num_contacts());
    WarmStartLimitContacts(w.problem.limit_contacts, data.state.contacts,
                           w.warm_start.tail(w.warm_start.size() - geometric));
  }
  if (!model.deformables.empty()) {
    WarmStartDeformableContacts(report.deformable_contacts, data.state.contacts,
                                w.deformable_warm_start);
    coupled = SolveNonlinearCoupledStep(model, data);
    w.solution = std::move(coupled.rigid);
    w.deformable_v = std::move(coupled.v);
    report.deformable_impulses = std::move(coupled.impulses);
    report.participating_dofs = coupled.participating_dofs;
  } else {
    data.formulation.sweeps.workers = &data.workers;  // a copied Data's own, not the original's
    formulation.solve(w.problem, model.settings, w.warm_start, data.formulation, w.solution);
  }
  const ContactSolution& solution = w.solution;
  report.status = solution.status;
  report.message = solution.message;
  report.solver_switch = solution.solver_switch;
  report.iterations = solution.iterations;
  report.residual = solution.residual;
  report.factor_seconds = solution.factor_seconds;
  report.factorizations = solution.factorizations;
  // Over every row, limit contacts included: the certificate covers them too.
  math::ResizeKeepingStorage(report.contact_velocities, w.problem.J.rows());
  report.contact_velocities.noalias() = w.problem.J * solution.v_next;
  if (model.settings.measure_accuracy && coupled.whole != nullptr) {
    report.metrics = CalcContactMetricsFromVelocities(*coupled.whole, coupled.whole_impulses,
                                                      coupled.whole->J * coupled.whole_v);
  } else if (model.settings.measure_accuracy) {
    report.metrics =
        CalcContactMetricsFromVelocities(w.problem, solution.impulses, report.contact_velocities);
  }
  const int geometric = w.problem.num_geometric_contacts();
  if (geometric != w.problem.num_contacts()) {
    math::ResizeKeepingStorage(report.contact_velocities, 3 * geometric);  // keeps the head
  }
  math::ResizeKeepingStorage(report.gaps, geometric);
  report.gaps = w.problem.phi.head(geometric);
  for (int k = 0; k < geometric; ++k) {
    report.gaps[k] += model.time_step * report.contact_velocities[3 * k];
  }
}

// Stage 5: the solver's best answer even when uncertified (the report says so), and the clock.
void Advance(const Model& model, Data& data) {
  const double h = model.time_step;
  StepWorkspace& w = data.step;
  State& state = data.state;
  state.v = w.solution.v_next;
  multibody::IntegrateConfigurationInPlace(model.multibody, state.v, h, state.q);
  for (std::size_t d = 0; d < w.deformable_v.size(); ++d) {
    fem::AdvanceFem(model.deformables.bodies[d], state.deformables[d], w.deformable_v[d], h);
  }
  ++data.steps;
  state.time = data.start_time + static_cast<double>(data.steps) * h;
  // The geometric contacts' impulses, then the limit contacts' (in limit_impulses).
  const Eigen::Index geometric =
      3 * static_cast<Eigen::Index>(w.detection.contacts.contacts.size());
  RememberContacts(w.detection.contacts, w.problem.frames, w.solution.impulses.head(geometric),
                   data.multibody.X_world, state.contacts);
  RememberLimitContacts(w.problem.limit_contacts,
                        w.solution.impulses.tail(w.solution.impulses.size() - geometric),
                        state.contacts);
  RememberDeformableContacts(data.report.deformable_contacts, data.report.deformable_impulses,
                             state.contacts);
  math::AssignGrowing(data.report.contacts.contacts, w.detection.contacts.contacts);
  math::ResizeKeepingStorage(data.report.impulses, geometric);
  data.report.impulses = w.solution.impulses.head(geometric);
  math::ResizeKeepingStorage(data.report.limit_impulses,
                             static_cast<Eigen::Index>(w.problem.limit_contacts.size()));
  for (Eigen::Index k = 0; k < data.report.limit_impulses.size(); ++k) {
    data.report.limit_impulses[k] = w.solution.impulses[geometric + 3 * k];
  }
}

}  // namespace

const StepReport& Step(const Model& model, Data& data, const Eigen::VectorXd* applied) {
  StepReport& report = data.report;
  report.Reset();
  // The stage clocks only when asked (measure_stage_times): five reads a step.
  std::optional<Stopwatch> clock;
  if (model.settings.measure_stage_times) clock.emplace();
  const auto lap = [&clock](double& seconds) {
    if (clock) seconds = clock->Lap();
  };
  CalcStepForces(model, data, applied);
  FindStepContacts(model, data);
  lap(report.profile.collision);
  BuildStepProblem(model, data);
  lap(report.profile.assembly);
  SolveStep(model, data);
  lap(report.profile.solve);
  Advance(model, data);
  lap(report.profile.advance);
  return report;
}

}  // namespace coulomb::sim
