#include "coulomb/sim/scene.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

#include "coulomb/multibody/dof_blocks.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::sim {

int Scene::NumSteps() const {
  return static_cast<int>(std::llround(duration / model.time_step));
}

std::string ValidateScene(const Scene& scene) {
  if (std::string defect = scene.model.multibody.Validate(); !defect.empty()) return defect;
  if (std::string defect = scene.model.world.Validate(); !defect.empty()) return defect;
  if (!(std::isfinite(scene.model.time_step) && scene.model.time_step > 0)) {
    return fmt::format("time_step = {} s must be positive and finite", scene.model.time_step);
  }
  if (!(std::isfinite(scene.duration) && scene.duration >= 0)) {
    return fmt::format("duration = {} s must be nonnegative and finite", scene.duration);
  }
  if (scene.duration / scene.model.time_step > 1e9) {
    return fmt::format("duration / time_step = {:.3g} steps is more than 1e9",
                       scene.duration / scene.model.time_step);
  }
  if (std::string defect = fem::ValidateDeformableModel(
          scene.model.deformables, static_cast<int>(scene.model.multibody.bodies.size()));
      !defect.empty()) {
    return defect;
  }
  if (scene.model.settings.formulation == nullptr) return "no formulation is selected";
  if (!scene.model.deformables.empty() &&
      !scene.model.settings.formulation->supports.deformable_bodies) {
    return fmt::format(
        "deformable bodies need a formulation that couples them ({2}; the scene uses {1}): set "
        "formulation: {0} at the top level of the scene or run with --formulation {0}",
        FirstFormulationSupporting(&FormulationSupport::preferred_for_deformables)->name,
        scene.model.settings.formulation->name,
        FormulationsSupporting(&FormulationSupport::deformable_bodies));
  }
  if (std::string defect = ValidateState(scene.model, scene.initial); !defect.empty()) {
    return "initial state: " + defect;
  }
  if (scene.record_every < 1)
    return fmt::format("record_every = {} must be >= 1", scene.record_every);
  return "";
}

std::string ConstraintsIgnoredBy(const Scene& scene) {
  if (scene.model.settings.formulation->supports.joint_limits) return "";
  const multibody::Model& m = scene.model.multibody;
  // Joint limits are contacts to the other formulations (contact::LimitContact), and couplers
  // (mimic joints) within one DoF block (a tree) a change of variables every formulation applies
  // (contact/contact_problem.h); only a coupler between two trees needs constraints.
  const std::vector<int> block = multibody::BlockOfVelocity(m, multibody::FindDofBlocks(m));
  std::size_t holonomic = m.welds.size() + m.distances.size();
  for (const multibody::JointCoupler& c : m.couplers) {
    holonomic += block[m.bodies[c.body].v_index] != block[m.bodies[c.mimicked_body].v_index];
  }
  std::vector<std::string> frictional;  // joints with Coulomb friction: SAP's box rows alone
  for (const multibody::Body& b : m.bodies) {
    if (b.friction > 0) frictional.push_back(b.joint_name);
  }
  if (holonomic == 0 && frictional.empty()) return "";
  std::string ignored;
  if (holonomic > 0) {
    ignored =
        fmt::format("{} weld/distance constraint(s) or coupler(s) between two trees", holonomic);
  }
  if (!frictional.empty()) {
    ignored += fmt::format("{}the friction of {} joint(s) ({})", ignored.empty() ? "" : " and ",
                           frictional.size(), fmt::join(frictional, ", "));
  }
  return fmt::format("the {} formulation ignores {}; use --formulation {} to enforce them",
                     scene.model.settings.formulation->name, ignored,
                     FormulationsSupporting(&FormulationSupport::joint_limits));
}

}  // namespace coulomb::sim
