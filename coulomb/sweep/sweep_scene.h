#pragma once
// The scene of one sweep run: the base scene file with the run's parameter values applied.
// A key of the settings table goes through io::ApplySettingOverride, exactly as `coulomb run
// --set` does; any other key is a path into the scene file's YAML ("materials.wood.friction",
// "bodies[cube].velocity", "bodies[1].mass"), set in the document before it is read, so every
// check of the scene reader applies to the varied value too.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "coulomb/base/error.h"
#include "coulomb/sim/scene.h"

namespace YAML {
class Node;
}

namespace coulomb::sweep {

// The base scene, read once.
struct BaseScene {
  std::string path, base_dir, text;
  std::shared_ptr<const YAML::Node> document;  // the parsed file, cloned per run that edits it
  sim::Scene scene;                            // read from `text` unchanged
};

Expected<BaseScene> ReadBaseScene(const std::string& path);

// Whether `key` names a setting of the table (docs/settings.md).
bool IsSettingKey(const std::string& key);

// "" when `path` resolves in the base scene's document to a value that can be set (its parent
// exists and is a mapping), else why not.
std::string CheckScenePath(const BaseScene& base, const std::string& path);

// (key, value as YAML flow text) in the order given; settings keys are applied after every path
// edit, with `formulation` first (it interprets solver.name). An error names the key and value.
using Assignment = std::pair<std::string, std::string>;
Expected<sim::Scene> BuildRunScene(const BaseScene& base, const std::vector<Assignment>& values);

}  // namespace coulomb::sweep
