#include "coulomb/sim/checkpoint.h"

#include <fmt/format.h>

#include <cmath>

namespace coulomb::sim {

RunCheckpoint MakeCheckpoint(const Model& model, const Data& data, const RunTally& tally) {
  const State& state = data.state;
  RunCheckpoint c;
  c.steps_done = static_cast<int>(data.steps);
  c.initial_time = data.start_time;
  c.time_step = model.time_step;
  c.formulation = std::string(model.settings.formulation->name);
  c.q = state.q;
  c.v = state.v;
  c.contacts = state.contacts;
  c.deformables = state.deformables;
  if (model.settings.formulation->save_carry != nullptr) {
    c.carried = model.settings.formulation->save_carry(data.formulation);
  }
  c.tally = tally;
  return c;
}

std::string CheckResumable(const Scene& scene, const RunCheckpoint& c) {
  // The time step is compared bit for bit: a resumed run must take the very steps the
  // interrupted one would have.
  if (c.time_step != scene.model.time_step) {
    return fmt::format("it was written with time step {} s, the scene has {} s", c.time_step,
                       scene.model.time_step);
  }
  if (c.formulation != scene.model.settings.formulation->name) {
    return fmt::format("it was written by formulation {}, the scene runs {}", c.formulation,
                       scene.model.settings.formulation->name);
  }
  if (c.q.size() != scene.model.multibody.nq || c.v.size() != scene.model.multibody.nv) {
    return fmt::format("its state has nq = {}, nv = {}; the scene's model has nq = {}, nv = {}",
                       c.q.size(), c.v.size(), scene.model.multibody.nq, scene.model.multibody.nv);
  }
  if (c.deformables.size() != scene.model.deformables.bodies.size()) {
    return fmt::format("it holds {} deformable bodies, the scene {}", c.deformables.size(),
                       scene.model.deformables.bodies.size());
  }
  for (std::size_t d = 0; d < c.deformables.size(); ++d) {
    const fem::FemBody& body = scene.model.deformables.bodies[d];
    const fem::FemState& s = c.deformables[d];
    if (s.x.cols() != body.rest.num_vertices() || s.v.cols() != body.rest.num_vertices() ||
        static_cast<int>(s.R0.size()) != body.rest.num_tets()) {
      return fmt::format(
          "deformable body '{}' has {} vertices and {} tets in the scene, {} and {} in it",
          body.name, body.rest.num_vertices(), body.rest.num_tets(), s.x.cols(), s.R0.size());
    }
  }
  if (c.steps_done < 0 || c.steps_done > scene.NumSteps()) {
    return fmt::format(
        "it is after step {}, and the scene's duration {} s has {} steps (give a longer "
        "duration to run on from it)",
        c.steps_done, scene.duration, scene.NumSteps());
  }
  if (c.initial_time != scene.initial.time || !std::isfinite(c.initial_time)) {
    return fmt::format("its run started at t = {} s, the scene starts at {} s", c.initial_time,
                       scene.initial.time);
  }
  if (!c.q.allFinite() || !c.v.allFinite()) return "its state is not finite";
  for (const fem::FemState& s : c.deformables) {
    if (!s.x.allFinite() || !s.v.allFinite()) return "a deformable body's state is not finite";
  }
  if (!c.tally.summary.stopped.empty()) {
    return "it records a run that stopped (" + c.tally.summary.stopped + ")";
  }
  return "";
}

}  // namespace coulomb::sim
