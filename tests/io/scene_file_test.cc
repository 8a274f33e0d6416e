// Scene files: what they build (checked against the file's numbers) and how they fail (every
// defect names the file, the line and the key).

#include "coulomb/io/scene_file.h"

#include <gtest/gtest.h>

#include <numbers>

#include "tests/support/build_paths.h"
#include "tests/support/formulation_names.h"

namespace coulomb {
namespace {

InputError ErrorOf(const std::string& text) {
  const Expected<sim::Scene> scene = io::ParseScene(text, "s.yaml", ".");
  EXPECT_FALSE(scene.ok()) << text;
  return scene.ok() ? InputError{} : scene.error();
}

// A hand mounted on an arm: `parent` welds the included robot's root to a body of the scene
// (one tree, 7 + 16 DoFs), and `self_collision: false` keeps the overlapping primitive links of
// the arm — and the hand it carries — from colliding with each other, but not with the world.
TEST(SceneFile, UrdfMountedOnAParentWithoutSelfCollision) {
  const std::string data = coulomb::testing::DataDir();
  const std::string text =
      "coulomb: 1\nbodies:\n  - {name: ball, position: [0.6, 0, 0.3], "
      "shapes: [{type: sphere, radius: 0.05}]}\nurdf:\n"
      "  - file: " +
      data +
      "/robots/drake_models/iiwa_description/urdf/iiwa14_primitive_collision.urdf\n"
      "    package_map: {drake_models: " +
      data +
      "/robots/drake_models}\n"
      "    self_collision: false\n"
      "    initial: {iiwa_joint_2: 0.5, iiwa_joint_4: -1.0}\n"
      "  - file: " +
      data +
      "/robots/drake_models/allegro_hand_description/urdf/"
      "allegro_hand_description_right.urdf\n"
      "    package_map: {drake_models: " +
      data +
      "/robots/drake_models}\n"
      "    parent: iiwa_link_7\n    position: [0, 0, 0.045]\n";
  const auto scene = io::ParseScene(text, "s.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const sim::Scene& s = scene.value();
  EXPECT_EQ(s.model.multibody.nv, 6 + 7 + 16);  // the ball floats
  int link7 = -1, hand = -1;
  for (std::size_t b = 0; b < s.model.multibody.bodies.size(); ++b) {
    if (s.model.multibody.bodies[b].name == "iiwa_link_7") link7 = static_cast<int>(b);
    if (s.model.multibody.bodies[b].name == "hand_root") hand = static_cast<int>(b);
  }
  ASSERT_GE(hand, 0);
  EXPECT_EQ(s.model.multibody.bodies[hand].parent, link7);
  // Robot shapes share one group that excludes itself; the ball (group 1) meets them all.
  std::uint32_t robot_group = 0;
  for (const geometry::CollisionGeometry& g : s.model.world.geometries) {
    if (g.body <= 0) continue;  // the ball is body 0
    if (robot_group == 0) robot_group = g.group;
    EXPECT_EQ(g.group, robot_group) << g.name;
    EXPECT_EQ(g.group & g.mask, 0u) << g.name;
  }
  EXPECT_NE(robot_group, 1u);
  EXPECT_NE(robot_group & s.model.world.geometries[0].mask, 0u);
  EXPECT_EQ(ErrorOf(text + "    floating_base: true\n").field, "urdf[1].parent");
  const InputError unknown = ErrorOf(
      "coulomb: 1\nurdf:\n  - file: " + data +
      "/robots/drake_models/allegro_hand_description/urdf/allegro_hand_description_right.urdf\n"
      "    parent: no_such_link\n");
  EXPECT_EQ(unknown.field, "urdf[0].parent");
  EXPECT_NE(unknown.reason.find("no_such_link"), std::string::npos);
}

TEST(SceneFile, BuildsBodiesShapesAndState) {
  const auto scene = io::ParseScene(R"(coulomb: 1
name: demo
time_step: 0.002
duration: 0.5
formulation: cone
materials: {rubber: {friction: 0.8, restitution: 0.2}}
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, material: rubber}]}
  - name: ball
    density: 500
    position: [0, 0, 1]
    velocity: [1, 0, 0]
    shapes: [{type: sphere, radius: 0.1, material: rubber}]
)",
                                    "s.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const sim::Scene& s = scene.value();
  EXPECT_EQ(s.name, "demo");
  EXPECT_EQ(s.NumSteps(), 250);
  EXPECT_EQ(s.model.settings.formulation, testing_support::Named("cone"));
  ASSERT_EQ(s.model.multibody.bodies.size(),
            1u);  // the fixed ground is static geometry, not a body
  const double mass = 500 * 4.0 / 3.0 * std::numbers::pi * 1e-3;
  EXPECT_NEAR(s.model.multibody.bodies[0].inertia.mass, mass, 1e-12);
  EXPECT_NEAR(s.model.multibody.bodies[0].inertia.rotational(0, 0), 0.4 * mass * 0.01, 1e-14);
  ASSERT_EQ(s.model.world.geometries.size(), 2u);
  EXPECT_EQ(s.model.world.geometries[0].body, -1);
  EXPECT_DOUBLE_EQ(s.model.world.geometries[1].friction, 0.8);
  EXPECT_DOUBLE_EQ(s.model.world.geometries[1].restitution, 0.2);
  EXPECT_DOUBLE_EQ(s.initial.q[2], 1.0);
  EXPECT_DOUBLE_EQ(s.initial.v[0], 1.0);
}

