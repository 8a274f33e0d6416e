// Determinism as a contract (docs/determinism.md): every example under every formulation that
// takes it, run twice in separate processes, ends in the same state bit for bit (the summaries'
// state_hash). The second process runs from another folder and asks OpenMP and OpenBLAS for
// more threads, which Coulomb must override: threaded BLAS sums in a varying order.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/build_paths.h"
#include "tests/support/cli_runner.h"
#include "tests/support/example_scenes.h"

namespace {

using coulomb::testing::CliRun;
using coulomb::testing::RunCli;

struct Outcome {
  int exit_code = -1;
  std::string state_hash, output;
  int max_contacts = 0;
};

Outcome RunExample(const std::string& example, const std::string& formulation, bool other_process) {
  const std::string scene =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/" + example + ".yaml";
  // Long enough for contact in every example, short enough for the whole matrix to take a
  // minute: the bin's first contacts at 0.13 s, the pyramid in contact from the start, the drop
  // and the cradle's first impacts before 0.5 s, three of the cylinder crush's 4 s steps.
  const std::map<std::string, std::string> durations = {{"bin", "0.13"},
                                                        {"pyramid", "0.1"},
                                                        {"drop", "0.5"},
                                                        {"newtons_cradle", "0.5"},
                                                        {"cylinder_crush", "12"}};
  const auto it = durations.find(example);
  const std::string duration = it == durations.end() ? "0.3" : it->second;
  if (other_process) {
    setenv("OMP_NUM_THREADS", "2", 1);
    setenv("OPENBLAS_NUM_THREADS", "2", 1);
  } else {
    unsetenv("OMP_NUM_THREADS");
    unsetenv("OPENBLAS_NUM_THREADS");
  }
  const CliRun run = RunCli("run " + scene + " --formulation " + formulation + " --duration " +
                                duration + " --quiet --json",
                            false, other_process ? std::filesystem::temp_directory_path() : "");
  Outcome outcome{run.exit_code, "", run.out, 0};
  const auto at = run.out.find('{');
  if (at != std::string::npos) {
    const nlohmann::json summary = nlohmann::json::parse(run.out.substr(at));
    outcome.state_hash = summary["state_hash"].get<std::string>();
    outcome.max_contacts = summary["max_contacts"].get<int>();
  }
  return outcome;
}

class Determinism : public ::testing::TestWithParam<std::string> {};

TEST_P(Determinism, TwoProcessesEndInTheSameStateUnderEveryFormulation) {
  int compared = 0;
  for (const char* formulation : {"velocity-lcp", "cone", "trinkle", "sap"}) {
    SCOPED_TRACE(formulation);
    const Outcome first = RunExample(GetParam(), formulation, false);
    const Outcome second = RunExample(GetParam(), formulation, true);
    EXPECT_EQ(first.exit_code, second.exit_code);
    if (first.exit_code == 2) {  // refused (a deformable scene under a rigid formulation)
      EXPECT_TRUE(first.state_hash.empty());
      continue;
    }
    ASSERT_FALSE(first.state_hash.empty()) << first.output;
    EXPECT_EQ(first.state_hash, second.state_hash);
    EXPECT_EQ(first.max_contacts, second.max_contacts);
    // iiwa_hold has no collision geometry: it pins the arm's PD-driven dynamics.
    if (GetParam() != "iiwa_hold") {
      EXPECT_GT(first.max_contacts, 0) << "the run ended before any contact: it pins too little";
    }
    ++compared;
  }
  EXPECT_GE(compared, 1) << "no formulation takes " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Examples, Determinism,
                         ::testing::ValuesIn(coulomb::testing::ExampleSceneNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
