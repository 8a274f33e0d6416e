// The settings table (coulomb/io/scene_settings.h): the printed effective settings of every
// example read back to the same settings and the same run, every setting of every formulation
// round trips away from its default, and errors name the key.

#include "coulomb/io/scene_settings.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "coulomb/formulations/formulation.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/io/text_file.h"
#include "coulomb/sim/simulate.h"
#include "tests/support/build_paths.h"

namespace coulomb::io {
namespace {

const std::string kExamples = std::string(coulomb::testing::SourceDir()) + "/examples/scenes";

// The scene file `text` with its settings replaced by the YAML document `settings`: every key of
// the table is removed (top level and `solver:`), then the printed ones are put in.
std::string WithSettings(const std::string& text, const std::string& settings) {
  YAML::Node document = YAML::Load(text);
  for (const SceneSetting& s : SceneSettings()) {
    if (s.key.find('.') == std::string_view::npos) document.remove(std::string(s.key));
  }
  document.remove("solver");
  const YAML::Node printed = YAML::Load(settings);
  for (const auto& entry : printed) document[entry.first.as<std::string>()] = entry.second;
  YAML::Emitter out;
  out << document;
  return out.c_str();
}

// The state after a few steps: what the settings make of the scene, not just how they print.
std::uint64_t HashAfterSteps(sim::Scene scene, int steps) {
  scene.duration = steps * scene.model.time_step;
  scene.model.settings.measure_accuracy = false;
  return sim::Simulate(scene, nullptr).state_hash;
}

std::vector<std::string> ExampleFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kExamples)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(SceneSettings, EveryExamplesPrintedSettingsReadBackToTheSameSettingsAndRun) {
  const std::vector<std::string> files = ExampleFiles();
  ASSERT_GE(files.size(), 15u);
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    Expected<std::string> text = ReadTextFile(path);
    ASSERT_TRUE(text.ok());
    Expected<sim::Scene> original = ReadSceneFile(path);
    ASSERT_TRUE(original.ok()) << original.error().ToString();
    const std::string printed = EffectiveSettingsYaml(original.value());
    const std::string base = std::filesystem::path(path).parent_path().string();
    Expected<sim::Scene> reread = ParseScene(WithSettings(text.value(), printed), path, base);
    ASSERT_TRUE(reread.ok()) << reread.error().ToString() << "\n" << printed;
    EXPECT_EQ(EffectiveSettingsYaml(reread.value()), printed);
    EXPECT_EQ(reread.value().model.settings.formulation,
              original.value().model.settings.formulation);
    // Three steps: contact and the solver's settings already shape the state (bit for bit).
    EXPECT_EQ(HashAfterSteps(reread.value(), 3), HashAfterSteps(original.value(), 3));
  }
}

// A value of `setting` other than `current`, inside its range (and fit to run).
SettingValue OtherValue(const SceneSetting& setting, const SettingValue& current,
                        const sim::Scene& scene, int variant) {
  switch (setting.type) {
    case SettingType::kBoolean:
      return !std::get<bool>(current);
    case SettingType::kVector3:
      return Eigen::Vector3d(std::get<Eigen::Vector3d>(current) + Eigen::Vector3d(0.25, -0.5, 1));
    case SettingType::kChoice: {
      if (setting.key == "formulation") return std::string("cone");
      std::string names(setting.choices.empty() ? scene.model.settings.formulation->solver_names
                                                : setting.choices);
      std::vector<std::string> list;
      std::stringstream stream(names);
      for (std::string name; std::getline(stream, name, ',');) {
        list.push_back(name.substr(name.find_first_not_of(' ')));
      }
      return list[static_cast<std::size_t>(variant) % list.size()];
    }
    case SettingType::kInteger:
    case SettingType::kReal: {
      const double value = std::get<double>(current);
      double other = value == setting.hi ? setting.lo : std::min(setting.hi, value * 2 + 1);
      if (setting.type == SettingType::kReal && setting.hi <= 1 && value < setting.hi) {
        other = (value + setting.hi) / 2;  // fractions and tolerances stay inside (lo, hi]
      }
      return other;
    }
  }
  return current;
}

TEST(SceneSettings, EverySettingOfEveryFormulationRoundTripsAwayFromItsDefault) {
  for (const Formulation* formulation : Formulations()) {
    SCOPED_TRACE(formulation->name);
    const int variants = 4;  // each choice's names in turn (the solvers of solver.name)
    for (int variant = 0; variant < variants; ++variant) {
      sim::Scene scene;
      scene.model.settings.formulation = formulation;
      geometry::CollisionGeometry ground;  // a surface for `friction` to reach
      ground.shape = geometry::HalfSpace{};
      scene.model.world.Add(ground);
      int changed = 0;
      for (const SceneSetting& s : SceneSettings()) {
        if (s.key == "formulation") continue;  // one formulation per pass
        for (const SettingTarget& target : s.targets) {
          if (!target.formulation.empty() && target.formulation != formulation->name) continue;
          const std::optional<SettingValue> current = target.get(scene);
          const SettingValue other =
              OtherValue(s, current ? *current : SettingValue{1e-3}, scene, variant);
          for (const SettingTarget& t : s.targets) ASSERT_EQ(t.set(scene, other), "") << s.key;
          const std::optional<SettingValue> now = target.get(scene);
          ASSERT_TRUE(now.has_value()) << s.key;
          if (s.key == "solver.name") {
            // Printed as summaries print it ("newton/exact" for SAP's "exact"), and taken back.
            ASSERT_EQ(target.set(scene, *now), "");
            EXPECT_TRUE(*target.get(scene) == *now) << std::get<std::string>(*now);
          } else {
            EXPECT_TRUE(*now == other) << s.key << " does not read back what was set";
          }
          ++changed;
        }
      }
      EXPECT_GE(changed, 8);
      const std::string printed = EffectiveSettingsYaml(scene);
      const std::string file =
          "coulomb: 1\nbodies: [{name: ground, joint: fixed, shapes: [{type: halfspace}]}]\n" +
          printed;
      Expected<sim::Scene> reread = ParseScene(file, "settings.yaml", ".");
      ASSERT_TRUE(reread.ok()) << reread.error().ToString() << "\n" << printed;
      const auto body = [](const std::string& yaml) { return yaml.substr(yaml.find('\n')); };
      EXPECT_EQ(body(EffectiveSettingsYaml(reread.value())), body(printed));
    }
  }
}

