#pragma once
// Scene files: YAML (yaml-cpp), schema version 1, documented in docs/scene-format.md.
// Every defect (syntax, unknown key, wrong type, bad value, missing URDF, invalid model) is an
// InputError naming the file, the line and the key path (e.g. "bodies[2].shapes[0].size").

#include <string>

#include "coulomb/base/error.h"
#include "coulomb/sim/scene.h"

namespace coulomb::io {

inline constexpr int kSceneSchemaVersion = 1;

Expected<sim::Scene> ReadSceneFile(const std::string& path);
// `origin` names the source in messages; relative paths (URDF files) resolve against `base_dir`.
Expected<sim::Scene> ParseScene(const std::string& text, const std::string& origin,
                                const std::string& base_dir);

}  // namespace coulomb::io
