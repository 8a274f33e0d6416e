#include "tests/support/deformable_scenes.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "coulomb/io/scene_file.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::testing {

// The scene in `yaml`, stepped by `formulation` instead of the SAP its text names.
sim::Scene LoadScene(std::string yaml, const std::string& formulation) {
  if (const auto at = yaml.find("formulation: sap"); at != std::string::npos) {
    yaml.replace(at, std::string("formulation: sap").size(), "formulation: " + formulation);
  }
  Expected<sim::Scene> scene = io::ParseScene(yaml, "deformable_test.yaml", ".");
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? "" : scene.error().ToString());
  return std::move(scene.value());
}

// Steps the scene, requiring every step to converge; returns the last report.
sim::StepReport StepScene(const sim::Scene& scene, sim::State& state, int steps,
                          double* worst_penetration) {
  sim::Data data = sim::MakeData(scene.model, state);
  sim::StepReport report;
  for (int k = 0; k < steps; ++k) {
    report = sim::Step(scene.model, data);
    EXPECT_EQ(report.status, LcpStatus::kSolved) << "step " << k << ": " << report.message;
    if (report.status != LcpStatus::kSolved) break;
    if (worst_penetration != nullptr) {
      *worst_penetration = std::max(*worst_penetration, report.max_penetration);
    }
  }
  state = data.state;
  return report;
}

// The world-frame impulse on deformable body d from its contacts with `other` (a rigid body
// index, or −1 for static geometry); other_deformable ≥ 0 selects contacts with that body.
Eigen::Vector3d ImpulseOn(const sim::StepReport& r, int d, int rigid_body, int other_deformable) {
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (std::size_t k = 0; k < r.deformable_contacts.size(); ++k) {
    const contact::DeformableContact& c = r.deformable_contacts[k];
    if (c.deformable != d || c.other != other_deformable) continue;
    if (other_deformable < 0 && c.rigid_body != rigid_body) continue;
    const Eigen::Vector3d g = r.deformable_impulses.segment<3>(3 * static_cast<Eigen::Index>(k));
    sum += math::ContactFrame(c.normal) * g;
  }
  return sum;
}

double Mass(const fem::FemBody& body) {
  return body.density * fem::TotalVolume(body.rest);
}

// Every element of every body keeps a positive volume.
bool NoInvertedElement(const sim::Scene& scene, const sim::State& state) {
  for (std::size_t d = 0; d < scene.model.deformables.bodies.size(); ++d) {
    fem::TetMesh now = scene.model.deformables.bodies[d].rest;
    now.vertices = state.deformables[d].x;
    for (int e = 0; e < now.num_tets(); ++e) {
      if (!(fem::SignedVolume(now, e) > 0)) return false;
    }
  }
  return true;
}

// The farthest an attached vertex of body 0 is from the body point it is attached to, m.
double WorstAttachmentGap(const sim::Scene& scene, const sim::State& state) {
  multibody::Data data = multibody::MakeData(scene.model.multibody);
  multibody::CalcForwardKinematics(scene.model.multibody, data, state.q, state.v);
  double worst = 0;
  for (const fem::VertexAttachment& a : scene.model.deformables.attachments) {
    worst = std::max(
        worst, (state.deformables[0].x.col(a.vertex) - data.X_world[a.body].Apply(a.p_B)).norm());
  }
  return worst;
}

}  // namespace coulomb::testing
