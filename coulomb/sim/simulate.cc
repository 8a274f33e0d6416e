#include "coulomb/sim/simulate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "coulomb/base/fnv_hash.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/checkpoint.h"
#include "coulomb/sim/energy_audit.h"

namespace coulomb::sim {
namespace {

double Energy(const Model& model, Data& data) {
  const State& state = data.state;
  multibody::CalcForwardKinematics(model.multibody, data.multibody, state.q, state.v);
  double energy = multibody::CalcKineticEnergy(model.multibody, data.multibody) +
                  multibody::CalcPotentialEnergy(model.multibody, data.multibody);
  for (std::size_t d = 0; d < state.deformables.size(); ++d) {
    energy += fem::CalcEnergy(model.deformables.bodies[d], state.deformables[d]);
  }
  return energy;
}

Frame MakeFrame(const State& state, const StepReport* report) {
  Frame frame{state.time, state.q, state.v, {}, {}};
  for (const fem::FemState& d : state.deformables) frame.deformables.push_back(d.x.cast<float>());
  if (report == nullptr) return frame;
  for (std::size_t k = 0; k < report->contacts.contacts.size(); ++k) {
    const geometry::Contact& c = report->contacts.contacts[k];
    const Eigen::Vector3d impulse = report->impulses.segment<3>(3 * static_cast<Eigen::Index>(k));
    frame.contacts.push_back({c.body_a, c.body_b, c.point, c.normal, c.phi, impulse,
                              math::ContactFrame(c.normal) * impulse});
  }
  for (std::size_t k = 0; k < report->deformable_contacts.size(); ++k) {
    const contact::DeformableContact& c = report->deformable_contacts[k];
    const Eigen::Vector3d impulse =
        report->deformable_impulses.segment<3>(3 * static_cast<Eigen::Index>(k));
    frame.contacts.push_back({-2, c.rigid_body, c.point, c.normal, c.phi, impulse,
                              math::ContactFrame(c.normal) * impulse});
  }
  return frame;
}

}  // namespace

namespace {

std::uint64_t HashBytes(std::uint64_t hash, const double* data, Eigen::Index n) {
  return Fnv1a(hash, data, static_cast<std::size_t>(n) * sizeof(double));
}

}  // namespace

std::uint64_t HashState(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const std::uint64_t hash = HashBytes(kFnvOffsetBasis, q.data(), q.size());
  return HashBytes(hash, v.data(), v.size());
}

std::uint64_t HashState(const State& state) {
  std::uint64_t hash = HashState(state.q, state.v);
  for (const fem::FemState& d : state.deformables) {
    hash = HashBytes(hash, d.x.data(), d.x.size());
    hash = HashBytes(hash, d.v.data(), d.v.size());
  }
  return hash;
}

namespace {

bool IsFinite(const State& state) {
  if (!state.q.allFinite() || !state.v.allFinite()) return false;
  for (const fem::FemState& d : state.deformables) {
    if (!d.x.allFinite() || !d.v.allFinite()) return false;
  }
  return true;
}

// Where a non-finite state came from, for the message that stops the run: the first body whose
// state is not finite, and the stage of the step that produced it — the contacts found at the
// start of the step, the formulation's impulses or velocities, or the advance q ⊕ h v⁺ (and the
// FEM vertices' update) from finite velocities.
std::string DescribeNonFinite(const Scene& scene, const StepReport& report, const State& state) {
  std::string body;
  for (const multibody::Body& b : scene.model.multibody.bodies) {
    const bool q_ok = state.q.segment(b.q_index, multibody::ConfigurationSize(b.joint)).allFinite();
    const bool v_ok = state.v.segment(b.v_index, multibody::VelocitySize(b.joint)).allFinite();
    if (!q_ok || !v_ok) {
      body = fmt::format("body '{}' ({} not finite)", b.name, v_ok ? "q" : "v");
      break;
    }
  }
  bool deformable_v_ok = true;
  for (std::size_t d = 0; d < state.deformables.size() && body.empty(); ++d) {
    const fem::FemState& f = state.deformables[d];
    deformable_v_ok = f.v.allFinite();
    if (!deformable_v_ok || !f.x.allFinite()) {
      body = fmt::format("deformable body '{}' (vertex {} not finite)",
                         scene.model.deformables.bodies[d].name,
                         deformable_v_ok ? "positions" : "velocities");
    }
  }
  bool contacts_ok = true;
  for (const geometry::Contact& c : report.contacts.contacts)
    contacts_ok =
        contacts_ok && std::isfinite(c.phi) && c.normal.allFinite() && c.point.allFinite();
  for (const contact::DeformableContact& c : report.deformable_contacts)
    contacts_ok = contacts_ok && std::isfinite(c.phi) && c.normal.allFinite();
  const std::string formulation(scene.model.settings.formulation->name);
  std::string stage;
  if (!contacts_ok) {
    stage = "collision (a contact's gap, normal or point)";
  } else if (!report.impulses.allFinite() || !report.deformable_impulses.allFinite()) {
    stage = "solve (" + formulation + ": the contact impulses)";
  } else if (!state.v.allFinite() || !deformable_v_ok) {
    stage = "solve (" + formulation + ": the velocities v⁺)";
  } else {
    stage = "advance (positions from finite velocities)";
  }
  return fmt::format("{}, from the {} stage", body.empty() ? "a body" : body, stage);
}

// Notes the first solver switch, counts a failed step (keeping the first one's message) and
// says whether the run must stop: a step that could not be computed at all (an inverted
// element, a singular system) or a state that is no longer finite would make every later frame
// garbage.
bool RecordFailure(const Scene& scene, const StepReport& report, const State& state, int step,
                   double t, RunSummary& summary) {
  if (!report.solver_switch.empty() && summary.solver_switch.empty()) {
    summary.solver_switch =
        fmt::format("step {} (t = {:.6g} s): {}", step, t, report.solver_switch);
  }
  const bool broken =
      report.status == LcpStatus::kNotApplicable || report.status == LcpStatus::kBadInput;
  const bool finite = IsFinite(state);
  // A non-finite state is a failed step whatever the solver said of its answer.
  if ((report.status != LcpStatus::kSolved || !finite) && summary.failed_steps++ == 0) {
    summary.first_failure = fmt::format("step {} (t = {:.6g} s): {}: {}", step, t,
                                        ToString(report.status), report.message);
  }
  if (!broken && finite) return false;
  if (broken) {
    summary.stopped =
        fmt::format("step {} (t = {:.6g} s) could not be computed ({}: {}); the run stops there",
                    step, t, ToString(report.status), report.message);
  } else {
    summary.stopped = fmt::format(
        "step {} (t = {:.6g} s) left a non-finite state: {} (the solver said {}{}); the run "
        "stops there",
        step, t, DescribeNonFinite(scene, report, state), ToString(report.status),
        report.message.empty() ? "" : ": " + report.message);
  }
  return true;
}

// Adds one step's counts, maxima and accuracy measures to the run's.
void Tally(const StepReport& report, RunTally& tally) {
  RunSummary& summary = tally.summary;
  summary.max_penetration = std::max(summary.max_penetration, report.max_penetration);
  summary.max_contacts = std::max(summary.max_contacts, report.num_contacts());
  summary.max_participating_dofs =
      std::max(summary.max_participating_dofs, report.participating_dofs);
  summary.unsupported_pairs = std::max(summary.unsupported_pairs, report.unsupported_pairs);
  summary.max_step_us = std::max(summary.max_step_us, 1e6 * report.profile.Total());
  ContactMetrics& w = summary.worst;
  w.signorini = std::max(w.signorini, report.metrics.signorini);
  w.cone = std::max(w.cone, report.metrics.cone);
  w.dissipation = std::max(w.dissipation, report.metrics.dissipation);
  w.misalignment = std::max(w.misalignment, report.metrics.misalignment);
  w.gliding = std::max(w.gliding, report.metrics.gliding);
  tally.contacts_sum += report.num_contacts();
  tally.iterations_sum += report.iterations;
  tally.factorizations_sum += report.factorizations;
  tally.linearizations_sum += report.linearizations;
  tally.step_seconds_sum += report.profile.Total();
}

// Records one step: its StepRecord and, every record_every steps, the frame it started from
// with its contacts (the step that broke records its start without them).
void Record(const State& state, const StepReport& report, int step, double t, bool stop,
            int record_every, const Frame& before, Recording& recording) {
  recording.steps.push_back({step, t, report.num_contacts(), report.status, report.iterations,
                             report.residual, report.max_penetration, report.metrics,
                             report.profile});
  if (step % record_every == 0 && stop) {
    // The step that broke records where it started, without its (non-finite) contacts:
    // the outputs written so far stay valid.
    recording.frames.push_back(before);
  } else if (step % record_every == 0) {
    Frame frame = MakeFrame(state, &report);
    frame.time = before.time;
    frame.q = before.q;
    frame.v = before.v;
    frame.deformables = before.deformables;
    recording.frames.push_back(std::move(frame));
  }
}

// The Data a run starts from: scene.initial (its energy noted), or the checkpoint it resumes,
// whose state, clock, warm start, lagged SAP factor and tally so far it takes.
Data StartRun(const Scene& scene, const RunCheckpoint* resume, RunTally& tally) {
  if (resume == nullptr) {
    Data data = MakeData(scene.model, scene.initial);
    tally.summary.initial_energy = Energy(scene.model, data);
    return data;
  }
  State state;
  state.q = resume->q;
  state.v = resume->v;
  state.time = resume->initial_time;
  state.contacts = resume->contacts;
  state.deformables = resume->deformables;
  Data data = MakeData(scene.model, state);
  data.steps = resume->steps_done;
  data.state.time = data.start_time + static_cast<double>(data.steps) * scene.model.time_step;
  if (scene.model.settings.formulation->restore_carry != nullptr) {
    scene.model.settings.formulation->restore_carry(resume->carried, data.formulation);
  }
  tally = resume->tally;
  return data;
}

}  // namespace

RunSummary Simulate(const Scene& scene, Recording* recording, const ProgressCallback& progress,
                    const RunControl& control) {
  const Stopwatch clock;
  RunTally tally;
  Data data = StartRun(scene, control.resume, tally);
  data.workers = ThreadPool(control.threads);
  const State& state = data.state;
  const Model& model = scene.model;
  const int first_step = static_cast<int>(data.steps);
  RunSummary& summary = tally.summary;
  summary.scene = scene.name;
  summary.formulation = std::string(scene.model.settings.formulation->name);
  summary.solver = scene.model.settings.formulation->solver_name(scene.model.settings);
  const double wall_before = summary.wall_seconds;
  // A checkpoint that cannot be kept stops the run: the user asked not to lose this run's work.
  int checkpointed = -1;  // steps done at the last checkpoint kept
  const auto keep_checkpoint = [&](int steps_done) {
    if (!control.on_checkpoint || checkpointed == steps_done) return true;
    checkpointed = steps_done;
    summary.wall_seconds = wall_before + clock.Seconds();
    const std::string error = control.on_checkpoint(MakeCheckpoint(model, data, tally));
    if (error.empty()) return true;
    summary.stopped =
        fmt::format("checkpoint after step {} (t = {:.6g} s) could not be written: {}", steps_done,
                    state.time, error);
    return false;
  };
  const int total = scene.NumSteps();
  // The energy audit (energy_audit.h) covers rigid scenes whose actuators are explicit: SAP's
  // implicit PD drives do work that is not known outside the solver, and deformable bodies'
  // gravity work is not part of Energy().
  const FormulationSupport& supports = scene.model.settings.formulation->supports;
  const bool implicit_pd = supports.implicit_pd_drives || supports.folded_pd_drives;
  bool audit = scene.model.deformables.empty();
  for (const Actuator& a : scene.model.actuators)
    audit = audit && !(implicit_pd && a.kind == Actuator::Kind::kPd);
  const bool constrained = !scene.model.multibody.couplers.empty() ||
                           !scene.model.multibody.welds.empty() ||
                           !scene.model.multibody.distances.empty();
  Eigen::VectorXd q_before = state.q, v_before = state.v;  // reused: no allocation per step
  double kinetic = 0, potential = 0;
  if (audit) {
    multibody::CalcForwardKinematics(model.multibody, data.multibody, state.q, state.v);
    kinetic = multibody::CalcKineticEnergy(model.multibody, data.multibody);
    potential = multibody::CalcPotentialEnergy(model.multibody, data.multibody);
  }
  for (int step = first_step; step < total; ++step) {
    const double t = state.time;
    const Frame before = recording != nullptr && step % scene.record_every == 0
                             ? MakeFrame(state, nullptr)
                             : Frame{};
    if (audit) {
      q_before = state.q;
      v_before = state.v;
    }
    const StepReport& report = Step(model, data);
    const bool stop = RecordFailure(scene, report, state, step, t, summary);
    if (audit && !stop) {
      EnergyAuditInput energy{t,
                              scene.model.time_step,
                              kinetic,
                              potential,
                              0,
                              0,
                              constrained || report.num_contacts() > 0};
      multibody::CalcForwardKinematics(model.multibody, data.multibody, state.q, state.v);
      kinetic = energy.kinetic_after =
          multibody::CalcKineticEnergy(model.multibody, data.multibody);
      potential = energy.potential_after =
          multibody::CalcPotentialEnergy(model.multibody, data.multibody);
      const std::string gain = AuditStepEnergy(model.multibody, data.multibody, model.actuators,
                                               energy, q_before, v_before, state.q, state.v);
      if (!gain.empty() && report.status == LcpStatus::kSolved && summary.failed_steps++ == 0) {
        summary.first_failure = fmt::format("step {} (t = {:.6g} s): {}", step, t, gain);
      }
    }
    Tally(report, tally);
    if (recording != nullptr)
      Record(state, report, step, t, stop, scene.record_every, before, *recording);
    summary.steps = step + 1;
    if (stop) break;
    if (control.checkpoint_every > 0 && (step + 1) % control.checkpoint_every == 0 &&
        !keep_checkpoint(step + 1)) {
      break;
    }
    if (progress && !progress(step + 1, total)) break;
  }
  if (summary.stopped.empty()) {
    if (recording != nullptr) recording->frames.push_back(MakeFrame(state, nullptr));
    // A run that progress stopped early checkpoints where it stopped: that is how one pauses.
    if (control.checkpoint_at_end) keep_checkpoint(summary.steps);
  }
  summary.sim_time = state.time;
  summary.final_energy = Energy(model, data);
  summary.state_hash = HashState(state);
  summary.wall_seconds = wall_before + clock.Seconds();
  if (summary.steps > 0) {
    summary.mean_step_us = 1e6 * tally.step_seconds_sum / summary.steps;
    summary.mean_contacts = tally.contacts_sum / summary.steps;
    summary.mean_iterations = tally.iterations_sum / summary.steps;
    summary.mean_factorizations = tally.factorizations_sum / summary.steps;
    summary.mean_linearizations = tally.linearizations_sum / summary.steps;
  }
  return summary;
}

}  // namespace coulomb::sim
