#pragma once
// Runs the `coulomb` command line of this build (CliPath(), tests/support/build_paths.h) as a user
// would.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "tests/support/build_paths.h"

namespace coulomb::testing {

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout and stderr together, or stdout alone
};

// Runs a shell command line; `out` is what it printed on stdout.
inline CliRun RunCommand(const std::string& command) {
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.out += buffer.data();
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// stdout and stderr together, or stdout alone (stderr discarded) for machine-readable output.
// `working_dir`, when given, is the folder the command runs in.
inline CliRun RunCli(const std::string& args, bool with_stderr = true,
                     const std::string& working_dir = "") {
  return RunCommand((working_dir.empty() ? "" : "cd '" + working_dir + "' && ") +
                    std::string(coulomb::testing::CliPath()) + " " + args +
                    (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

}  // namespace coulomb::testing
