// Deformable bodies glued to rigid bodies (vertex attachments, paper 2's bubbles on the gripper's
// fingers) under every formulation that couples them: SAP enforces the attachments as holonomic
// rows, the cone and the velocity LCP carry attached vertices with their tree (mixed_layout.h).
// Checked against free fall, the weights the ground carries at rest, and the glued vertices'
// distance from their body points.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "coulomb/fem/corotated_linear.h"
#include "coulomb/sim/simulate.h"
#include "tests/support/deformable_scenes.h"

namespace coulomb {
namespace {

using testing::ImpulseOn;
using testing::LoadScene;
using testing::Mass;
using testing::StepScene;
using testing::WorstAttachmentGap;

constexpr double kG = 9.81;

class EveryCouplingFormulation : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Formulations, EveryCouplingFormulation,
                         ::testing::Values("sap", "cone", "velocity-lcp"), [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST_P(EveryCouplingFormulation, AttachedVerticesFollowTheirRigidBody) {
  // A soft block hangs under a free rigid plate by its top face; both fall freely: the plate's
  // fall is exactly ballistic and the attached vertices stay on their body points.
  const sim::Scene scene = LoadScene(R"(
coulomb: 1
time_step: 0.005
formulation: sap
bodies:
  - {name: plate, mass: 1.0, position: [0, 0, 1.0],
     shapes: [{type: box, size: [0.2, 0.2, 0.02]}]}
deformables:
  - {name: pad, mesh: {type: box, size: [0.1, 0.1, 0.1], cells: [2, 2, 2]},
     position: [0, 0, 0.94], youngs_modulus: 1.0e5, stiffness_damping: 0.01,
     attach: [{body: plate, min: [-1, -1, 0.989], max: [1, 1, 1]}]}
)",
                                     GetParam());
  ASSERT_EQ(scene.model.deformables.attachments.size(), 9u);
  sim::State state = scene.initial;
  const int steps = 60;
  StepScene(scene, state, steps);
  const double t = steps * scene.model.time_step;
  ASSERT_EQ(scene.model.multibody.FindBody("plate"), 0);
  // Free fall of the whole assembly, as semi-implicit Euler gives it: −g δt² n (n + 1)/2.
  EXPECT_NEAR(state.q[2], 1.0 - 0.5 * kG * scene.model.time_step * t * (steps + 1), 1e-6);
  EXPECT_LT(WorstAttachmentGap(scene, state), 1e-5);
}

// A soft bar whose ends are glued to two free plates: one body attached to two trees.
const char* const kBarBetweenTwoPlates = R"(
coulomb: 1
time_step: 0.005
formulation: sap
bodies:
  - {name: left, mass: 1.0, position: [-0.11, 0, 1.0], velocity: [0, 0, 2.0],
     shapes: [{type: box, size: [0.02, 0.2, 0.2]}]}
  - {name: right, mass: 1.0, position: [0.11, 0, 1.0],
     shapes: [{type: box, size: [0.02, 0.2, 0.2]}]}
deformables:
  - {name: bar, mesh: {type: box, size: [0.2, 0.05, 0.05], cells: [4, 1, 1]},
     position: [0, 0, 1.0], youngs_modulus: 1.0e5, stiffness_damping: 0.01,
     attach: [{body: left, min: [-0.101, -1, 0], max: [-0.099, 1, 2]},
              {body: right, min: [0.099, -1, 0], max: [0.101, 1, 2]}]}
)";

TEST(DeformableCoupling, SapCarriesABodyAttachedToTwoTreesAsItsOwnBlock) {
  // SAP enforces attachments as constraint rows, so the bar keeps a block of its own between the
  // two plates' trees. The left plate is thrown up at 2 m/s and drags the bar and the right plate
  // along: the glued vertices stay on their plate points, the right plate rises far above its
  // free fall, and the attachments' impulses, equal and opposite, leave the assembly's centre of
  // mass (plates and lumped vertex masses) on its ballistic path.
  const sim::Scene scene = LoadScene(kBarBetweenTwoPlates);
  ASSERT_EQ(scene.model.deformables.attachments.size(), 8u);
  const fem::FemBody& bar = scene.model.deformables.bodies[0];
  const Eigen::VectorXd m = fem::LumpedMass(bar.tets, bar.rest.num_vertices(), bar.density);
  const multibody::Model& rigid = scene.model.multibody;
  const int left = rigid.FindBody("left"), right = rigid.FindBody("right");
  const auto height = [&](const sim::State& s, int body) {
    return s.q[rigid.bodies[body].q_index + 2];
  };
  const auto centre_height = [&](const sim::State& s) {  // plates of 1 kg each
    return (height(s, left) + height(s, right) + m.dot(s.deformables[0].x.row(2).transpose())) /
           (2 + m.sum());
  };
  sim::State state = scene.initial;
  const double z0 = centre_height(state);
  const int steps = 60;
  StepScene(scene, state, steps);
  const double h = scene.model.time_step, t = steps * h;
  const double fall = 0.5 * kG * h * h * steps * (steps + 1);  // semi-implicit Euler
  EXPECT_NEAR(centre_height(state), z0 + 2.0 / (2 + m.sum()) * t - fall, 1e-5);
  EXPECT_GT(height(state, right), 1.0 - fall + 0.1);
  EXPECT_LT(WorstAttachmentGap(scene, state), 1e-4);
}

TEST(DeformableCoupling, ContactLevelFormulationsRefuseABodyAttachedToTwoTreesByName) {
  // The cone and the velocity LCP substitute attached vertices into their tree's block, which
  // two trees would merge: the step says so, naming the body and both rigid bodies, and points
  // to SAP.
  for (const char* formulation : {"cone", "velocity-lcp"}) {
    const sim::Scene scene = LoadScene(kBarBetweenTwoPlates, formulation);
    sim::Data data = sim::MakeData(scene.model, scene.initial);
    const sim::StepReport report = sim::Step(scene.model, data);
    EXPECT_EQ(report.status, LcpStatus::kNotApplicable) << formulation;
    for (const char* name : {"'bar'", "'left'", "'right'", "--formulation sap"}) {
      EXPECT_NE(report.message.find(name), std::string::npos)
          << formulation << ": " << report.message;
    }
  }
}

TEST_P(EveryCouplingFormulation, RigidPlateOnAnAttachedSoftPadRestsOnTheGround) {
  // A 1 kg plate carries a soft pad glued under it by the pad's top face; the pad stands on the
  // ground. At rest the ground carries both weights through the pad's contacts, and the glued
  // vertices stay on their plate points.
  const sim::Scene scene = LoadScene(R"(
coulomb: 1
time_step: 0.005
formulation: sap
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, friction: 0.5}]}
  - {name: plate, mass: 1.0, position: [0, 0, 0.12],
     shapes: [{type: box, size: [0.2, 0.2, 0.02], friction: 0.5}]}
