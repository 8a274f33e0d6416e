#include "tests/support/build_paths.h"

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

}  // namespace coulomb::testing