TEST(SceneFile, ErrorsNameLineAndKey) {
  const std::string head = "coulomb: 1\nbodies:\n";
  InputError e = ErrorOf(head + "  - {name: a, mass: -1, shapes: [{type: sphere, radius: 1}]}\n");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.field, "bodies[0].mass");
  e = ErrorOf(head + "  - name: a\n    shapes: [{type: box, size: [1, 1]}]\n");
  EXPECT_EQ(e.field, "bodies[0].shapes[0].size");
  EXPECT_EQ(e.line, 4);
  e = ErrorOf(head + "  - {name: a, colour: red, shapes: [{type: sphere, radius: 1}]}\n");
  EXPECT_EQ(e.field, "bodies[0].colour");
  EXPECT_NE(e.reason.find("unknown key"), std::string::npos);
  e = ErrorOf(head + "  - {name: a, shapes: [{type: sphere, radius: .nan}]}\n");
  EXPECT_EQ(e.field, "bodies[0].shapes[0].radius");
  e = ErrorOf(head + "  - {name: a, shapes: [{type: sphere, radius: 1, friction: -0.2}]}\n");
  EXPECT_EQ(e.field, "bodies[0].shapes[0].friction");
  e = ErrorOf(head + "  - {name: a, shapes: [{type: sphere, radius: 1, material: steel}]}\n");
  EXPECT_NE(e.reason.find("unknown material"), std::string::npos);
  e = ErrorOf(head + "  - {name: a, shapes: [{type: halfspace}]}\n");
  EXPECT_NE(e.reason.find("fixed body"), std::string::npos);
  // Mean dilatation needs hexahedral cells, which a mesh file does not have.
  e = ErrorOf("coulomb: 1\ndeformables:\n  - name: t\n    mesh: {type: file, path: " +
              std::string(coulomb::testing::DataDir()) +
              "/drake/examples/multibody/deformable/models/teddy.vtk}\n"
              "    material: mooney_rivlin\n"
              "    mooney_rivlin: {c1: 1e5, c2: 0, bulk_modulus: 1e8, mean_dilatation: true}\n");
  EXPECT_EQ(e.field, "deformables[0].mooney_rivlin.mean_dilatation");
  // A repeated key would be silently ignored by yaml-cpp: an error naming both lines.
  e = ErrorOf(head +
              "  - name: a\n    mass: 1\n    mass: 2\n"
              "    shapes: [{type: sphere, radius: 1}]\n");
  EXPECT_EQ(e.field, "bodies[0].mass");
  EXPECT_EQ(e.line, 5);
  EXPECT_NE(e.reason.find("first on line 4"), std::string::npos) << e.reason;
  e = ErrorOf("name: x\n");
  EXPECT_NE(e.reason.find("schema version"), std::string::npos);
  e = ErrorOf("coulomb: 1\ntime_step: [1\n");
  EXPECT_NE(e.reason.find("YAML"), std::string::npos);
  EXPECT_GT(e.line, 0);
  // Each of these is an error that names the offending field.
  const std::pair<std::string, std::string> field_errors[] = {
      {"coulomb: 1\nsolver: {deformable_delassus: full}\n", "solver.deformable_delassus"},
      {"coulomb: 1\nduration: 1\nduration: 2\n", "duration"},
      {"coulomb: 1\nsolver: {hessian_reuse_cg_iterations: -3}\n",
       "solver.hessian_reuse_cg_iterations"},
      {"coulomb: 1\nsolver: {hessian_reuse_cg_tolerance: 2}\n",
       "solver.hessian_reuse_cg_tolerance"},
      {"coulomb: 1\nsolver: {try_full_step: maybe}\n", "solver.try_full_step"},
      {"coulomb: 1\nspeculative_contacts: sometimes\n", "speculative_contacts"},
      {"coulomb: 2\n", "coulomb"},
      {"coulomb: 1\nformulation: magic\n", "formulation"},
      {"coulomb: 1\nurdf: [{file: missing.urdf}]\n", "urdf[0].file"},
      {"coulomb: 1\nactuators: [{joint: nothing, kp: 1, target: 0}]\n", "actuators[0].joint"},
  };
  for (const auto& [text, field] : field_errors) EXPECT_EQ(ErrorOf(text).field, field) << text;
}

