// Runs that end early, as a user would end them. Paper 2's arch at δt = 40 ms: checkpointed every 5
// s, killed (SIGKILL) right after the first checkpoint, resumed from the file to 20 s, it ends in
// the state of the run that was never interrupted (same state_hash). The arch's SAP precondition
// Newton steps with a factor lagged from earlier steps, so this also pins that the checkpoint keeps
// it.

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "coulomb/io/checkpoint_file.h"
#include "tests/support/build_paths.h"
#include "tests/support/cli_runner.h"

extern char** environ;

namespace {

using coulomb::testing::RunCli;

const std::string kArch = std::string(coulomb::testing::SourceDir()) + "/examples/scenes/arch.yaml";

nlohmann::json Summary(const coulomb::testing::CliRun& run) {
  const auto at = run.out.find('{');
  return at == std::string::npos ? nlohmann::json{} : nlohmann::json::parse(run.out.substr(at));
}

// Starts `coulomb` with `args` (the program name first) and returns its pid.
pid_t Spawn(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, coulomb::testing::CliPath(), nullptr, nullptr, argv.data(), environ),
            0);
  return pid;
}

std::vector<std::string> Lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Waits (at most a minute) until `path` has more than `count` lines.
void WaitForLines(const std::filesystem::path& path, std::size_t count) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (Lines(path).size() <= count && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// The whole file as text, so that a last line without its newline can be seen.
std::string Text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Outputs are written as the run goes: Ctrl-C ends a long run after the step in progress with
// every output written and exit 130; SIGKILL leaves the frames computed so far, every line that
// ends in a newline a whole row. Linux stops a write to a file between two pages once the writer
// is killed, so a kill in the middle of a row's write leaves that one row cut, with no newline.
TEST(CheckpointCli, InterruptedOrKilledRunKeepsTheFramesItComputed) {
  const auto dir = coulomb::testing::TempPath("coulomb_interrupted_run");
  std::filesystem::remove_all(dir);
  const std::string scene =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/stack.yaml";
  for (const int signal : {SIGINT, SIGKILL}) {
    SCOPED_TRACE(signal == SIGINT ? "SIGINT" : "SIGKILL");
    const auto out = dir / (signal == SIGINT ? "int" : "kill");
    const pid_t pid = Spawn({coulomb::testing::CliPath(), "run", scene, "--duration", "1000",
                             "--quiet", "--out", out.string()});
    WaitForLines(out / "trajectory.csv", 50);
    ASSERT_EQ(kill(pid, signal), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const std::vector<std::string> trajectory = Lines(out / "trajectory.csv");
    const std::vector<std::string> steps = Lines(out / "steps.csv");
    ASSERT_GT(trajectory.size(), 50u);
    const auto commas = [](const std::string& line) {
      return std::count(line.begin(), line.end(), ',');
    };
    const std::string text = Text(out / "trajectory.csv");
    const bool cut = !text.empty() && text.back() != '\n';
    for (std::size_t i = 0; i + (cut ? 1 : 0) < trajectory.size(); ++i) {
      EXPECT_EQ(commas(trajectory[i]), commas(trajectory[0])) << "row " << i;
    }
    if (cut) {
      EXPECT_LT(commas(trajectory.back()), commas(trajectory[0]));
    }
    if (signal == SIGINT) {
      EXPECT_FALSE(cut);
      ASSERT_TRUE(WIFEXITED(status));
      EXPECT_EQ(WEXITSTATUS(status), 130);
      std::ifstream summary_file(out / "summary.json");
      const nlohmann::json summary = nlohmann::json::parse(summary_file);
      const std::size_t n = summary["steps"].get<std::size_t>();
      EXPECT_LT(n, 200000u);
      EXPECT_EQ(steps.size(), n + 1);       // header and one row per step
      EXPECT_EQ(trajectory.size(), n + 2);  // header, a frame per step and the final state
    } else {
      EXPECT_TRUE(WIFSIGNALED(status));
      EXPECT_FALSE(std::filesystem::exists(out / "summary.json"));
      EXPECT_GE(steps.size() + 1, trajectory.size());  // a step row is written with its frame
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(CheckpointCli, ArchKilledAfterItsFiveSecondCheckpointResumesToTheStraightRunsState) {
  const auto dir = coulomb::testing::TempPath("coulomb_checkpoint_arch");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string checkpoint = (dir / "arch.ckpt").string();

  std::vector<std::string> args = {coulomb::testing::CliPath(),
                                   "run",
                                   kArch,
                                   "--duration",
                                   "20",
                                   "--quiet",
                                   "--checkpoint",
                                   checkpoint,
                                   "--checkpoint-every",
                                   "5"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, coulomb::testing::CliPath(), nullptr, nullptr, argv.data(), environ),
            0);
  // The checkpoint appears whole (written beside it and renamed): kill as soon as it does.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (!std::filesystem::exists(checkpoint) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the run ended before it was killed";

  const coulomb::Expected<coulomb::io::CheckpointFile> kept =
      coulomb::io::ReadCheckpointFile(checkpoint);
  ASSERT_TRUE(kept.ok()) << kept.error().ToString();
  EXPECT_EQ(kept.value().checkpoint.steps_done, 125);  // 5 s of 40 ms steps

  const auto resumed = RunCli("run --resume " + checkpoint + " --quiet --json", false);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out;
  const auto straight = RunCli("run " + kArch + " --duration 20 --quiet --json", false);
  ASSERT_EQ(straight.exit_code, 0) << straight.out;
  const nlohmann::json a = Summary(resumed), b = Summary(straight);
  EXPECT_EQ(a["steps"], 500);
  EXPECT_EQ(a["steps"], b["steps"]);
  EXPECT_EQ(a["failed_steps"], 0);
  EXPECT_EQ(a["state_hash"], b["state_hash"]);
  EXPECT_EQ(a["max_contacts"], b["max_contacts"]);
  std::filesystem::remove_all(dir);
}

}  // namespace
