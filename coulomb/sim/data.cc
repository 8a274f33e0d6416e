#include "coulomb/sim/data.h"

#include <fmt/format.h>

#include <cmath>

#include "coulomb/math/dense_resize.h"

namespace coulomb::sim {

State MakeRestState(const multibody::Model& model) {
  State state;
  state.q = model.NeutralConfiguration();
  state.v = Eigen::VectorXd::Zero(model.nv);
  return state;
}

Data MakeData(const Model& model, const State& initial) {
  Data data;
  data.state = initial;
  data.start_time = initial.time;
  data.multibody = multibody::MakeData(model.multibody);
  ReserveContacts(model, data, EstimateContactCapacity(model));
  return data;
}

int EstimateContactCapacity(const Model& model) {
  int moving = 0;
  for (const geometry::CollisionGeometry& g : model.world.geometries) moving += g.body >= 0;
  return kContactsPerMovingGeometry * moving;
}

void ReserveContacts(const Model& model, Data& data, int contacts) {
  const contact::ContactCapacity capacity =
      contact::MakeContactCapacity(contacts, model.multibody, data.multibody);
  const Eigen::Index n = capacity.contacts;
  const auto count = static_cast<std::size_t>(n);
  StepWorkspace& w = data.step;
  geometry::ReserveContacts(capacity.contacts, w.collision, w.detection);
  contact::ReserveContacts(capacity, w.problem);
  math::ReserveStorage(w.warm_start, 3 * n);
  math::ReserveStorage(w.solution.impulses, 3 * n);
  data.state.contacts.reserve(count);
  StepReport& report = data.report;
  report.contacts.contacts.reserve(count);
  math::ReserveStorage(report.contact_velocities, 3 * n);
  math::ReserveStorage(report.gaps, n);
  math::ReserveStorage(report.impulses, 3 * n);
  const Formulation& formulation = *model.settings.formulation;
  if (formulation.reserve != nullptr)
    formulation.reserve(capacity, model.settings, data.formulation);
}

std::string FirstNonFinite(const Eigen::Ref<const Eigen::VectorXd>& values, std::string_view name) {
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) return fmt::format("{}[{}] = {}", name, i, values[i]);
  }
  return "";
}

namespace {

// How far a quaternion's norm may be from 1: what a user writing rounded values gets away with;
// anything further off (a zero quaternion above all) is a mistake, not rounding.
constexpr double kQuaternionNormTolerance = 1e-3;

}  // namespace

std::string ValidateState(const Model& model, const State& state) {
  const multibody::Model& m = model.multibody;
  if (state.q.size() != m.nq || state.v.size() != m.nv) {
    return fmt::format("the state has {} positions and {} velocities, the model {} and {}",
                       state.q.size(), state.v.size(), m.nq, m.nv);
  }
  if (!std::isfinite(state.time)) return fmt::format("time = {} s is not finite", state.time);
  if (std::string bad = FirstNonFinite(state.q, "q"); !bad.empty()) return bad + " is not finite";
  if (std::string bad = FirstNonFinite(state.v, "v"); !bad.empty()) return bad + " is not finite";
  for (const multibody::Body& b : m.bodies) {
    const bool ball = b.joint == multibody::JointType::kBall;
    if (!ball && b.joint != multibody::JointType::kFloating) continue;
    const int at = b.q_index + (ball ? 0 : 3);
    const double norm = state.q.segment<4>(at).norm();
    if (std::abs(norm - 1) > kQuaternionNormTolerance) {
      return fmt::format(
          "q[{}:{}], the quaternion (w, x, y, z) of joint '{}' (body '{}'), has norm {:.6g}; it "
          "must be a unit quaternion",
          at, at + 4, b.joint_name, b.name, norm);
    }
  }
  if (state.deformables.size() != model.deformables.bodies.size()) {
    return fmt::format("the state has {} deformable bodies, the model {}", state.deformables.size(),
                       model.deformables.bodies.size());
  }
  for (std::size_t d = 0; d < state.deformables.size(); ++d) {
    const fem::FemState& f = state.deformables[d];
    const fem::FemBody& body = model.deformables.bodies[d];
    if (f.x.cols() != body.rest.num_vertices() || f.v.cols() != f.x.cols()) {
      return fmt::format(
          "deformable body '{}' has {} vertices, its state {} positions and {} velocities",
          body.name, body.rest.num_vertices(), f.x.cols(), f.v.cols());
    }
    if (!f.x.allFinite() || !f.v.allFinite()) {
      return fmt::format("deformable body '{}' has a vertex {} that is not finite",
                         model.deformables.bodies[d].name,
                         f.x.allFinite() ? "velocity" : "position");
    }
  }
  return "";
}

}  // namespace coulomb::sim