TEST(SceneFile, SpeculativeContactsAreOnUnlessTurnedOff) {
  const auto on = io::ParseScene("coulomb: 1\n", "on.yaml", ".");
  const auto off = io::ParseScene("coulomb: 1\nspeculative_contacts: false\n", "off.yaml", ".");
  ASSERT_TRUE(on.ok() && off.ok());
  EXPECT_TRUE(on.value().model.world.speculative);
  EXPECT_FALSE(off.value().model.world.speculative);
}

TEST(SceneFile, SapNewtonSettings) {
  const auto scene = io::ParseScene(
      "coulomb: 1\nformulation: sap\n"
      "solver: {hessian_reuse_cg_iterations: 30, hessian_reuse_cg_tolerance: 0.05,\n"
      "         try_full_step: false}\n",
      "s.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const convex::SapSolverParams& solver = scene.value().model.settings.sap.solver;
  EXPECT_EQ(solver.lagged.max_cg_iterations, 30);
  EXPECT_DOUBLE_EQ(solver.lagged.cg_tolerance, 0.05);
  EXPECT_FALSE(solver.line_search_settings.try_full_step);
  EXPECT_TRUE(convex::SapSolverParams{}.line_search_settings.try_full_step);  // the default
}

TEST(SceneFile, DeformableBodies) {
  const std::string head = "coulomb: 1\ndeformables:\n";
  Expected<sim::Scene> scene = io::ParseScene(
      head +
          "  - {name: jelly, mesh: {type: box, size: [0.2, 0.2, 0.1], cells: [2, 2, 1]},\n"
          "     position: [0, 0, 1], youngs_modulus: 2.0e4, poisson_ratio: 0.45,\n"
          "     velocity: [1, 0, 0], fixed: {min: [-1, -1, 1.04], max: [1, 1, 2]}}\n",
      "inline.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const fem::FemBody& jelly = scene.value().model.deformables.bodies.at(0);
  EXPECT_EQ(jelly.rest.num_vertices(), 18);
  EXPECT_EQ(jelly.fixed_vertices.size(), 9u);  // the top face, z = 1.05
  EXPECT_NEAR(jelly.rest.vertices.row(2).minCoeff(), 0.95, 1e-12);
  EXPECT_EQ(scene.value().model.settings.formulation,
            testing_support::Named("sap"));                         // the default
  EXPECT_EQ(scene.value().initial.deformables.at(0).v(0, 0), 1.0);  // a free bottom vertex
  InputError e = ErrorOf(head + "  - {mesh: {type: blob}}\n");
  EXPECT_EQ(e.field, "deformables[0].mesh.type");
  e = ErrorOf(head + "  - {mesh: {type: ball, radius: 0.1}, poisson_ratio: 0.5}\n");
  EXPECT_NE(e.reason.find("Poisson"), std::string::npos) << e.reason;
  e = ErrorOf(head +
              "  - {mesh: {type: ball, radius: 0.1}, fixed: {min: [5, 5, 5], max: [6, 6, 6]}}\n");
  EXPECT_EQ(e.field, "deformables[0].fixed");
  e = ErrorOf(head + "  - {mesh: {type: file, path: nowhere.msh}}\n");
  EXPECT_EQ(e.field, "deformables[0].mesh.path");
  const std::string teddy = std::string(coulomb::testing::DataDir()) +
                            "/drake/examples/multibody/deformable/models/teddy.vtk";
  e = ErrorOf(head + "  - {mesh: {type: file, path: \"" + teddy + "\", scale: 0}}\n");
  EXPECT_EQ(e.field, "deformables[0].mesh.scale");
  e = ErrorOf(head + "  - {mesh: {type: ball, radius: 0.1}, friction: -0.5}\n");
  EXPECT_NE(e.reason.find("friction"), std::string::npos) << e.reason;
  e = ErrorOf(head + "  - {mesh: {type: ball, radius: 0.1}, material: mooney_rivlin}\n");
  EXPECT_NE(e.reason.find("mooney_rivlin:"), std::string::npos) << e.reason;
  e = ErrorOf(head +
              "  - {mesh: {type: ball, radius: 0.1}, attach: [{body: arm, min: [-1, -1, -1], max: "
              "[1, 1, 1]}]}\n");
  EXPECT_EQ(e.field, "deformables[0].attach[0].body");
  e = ErrorOf(
      "coulomb: 1\nformulation: trinkle\ndeformables: [{mesh: {type: ball, radius: 0.1}}]\n");
  EXPECT_NE(e.reason.find("--formulation sap"), std::string::npos) << e.reason;
}

TEST(SceneFile, ReadsEveryExample) {
  for (const char* name :
       {"incline", "incline_stick", "rolling_ball", "stack", "pyramid", "bin", "painleve_rod",
        "newtons_cradle", "iiwa_hold", "soft_ball", "cylinder_crush"}) {
    const auto scene = io::ReadSceneFile(std::string(coulomb::testing::SourceDir()) +
                                         "/examples/scenes/" + name + ".yaml");
    EXPECT_TRUE(scene.ok()) << name << ": " << scene.error().ToString();
  }
}

}  // namespace
}  // namespace coulomb

