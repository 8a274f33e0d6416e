#include "coulomb/sweep/sweep_scene.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

#include "coulomb/io/scene_file.h"
#include "coulomb/io/scene_settings.h"
#include "coulomb/io/text_file.h"

namespace coulomb::sweep {
namespace {

// One step of a path: a key, and optionally a sequence selector (an index, or the `name:` of
// an element).
struct PathStep {
  std::string key, selector;
  bool has_selector = false;
};

std::vector<PathStep> SplitPath(const std::string& path) {
  std::vector<PathStep> steps;
  std::size_t at = 0;
  while (at <= path.size()) {
    std::size_t end = at;
    while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
    PathStep step{path.substr(at, end - at), "", false};
    if (end < path.size() && path[end] == '[') {
      const std::size_t close = path.find(']', end);
      if (close == std::string::npos) return {};
      step.selector = path.substr(end + 1, close - end - 1);
      step.has_selector = true;
      end = close + 1;
    }
    steps.push_back(step);
    if (end >= path.size()) break;
    if (path[end] != '.') return {};
    at = end + 1;
  }
  return steps;
}

// The element of a sequence chosen by index or by name, or an invalid node.
YAML::Node Select(const YAML::Node& sequence, const std::string& selector) {
  if (!sequence.IsSequence()) return YAML::Node(YAML::NodeType::Undefined);
  const bool numeric =
      !selector.empty() &&
      std::all_of(selector.begin(), selector.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (numeric) {
    const std::size_t i = std::stoul(selector);
    return i < sequence.size() ? sequence[i] : YAML::Node(YAML::NodeType::Undefined);
  }
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    const YAML::Node element = sequence[i];
    if (element.IsMap() && element["name"] && element["name"].IsScalar() &&
        element["name"].Scalar() == selector) {
      return element;
    }
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

// Walks `path` in `root` to the mapping that holds its last key; "" or why it cannot.
std::string FindParent(YAML::Node root, const std::string& path, YAML::Node& parent,
                       std::string& last_key) {
  const std::vector<PathStep> steps = SplitPath(path);
  if (steps.empty() ||
      std::any_of(steps.begin(), steps.end(), [](const PathStep& s) { return s.key.empty(); })) {
    return fmt::format("'{}' is not a key path (keys separated by '.', e.g. bodies[cube].mass)",
                       path);
  }
  if (steps.back().has_selector) {
    return fmt::format("'{}' ends in a selector; name the value inside the element", path);
  }
  // yaml-cpp's Node::operator= writes into the node it refers to; walking uses reset(), which
  // re-points the handle and leaves the document alone.
  YAML::Node node;
  node.reset(root);
  std::string walked;
  for (std::size_t k = 0; k + 1 < steps.size(); ++k) {
    const PathStep& s = steps[k];
    walked += (walked.empty() ? "" : ".") + s.key;
    if (!node.IsMap() || !node[s.key]) {
      return fmt::format(
          "the scene file has no '{}' (a sweep sets values that exist, or new "
          "keys inside a mapping that exists)",
          walked);
    }
    node.reset(node[s.key]);
    if (s.has_selector) {
      walked += "[" + s.selector + "]";
      node.reset(Select(node, s.selector));
      if (!node.IsDefined()) {
        return fmt::format(
            "the scene file has no element '{}' (an index or the name: of an "
            "element of a list)",
            walked);
      }
    }
  }
  if (!node.IsMap()) return fmt::format("'{}' of the scene file is not a mapping", walked);
  parent.reset(node);
  last_key = steps.back().key;
  return "";
}

}  // namespace

Expected<BaseScene> ReadBaseScene(const std::string& path) {
  BaseScene base;
  base.path = path;
  base.base_dir = std::filesystem::path(path).parent_path().string();
  Expected<std::string> text = io::ReadTextFile(path);
  if (!text.ok()) return text.error();
  base.text = text.value();
  Expected<sim::Scene> scene = io::ParseScene(base.text, path, base.base_dir);
  if (!scene.ok()) return scene.error();
  base.scene = std::move(scene.value());
  // The reader accepted the text, so yaml-cpp parses it.
  base.document = std::make_shared<const YAML::Node>(YAML::Load(base.text));
  return base;
}

bool IsSettingKey(const std::string& key) {
  return io::FindSceneSetting(key) != nullptr;
}

std::string CheckScenePath(const BaseScene& base, const std::string& path) {
  YAML::Node parent;
  std::string key;
  return FindParent(YAML::Clone(*base.document), path, parent, key);
}

Expected<sim::Scene> BuildRunScene(const BaseScene& base, const std::vector<Assignment>& values) {
  const auto refused = [](const Assignment& a, const std::string& why) {
    return InputError{"", 0, a.first, fmt::format("value {}: {}", a.second, why)};
  };
  const bool edits_file = std::any_of(values.begin(), values.end(),
                                      [](const Assignment& a) { return !IsSettingKey(a.first); });
  sim::Scene scene;
  if (edits_file) {
    YAML::Node document = YAML::Clone(*base.document);
    for (const Assignment& a : values) {
      if (IsSettingKey(a.first)) continue;
      YAML::Node parent;
      std::string key;
      if (std::string why = FindParent(document, a.first, parent, key); !why.empty()) {
        return refused(a, why);
      }
      try {
        parent[key] = YAML::Load(a.second);
      } catch (const YAML::Exception& e) {
        return refused(a, std::string("not YAML: ") + e.what());
      }
    }
    YAML::Emitter emitter;
    emitter << document;
    const std::string origin = base.path + " (with the sweep's values)";
    Expected<sim::Scene> read = io::ParseScene(emitter.c_str(), origin, base.base_dir);
    if (!read.ok()) return read.error();
    scene = std::move(read.value());
    scene.source = base.path;
  } else {
    scene = base.scene;
  }
  // formulation first: it decides how solver.name and the other solver keys are read.
  std::vector<const Assignment*> settings;
  for (const Assignment& a : values) {
    if (IsSettingKey(a.first)) settings.push_back(&a);
  }
  std::stable_partition(settings.begin(), settings.end(),
                        [](const Assignment* a) { return a->first == "formulation"; });
  for (const Assignment* a : settings) {
    const std::string error = io::ApplySettingOverride(a->first + "=" + a->second, scene);
    if (!error.empty()) return InputError{"", 0, a->first, error};
  }
  if (std::string defect = sim::ValidateScene(scene); !defect.empty()) {
    return InputError{"", 0, "", defect};
  }
  return scene;
}

}  // namespace coulomb::sweep
