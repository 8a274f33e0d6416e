#include "coulomb/sim/simulate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "coulomb/base/stopwatch.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/energy_audit.h"

namespace coulomb::sim {
namespace {

double Energy(const Scene& scene, multibody::Data& data, const State& state) {
  multibody::CalcForwardKinematics(scene.model, data, state.q, state.v);
  double energy = multibody::CalcKineticEnergy(scene.model, data) +
                  multibody::CalcPotentialEnergy(scene.model, data);
  for (std::size_t d = 0; d < state.deformables.size(); ++d) {
    energy += fem::CalcEnergy(scene.deformables.bodies[d], state.deformables[d]);
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
    const fem::DeformableContact& c = report->deformable_contacts[k];
    const Eigen::Vector3d impulse =
        report->deformable_impulses.segment<3>(3 * static_cast<Eigen::Index>(k));
    frame.contacts.push_back({-2, c.rigid_body, c.point, c.normal, c.phi, impulse,
                              math::ContactFrame(c.normal) * impulse});
  }
  return frame;
}

}  // namespace

namespace {

// FNV-1a over the raw bytes of n doubles.
std::uint64_t HashBytes(std::uint64_t hash, const double* data, Eigen::Index n) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < static_cast<std::size_t>(n) * sizeof(double); ++i) {
    hash = (hash ^ bytes[i]) * 1099511628211ull;
  }
  return hash;
}

}  // namespace

std::uint64_t HashState(const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const std::uint64_t hash = HashBytes(1469598103934665603ull, q.data(), q.size());
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

// Notes the first solver switch, counts a failed step (keeping the first one's message) and
// says whether the run must stop: a step that could not be computed at all (an inverted
// element, a singular system) or a state that is no longer finite would make every later frame
// garbage.
bool RecordFailure(const StepReport& report, const State& state, int step, double t,
                   RunSummary& summary) {
  if (!report.solver_switch.empty() && summary.solver_switch.empty()) {
    summary.solver_switch =
        fmt::format("step {} (t = {:.6g} s): {}", step, t, report.solver_switch);
  }
  if (report.status != LcpStatus::kSolved && summary.failed_steps++ == 0) {
    summary.first_failure = fmt::format("step {} (t = {:.6g} s): {}: {}", step, t,
                                        ToString(report.status), report.message);
  }
  const bool broken =
      report.status == LcpStatus::kNotApplicable || report.status == LcpStatus::kBadInput;
  if (!broken && IsFinite(state)) return false;
  summary.stopped = fmt::format("step {} (t = {:.6g} s) {} ({}: {}); the run stops there", step, t,
                                broken ? "could not be computed" : "left a non-finite state",
                                ToString(report.status), report.message);
  return true;
}

}  // namespace

