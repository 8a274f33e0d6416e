#include "coulomb/io/scene_settings.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "coulomb/formulations/formulation.h"

namespace coulomb::io {
namespace {

std::pair<std::string_view, std::string_view> SplitKey(std::string_view key) {
  const std::size_t dot = key.find('.');
  if (dot == std::string_view::npos) return {"", key};
  return {key.substr(0, dot), key.substr(dot + 1)};
}

bool IsChoice(std::string_view choices, std::string_view name) {
  while (!choices.empty()) {
    const std::size_t comma = choices.find(',');
    if (choices.substr(0, comma) == name) return true;
    if (comma == std::string_view::npos) break;
    choices.remove_prefix(comma + 1);
    while (!choices.empty() && choices.front() == ' ') choices.remove_prefix(1);
  }
  return false;
}

// The value of `f` as `setting` types and bounds it; throws ParseFailure naming the key.
SettingValue ReadValue(const SceneSetting& setting, const Field& f) {
  switch (setting.type) {
    case SettingType::kReal:
      return f.DoubleIn(setting.lo, setting.hi);
    case SettingType::kInteger:
      return static_cast<double>(f.Int(static_cast<int>(setting.lo), static_cast<int>(setting.hi)));
    case SettingType::kBoolean:
      return f.Bool();
    case SettingType::kVector3:
      return Eigen::Vector3d(f.Vector3());
    case SettingType::kChoice: {
      std::string name = f.String();
      if (!setting.choices.empty() && !IsChoice(setting.choices, name)) {
        f.Fail(fmt::format("'{}' is not one of {}", name, setting.choices));
      }
      return name;
    }
  }
  f.Fail("unknown setting type");
}

void Apply(const SceneSetting& setting, const Field& f, sim::Scene& scene) {
  const SettingValue value = ReadValue(setting, f);
  for (const SettingTarget& target : setting.targets) {
    if (std::string error = target.set(scene, value); !error.empty()) f.Fail(error);
  }
}

// The target the scene's formulation reads, or nullptr when it reads none.
const SettingTarget* TargetOf(const SceneSetting& setting, const sim::Scene& scene) {
  for (const SettingTarget& target : setting.targets) {
    if (target.formulation.empty() ||
        target.formulation == scene.model.settings.formulation->name) {
      return &target;
    }
  }
  return nullptr;
}

// Shortest text that reads back to the same value ({} of fmt is round-trip exact).
std::string FormatValue(const SettingValue& value) {
  if (const bool* flag = std::get_if<bool>(&value)) return *flag ? "true" : "false";
  if (const double* number = std::get_if<double>(&value)) return fmt::format("{}", *number);
  if (const std::string* text = std::get_if<std::string>(&value)) return *text;
  const Eigen::Vector3d& v = std::get<Eigen::Vector3d>(value);
  return fmt::format("[{}, {}, {}]", v.x(), v.y(), v.z());
}

std::string_view TypeName(SettingType type) {
  switch (type) {
    case SettingType::kReal:
      return "real";
    case SettingType::kInteger:
      return "integer";
    case SettingType::kBoolean:
      return "boolean";
    case SettingType::kChoice:
      return "choice";
    case SettingType::kVector3:
      return "3-vector";
  }
  return "?";
}

std::string RangeText(const SceneSetting& s) {
  if (s.type == SettingType::kReal || s.type == SettingType::kInteger) {
    return fmt::format("[{}, {}]", s.lo, s.hi);
  }
  if (s.type != SettingType::kChoice) return "";
  if (!s.choices.empty()) return std::string(s.choices);
  // The two choices whose names come from the registry (docs only).
  if (s.key == "formulation") return FormulationNames();
  std::string names;
  for (const Formulation* f : Formulations()) {
    names += fmt::format("{}{}: {}", names.empty() ? "" : "; ", f->name, f->solver_names);
  }
  return names;
}

// The default of every target, "a (velocity-lcp), b (cone)" when formulations differ; a target
// of every formulation is evaluated under each registered one.
std::string DefaultText(const SceneSetting& s) {
  std::vector<std::pair<std::string, std::string>> values;  // (value, formulation)
  for (const SettingTarget& target : s.targets) {
    for (const Formulation* f : Formulations()) {
      if (!target.formulation.empty() && target.formulation != f->name) continue;
      // The formulation's own default is the scene's, not one per formulation.
      if (s.key == "formulation" && f != sim::Scene{}.model.settings.formulation) continue;
      sim::Scene scene;
      scene.model.settings.formulation = f;
      const auto value = target.get(scene);
      values.emplace_back(value ? FormatValue(*value) : "unset", std::string(f->name));
    }
  }
  bool all_equal = true;
  for (const auto& v : values) all_equal = all_equal && v.first == values.front().first;
  if (all_equal) return values.empty() ? "" : values.front().first;
  std::string text;
  for (const auto& [value, formulation] : values) {
    text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", value, formulation);
  }
  return text;
}

}  // namespace

void ReadSceneSettings(const Field& root, sim::Scene& scene) {
  if (root.Has("solver")) {
    std::vector<std::string> solver_keys;
    for (const SceneSetting& s : SceneSettings()) {
      if (const auto [section, leaf] = SplitKey(s.key); section == "solver") {
        solver_keys.emplace_back(leaf);
      }
    }
    root["solver"].CheckKeys(solver_keys);
  }
  for (const SceneSetting& s : SceneSettings()) {
    const auto [section, leaf] = SplitKey(s.key);
    const std::string name(leaf);
    if (section.empty()) {
      if (root.Has(name)) Apply(s, root[name], scene);
    } else if (root.Has(std::string(section)) && root[std::string(section)].Has(name)) {
      Apply(s, root[std::string(section)][name], scene);
    }
  }
}

std::string ApplySettingOverride(std::string_view assignment, sim::Scene& scene) {
  const std::size_t equals = assignment.find('=');
  if (equals == std::string_view::npos) {
    return fmt::format("'{}' is not key=value", assignment);
  }
  const std::string key(assignment.substr(0, equals));
  const std::string text(assignment.substr(equals + 1));
  const SceneSetting* setting = FindSceneSetting(key);
  if (setting == nullptr) {
    return fmt::format("unknown setting '{}' (`coulomb info --settings-reference` lists them)",
                       key);
  }
  try {
    Apply(*setting, Field{YAML::Load(text), key}, scene);
  } catch (const YAML::Exception& e) {
    return fmt::format("{}: '{}' is not a YAML value ({})", key, text, e.msg);
  } catch (const ParseFailure& e) {
    return fmt::format("{}: {}", e.field, e.what());
  }
  return "";
}

std::string EffectiveSettingsYaml(const sim::Scene& scene) {
  std::string out = fmt::format(
      "# Effective settings of {} under formulation {} (units SI; keys this formulation does not "
      "read are left out)\n",
      scene.source.empty() ? scene.name : scene.source, scene.model.settings.formulation->name);
  std::string_view open_section;
  for (const SceneSetting& s : SceneSettings()) {
    const SettingTarget* target = TargetOf(s, scene);
    if (target == nullptr) continue;
    const std::optional<SettingValue> value = target->get(scene);
    if (!value) continue;
    const auto [section, leaf] = SplitKey(s.key);
    if (section != open_section) {
      out += fmt::format("{}:\n", section);
      open_section = section;
    }
    const std::string line =
        fmt::format("{}{}: {}", section.empty() ? "" : "  ", leaf, FormatValue(*value));
    out += fmt::format("{:<44} # {}{}\n", line, s.unit.empty() ? "" : fmt::format("{}; ", s.unit),
                       s.help);
  }
  return out;
}

std::string SettingsReferenceMarkdown() {
  std::string out =
      "# Scene settings\n\n"
      "Generated by `coulomb info --settings-reference` from the one table that the scene "
      "reader, `coulomb run --set KEY=VALUE` and `coulomb info --settings` use "
      "(`coulomb/io/scene_settings_table.cc`); a test keeps this file equal to it. Units are SI. "
      "A key read by several formulations sets each one's parameter; `coulomb info --settings "
      "SCENE` prints the values of the scene's formulation.\n\n"
      "| key | type | unit | default | range | read by | what it is |\n"
      "|---|---|---|---|---|---|---|\n";
  for (const SceneSetting& s : SceneSettings()) {
    std::string readers;
    for (const SettingTarget& target : s.targets) {
      readers += fmt::format("{}{}", readers.empty() ? "" : ", ",
                             target.formulation.empty() ? "all" : target.formulation);
    }
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", s.key, TypeName(s.type), s.unit,
                       DefaultText(s), RangeText(s), readers, s.help);
  }
  return out;
}

}  // namespace coulomb::io