TEST(SceneSettings, OverridesChangeTheSettingOrSayWhatIsWrong) {
  sim::Scene scene;
  EXPECT_EQ(ApplySettingOverride("formulation=cone", scene), "");
  EXPECT_EQ(scene.model.settings.formulation->name, "cone");
  EXPECT_EQ(ApplySettingOverride("solver.tolerance=1e-9", scene), "");
  EXPECT_EQ(scene.model.settings.cone.settings.tolerance, 1e-9);
  // Shared keys set every formulation's parameter, as in scene files.
  EXPECT_EQ(scene.model.settings.velocity_lcp.settings.pgs.acceptance_tolerance, 1e-9);
  EXPECT_EQ(ApplySettingOverride("gravity=[0, 0, -1.62]", scene), "");
  EXPECT_EQ(scene.model.multibody.gravity.z(), -1.62);
  EXPECT_EQ(ApplySettingOverride("solver.name=nsgs", scene), "");
  EXPECT_EQ(scene.model.settings.formulation->solver_name(scene.model.settings), "nsgs");

  EXPECT_EQ(ApplySettingOverride("solver.tolerance=2", scene),
            "solver.tolerance: 2 is not in [1e-16, 1]");
  EXPECT_EQ(ApplySettingOverride("solver.tolerence=1e-8", scene),
            "unknown setting 'solver.tolerence' (`coulomb info --settings-reference` lists them)");
  EXPECT_EQ(ApplySettingOverride("time_step", scene), "'time_step' is not key=value");
  EXPECT_EQ(ApplySettingOverride("record_every=2.5", scene), "record_every: 2.5 is not an integer");
  EXPECT_EQ(ApplySettingOverride("formulation=euler", scene),
            "formulation: unknown formulation 'euler' (" + FormulationNames() + ")");
  EXPECT_EQ(ApplySettingOverride("solver.ordering=colamd", scene),
            "solver.ordering: 'colamd' is not one of amd, metis");
  EXPECT_EQ(ApplySettingOverride("solver.name=dantzig", scene),
            "solver.name: unknown cone solver 'dantzig' (nsgs, nsn, ppa, ipm, portfolio)");
  EXPECT_NE(ApplySettingOverride("gravity=[0, 0", scene).find("is not a YAML value"),
            std::string::npos);
  EXPECT_EQ(scene.model.settings.cone.settings.tolerance, 1e-9);  // refused values changed nothing
  EXPECT_EQ(scene.model.settings.formulation->name, "cone");
}

// Settings that reach into the scene's contents: gravity into each deformable body (whose FEM
// step has its own copy), friction into every surface.
TEST(SceneSettings, GravityAndFrictionReachDeformableBodiesAndEverySurface) {
  Expected<sim::Scene> loaded = ReadSceneFile(kExamples + "/soft_ball.yaml");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  sim::Scene& scene = loaded.value();
  ASSERT_FALSE(scene.model.deformables.bodies.empty());
  ASSERT_EQ(ApplySettingOverride("gravity=[0, 0, -1.62]", scene), "");
  ASSERT_EQ(ApplySettingOverride("friction=0.25", scene), "");
  for (const fem::FemBody& body : scene.model.deformables.bodies) {
    EXPECT_EQ(body.gravity.z(), -1.62);
    EXPECT_EQ(body.friction, 0.25);
  }
  for (const geometry::CollisionGeometry& g : scene.model.world.geometries)
    EXPECT_EQ(g.friction, 0.25);
  EXPECT_NE(EffectiveSettingsYaml(scene).find("friction: 0.25"), std::string::npos);
  // A scene whose surfaces differ prints no common friction (its materials say it).
  scene.model.world.geometries.front().friction = 0.5;
  EXPECT_EQ(EffectiveSettingsYaml(scene).find("\nfriction:"), std::string::npos);
}

TEST(SceneSettings, AMisspelledSolverKeyInAFileNamesItsLineAndTheAllowedKeys) {
  Expected<sim::Scene> scene =
      ParseScene("coulomb: 1\nsolver:\n  tolerence: 1e-8\n", "typo.yaml", ".");
  ASSERT_FALSE(scene.ok());
  const std::string message = scene.error().ToString();
  EXPECT_NE(message.find("typo.yaml:3"), std::string::npos) << message;
  EXPECT_NE(message.find("solver.tolerence: unknown key"), std::string::npos) << message;
  EXPECT_NE(message.find("max_pivoting_rows"), std::string::npos) << message;
}

TEST(SceneSettings, TheSettingsReferenceInDocsIsTheTable) {
  std::ifstream doc(std::string(coulomb::testing::SourceDir()) + "/docs/settings.md");
  ASSERT_TRUE(doc.good());
  std::stringstream text;
  text << doc.rdbuf();
  EXPECT_EQ(text.str(), SettingsReferenceMarkdown())
      << "regenerate: ./build/bin/coulomb info --settings-reference > docs/settings.md";
}

}  // namespace
}  // namespace coulomb::io