RunSummary Simulate(const Scene& scene, Recording* recording, const ProgressCallback& progress) {
  const Stopwatch clock;
  RunSummary summary;
  summary.scene = scene.name;
  summary.formulation = std::string(scene.settings.formulation->name);
  summary.solver = scene.settings.formulation->solver_name(scene.settings);
  multibody::Data data = multibody::MakeData(scene.model);
  State state = scene.initial;
  summary.initial_energy = Energy(scene, data, state);
  const int total = scene.NumSteps();
  // The energy audit (energy_audit.h) covers rigid scenes whose actuators are explicit: SAP's
  // implicit PD drives do work that is not known outside the solver, and deformable bodies'
  // gravity work is not part of Energy().
  const bool implicit_pd = scene.settings.formulation->supports.implicit_pd_drives;
  bool audit = scene.deformables.empty();
  for (const Actuator& a : scene.actuators)
    audit = audit && !(implicit_pd && a.kind == Actuator::Kind::kPd);
  const bool constrained =
      !scene.model.couplers.empty() || !scene.model.welds.empty() || !scene.model.distances.empty();
  Eigen::VectorXd q_before = state.q, v_before = state.v;  // reused: no allocation per step
  double kinetic = 0, potential = 0;
  if (audit) {
    multibody::CalcForwardKinematics(scene.model, data, state.q, state.v);
    kinetic = multibody::CalcKineticEnergy(scene.model, data);
    potential = multibody::CalcPotentialEnergy(scene.model, data);
  }
  double contacts_sum = 0, iterations_sum = 0, factorizations_sum = 0, step_seconds_sum = 0;
  for (int step = 0; step < total; ++step) {
    const double t = state.time;
    // A formulation that takes PD controllers as implicit drives (SAP) is stable for any gains;
    // the others apply them as explicit torques.
    const Eigen::VectorXd tau =
        CalcActuation(scene.model, scene.actuators, t, state.q, state.v,
                      implicit_pd ? PdHandling::kImplicit : PdHandling::kExplicit);
    const std::vector<contact::JointDrive> drives =
        implicit_pd ? CalcDrives(scene.model, scene.actuators, t + scene.time_step, state.q)
                    : std::vector<contact::JointDrive>{};
    const Frame before = recording != nullptr && step % scene.record_every == 0
                             ? MakeFrame(state, nullptr)
                             : Frame{};
    if (audit) {
      q_before = state.q;
      v_before = state.v;
    }
    const StepReport report = Step(scene.model, data, scene.world, state, tau, scene.time_step,
                                   scene.settings, drives, &scene.deformables);
    // The clock is the step count times h (summing h drifts: 1000 × 1e-3 s ≠ 1 s in floating
    // point).
    state.time = scene.initial.time + (step + 1) * scene.time_step;
    const bool stop = RecordFailure(report, state, step, t, summary);
    if (audit && !stop) {
      EnergyAuditInput energy{
          t, scene.time_step, kinetic, potential, 0, 0, constrained || report.num_contacts() > 0};
      multibody::CalcForwardKinematics(scene.model, data, state.q, state.v);
      kinetic = energy.kinetic_after = multibody::CalcKineticEnergy(scene.model, data);
      potential = energy.potential_after = multibody::CalcPotentialEnergy(scene.model, data);
      const std::string gain = AuditStepEnergy(scene.model, data, scene.actuators, energy, q_before,
                                               v_before, state.q, state.v);
      if (!gain.empty() && report.status == LcpStatus::kSolved && summary.failed_steps++ == 0) {
        summary.first_failure = fmt::format("step {} (t = {:.6g} s): {}", step, t, gain);
      }
    }
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
    contacts_sum += report.num_contacts();
    iterations_sum += report.iterations;
    factorizations_sum += report.factorizations;
    step_seconds_sum += report.profile.Total();
    if (recording != nullptr) {
      recording->steps.push_back({step, t, report.num_contacts(), report.status, report.iterations,
                                  report.residual, report.max_penetration, report.metrics,
                                  report.profile});
      if (step % scene.record_every == 0) {
        Frame frame = MakeFrame(state, &report);
        frame.time = before.time;
        frame.q = before.q;
        frame.v = before.v;
        frame.deformables = before.deformables;
        recording->frames.push_back(std::move(frame));
      }
    }
    summary.steps = step + 1;
    if (stop) break;
    if (progress && !progress(step + 1, total)) break;
  }
  if (recording != nullptr && summary.stopped.empty()) {
    recording->frames.push_back(MakeFrame(state, nullptr));
  }
  summary.sim_time = state.time;
  summary.final_energy = Energy(scene, data, state);
  summary.state_hash = HashState(state);
  summary.wall_seconds = clock.Seconds();
  if (summary.steps > 0) {
    summary.mean_step_us = 1e6 * step_seconds_sum / summary.steps;
    summary.mean_contacts = contacts_sum / summary.steps;
    summary.mean_iterations = iterations_sum / summary.steps;
    summary.mean_factorizations = factorizations_sum / summary.steps;
  }
  return summary;
}

}  // namespace coulomb::sim
