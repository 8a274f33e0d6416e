#pragma once
// The --out files of the `coulomb bench` studies: none is replaced without --force, and a file
// that cannot be written is an error on stderr.

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace coulomb::app {

// "" when none of `files` exists (or `force`) and their folder exists or was created; else why.
inline std::string PrepareOutputs(const std::vector<std::filesystem::path>& files, bool force) {
  std::error_code ec;
  for (const auto& path : files) {
    if (std::filesystem::exists(path, ec) && !force) {
      return fmt::format("--out: {} exists (use --force to replace it)", path.string());
    }
  }
  if (files.empty()) return "";
  const std::filesystem::path dir = files.front().parent_path();
  std::filesystem::create_directories(dir, ec);
  if (ec) return fmt::format("--out: cannot create {}: {}", dir.string(), ec.message());
  return "";
}

inline bool WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) fmt::print(stderr, "error: --out: could not write {}\n", path.string());
  return static_cast<bool>(file);
}

}  // namespace coulomb::app
