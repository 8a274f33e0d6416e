#pragma once
// Every scene setting defined once: key, type, unit, range, help, and where it lives in
// sim::Scene for each formulation that reads it. The scene reader, `coulomb run --set`,
// `coulomb info --settings` (the effective settings as YAML, which read back give the same
// settings) and docs/settings.md all come from this one table; so do the range errors.
//
// A key may feed several formulations' parameters (`solver.tolerance` is the cone's ABH
// tolerance and the velocity LCP's block Gauss–Seidel acceptance): setting it sets every one, as
// scene files always have; reading it reads the one of the scene's formulation, so the printed
// settings are those the run uses. Keys the scene's formulation does not read are not printed.

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "coulomb/io/yaml_fields.h"
#include "coulomb/sim/scene.h"

namespace coulomb::io {

enum class SettingType { kReal, kInteger, kBoolean, kChoice, kVector3 };

// An integer setting is held as a double (every range below is exact in one).
using SettingValue = std::variant<bool, double, std::string, Eigen::Vector3d>;

// Where one formulation (or every one, formulation "") reads a setting.
struct SettingTarget {
  std::string_view formulation;
  // Absent when unset (an optional parameter such as SAP's dissipation time scale).
  std::function<std::optional<SettingValue>(const sim::Scene& scene)> get;
  // "" or why the value is refused (an unknown solver name).
  std::function<std::string(sim::Scene& scene, const SettingValue& value)> set;
};

struct SceneSetting {
  std::string_view key;  // "time_step", "solver.tolerance"
  SettingType type = SettingType::kReal;
  std::string_view unit;     // SI: "s", "m", "m/s", "m/s²"; "" when dimensionless
  double lo = 0, hi = 0;     // closed range of a real or integer
  std::string_view choices;  // a choice's names ("" when they come from the formulation)
  std::string_view help;
  std::vector<SettingTarget> targets;
};

// The table, in the order settings are applied and printed (formulation before solver.name,
// which the formulation interprets).
std::span<const SceneSetting> SceneSettings();
// The setting called `key`, or nullptr.
const SceneSetting* FindSceneSetting(std::string_view key);

// Reads every setting present under `root` (the scene file's top level and its `solver:`
// section), in table order; throws ParseFailure naming the key on a bad value or an unknown
// `solver:` key.
void ReadSceneSettings(const Field& root, sim::Scene& scene);

// `--set key=value`: value is YAML ("1e-4", "[0, 0, -1.62]", "cone"). "" or what is wrong,
// naming the key.
std::string ApplySettingOverride(std::string_view assignment, sim::Scene& scene);

// The scene's effective settings as a YAML document that ReadSceneSettings reads back to the
// same effective settings (each value printed to round trip exactly).
std::string EffectiveSettingsYaml(const sim::Scene& scene);

// docs/settings.md: every setting with its type, unit, default, range, formulations and help.
std::string SettingsReferenceMarkdown();

}  // namespace coulomb::io