namespace coulomb {
namespace {

// Mesh shapes: `mesh` is the convex hull of an OBJ file on any body, with the hull's mass
// properties; `trimesh` is the file's surface, static only.
TEST(SceneFile, MeshShapesFromObjFiles) {
  const std::string dir = std::string(coulomb::testing::DataDir()) + "/meshes/ipc/triMeshes";
  const std::string text =
      "coulomb: 1\nbodies:\n"
      "  - {name: floor, joint: fixed, shapes: [{type: trimesh, file: erleben/internal_edges.obj, "
      "scale: 2}]}\n"
      "  - {name: cube, position: [0, 0, 2], density: 500,\n"
      "     shapes: [{type: mesh, file: cube.obj, scale: [0.2, 0.1, 0.1]}]}\n";
  const auto scene = io::ParseScene(text, "m.yaml", dir);
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const sim::Scene& s = scene.value();
  ASSERT_EQ(s.model.multibody.bodies.size(), 1u);
  const math::Inertia& inertia = s.model.multibody.bodies[0].inertia;
  EXPECT_NEAR(inertia.mass, 500 * 0.2 * 0.1 * 0.1, 1e-12);
  // cube.obj spans 0..1, so the scaled hull's centroid sits at half its extents in the body.
  EXPECT_TRUE(inertia.com.isApprox(Eigen::Vector3d(0.1, 0.05, 0.05), 1e-12));
  EXPECT_NEAR(inertia.rotational(0, 0), inertia.mass * (0.01 + 0.01) / 12, 1e-12);
  ASSERT_EQ(s.model.world.geometries.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<geometry::TriangleMesh>(s.model.world.geometries[0].shape));
  EXPECT_TRUE(std::holds_alternative<geometry::ConvexMesh>(s.model.world.geometries[1].shape));
}

TEST(SceneFile, MeshShapeErrorsNameTheField) {
  const std::string dir = std::string(coulomb::testing::DataDir()) + "/meshes/ipc/triMeshes";
  const auto error = [&](const std::string& shape) {
    const auto scene = io::ParseScene(
        "coulomb: 1\nbodies:\n  - {name: b, position: [0, 0, 1], mass: 1,\n"
        "     shapes: [" +
            shape + "]}\n",
        "m.yaml", dir);
    EXPECT_FALSE(scene.ok()) << shape;
    return scene.ok() ? std::string() : scene.error().ToString();
  };
  EXPECT_NE(error("{type: trimesh, file: plane.obj}").find("only belong to a fixed body"),
            std::string::npos);
  const std::string missing = error("{type: mesh, file: nowhere.obj}");
  EXPECT_NE(missing.find("shapes[0].file"), std::string::npos) << missing;
  EXPECT_NE(missing.find("nowhere.obj"), std::string::npos) << missing;
  EXPECT_NE(error("{type: mesh, file: plane.obj}").find("no volume"), std::string::npos);
  EXPECT_NE(error("{type: mesh, file: cube.obj, scale: -1}").find("positive"), std::string::npos);
  EXPECT_NE(error("{type: mesh, file: cube.obj, size: 1}").find("size"), std::string::npos);
}

}  // namespace
}  // namespace coulomb
