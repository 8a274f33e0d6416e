// Deformable bodies in one problem with rigid bodies and each other (paper 2 §V), checked against
// invariants that hold exactly at rest (the supports carry the weights), Coulomb's law on an
// incline, and mesh health (no inverted element after impacts); attachments are in
// deformable_attachment_test.cc.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "coulomb/sim/simulate.h"
#include "tests/support/build_paths.h"
#include "tests/support/deformable_scenes.h"

namespace coulomb {
namespace {

using testing::ImpulseOn;
using testing::LoadScene;
using testing::Mass;
using testing::NoInvertedElement;
using testing::StepScene;

constexpr double kG = 9.81;

const char* const kGround = R"(
coulomb: 1
time_step: 0.01
formulation: sap
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, friction: 0.5}]}
)";

// A 0.2 m cube of soft material (8 kg), 1 cm above the ground when `at` is 0.11.
std::string Cube(double at, double youngs_modulus) {
  return fmt::format(R"(
deformables:
  - {{name: cube, mesh: {{type: box, size: [0.2, 0.2, 0.2], cells: [3, 3, 3]}},
     position: [0, 0, {}], youngs_modulus: {}, density: 1000, stiffness_damping: 0.01,
     friction: 0.5}}
)",
                     at, youngs_modulus);
}

// The ground carries exactly the cube's weight in the last step, with no sideways push, and the
// cube is at rest.
void ExpectRestingOnTheGround(const sim::Scene& scene, const sim::State& state,
                              const sim::StepReport& last) {
  const double weight_impulse =
      Mass(scene.model.deformables.bodies[0]) * kG * scene.model.time_step;
  const Eigen::Vector3d impulse = ImpulseOn(last, 0, -1, -1);
  EXPECT_NEAR(impulse.z(), weight_impulse, 1e-3 * weight_impulse);
  EXPECT_LT(impulse.head<2>().norm(), 1e-6 * weight_impulse);
  EXPECT_LT(state.deformables[0].v.cwiseAbs().maxCoeff(), 1e-3);
}

// The formulations that couple deformable bodies: SAP's regularized cone, and the exact cone and
// friction pyramid on the Schur-complement blocks of one ContactProblem (mixed_step.h). Each test
// below checks the same closed form under all three.
class EveryCouplingFormulation : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Formulations, EveryCouplingFormulation,
                         ::testing::Values("sap", "cone", "velocity-lcp"), [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });
// The compliant surface on a stiff cube (E = 10 MPa, 64 polygon springs) under SAP and the exact
// cone only: the velocity LCP's Lemke runs on it missed the 1e-10 certificate from step 30 (worst
// measure 3e-7 to 5e-6), the stiff block's Schur complement being too ill-conditioned for pivoting.
class ConeCouplingFormulation : public ::testing::TestWithParam<std::string> {};
INSTANTIATE_TEST_SUITE_P(Formulations, ConeCouplingFormulation, ::testing::Values("sap", "cone"));

TEST_P(EveryCouplingFormulation, SoftCubeSettlesOnTheGroundCarryingItsWeight) {
  const sim::Scene scene = LoadScene(std::string(kGround) + Cube(0.11, 1e5), GetParam());
  sim::State state = scene.initial;
  double penetration = 0;
  const sim::StepReport last = StepScene(scene, state, 200, &penetration);
  EXPECT_EQ(last.deformable_contacts.size(), 16u);  // the 4 × 4 bottom vertices
  EXPECT_LT(last.participating_dofs, 3 * scene.model.deformables.bodies[0].rest.num_vertices());
  ExpectRestingOnTheGround(scene, state, last);
  EXPECT_LT(penetration, 1e-3);
}

