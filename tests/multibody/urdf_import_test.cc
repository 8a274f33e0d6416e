// URDF import on the robots in data/robots and on small broken files.

#include "coulomb/multibody/urdf_import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "coulomb/multibody/dynamics.h"
#include "tests/support/lcp_assertions.h"

namespace coulomb::multibody {
namespace {

namespace fs = std::filesystem;

UrdfOptions DrakeModels() {
  UrdfOptions options;
  options.package_map["drake_models"] = testing::DataFile("robots/drake_models");
  return options;
}

// Σ <mass value="…"> read straight from the file text, independently of urdfdom.
double MassInFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  static const std::regex mass(R"re(<mass\s+value\s*=\s*"([^"]+)")re");
  double total = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), mass); it != std::sregex_iterator();
       ++it) {
    total += std::stod((*it)[1].str());
  }
  return total;
}

TEST(UrdfImport, IiwaHasSevenDofsAndTheFilesMass) {
  const std::string path = testing::DataFile(
      "robots/drake_models/iiwa_description/urdf/iiwa14_primitive_collision.urdf");
  ASSERT_TRUE(fs::exists(path)) << "missing from data/";
  const auto r = ReadUrdf(path, DrakeModels());
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r.value().model.nv, 7);
  EXPECT_NEAR(r.value().model.TotalMass(), MassInFile(path), 1e-12);
  EXPECT_FALSE(r.value().collisions.empty());
  // The mass matrix is symmetric positive definite at the neutral pose.
  Data d = MakeData(r.value().model);
  const Eigen::MatrixXd M =
      CalcMassMatrix(r.value().model, d, r.value().model.NeutralConfiguration());
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0.0);
}

TEST(UrdfImport, AllegroHandHasSixteenDofs) {
  const std::string path = testing::DataFile(
      "robots/drake_models/allegro_hand_description/urdf/allegro_hand_description_right.urdf");
  ASSERT_TRUE(fs::exists(path)) << "missing from data/";
  const auto r = ReadUrdf(path, DrakeModels());
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r.value().model.nv, 16);
  EXPECT_NEAR(r.value().model.TotalMass(), MassInFile(path), 1e-12);
  // With a floating base: 6 more velocity dofs, 7 more configuration entries.
  UrdfOptions floating = DrakeModels();
  floating.floating_base = true;
  const auto f = ReadUrdf(path, floating);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.value().model.nv, 22);
  EXPECT_EQ(f.value().model.nq, 23);
}

const char* kTwoLinks = R"(<robot name="r">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="a"><inertial><mass value="2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="b"><inertial><mass value="3"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    %COLLISION%</link>
  <joint name="j1" type="%TYPE%"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="5" velocity="1"/></joint>
  <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="5" velocity="1"/><mimic joint="j1" multiplier="0.5" offset="0.1"/></joint>
</robot>)";

std::string TwoLinks(const std::string& type, const std::string& collision = "") {
  std::string s = kTwoLinks;
  s.replace(s.find("%TYPE%"), 6, type);
  s.replace(s.find("%COLLISION%"), 11, collision);
  return s;
}

TEST(UrdfImport, MimicBecomesACoupler) {
  const auto r = ParseUrdf(TwoLinks("revolute"), "two.urdf", ".");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ(r.value().couplers.size(), 1u);
  const JointCoupler& c = r.value().couplers[0];
  EXPECT_EQ(r.value().model.bodies[c.body].name, "b");
  EXPECT_EQ(r.value().model.bodies[c.mimicked_body].name, "a");
  EXPECT_DOUBLE_EQ(c.multiplier, 0.5);
  EXPECT_DOUBLE_EQ(c.offset, 0.1);
  EXPECT_EQ(r.value().model.bodies[1].position_upper, 1.0);
  EXPECT_EQ(r.value().model.bodies[1].effort_limit, 5.0);
}

