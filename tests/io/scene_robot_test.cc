// Robots as they are published (issue: real robots): a small URDF written here with what real
// ones carry — an STL collision mesh, neighbouring links that overlap, a joint whose zero lies
// outside its limits, a mimic joint — and what loading it must do with each.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "coulomb/io/html_replay.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

// A binary STL of the axis-aligned box [−h, h]³ (12 facets).
std::string BoxStl(double h) {
  const float c[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                         {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  const int faces[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                            {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
  std::string out(80, ' ');
  const std::uint32_t count = 12;
  out.append(reinterpret_cast<const char*>(&count), 4);
  for (const auto& f : faces) {
    out.append(12, '\0');
    for (const int v : f) {
      const float p[3] = {static_cast<float>(h * c[v][0]), static_cast<float>(h * c[v][1]),
                          static_cast<float>(h * c[v][2])};
      out.append(reinterpret_cast<const char*>(p), 12);
    }
    out.append(2, '\0');
  }
  return out;
}

// base (floating) ─ hip (revolute, limits [0.5, 1]) ─ knee (revolute) ; base ─ finger_a
// (revolute) ─ finger_b mimics finger_a × 2 + 0.1. The knee's sphere reaches 2 cm into the
// base's STL box in every pose near the start (they are not neighbours: the hip is between).
std::string RobotUrdf(const std::string& mesh) {
  const std::string inertial =
      R"(<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>)";
  return R"(<robot name="walker">
  <link name="base">)" +
         inertial + R"(<collision><geometry><mesh filename=")" + mesh +
         R"(" scale="0.1 0.1 0.1"/></geometry></collision>
    <visual><geometry><mesh filename=")" +
         mesh +
         R"(" scale="0.1 0.1 0.1"/></geometry><material name="m"><color rgba="1 0 0 1"/></material></visual>
    <visual><geometry><mesh filename="package://walker/meshes/not_shipped.dae"/></geometry></visual></link>
  <link name="hip">)" +
         inertial + R"(</link>
  <link name="knee">)" +
         inertial +
         R"(<collision><origin xyz="0 0 -0.13"/><geometry><sphere radius="0.05"/></geometry></collision></link>
  <link name="finger_a">)" +
         inertial + R"(</link>
  <link name="finger_b">)" +
         inertial + R"(</link>
  <joint name="hip_joint" type="revolute"><parent link="base"/><child link="hip"/>
    <axis xyz="1 0 0"/><limit lower="0.5" upper="1" effort="10" velocity="5"/></joint>
  <joint name="knee_joint" type="revolute"><parent link="hip"/><child link="knee"/>
    <origin rpy="-0.5 0 0"/><axis xyz="1 0 0"/><limit lower="-2" upper="2" effort="10" velocity="5"/></joint>
  <joint name="finger_a_joint" type="revolute"><parent link="base"/><child link="finger_a"/>
    <origin xyz="1 0 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="5"/></joint>
  <joint name="finger_b_joint" type="revolute"><parent link="finger_a"/><child link="finger_b"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="5"/>
    <mimic joint="finger_a_joint" multiplier="2" offset="0.1"/></joint>
</robot>
)";
}

class SceneRobot : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("coulomb_scene_robot_test_" + std::to_string(getpid()));
    fs::create_directories(dir_ / "walker" / "urdf");
    fs::create_directories(dir_ / "walker" / "meshes");
    std::ofstream(dir_ / "walker" / "package.xml") << "<package><name>walker</name></package>\n";
    std::ofstream(dir_ / "walker" / "meshes" / "base.stl", std::ios::binary) << BoxStl(1.0);
    std::ofstream(dir_ / "walker" / "urdf" / "walker.urdf")
        << RobotUrdf("package://walker/meshes/base.stl");
  }
  void TearDown() override { fs::remove_all(dir_); }

  Expected<sim::Scene> Load(const std::string& urdf_extra, const std::string& scene_extra = "") {
    const std::string text =
        "coulomb: 1\nbodies:\n  - {name: ground, joint: fixed, shapes: [{type: halfspace}]}\n"
        "urdf:\n  - file: walker/urdf/walker.urdf\n    floating_base: true\n"
        "    position: [0, 0, 1]\n" +
        urdf_extra + scene_extra;
    return io::ParseScene(text, (dir_ / "s.yaml").string(), dir_.string());
  }
  static double Q(const sim::Scene& s, const std::string& joint) {
    for (const multibody::Body& b : s.model.multibody.bodies) {
      if (b.joint_name == joint) return s.initial.q[b.q_index];
    }
    ADD_FAILURE() << "no joint " << joint;
    return 0;
  }
  static int CountMeshes(const sim::Scene& s) {
    int meshes = 0;
    for (const geometry::CollisionGeometry& g : s.model.world.geometries) {
      if (std::holds_alternative<geometry::ConvexMesh>(g.shape)) ++meshes;
    }
    return meshes;
  }
  static std::string Notes(const sim::Scene& s) {
    std::string all;
    for (const std::string& n : s.notes) all += n + "\n";
    return all;
  }
  fs::path dir_;
};