// The same cube with surface-polygon contacts (three-vertex Jacobians at each polygon's
// centroid): the ground still carries exactly its weight, with no sideways push, and the bottom
// face rests within twice the search distance of the ground (the centroids, not the vertices,
// reach the surface: deformable_polygon_contacts.h).
TEST_P(EveryCouplingFormulation, SoftCubeOnSurfacePolygonsCarriesItsWeight) {
  const sim::Scene scene =
      LoadScene(std::string(kGround) + "contact_margin: 0.001\ndeformable_contact: surface\n" +
                    Cube(0.11, 1e5),
                GetParam());
  sim::State state = scene.initial;
  const sim::StepReport last = StepScene(scene, state, 200, nullptr);
  ASSERT_FALSE(last.deformable_contacts.empty());
  for (const contact::DeformableContact& c : last.deformable_contacts) EXPECT_GE(c.triangle, 0);
  ExpectRestingOnTheGround(scene, state, last);
  EXPECT_GT(state.deformables[0].x.row(2).minCoeff(), -2 * 0.001);
}

// Compliant surface polygons: a pressure g·(−φ) over the overlap. The cube then sinks until
// g δ A carries its weight W: δ = W / (A g) = 78.5 N / (0.04 m² · 10⁶ Pa/m) ≈ 1.96 mm. The sunk
// strips of its sides add a little (≈ 2 %), the bulge of its bottom under the load a little.
TEST_P(ConeCouplingFormulation, CompliantSurfaceSinksUnderItsWeightByTheClosedForm) {
  const sim::Scene scene = LoadScene(
      std::string(kGround) + "deformable_contact: surface\nsurface_contact_stiffness: 1.0e6\n" +
          Cube(0.1, 1e7),
      GetParam());
  sim::State state = scene.initial;
  const sim::StepReport last = StepScene(scene, state, 300, nullptr);
  ExpectRestingOnTheGround(scene, state, last);
  const fem::FemBody& body = scene.model.deformables.bodies[0];
  double sum = 0;
  int count = 0;
  for (int v = 0; v < body.rest.num_vertices(); ++v) {
    if (body.rest.vertices(2, v) < body.rest.vertices.row(2).minCoeff() + 1e-9) {
      sum += state.deformables[0].x(2, v);
      ++count;
    }
  }
  const double weight = Mass(body) * kG;
  const double sink = -sum / count, expected = weight / (0.04 * 1e6);
  EXPECT_NEAR(sink, expected, 0.05 * expected);
}

TEST(DeformableCoupling, NonlinearMaterialsSettleLikeTheCorotatedOneUnderSmallStrain) {
  // A stiff cube (strain ~1e-4) resting on the ground: Neo-Hookean (E, ν) and Mooney–Rivlin
  // with the same small-strain moduli must deform like the corotated model, and the ground
  // must carry the weight.
  const auto settle = [](const std::string& material) {
    const sim::Scene scene = LoadScene(std::string(kGround) + R"(
deformables:
  - {name: cube, mesh: {type: box, size: [0.2, 0.2, 0.2], cells: [3, 3, 3]},
     position: [0, 0, 0.1], youngs_modulus: 1.0e6, poisson_ratio: 0.3, density: 1000,
     stiffness_damping: 0.01, )" + material +
                                       "}\n");
    sim::State state = scene.initial;
    const sim::StepReport last = StepScene(scene, state, 100);
    const double weight_impulse =
        Mass(scene.model.deformables.bodies[0]) * kG * scene.model.time_step;
    EXPECT_NEAR(ImpulseOn(last, 0, -1, -1).z(), weight_impulse, 1e-3 * weight_impulse) << material;
    return Eigen::Matrix3Xd(state.deformables[0].x -
                            scene.model.deformables.bodies[0].rest.vertices);
  };
  const Eigen::Matrix3Xd corotated = settle("material: corotated");
  // The consistent mass changes the dynamics, not the rest state.
  EXPECT_LT((settle("mass: consistent") - corotated).cwiseAbs().maxCoeff(),
            0.02 * corotated.cwiseAbs().maxCoeff());
  // E = 1 MPa, ν = 0.3: μ = 384.6 kPa = 2 (C1 + C2), κ = 833.3 kPa.
  for (const std::string material :
       {"material: neohookean",
        "material: mooney_rivlin, mooney_rivlin: {c1: 1.2e5, c2: 7.23e4, bulk_modulus: 8.333e5}"}) {
    const Eigen::Matrix3Xd u = settle(material);
    EXPECT_LT((u - corotated).cwiseAbs().maxCoeff(), 0.02 * corotated.cwiseAbs().maxCoeff())
        << material;
  }
}

