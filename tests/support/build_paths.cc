#include "tests/support/build_paths.h"

#include <unistd.h>

namespace coulomb::testing {

const char* DataDir() {
  return COULOMB_TEST_DATA_DIR;
}
const char* SourceDir() {
  return COULOMB_TEST_SOURCE_DIR;
}
const char* CliPath() {
  return COULOMB_TEST_CLI;
}

std::filesystem::path TempPath(const std::string& name) {
  const std::filesystem::path file(name);
  // The id before the extension, so that a file keeps the extension its reader checks.
  return std::filesystem::temp_directory_path() /
         (file.stem().string() + "_" + std::to_string(::getpid()) + file.extension().string());
}

}  // namespace coulomb::testing
