#include "coulomb/sim/step.h"

#include <fmt/format.h>

#include <algorithm>

#include "coulomb/base/stopwatch.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/sap/deformable_coupling.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::sim {
namespace {

// J̇ v by a forward difference along the motion: the contact velocities of the same contacts
// (matched by id) detected afresh at q ⊕ δ v, so contact points move as they do in rolling and
// the rate is that of the contact, not of a material point. Unmatched contacts get zero.
Eigen::VectorXd ContactVelocityRate(const multibody::Model& model, multibody::Data& data,
                                    const geometry::CollisionWorld& world, const State& state,
                                    const contact::ContactProblem& problem,
                                    const geometry::ContactSet& contacts,
                                    const std::vector<double>& reach) {
  constexpr double kDelta = 1e-7;  // s: the FD error O(δ) is far below the drift correction
  const int nc = problem.num_contacts();
  Eigen::VectorXd rate = Eigen::VectorXd::Zero(3 * nc);
  const Eigen::VectorXd q = multibody::IntegrateConfiguration(model, state.q, state.v, kDelta);
  multibody::CalcForwardKinematics(model, data, q, state.v);
  const geometry::ContactDetection moved = geometry::FindContacts(world, data.X_world, reach);
  geometry::ContactSet matched;
  std::vector<int> index;
  for (int k = 0; k < nc; ++k) {
    for (const geometry::Contact& c : moved.contacts.contacts) {
      if (c.id != 0 && c.id == contacts.contacts[k].id) {
        matched.contacts.push_back(c);
        index.push_back(k);
        break;
      }
    }
  }
  if (matched.contacts.empty()) return rate;
  const contact::ContactProblem later = contact::BuildContactProblem(
      model, data, q, state.v, Eigen::VectorXd::Zero(model.nv), matched, problem.time_step);
  const Eigen::VectorXd u_later = later.J * state.v, u_now = problem.J * state.v;
  for (std::size_t i = 0; i < index.size(); ++i) {
    rate.segment<3>(3 * index[i]) =
        (u_later.segment<3>(3 * static_cast<Eigen::Index>(i)) - u_now.segment<3>(3 * index[i])) /
        kDelta;
  }
  return rate;
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
  participating_dofs = 0;
}

StepWorkspace::StepWorkspace() : report(std::make_unique<StepReport>()) {}
StepWorkspace::~StepWorkspace() = default;
StepWorkspace::StepWorkspace(const StepWorkspace& other)
    : problem(other.problem),
      solution(other.solution),
      warm_start(other.warm_start),
      report(std::make_unique<StepReport>(*other.report)) {}
StepWorkspace& StepWorkspace::operator=(const StepWorkspace& other) {
  if (this != &other) *this = StepWorkspace(other);
  return *this;
}
StepWorkspace::StepWorkspace(StepWorkspace&&) noexcept = default;
StepWorkspace& StepWorkspace::operator=(StepWorkspace&&) noexcept = default;

State MakeRestState(const multibody::Model& model) {
  State state;
  state.q = model.NeutralConfiguration();
  state.v = Eigen::VectorXd::Zero(model.nv);
  return state;
}

const StepReport& Step(const multibody::Model& model, multibody::Data& data,
                       const geometry::CollisionWorld& world, State& state,
                       const Eigen::VectorXd& tau, double h, const FormulationSettings& settings,
                       const std::vector<contact::JointDrive>& drives,
                       const fem::DeformableModel* deformables) {
  if (deformables != nullptr && deformables->empty()) deformables = nullptr;
  if (state.step.report == nullptr) state.step.report = std::make_unique<StepReport>();
  StepReport& report = *state.step.report;
  report.Reset();
  Stopwatch clock;
  // 1. Contacts at the current poses, out to how far each geometry can travel in the step.
  multibody::CalcForwardKinematics(model, data, state.q, state.v);
  std::vector<double>& reach = state.step.reach;
  geometry::SpeculativeReach(world, data.velocity, h, reach);
  geometry::ContactDetection& detection = state.step.detection;
  geometry::FindContacts(world, data.X_world, reach, state.step.collision, detection);
  report.unsupported_pairs = detection.unsupported_pairs;
  for (const geometry::Contact& c : detection.contacts.contacts) {
    report.max_penetration = std::max(report.max_penetration, -c.phi);
  }
  if (deformables != nullptr) {
    report.deformable_contacts = fem::FindDeformableContacts(*deformables, state.deformables, world,
                                                             data.X_world, world.margin, h);
    for (const fem::DeformableContact& c : report.deformable_contacts) {
      report.max_penetration = std::max(report.max_penetration, -c.phi);
    }
  }
  report.profile.collision = clock.Lap();
  // 2. The contact problem of this step.
  contact::ContactProblem& problem = state.step.problem;
  contact::BuildContactProblem(model, data, state.q, state.v, tau, detection.contacts, h, problem);
  problem.drives = drives;
  if (settings.formulation->supports.contact_velocity_rate) {
    problem.contact_velocity_rate =
        ContactVelocityRate(model, data, world, state, problem, detection.contacts, reach);
  }
  report.profile.assembly = clock.Lap();
  // 3. The formulation, warm-started from the contacts that persist.
  std::vector<Eigen::VectorXd> deformable_v;
  ContactSolution& solution = state.step.solution;
  if (deformables != nullptr) {
    const CoupledStepInput input{
        &problem, &model, &data, deformables, &state.deformables, &report.deformable_contacts};
    CoupledSolution coupled =
        SolveCoupledSapStep(input, settings.sap, &state.workspace.sap_factorization);
    solution = std::move(coupled.rigid);
    deformable_v = std::move(coupled.v);
    report.deformable_impulses = std::move(coupled.impulses);
    report.participating_dofs = coupled.participating_dofs;
  } else {
    WarmStartContacts(detection.contacts, data.X_world, state.contacts, state.step.warm_start);
    settings.formulation->solve(problem, settings, state.step.warm_start, state.workspace,
                                solution);
  }
  report.status = solution.status;
  report.message = solution.message;
  report.solver_switch = solution.solver_switch;
  report.iterations = solution.iterations;
  report.residual = solution.residual;
  report.factor_seconds = solution.factor_seconds;
  report.factorizations = solution.factorizations;
  report.contact_velocities.noalias() = problem.J * solution.v_next;
  if (settings.measure_accuracy) {
    report.metrics =
        CalcContactMetricsFromVelocities(problem, solution.impulses, report.contact_velocities);
  }
  report.gaps = problem.phi;
  for (int k = 0; k < problem.num_contacts(); ++k) {
    report.gaps[k] += h * report.contact_velocities[3 * k];
  }
  report.profile.solve = clock.Lap();
  // 4. Advance (the solver's best answer even when uncertified; the report says so).
  state.v = solution.v_next;
  multibody::IntegrateConfigurationInPlace(model, state.v, h, state.q);
  state.time += h;
  for (std::size_t d = 0; d < deformable_v.size(); ++d) {
    fem::AdvanceFem(deformables->bodies[d], state.deformables[d], deformable_v[d], h);
  }
  RememberContacts(detection.contacts, solution.impulses, data.X_world, state.contacts);
  report.contacts = detection.contacts;
  report.impulses = solution.impulses;
  report.profile.advance = clock.Lap();
  return report;
}

}  // namespace coulomb::sim
