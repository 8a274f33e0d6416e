#pragma once
// Where this build's sources, data and `coulomb` program are, for the tests.
//
// Functions rather than compile definitions in every test: the paths differ between two clones
// of the repository, and a definition on a compile command would make each test's compile
// differ too, so a clone could not reuse the compiler cache another clone filled. Only
// build_paths.cc carries the paths (tests/CMakeLists.txt).

#include <filesystem>
#include <string>

namespace coulomb::testing {

const char* DataDir();    // COULOMB_DATA_DIR: data/ of the repository
const char* SourceDir();  // the repository's root
const char* CliPath();    // the `coulomb` program of this build

// A path in the system's temporary folder that no other test process uses: `name` with this
// process's id appended, so two test runs at once (a developer's and CI's, or two clones) do
// not delete each other's files.
std::filesystem::path TempPath(const std::string& name);

}  // namespace coulomb::testing