TEST(DeformableCoupling, NeoHookeanCubeSquashedByAHeavyBoxDoesNotInvert) {
  const sim::Scene scene = LoadScene(std::string(kGround) + R"(
  - {name: weight, mass: 50.0, position: [0, 0, 0.23],
     shapes: [{type: box, size: [0.3, 0.3, 0.05], friction: 0.5}]}
deformables:
  - {name: cube, mesh: {type: box, size: [0.2, 0.2, 0.2], cells: [3, 3, 3]},
     position: [0, 0, 0.1], material: neohookean, youngs_modulus: 2.0e4, poisson_ratio: 0.4,
     stiffness_damping: 0.02}
)");
  sim::State state = scene.initial;
  StepScene(scene, state, 200);
  EXPECT_TRUE(NoInvertedElement(scene, state));
  // 490 N on 0.04 m² (12 kPa) at μ = 7.1 kPa: an incompressible Neo-Hookean bar with free
  // ends would shorten to λ = 0.655 (P = μ (λ − λ⁻²)), 0.131 m; the ends held by friction
  // stiffen it. Squashed by 10–50 %, not collapsed (the heavy box still rocks slowly).
  const double height = state.deformables[0].x.row(2).maxCoeff();
  EXPECT_LT(height, 0.18);
  EXPECT_GT(height, 0.10);
}

// A slope of θ with μ = 0.5, by tilting gravity. Returns how far the bottom face moved along x
// (the top also shears elastically, by ρ g h sin θ / G ≈ 3 mm at 20°).
double SlideAfter(double slope, double seconds, const std::string& formulation) {
  sim::Scene scene = LoadScene(fmt::format(R"(
coulomb: 1
time_step: 0.01
formulation: sap
gravity: [{}, 0, {}]
bodies:
  - {{name: ground, joint: fixed, shapes: [{{type: halfspace, friction: 0.5}}]}}
deformables:
  - {{name: cube, mesh: {{type: box, size: [0.2, 0.2, 0.2], cells: [3, 3, 3]}},
     position: [0, 0, 0.1], youngs_modulus: 1.0e5, density: 1000, stiffness_damping: 0.01,
     friction: 0.5}}
)",
                                           kG * std::sin(slope), -kG * std::cos(slope)),
                               formulation);
  sim::State state = scene.initial;
  const fem::FemBody& body = scene.model.deformables.bodies[0];
  const auto bottom_x = [&] {
    double sum = 0;
    int count = 0;
    for (int a = 0; a < body.rest.num_vertices(); ++a) {
      if (body.rest.vertices(2, a) < 0.001) {
        sum += state.deformables[0].x(0, a);
        ++count;
      }
    }
    return sum / count;
  };
  const double x0 = bottom_x();
  StepScene(scene, state, static_cast<int>(std::lround(seconds / scene.model.time_step)));
  return bottom_x() - x0;
}

// A nearly incompressible rubber block (κ/μ = 1500, mean dilatation) squashed quasi-statically
// by a 1 t box (held on it by friction; the ground is frictionless), in steps long enough that its
// free motion springs far back from where the box holds it: the coupled step must solve the
// nonlinear balance there, not a model linearized at the free motion (which lost 5 % of the crushed
// cylinder's volume). The volume is kept to 0.5 % and the ground carries both weights.
const char* const kHeavyBoxOnRubberBlock = R"(
coulomb: 1
time_step: 0.1
formulation: sap
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, friction: 0}]}
  - {name: weight, mass: 1000.0, position: [0, 0, 0.225],
     shapes: [{type: box, size: [0.4, 0.4, 0.05], friction: 0.5}]}
deformables:
  - {name: block, mesh: {type: box, size: [0.2, 0.2, 0.2], cells: [2, 2, 2]},
     position: [0, 0, 0.1], material: mooney_rivlin,
     mooney_rivlin: {c1: 1.0e5, c2: 0, bulk_modulus: 3.0e8, mean_dilatation: true},
     stiffness_damping: 0.5, friction: 0.5}
)";