TEST(UrdfImport, BrokenFilesNameTheElement) {
  auto r = ParseUrdf(TwoLinks("hinge"), "bad.urdf", ".");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().ToString().find("joint 'j1': unknown joint type 'hinge'"), std::string::npos)
      << r.error().ToString();
  EXPECT_EQ(r.error().line, 6);

  std::string no_inertial = TwoLinks("revolute");
  no_inertial.replace(
      no_inertial.find("<link name=\"a\">"),
      std::string("<link name=\"a\"><inertial><mass value=\"2\"/><inertia ixx=\"1\" ixy=\"0\" "
                  "ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>")
          .size(),
      "<link name=\"a\"></link>");
  r = ParseUrdf(no_inertial, "bad.urdf", ".");
  // Link a is massless but b below it is not: allowed, said once for all such links.
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ(r.value().warnings.size(), 1u);
  EXPECT_NE(
      r.value().warnings[0].find("1 moving link(s) without <inertial>, treated as massless: a"),
      std::string::npos)
      << r.value().warnings[0];
  std::string no_mass_leaf = TwoLinks("revolute");
  const std::string b_inertial =
      "<inertial><mass value=\"3\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" "
      "izz=\"1\"/></inertial>";
  no_mass_leaf.replace(no_mass_leaf.find(b_inertial), b_inertial.size(), "");
  // As a mimic follower, massless b moves with j1, which moves a's mass: a sound model.
  r = ParseUrdf(no_mass_leaf, "bad.urdf", ".");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  // Free to move on its own, j2 would move no mass: the mass matrix is singular.
  const std::string mimic = "<mimic joint=\"j1\" multiplier=\"0.5\" offset=\"0.1\"/>";
  no_mass_leaf.replace(no_mass_leaf.find(mimic), mimic.size(), "");
  r = ParseUrdf(no_mass_leaf, "bad.urdf", ".");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().ToString().find("joint 'j2': moves no mass"), std::string::npos)
      << r.error().ToString();

  r = ParseUrdf(
      TwoLinks("revolute",
               "<collision><geometry><mesh filename=\"nowhere/x.obj\"/></geometry></collision>"),
      "bad.urdf", "/tmp");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().ToString().find("link 'b': mesh 'nowhere/x.obj' not found"),
            std::string::npos)
      << r.error().ToString();

  r = ParseUrdf("<robot name='x'><link name='a'>", "bad.urdf", ".");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(ReadUrdf("/nonexistent.urdf").ok());
}

TEST(UrdfImport, JointDampingAndFrictionAreRead) {
  std::string with_friction = TwoLinks("revolute");
  with_friction.replace(with_friction.find("<axis xyz=\"0 0 1\"/>"), 19,
                        "<axis xyz=\"0 0 1\"/><dynamics damping=\"0.1\" friction=\"0.2\"/>");
  auto r = ParseUrdf(with_friction, "w.urdf", ".");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_TRUE(r.value().warnings.empty());
  EXPECT_DOUBLE_EQ(r.value().model.bodies[1].damping, 0.1);
  EXPECT_DOUBLE_EQ(r.value().model.bodies[1].friction, 0.2);
}

TEST(UrdfImport, StrictTurnsWarningsIntoErrors) {
  std::string with_safety = TwoLinks("revolute");
  with_safety.replace(with_safety.find("<axis xyz=\"0 0 1\"/>"), 19,
                      "<axis xyz=\"0 0 1\"/><safety_controller k_velocity=\"10\"/>");
  auto r = ParseUrdf(with_safety, "w.urdf", ".");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ(r.value().warnings.size(), 1u);
  EXPECT_NE(r.value().warnings[0].find("safety_controller"), std::string::npos);
  UrdfOptions strict;
  strict.strict = true;
  EXPECT_FALSE(ParseUrdf(with_safety, "w.urdf", ".", strict).ok());
}

}  // namespace
}  // namespace coulomb::multibody