deformables:
  - {name: pad, mesh: {type: box, size: [0.1, 0.1, 0.1], cells: [2, 2, 2]},
     position: [0, 0, 0.06], youngs_modulus: 1.0e5, stiffness_damping: 0.01, friction: 0.5,
     attach: [{body: plate, min: [-1, -1, 0.109], max: [1, 1, 0.111]}]}
)",
                                     GetParam());
  ASSERT_EQ(scene.model.deformables.attachments.size(), 9u);
  sim::State state = scene.initial;
  const sim::StepReport last = StepScene(scene, state, 300);
  const double h = scene.model.time_step;
  const double weight_impulse = (1.0 + Mass(scene.model.deformables.bodies[0])) * kG * h;
  const Eigen::Vector3d on_pad = ImpulseOn(last, 0, -1, -1);
  EXPECT_NEAR(on_pad.z(), weight_impulse, 2e-3 * weight_impulse);
  EXPECT_LT(on_pad.head<2>().norm(), 1e-6 * weight_impulse);
  EXPECT_LT(state.v.norm(), 1e-3);
  EXPECT_LT(WorstAttachmentGap(scene, state), 1e-4);
}

TEST_P(EveryCouplingFormulation, SoftBlockHangingFromTheWorldSagsAndSettles) {
  // Vertices attached to the world (or to a fixed body, which scenes fold into the world) are
  // Dirichlet vertices: exactly still.
  const sim::Scene scene = LoadScene(R"(
coulomb: 1
time_step: 0.01
formulation: sap
deformables:
  - {name: pad, mesh: {type: box, size: [0.1, 0.1, 0.1], cells: [2, 2, 2]},
     position: [0, 0, 0.94], youngs_modulus: 1.0e5, stiffness_damping: 0.02,
     attach: [{body: world, min: [-1, -1, 0.989], max: [1, 1, 1]}]}
)",
                                     GetParam());
  ASSERT_EQ(scene.model.deformables.bodies[0].fixed_vertices.size(), 9u);
  sim::State state = scene.initial;
  StepScene(scene, state, 200);
  const fem::FemBody& body = scene.model.deformables.bodies[0];
  for (const int a : body.fixed_vertices) {
    EXPECT_EQ(state.deformables[0].x.col(a), body.rest.vertices.col(a));
  }
  EXPECT_LT(state.deformables[0].v.cwiseAbs().maxCoeff(), 1e-4);
  // The block stretched under its weight: its bottom hangs lower than at rest, by about
  // ρ g L² / (2E) = 5e-4 m for a bar (the block is short and wide, so less).
  const double sag =
      body.rest.vertices.row(2).minCoeff() - state.deformables[0].x.row(2).minCoeff();
  EXPECT_GT(sag, 5e-5);
  EXPECT_LT(sag, 1e-3);
}

}  // namespace
}  // namespace coulomb