TEST_P(EveryCouplingFormulation, NearlyIncompressibleBlockKeepsItsVolumeUnderAHeavyBox) {
  const sim::Scene scene = LoadScene(kHeavyBoxOnRubberBlock, GetParam());
  sim::State state = scene.initial;
  const sim::StepReport last = StepScene(scene, state, 100);
  EXPECT_TRUE(NoInvertedElement(scene, state));
  const fem::FemBody& body = scene.model.deformables.bodies[0];
  fem::TetMesh now = body.rest;
  now.vertices = state.deformables[0].x;
  EXPECT_NEAR(fem::TotalVolume(now) / fem::TotalVolume(body.rest), 1.0, 0.005);
  // Squashed, not merely touched: 9.8 kN on 0.04 m² is 1.2 μ.
  EXPECT_LT(state.deformables[0].x.row(2).maxCoeff(), 0.17);
  const double weight_impulse = (1000 + Mass(body)) * kG * scene.model.time_step;
  EXPECT_NEAR(ImpulseOn(last, 0, -1, -1).z(), weight_impulse, 0.01 * weight_impulse);
}

TEST(DeformableCoupling, StepReportCountsTheLinearizationsAndTheirWork) {
  // A 1 t box dropped onto a nearly incompressible block: its first contact step is far from the
  // block's free motion, so the step re-linearizes (more than one coupled solve, each with at
  // least one Newton iteration, all counted). A corotated body is linear within a step: one
  // solve whenever deformable bodies are present. A rigid scene has none.
  const std::string heavy = kHeavyBoxOnRubberBlock;
  const sim::Scene nonlinear = LoadScene(heavy);
  sim::Data data = sim::MakeData(nonlinear.model, nonlinear.initial);
  int most = 0;
  for (int k = 0; k < 5; ++k) {
    const sim::StepReport r = sim::Step(nonlinear.model, data);
    ASSERT_NE(r.status, LcpStatus::kNotApplicable) << r.message;
    EXPECT_GE(r.linearizations, 1);
    EXPECT_LE(r.linearizations, 12);
    EXPECT_GE(r.iterations, r.linearizations);
    most = std::max(most, r.linearizations);
  }
  EXPECT_GT(most, 1);
  std::string corotated = heavy;
  corotated.replace(corotated.find("material: mooney_rivlin"),
                    std::string("material: mooney_rivlin").size(), "youngs_modulus: 1.0e6");
  corotated.erase(corotated.find("     mooney_rivlin:"),
                  corotated.find("     stiffness_damping") - corotated.find("     mooney_rivlin:"));
  const sim::Scene linear = LoadScene(corotated);
  sim::Data linear_data = sim::MakeData(linear.model, linear.initial);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(sim::Step(linear.model, linear_data).linearizations, 1);
  const sim::Scene rigid = LoadScene(std::string(kGround) + R"(
  - {name: box, mass: 1.0, position: [0, 0, 0.1], shapes: [{type: box, size: [0.1, 0.1, 0.1]}]}
)");
  sim::Data rigid_data = sim::MakeData(rigid.model, rigid.initial);
  EXPECT_EQ(sim::Step(rigid.model, rigid_data).linearizations, 0);
}

TEST_P(EveryCouplingFormulation, FrictionSticksBelowTheConeAndSlidesAtTheRigidRateAbove) {
  const double t = 1.0;
  // tan 20° = 0.36 < μ: sticks (up to the regularized creep σ·δt·g, far below 1 mm).
  EXPECT_LT(std::abs(SlideAfter(20 * std::numbers::pi / 180, t, GetParam())), 1e-3);
  // 40°: slides like a rigid block, a = g (sin θ − μ cos θ), distance ½ a t².
  const double slope = 40 * std::numbers::pi / 180;
  const double analytic = 0.5 * kG * (std::sin(slope) - 0.5 * std::cos(slope)) * t * t;
  EXPECT_NEAR(SlideAfter(slope, t, GetParam()), analytic, 0.03 * analytic);
}