TEST_F(SceneRobot, StlMeshFromAPackageFoundAboveTheUrdfBecomesTheLinksHull) {
  const Expected<sim::Scene> scene = Load("");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  EXPECT_EQ(CountMeshes(scene.value()), 1);
}

// "package:///NAME/…" (three slashes, as TALOS' full model writes its meshes) names no
// package; it is read as package://NAME/…, and the warning names the links.
TEST_F(SceneRobot, AMeshAtPackageWithThreeSlashesIsReadAsItsPackageAndSaid) {
  std::ofstream(dir_ / "walker" / "urdf" / "walker.urdf")
      << RobotUrdf("package:///walker/meshes/base.stl");
  const Expected<sim::Scene> scene = Load("");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  EXPECT_EQ(CountMeshes(scene.value()), 1);
  std::string said;
  for (const std::string& w : scene.value().warnings) said += w + "\n";
  EXPECT_NE(said.find("package:///NAME"), std::string::npos) << said;
  EXPECT_NE(said.find("base"), std::string::npos) << said;
}

// Visual meshes are for the replay only: one that is not shipped is left out quietly (corpora
// often carry collision meshes only); one that is replaces its body's collision shapes there.
TEST_F(SceneRobot, VisualMeshesReachTheReplayAndAbsentOnesAreNoError) {
  const Expected<sim::Scene> scene = Load("");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  ASSERT_EQ(scene.value().visual_meshes.size(), 1u);
  EXPECT_EQ(scene.value().visual_meshes[0].color, "#ff0000");
  for (const std::string& w : scene.value().warnings) {
    EXPECT_EQ(w.find("not_shipped"), std::string::npos) << w;
  }
  sim::Recording recording;
  sim::Scene short_run = scene.value();
  short_run.duration = short_run.model.time_step;
  sim::Simulate(short_run, &recording);
  const Expected<std::string> page = io::MakeHtmlReplay(short_run, recording);
  if (!page.ok()) GTEST_SKIP() << "this build has no three.js: " << page.error().ToString();
  const auto count = [&](const std::string& key) {
    std::size_t n = 0;
    for (std::size_t at = page.value().find(key); at != std::string::npos;
         at = page.value().find(key, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count("\"visual\":true"), 1u);
  EXPECT_EQ(count("\"collision\":true"), 1u);  // the base's hull, hidden behind its visual
}

TEST_F(SceneRobot, AnUnreadableMeshIsAnErrorNamingTheLinkAndTheFile) {
  std::ofstream(dir_ / "walker" / "meshes" / "base.stl", std::ios::binary) << "not a mesh";
  const Expected<sim::Scene> scene = Load("");
  ASSERT_FALSE(scene.ok());
  const std::string message = scene.error().ToString();
  EXPECT_NE(message.find("link 'base'"), std::string::npos) << message;
  EXPECT_NE(message.find("base.stl"), std::string::npos) << message;
}

TEST_F(SceneRobot, AZeroOutsideTheLimitsStartsAtTheNearestLimitAndIsSaid) {
  const Expected<sim::Scene> scene = Load("");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  EXPECT_EQ(Q(scene.value(), "hip_joint"), 0.5);
  EXPECT_NE(Notes(scene.value()).find("start at the nearest limit: hip_joint at 0.5 in [0.5, 1]"),
            std::string::npos)
      << Notes(scene.value());
}

TEST_F(SceneRobot, AGivenValueOutsideTheLimitsIsAnErrorNamingJointValueAndLimit) {
  const Expected<sim::Scene> scene = Load("    initial: {hip_joint: 1.5}\n");
  ASSERT_FALSE(scene.ok());
  const std::string message = scene.error().ToString();
  EXPECT_EQ(scene.error().field, "urdf[0].initial.hip_joint") << message;
  EXPECT_NE(message.find("1.5 is outside the limits [0.5, 1] of joint 'hip_joint'"),
            std::string::npos)
      << message;
}

TEST_F(SceneRobot, AMimicFollowerStartsWhereItsLeaderPutsIt) {
  const Expected<sim::Scene> scene = Load("    initial: {finger_a_joint: 0.3}\n");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  EXPECT_NEAR(Q(scene.value(), "finger_b_joint"), 2 * 0.3 + 0.1, 1e-15);
  const Expected<sim::Scene> contradicted =
      Load("    initial: {finger_a_joint: 0.3, finger_b_joint: 0.2}\n");
  ASSERT_FALSE(contradicted.ok());
  EXPECT_NE(contradicted.error().ToString().find("'finger_b_joint' mimics 'finger_a_joint'"),
            std::string::npos)
      << contradicted.error().ToString();
}

TEST_F(SceneRobot, OverlappingLinksAreFilteredSaidAndCanBeRestored) {
  // The hip starts at 0.5 rad and the knee frame is turned −0.5 rad: the knee's sphere (r 5 cm)
  // hangs 0.13 m straight below the base origin, its top 8 cm below it, inside the base's box
  // (half-size 10 cm) by 2 cm.
  const Expected<sim::Scene> scene = Load("");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const std::string notes = Notes(scene.value());
  EXPECT_NE(notes.find("1 pair(s) of links overlap"), std::string::npos) << notes;
  EXPECT_NE(notes.find("base–knee (20 mm)"), std::string::npos) << notes;
  const auto excluded = [](const sim::Scene& s, const std::string& a, const std::string& b) {
    int ia = -2, ib = -2;
    for (std::size_t i = 0; i < s.model.multibody.bodies.size(); ++i) {
      if (s.model.multibody.bodies[i].name == a) ia = static_cast<int>(i);
      if (s.model.multibody.bodies[i].name == b) ib = static_cast<int>(i);
    }
    const std::pair<int, int> pair(std::min(ia, ib), std::max(ia, ib));
    const auto& list = s.model.world.excluded_body_pairs;
    return std::find(list.begin(), list.end(), pair) != list.end();
  };
  EXPECT_TRUE(excluded(scene.value(), "base", "knee"));
  EXPECT_FALSE(excluded(scene.value(), "knee", "finger_b"));
  const Expected<sim::Scene> restored =
      Load("", "collision_filter: {include: [[base, knee]], exclude: [[knee, finger_b]]}\n");
  ASSERT_TRUE(restored.ok()) << restored.error().ToString();
  EXPECT_FALSE(excluded(restored.value(), "base", "knee"));
  EXPECT_TRUE(excluded(restored.value(), "knee", "finger_b"));
  const Expected<sim::Scene> unknown = Load("", "collision_filter: {include: [[base, elbow]]}\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().ToString().find("no body or link named 'elbow'"), std::string::npos);
}

// Two links welded together can exchange no impulse. Put back into collision by hand, their
// contact has a zero Delassus block; SAP must leave it out rather than stop on a zero
// regularization (it used to stop at step 0 with "regularization R must be positive").
TEST(SceneRobotSap, AContactBetweenWeldedBodiesIsLeftOutNotAnError) {
  const std::string text = R"(coulomb: 1
formulation: sap
time_step: 0.01
duration: 0.05
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace}]}
  - {name: a, mass: 1, position: [0, 0, 0.2], shapes: [{type: sphere, radius: 0.1}]}
  - {name: b, parent: a, joint: fixed, mass: 1, position: [0.15, 0, 0],
     shapes: [{type: sphere, radius: 0.1}]}
collision_filter: {include: [[a, b]]}
)";
  const Expected<sim::Scene> scene = io::ParseScene(text, "welded.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const sim::RunSummary run = sim::Simulate(scene.value(), nullptr);
  EXPECT_EQ(run.stopped, "");
  EXPECT_EQ(run.failed_steps, 0) << run.first_failure;
  EXPECT_EQ(run.steps, 5);
}

}  // namespace
}  // namespace coulomb
