#pragma once
// The example scenes the tests run, by name (file stem), sorted: those of examples/scenes/ or of
// one of its folders (`folder` = "robots").

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/build_paths.h"

namespace coulomb::testing {

inline std::string ExampleScenesDir(const std::string& folder = "") {
  const std::string root = std::string(SourceDir()) + "/examples/scenes";
  return folder.empty() ? root : root + "/" + folder;
}

inline std::vector<std::string> ExampleSceneNames(const std::string& folder = "") {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(ExampleScenesDir(folder))) {
    if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace coulomb::testing