TEST_P(EveryCouplingFormulation, SoftBallDroppedOnTheGroundComesToRest) {
  const sim::Scene scene = LoadScene(std::string(kGround) + R"(
deformables:
  - {name: ball, mesh: {type: ball, radius: 0.1, resolution: 3}, position: [0, 0, 0.4],
     youngs_modulus: 5.0e4, poisson_ratio: 0.4, stiffness_damping: 0.02}
)",
                                     GetParam());
  sim::State state = scene.initial;
  double penetration = 0;
  const sim::StepReport last = StepScene(scene, state, 300, &penetration);  // 3 s
  EXPECT_TRUE(NoInvertedElement(scene, state));
  EXPECT_LT(penetration, 5e-3);  // the impact at 2.8 m/s, δt = 10 ms
  EXPECT_LT(state.deformables[0].v.colwise().norm().maxCoeff(), 5e-3);
  const double weight_impulse =
      Mass(scene.model.deformables.bodies[0]) * kG * scene.model.time_step;
  EXPECT_NEAR(ImpulseOn(last, 0, -1, -1).z(), weight_impulse, 0.05 * weight_impulse);
}

TEST_P(EveryCouplingFormulation, RigidBoxOnASoftBlockOnASoftBlock) {
  // Two-way coupling at rest: the ground carries everything, the upper soft block carries the
  // box, the lower one the box and the upper block.
  const sim::Scene scene = LoadScene(std::string(kGround) + R"(
  - {name: box, mass: 2.0, position: [0, 0, 0.255],
     shapes: [{type: box, size: [0.1, 0.1, 0.05], friction: 0.5}]}
deformables:
  - {name: lower, mesh: {type: box, size: [0.2, 0.2, 0.1], cells: [4, 4, 2]},
     position: [0, 0, 0.05], youngs_modulus: 2.0e5, density: 500, stiffness_damping: 0.01}
  - {name: upper, mesh: {type: box, size: [0.15, 0.15, 0.1], cells: [3, 3, 2]},
     position: [0, 0, 0.15], youngs_modulus: 2.0e5, density: 500, stiffness_damping: 0.01}
)",
                                     GetParam());
  sim::State state = scene.initial;
  const sim::StepReport last = StepScene(scene, state, 150);
  const double h = scene.model.time_step;
  const double lower = Mass(scene.model.deformables.bodies[0]),
               upper = Mass(scene.model.deformables.bodies[1]);
  const double box = 2.0;
  // Impulses on each body from what is below it (vertex contacts of the upper body on the
  // lower one, the lower body's vertices on the ground), and on the box from the upper body
  // (the upper body's vertices against the box are the reaction: minus the impulse on it).
  const Eigen::Vector3d on_lower = ImpulseOn(last, 0, -1, -1);
  const Eigen::Vector3d on_upper_from_lower = ImpulseOn(last, 1, -1, 0) - ImpulseOn(last, 0, -1, 1);
  const int box_body = scene.model.multibody.FindBody("box");
  const Eigen::Vector3d on_box_from_upper = -ImpulseOn(last, 1, box_body, -1);
  EXPECT_NEAR(on_lower.z(), (lower + upper + box) * kG * h, 2e-3 * (lower + upper + box) * kG * h);
  EXPECT_NEAR(on_upper_from_lower.z(), (upper + box) * kG * h, 2e-3 * (upper + box) * kG * h);
  EXPECT_NEAR(on_box_from_upper.z(), box * kG * h, 2e-3 * box * kG * h);
  EXPECT_LT(state.v.norm(), 1e-3);
  EXPECT_GT(state.q[scene.model.multibody.bodies[box_body].q_index + 2],
            0.2);  // on top, not sunk through
}

TEST(DeformableCoupling, TeddyBearFallsOnTheGroundWithoutInvertedElements) {
  const sim::Scene scene =
      LoadScene(std::string(kGround) +
                R"(
deformables:
  - {name: teddy, mesh: {type: file, path: ")" +
                std::string(coulomb::testing::DataDir()) +
                R"(/drake/examples/multibody/deformable/models/teddy.vtk", scale: 0.15},
     orientation: {rpy: [1.5707, 0, -1.5707]}, position: [0, 0, 0.3],
     youngs_modulus: 1.0e4, poisson_ratio: 0.4, stiffness_damping: 0.05, friction: 0.9}
)");
  sim::State state = scene.initial;
  double penetration = 0;
  StepScene(scene, state, 150, &penetration);
  EXPECT_TRUE(NoInvertedElement(scene, state));
  EXPECT_LT(penetration, 5e-3);
  EXPECT_LT(state.deformables[0].x.row(2).minCoeff(), 0.0 + 1e-3);  // it reached the ground
  EXPECT_GT(state.deformables[0].x.row(2).minCoeff(), -5e-3);       // and stayed on top of it
}

