// `coulomb run` and `coulomb info` as a user meets them: outputs, exit codes, error messages,
// and that existing files are never replaced without --force.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/build_paths.h"
#include "tests/support/cli_runner.h"

namespace {

using Result = coulomb::testing::CliRun;
using coulomb::testing::RunCli;

const std::string kIncline =
    std::string(coulomb::testing::SourceDir()) + "/examples/scenes/incline.yaml";

TEST(RunCli, WritesOutputsAndRefusesToOverwrite) {
  const auto dir = coulomb::testing::TempPath("coulomb_run_cli_test");
  std::filesystem::remove_all(dir);
  const std::string out = (dir / "out").string();
  Result r = RunCli("run " + kIncline + " --duration 0.1 --quiet --out " + out);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ifstream summary_file(dir / "out" / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(summary_file);
  EXPECT_EQ(summary["steps"], 100);
  EXPECT_EQ(summary["failed_steps"], 0);
  std::ifstream trajectory(dir / "out" / "trajectory.csv");
  int lines = 0;
  for (std::string line; std::getline(trajectory, line);) ++lines;
  EXPECT_EQ(lines, 1 + 101);  // header, the initial state and 100 steps
  // Refused before the first step (no progress line), not after a run that would be lost.
  r = RunCli("run " + kIncline + " --duration 0.1 --out " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("refusing to overwrite"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("progress:"), std::string::npos) << r.out;
  r = RunCli("run " + kIncline + " --duration 0.1 --quiet --force --out " + out);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(RunCli, DeformableSceneWritesVertexPositionsAsNpy) {
  const auto dir = coulomb::testing::TempPath("coulomb_run_cli_soft");
  std::filesystem::remove_all(dir);
  const std::string scene =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/soft_ball.yaml";
  Result r = RunCli("run " + scene + " --duration 0.05 --quiet --out " + dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // deformable_ball_x.npy: the NumPy header, then 11 frames × 343 vertices × 3 float32.
  std::ifstream file(dir / "deformable_ball_x.npy", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 6), "\x93NUMPY");
  const std::size_t header =
      static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
  EXPECT_EQ((10 + header) % 64, 0u);
  EXPECT_NE(bytes.find("'shape': (11, 343, 3)"), std::string::npos);
  EXPECT_EQ(bytes.size(), 10 + header + 11 * 343 * 3 * sizeof(float));
  // The first frame is the placed rest mesh: its lowest vertex at 0.3 − 0.1 m.
  float lowest = 1e9f;
  for (std::size_t v = 0; v < 343; ++v) {
    float z = 0;
    std::memcpy(&z, bytes.data() + 10 + header + (3 * v + 2) * sizeof(float), sizeof z);
    lowest = std::min(lowest, z);
  }
  EXPECT_NEAR(lowest, 0.2, 1e-6);
  EXPECT_TRUE(std::filesystem::exists(dir / "deformable_ball_tets.npy"));
  // Paper 1's acceleration-level stepper cannot couple deformable bodies: a clear error, exit 2.
  r = RunCli("run " + scene + " --formulation trinkle --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--formulation sap"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

TEST(RunCli, JsonSummaryAndOverrides) {
  const Result r =
      RunCli("run " + kIncline + " --formulation cone --dt 0.002 --duration 0.2 --json --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["formulation"], "cone");
  EXPECT_EQ(summary["steps"], 100);
}

TEST(RunCli, SetOverridesAnySettingAndInfoPrintsTheEffectiveOnesAsYaml) {
  Result r = RunCli("run " + kIncline +
                    " --set formulation=cone --set time_step=0.004 --set duration=0.2"
                    " --set solver.name=nsgs --json --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["formulation"], "cone");
  EXPECT_EQ(summary["solver"], "nsgs");
  EXPECT_EQ(summary["steps"], 50);

  r = RunCli("info " + kIncline + " --settings --set solver.tolerance=1e-9", false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // The incline's own settings (velocity-lcp, lemke, 8 directions) and the override.
  EXPECT_NE(r.out.find("formulation: velocity-lcp"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  name: lemke"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  directions: 8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  tolerance: 1e-09"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("sigma"), std::string::npos) << "SAP's keys are not velocity-lcp's";

  r = RunCli("run " + kIncline + " --set solver.tolerance=7 --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--set solver.tolerance: 7 is not in [1e-16, 1]"), std::string::npos)
      << r.out;
  r = RunCli("info --settings-reference", false);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("| `solver.tolerance` | real |"), std::string::npos) << r.out;
}

// A checkpoint keeps the run's --set list and --resume reapplies it: the resumed run ends where
// the straight run with the same overrides ends, not where the scene's own settings lead.
TEST(RunCli, ResumedRunKeepsItsSetOverrides) {
  const auto dir = coulomb::testing::TempPath("coulomb_run_cli_set_resume");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string drop =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/drop.yaml";
  const std::string checkpoint = (dir / "drop.ckpt").string();
  const std::string set = " --set gravity=[0,0,-4] --set formulation=cone --set solver.name=nsgs";
  Result r =
      RunCli("run " + drop + set + " --duration 0.3 --checkpoint " + checkpoint + " --quiet --json",
             false);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const Result resumed =
      RunCli("run --resume " + checkpoint + " --duration 0.6 --quiet --json", false);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out;
  const Result straight = RunCli("run " + drop + set + " --duration 0.6 --quiet --json", false);
  const Result plain = RunCli("run " + drop + " --duration 0.6 --quiet --json", false);
  const nlohmann::json a = nlohmann::json::parse(resumed.out);
  EXPECT_EQ(a["solver"], "nsgs");
  EXPECT_EQ(a["state_hash"], nlohmann::json::parse(straight.out)["state_hash"]);
  EXPECT_NE(a["state_hash"], nlohmann::json::parse(plain.out)["state_hash"]);
  r = RunCli("run --resume " + checkpoint + " --set duration=1 --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--set"), std::string::npos) << r.out;
}

TEST(RunCli, SapFormulationWithItsLineSearchAsTheSolver) {
  Result r = RunCli("run " + kIncline +
                    " --formulation sap --solver backtracking --duration 0.2 --json --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const nlohmann::json summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["formulation"], "sap");
  EXPECT_EQ(summary["solver"], "newton/backtracking");
  EXPECT_EQ(summary["failed_steps"], 0);
  r = RunCli("run " + kIncline + " --formulation sap --solver lemke --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("exact, backtracking"), std::string::npos) << r.out;
  // Every formulation enforces joint limits (as contacts, or SAP's constraints): no warning.
  const std::string iiwa =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/iiwa_hold.yaml";
  for (const char* formulation : {"velocity-lcp", "cone", "trinkle", "sap"}) {
    r = RunCli("run " + iiwa + " --duration 0.002 --quiet --formulation " + formulation);
    EXPECT_EQ(r.out.find("ignores"), std::string::npos) << formulation << ": " << r.out;
  }
  // Welds and joint friction are SAP's alone: the other formulations say they ignore them.
  const auto dir = coulomb::testing::TempPath("coulomb_run_cli_weld");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "weld.yaml")
      << "coulomb: 1\nduration: 0.002\nbodies:\n"
         "  - {name: a, mass: 1, position: [0, 0, 1], shapes: [{type: box, size: [1, 1, 1]}]}\n"
         "  - {name: b, mass: 1, position: [0, 0, 2], shapes: [{type: box, size: [1, 1, 1]}]}\n"
         "  - {name: c, joint: revolute, joint_friction: 0.5, mass: 1, position: [0, 0, 3],\n"
         "     shapes: [{type: box, size: [1, 1, 1]}]}\n"
         "constraints:\n  - {type: weld, name: ab, body_a: a, body_b: b}\n";
  r = RunCli("run " + (dir / "weld.yaml").string() + " --quiet --formulation cone");
  EXPECT_NE(r.out.find("ignores 1 weld/distance constraint(s) or coupler(s) between two trees "
                       "and the friction of 1 joint(s) (c); use --formulation sap"),
            std::string::npos)
      << r.out;
  r = RunCli("run " + (dir / "weld.yaml").string() + " --quiet --formulation sap");
  EXPECT_EQ(r.out.find("ignores"), std::string::npos) << r.out;
}

TEST(RunCli, BadInputExitsTwoNamingTheCause) {
  const auto dir = coulomb::testing::TempPath("coulomb_run_cli_bad");
  std::filesystem::create_directories(dir);
  const auto scene = dir / "bad.yaml";
  std::ofstream(scene) << "coulomb: 1\nbodies:\n  - {name: a, mass: nan, shapes: []}\n";
  Result r = RunCli("run " + scene.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("bad.yaml:3: bodies[0].mass"), std::string::npos) << r.out;
  r = RunCli("run " + kIncline + " --formulation magic");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("--formulation"), std::string::npos) << r.out;
  r = RunCli("info " + (dir / "missing.yaml").string());
  EXPECT_EQ(r.exit_code, 2);
  // A value given on the command line is used or refused, never replaced by the scene's.
  for (const char* option : {"--dt 0", "--dt -1e-3", "--duration -1", "--duration nan"}) {
    r = RunCli("run " + kIncline + " --quiet " + option);
    EXPECT_EQ(r.exit_code, 2) << option;
    EXPECT_NE(r.out.find(std::string(option).substr(0, std::string(option).find(' '))),
              std::string::npos)
        << option << ": " << r.out;
  }
  // A forgotten path value is not taken from the next option.
  r = RunCli("run " + kIncline + " --out --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("looks like an option"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists("--quiet"));
  std::filesystem::remove_all(dir);
}

TEST(RunCli, InfoSummarizesTheModel) {
  const Result r = RunCli("info " + kIncline);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("nq = 7, nv = 6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("contacts at t = 0: 4"), std::string::npos) << r.out;
  const Result soft = RunCli("info " + std::string(coulomb::testing::SourceDir()) +
                             "/examples/scenes/soft_ball.yaml");
  ASSERT_EQ(soft.exit_code, 0) << soft.out;
  EXPECT_NE(soft.out.find("3 deformable bodies"), std::string::npos) << soft.out;
  EXPECT_NE(soft.out.find("343 vertices, 1296 tets"), std::string::npos) << soft.out;
  // The blocks rest on nothing at t = 0; the crate sits on the ground.
  EXPECT_NE(soft.out.find("deformable contacts at t = 0: 0 (0 at vertices, 0 surface polygons)"),
            std::string::npos)
      << soft.out;
}

std::string StateHash(const Result& r) {
  const auto at = r.out.find('{');
  if (at == std::string::npos) return "no summary: " + r.out;
  return nlohmann::json::parse(r.out.substr(at))["state_hash"].get<std::string>();
}

// A run checkpointed half-way and resumed with a longer --duration ends where the straight run
// does; the resumed run says where it came from and keeps checkpointing into the same file.
TEST(RunCli, ResumeContinuesToTheGivenEndBitIdentically) {
  const auto dir = coulomb::testing::TempPath("coulomb_run_cli_resume");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string checkpoint = (dir / "incline.ckpt").string();
  const Result straight = RunCli("run " + kIncline + " --duration 0.2 --quiet --json", false);
  ASSERT_EQ(straight.exit_code, 0) << straight.out;
  Result r = RunCli("run " + kIncline + " --duration 0.1 --quiet --checkpoint " + checkpoint);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("checkpoint: " + checkpoint + " (after step 100, t = 0.1 s)"),
            std::string::npos)
      << r.out;
  r = RunCli("run --resume " + checkpoint + " --duration 0.2 --quiet --checkpoint-every 0.05");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("200 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("resumed from " + checkpoint + " after step 100 (t = 0.1 s)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("checkpoint: " + checkpoint + " (after step 200, t = 0.2 s)"),
            std::string::npos)
      << r.out;
  // The file now holds step 200: resuming it again runs no step and ends in the same state.
  const Result again = RunCli("run --resume " + checkpoint + " --quiet --json", false);
  ASSERT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(StateHash(again), StateHash(straight));
  // A scene that changed since the checkpoint is not resumed as if it were the same run.
  const std::string copy = (dir / "incline.yaml").string();
  std::filesystem::copy_file(kIncline, copy);
  r = RunCli("run " + copy + " --duration 0.1 --quiet --checkpoint " + checkpoint + " --force");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ofstream(copy, std::ios::app) << "# edited\n";
  r = RunCli("run --resume " + checkpoint + " --duration 0.2 --quiet");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("changed since the checkpoint was written"), std::string::npos) << r.out;
  std::filesystem::remove_all(dir);
}

}  // namespace