TEST(DeformableCoupling, FixedComponentsStayStillUnderFrictionalContact) {
  // Every vertex held in z (plane strain), gravity pulling along −y and +z onto a frictional
  // floor: the floor carries the weight in y, and friction must not move the held z.
  const sim::Scene scene = LoadScene(R"(
coulomb: 1
time_step: 0.01
gravity: [0, -9.81, 3.0]
bodies:
  - {name: floor, joint: fixed, shapes: [{type: halfspace, orientation: {rpy: [-1.5707963267948966, 0, 0]}, friction: 0.8}]}
deformables:
  - {name: slab, mesh: {type: box, size: [0.2, 0.1, 0.04], cells: [4, 2, 2]}, position: [0, 0.051, 0],
     youngs_modulus: 1.0e5, stiffness_damping: 0.01, friction: 0.8,
     fixed: {min: [-1, -1, -1], max: [1, 1, 1], axes: z}}
)");
  ASSERT_EQ(scene.model.deformables.bodies[0].fixed_dofs.size(),
            static_cast<std::size_t>(scene.model.deformables.bodies[0].rest.num_vertices()));
  sim::State state = scene.initial;
  const sim::StepReport last = StepScene(scene, state, 100);
  EXPECT_EQ(state.deformables[0].x.row(2), scene.model.deformables.bodies[0].rest.vertices.row(2));
  const double weight_impulse =
      Mass(scene.model.deformables.bodies[0]) * kG * scene.model.time_step;
  EXPECT_NEAR(ImpulseOn(last, 0, -1, -1).y(), weight_impulse, 1e-3 * weight_impulse);
  EXPECT_LT(std::abs(ImpulseOn(last, 0, -1, -1).z()), 1e-9 * weight_impulse);
}

TEST(DeformableCoupling, AFailedStepReportsWhyAndKeepsEveryArraySized) {
  // A body whose step matrix cannot be factored (negative density, which scene validation
  // rejects, forced here): the step fails with a message naming the body, and the report's
  // arrays still match its contacts, so recording the step is safe.
  sim::Scene scene = LoadScene(std::string(kGround) + R"(
deformables:
  - {name: cube, mesh: {type: box, size: [0.2, 0.2, 0.2], cells: [2, 2, 2]}, position: [0, 0, 0.1]}
)");
  scene.model.deformables.bodies[0].density = -1000;
  sim::Data data = sim::MakeData(scene.model, scene.initial);
  const sim::StepReport& r = sim::Step(scene.model, data);
  const sim::State& state = data.state;
  EXPECT_NE(r.status, LcpStatus::kSolved);
  EXPECT_NE(r.message.find("'cube'"), std::string::npos) << r.message;
  ASSERT_GT(r.deformable_contacts.size(), 0u);
  EXPECT_EQ(r.deformable_impulses.size(),
            3 * static_cast<Eigen::Index>(r.deformable_contacts.size()));
  EXPECT_TRUE(state.deformables[0].x.allFinite());
}

TEST(DeformableCoupling, RunsAreBitIdentical) {
  const sim::Scene scene = LoadScene(std::string(kGround) + R"(
duration: 0.3
deformables:
  - {name: ball, mesh: {type: ball, radius: 0.1, resolution: 2}, position: [0, 0, 0.15]}
  - {name: cube, mesh: {type: box, size: [0.1, 0.1, 0.1], cells: [2, 2, 2]}, position: [0.02, 0, 0.35]}
)");
  const sim::RunSummary a = sim::Simulate(scene, nullptr), b = sim::Simulate(scene, nullptr);
  EXPECT_EQ(a.failed_steps, 0);
  EXPECT_EQ(a.state_hash, b.state_hash);
  EXPECT_GT(a.max_contacts, 0);
}

}  // namespace
}  // namespace coulomb
