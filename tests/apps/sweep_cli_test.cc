// `coulomb sweep` as a user meets it: the same table whatever the schedule (threads, MPI ranks),
// a killed sweep (or one MPI rank of it) resumed without running anything twice, failed runs
// recorded with their reason, bad sweep files named with file, line and key, and results never
// overwritten without asking.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "coulomb/sweep/sweep_metrics.h"
#include "coulomb/sweep/sweep_table.h"
#include "tests/support/build_paths.h"
#include "tests/support/cli_runner.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using coulomb::testing::RunCli;

const std::string kScenes = std::string(coulomb::testing::SourceDir()) + "/examples/scenes";

fs::path FreshDir(const std::string& name) {
  const fs::path dir = coulomb::testing::TempPath("coulomb_sweep_cli_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

// The incline (0.05 s of it): μ × formulation, 12 runs of a few milliseconds each.
std::string InclineSweep(const fs::path& dir) {
  return WriteFile(dir / "incline.yaml",
                   "coulomb_sweep: 1\n"
                   "scene: " +
                       kScenes +
                       "/incline.yaml\n"
                       "set:\n"
                       "  duration: 0.05\n"
                       "parameters:\n"
                       "  formulation: [velocity-lcp, cone, sap]\n"
                       "  friction: [0.1, 0.3, 0.5, 0.7]\n"
                       "metrics: [displacement.cube, failed_steps, position.cube, mean_step_us]\n");
}

// results.csv as rows keyed by run index, without the wall-clock columns.
struct Table {
  std::vector<std::string> columns;
  std::map<int, std::vector<std::string>> rows;
  int lines = 0;  // data lines in the file (a run recorded twice would show here)
};

Table ReadTable(const fs::path& file) {
  Table t;
  std::ifstream in(file);
  std::string line;
  std::vector<bool> keep;
  if (!std::getline(in, line)) return t;
  const std::vector<std::string> header = coulomb::sweep::ParseCsvLine(line).value();
  for (const std::string& c : header) {
    keep.push_back(!coulomb::sweep::IsTimingColumn(c) && c != "wall_seconds");
    if (keep.back()) t.columns.push_back(c);
  }
  while (std::getline(in, line)) {
    const std::vector<std::string> fields = coulomb::sweep::ParseCsvLine(line).value();
    EXPECT_EQ(fields.size(), header.size()) << line;
    std::vector<std::string> kept;
    for (std::size_t k = 0; k < fields.size() && k < keep.size(); ++k) {
      if (keep[k]) kept.push_back(fields[k]);
    }
    ++t.lines;
    t.rows[std::stoi(fields[0])] = kept;
  }
  return t;
}

std::size_t Column(const Table& t, const std::string& name) {
  const auto it = std::find(t.columns.begin(), t.columns.end(), name);
  EXPECT_NE(it, t.columns.end()) << name;
  return static_cast<std::size_t>(it - t.columns.begin());
}

// mpirun as the tests run it: two ranks on this machine whatever its cores, and as root in CI.
std::string Mpirun(int ranks) {
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
  return "mpirun -np " + std::to_string(ranks) + " --oversubscribe ";
}

// A command line with its stderr, as a user sees it.
coulomb::testing::CliRun RunShell(const std::string& command) {
  return coulomb::testing::RunCommand(command + " 2>&1");
}

// CI installs OpenMPI (scripts/install-deps.sh), and the build then links it: a build without MPI
// on a machine with mpirun fails the test below with "built without MPI".
bool HaveMpirun() {
  return RunShell("command -v mpirun").exit_code == 0;
}

TEST(SweepCli, TheTableIsTheSameForOneThreadTwoThreadsAndTwoMpiRanks) {
  const fs::path dir = FreshDir("schedules");
  const std::string file = InclineSweep(dir);
  auto r = RunCli("sweep " + file + " --quiet --threads 1 --out " + (dir / "t1").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunCli("sweep " + file + " --quiet --threads 2 --out " + (dir / "t2").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const Table one = ReadTable(dir / "t1" / "results.csv");
  const Table two = ReadTable(dir / "t2" / "results.csv");
  ASSERT_EQ(one.rows.size(), 12u);
  EXPECT_EQ(one.lines, 12);
  EXPECT_EQ(one.columns, two.columns);
  EXPECT_EQ(one.rows, two.rows);  // state hashes included
  // The runs really differ: μ 0.1 slides further than μ 0.5, and μ 0.7 (above tan 30°) sticks.
  const std::size_t slide = Column(one, "displacement.cube");
  const std::size_t status = Column(one, "status");
  for (const auto& [index, row] : one.rows) EXPECT_EQ(row[status], "ok") << index;
  EXPECT_GT(std::stod(one.rows.at(0)[slide]), std::stod(one.rows.at(2)[slide]));
  EXPECT_LT(std::stod(one.rows.at(3)[slide]), 1e-4);

  // results.h5 holds the same numbers, read back by HDF5's own h5dump (hdf5-tools).
  const auto h5 = RunShell("h5dump -m %.17g -y -w 0 -d /runs/displacement.cube " +
                           (dir / "t1" / "results.h5").string());
  ASSERT_EQ(h5.exit_code, 0) << h5.out;
  std::string data = h5.out.substr(h5.out.find("DATA {") + 6);
  std::replace(data.begin(), data.end(), ',', ' ');
  std::istringstream values(data);
  for (const auto& [index, row] : one.rows) {
    double x = 0;
    ASSERT_TRUE(values >> x) << h5.out;
    EXPECT_EQ(x, std::stod(row[slide])) << index;
  }

  if (!HaveMpirun()) GTEST_SKIP() << "mpirun or an MPI build of coulomb is missing";
  r = RunShell(Mpirun(2) + coulomb::testing::CliPath() + " sweep " + file +
               " --quiet --threads 1 --out " + (dir / "mpi").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const Table mpi = ReadTable(dir / "mpi" / "results.csv");
  EXPECT_EQ(mpi.lines, 12);
  EXPECT_EQ(one.rows, mpi.rows);
  EXPECT_NE(r.out.find("2 rank(s)"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// Starts `coulomb sweep`, kills it with SIGKILL once `rows` runs are in its journal.
int KillAfterRows(const std::vector<std::string>& args, const fs::path& journal, int rows) {
  std::vector<char*> argv;
  std::string cli = coulomb::testing::CliPath();
  argv.push_back(cli.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, cli.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return -1;
  int seen = 0;
  for (int wait = 0; wait < 6000 && seen < rows; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream in(journal);
    seen = -1;  // the header
    for (std::string line; std::getline(in, line);) ++seen;
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  return seen;
}

// 40 runs of the incline (8 values of μ × 5 formulation entries) of `duration` seconds each,
// in dir/long.yaml.
std::string LongInclineSweep(const fs::path& dir, const std::string& duration) {
  return WriteFile(dir / "long.yaml", "coulomb_sweep: 1\nscene: " + kScenes +
                                          "/incline.yaml\nset: {duration: " + duration +
                                          "}\nparameters:\n"
                                          "  friction: {linspace: [0.1, 0.8, 8]}\n"
                                          "  formulation: [velocity-lcp, cone, sap, trinkle, "
                                          "velocity-lcp]\n"
                                          "metrics: [displacement.cube, position.cube]\n");
}

// `--resume` (with `flags`) on the 40-run sweep `file` killed in `killed` after `before` runs
// runs only the rest, each run once, to the table of one uninterrupted thread (written to
// `whole`), state hashes included.
void ExpectResumeCompletes(const std::string& file, const fs::path& killed, int before,
                           const std::string& flags, const fs::path& whole) {
  auto r = RunCli("sweep " + file + " --quiet --resume" + flags + " --out " + killed.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find(std::to_string(40 - before) + " now, " + std::to_string(before) + " before"),
            std::string::npos)
      << r.out;
  const Table resumed = ReadTable(killed / "results.csv");
  EXPECT_EQ(resumed.lines, 40);  // each run once
  r = RunCli("sweep " + file + " --quiet --threads 1 --out " + whole.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(resumed.rows, ReadTable(whole / "results.csv").rows);
}

TEST(SweepCli, AKilledSweepResumesWithTheSameTableAndNoRunTwice) {
  const fs::path dir = FreshDir("resume");
  // 40 runs of 2 s of the incline (1-2 s in all): long enough to be killed part-way.
  const std::string file = LongInclineSweep(dir, "2.0");
  const fs::path killed = dir / "killed";
  const int seen =
      KillAfterRows({"sweep", file, "--quiet", "--threads", "2", "--out", killed.string()},
                    killed / "runs.csv", 5);
  ASSERT_GE(seen, 5);
  const int before = ReadTable(killed / "runs.csv").lines;
  ASSERT_LT(before, 40) << "the sweep finished before it could be killed";
  // Without --resume or --force the folder is not touched.
  auto r = RunCli("sweep " + file + " --quiet --out " + killed.string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--resume"), std::string::npos) << r.out;
  EXPECT_EQ(ReadTable(killed / "runs.csv").lines, before);
  ExpectResumeCompletes(file, killed, before, "", dir / "whole");
  EXPECT_EQ(ReadTable(killed / "runs.csv").lines, 40);
  // Resuming a finished sweep runs nothing; --force starts again.
  r = RunCli("sweep " + file + " --quiet --resume --out " + killed.string());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("0 now, 40 before"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// Runs in a journal that may be half-written: its complete lines after the header.
int FinishedRows(const fs::path& journal) {
  std::ifstream in(journal);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  return std::max(0, static_cast<int>(std::count(text.begin(), text.end(), '\n')) - 1);
}

// The pid of the `coulomb` process that is MPI rank `rank` of a job writing to `out` (its
// environment names the rank, its command line the folder), or 0.
pid_t FindRank(int rank, const std::string& out) {
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream cmdline(entry.path() / "cmdline"), environment(entry.path() / "environ");
    const std::string command((std::istreambuf_iterator<char>(cmdline)), {});
    const std::string variables((std::istreambuf_iterator<char>(environment)), {});
    if (command.find(out) != std::string::npos && command.find("mpirun") == std::string::npos &&
        variables.find("OMPI_COMM_WORLD_RANK=" + std::to_string(rank) + '\0') !=
            std::string::npos) {
      return static_cast<pid_t>(std::stol(name));
    }
  }
  return 0;
}

// A machine lost mid-sweep: SIGKILL one MPI rank (not the one writing the journal). OpenMPI
// then ends the whole job, which must exit, not hang; the journal keeps every finished run and
// `--resume`, on one process, runs only the rest, to the same table as one uninterrupted thread.
TEST(SweepCli, ASweepWhoseMpiRankIsKilledResumesWithTheSameTable) {
  if (!HaveMpirun()) GTEST_SKIP() << "mpirun or an MPI build of coulomb is missing";
  const fs::path dir = FreshDir("rank_killed");
  // 40 runs of 10 s of the incline: a few seconds on two ranks, so one dies part-way.
  const std::string file = LongInclineSweep(dir, "10.0");
  const fs::path killed = dir / "killed";
  Mpirun(2);  // its environment: root allowed, oversubscription
  std::string cli = coulomb::testing::CliPath();
  std::vector<std::string> args = {"mpirun",    "-np",   "2",     "--oversubscribe",
                                   cli,         "sweep", file,    "--quiet",
                                   "--threads", "1",     "--out", killed.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t mpirun = 0;
  posix_spawn_file_actions_t output;  // OpenMPI's report of the dead rank goes to a log
  posix_spawn_file_actions_init(&output);
  const std::string log = (dir / "mpirun.log").string();
  posix_spawn_file_actions_addopen(&output, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&output, 1, 2);
  const int spawned = posix_spawnp(&mpirun, "mpirun", &output, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&output);
  ASSERT_EQ(spawned, 0);
  int rows = 0;
  pid_t rank1 = 0;
  for (int wait = 0; wait < 6000 && (rows < 3 || rank1 == 0); ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    rows = FinishedRows(killed / "runs.csv");
    rank1 = FindRank(1, killed.string());
  }
  ASSERT_NE(rank1, 0) << "rank 1 never started";
  ASSERT_EQ(kill(rank1, SIGKILL), 0);
  int status = 0;
  pid_t ended = 0;
  for (int wait = 0; wait < 6000 && ended == 0; ++wait) {  // up to 60 s
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ended = waitpid(mpirun, &status, WNOHANG);
  }
  if (ended == 0) {
    kill(mpirun, SIGKILL);
    waitpid(mpirun, &status, 0);
    FAIL() << "mpirun still ran 60 s after rank 1 was killed";
  }
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the job reported success";
  const int before = FinishedRows(killed / "runs.csv");  // a torn last line is --resume's to trim
  ASSERT_GE(before, 3);
  ASSERT_LT(before, 40) << "the sweep finished before its rank was killed";
  ExpectResumeCompletes(file, killed, before, " --threads 2", dir / "whole");
  fs::remove_all(dir);
}

TEST(SweepCli, FailedRunsAreRecordedWithTheirReasonAndTheSweepGoesOn) {
  const fs::path dir = FreshDir("failures");
  // kp 1e9 makes the explicit PD drive create energy in every step (the energy audit fails each
  // step, the state grows to 1e64 J); kp 1 is fine.
  const std::string stiff = WriteFile(dir / "stiff.yaml",
                                      "coulomb_sweep: 1\n"
                                      "scene: " +
                                          std::string(coulomb::testing::SourceDir()) +
                                          "/tests/bad_input/pd_too_stiff.yaml\n"
                                          "parameters:\n"
                                          "  actuators[0].kp: [1.0, 1.0e9]\n"
                                          "metrics: [failed_steps, final_energy]\n");
  auto r = RunCli("sweep " + stiff + " --quiet --out " + (dir / "stiff").string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  Table t = ReadTable(dir / "stiff" / "results.csv");
  ASSERT_EQ(t.lines, 2);
  const std::size_t status = Column(t, "status"), reason = Column(t, "reason");
  EXPECT_EQ(t.rows.at(0)[status], "ok");
  EXPECT_EQ(t.rows.at(1)[status], "uncertified");
  EXPECT_NE(t.rows.at(1)[reason].find("5 of 5 steps not certified"), std::string::npos)
      << t.rows.at(1)[reason];
  EXPECT_NE(t.rows.at(1)[reason].find("joint 'arm'"), std::string::npos) << t.rows.at(1)[reason];
  EXPECT_EQ(t.rows.at(0)[Column(t, "failed_steps")], "0");
  EXPECT_EQ(t.rows.at(1)[Column(t, "failed_steps")], "5");
  // The summary lists the failed run with its reason.
  std::ifstream summary(dir / "stiff" / "sweep.md");
  const std::string text((std::istreambuf_iterator<char>(summary)),
                         std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("| 1 | actuators[0].kp=1.0e9 | uncertified |"), std::string::npos) << text;
  EXPECT_NE(r.out.find("1 run(s) did not end ok"), std::string::npos) << r.out;

  // A wall-time limit far below what a run takes.
  const std::string slow = WriteFile(dir / "slow.yaml",
                                     "coulomb_sweep: 1\n"
                                     "scene: " +
                                         kScenes +
                                         "/incline.yaml\n"
                                         "time_limit: 0.001\n"
                                         "set: {duration: 30}\n"
                                         "parameters: {friction: [0.2, 0.4]}\n");
  r = RunCli("sweep " + slow + " --quiet --out " + (dir / "slow").string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  t = ReadTable(dir / "slow" / "results.csv");
  ASSERT_EQ(t.lines, 2);
  for (const auto& [index, row] : t.rows) {
    EXPECT_EQ(row[Column(t, "status")], "time_limit") << index;
    EXPECT_NE(row[Column(t, "reason")].find("time limit"), std::string::npos);
  }

  fs::remove_all(dir);
}

TEST(SweepCli, ARunWhoseStateStopsBeingFiniteIsRecordedAsDiverged) {
  const fs::path dir = FreshDir("diverged");
  // A run whose state stops being finite: a box thrown at 1e308 m/s (the largest double's
  // order) leaves a non-finite velocity after one step. Its row says so, names the body and the
  // stage, and keeps no NaN as a number. (At 1e200 m/s the velocity LCP now stays finite: its
  // warm basis answers z = 0 with the slip speed, where Lemke's path overflowed.)
  const std::string thrown = WriteFile(dir / "thrown.yaml",
                                       "coulomb_sweep: 1\n"
                                       "scene: " +
                                           kScenes +
                                           "/drop.yaml\n"
                                           "set: {duration: 0.05}\n"
                                           "parameters:\n"
                                           "  bodies[box].velocity: [[0, 0, 0], [1.0e308, 0, 0]]\n"
                                           "metrics: [failed_steps, final_energy]\n");
  const auto r = RunCli("sweep " + thrown + " --quiet --out " + (dir / "thrown").string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  const Table t = ReadTable(dir / "thrown" / "results.csv");
  ASSERT_EQ(t.lines, 2);
  EXPECT_EQ(t.rows.at(0)[Column(t, "status")], "ok");
  EXPECT_EQ(t.rows.at(1)[Column(t, "status")], "diverged");
  EXPECT_NE(t.rows.at(1)[Column(t, "reason")].find("left a non-finite state: body 'box'"),
            std::string::npos)
      << t.rows.at(1)[Column(t, "reason")];
  EXPECT_EQ(t.rows.at(1)[Column(t, "final_energy")], "");
  fs::remove_all(dir);
}

TEST(SweepCli, BadSweepFilesNameFileLineAndKey) {
  const fs::path dir = FreshDir("bad");
  struct Case {
    std::string text, expected;
  };
  const std::string head = "coulomb_sweep: 1\nscene: " + kScenes + "/incline.yaml\n";
  const std::vector<Case> cases = {
      {head + "parameters:\n  friction: [0.1, -3]\n", ":4: parameters.friction"},
      {head + "parameters:\n  bodies[nobody].mass: [1, 2]\n", ":4: parameters.bodies[nobody].mass"},
      {head + "parameters:\n  friction: [0.1]\nmetrics: [height.cube]\n", ":5: metrics"},
      {head + "parameters:\n  friction: {linspace: [0, 1]}\n", ":4: parameters.friction.linspace"},
      {head + "parameters: {}\n", "no parameter to vary"},
      {head + "parametres:\n  friction: [0.1]\n", "parametres"},
      {"coulomb_sweep: 1\nscene: missing.yaml\nparameters: {friction: [0.1]}\n", ":2: scene"},
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const std::string file = WriteFile(dir / ("bad" + std::to_string(k) + ".yaml"), cases[k].text);
    const auto r = RunCli("sweep " + file + " --quiet --out " + (dir / "out").string());
    EXPECT_EQ(r.exit_code, 2) << cases[k].text << r.out;
    EXPECT_NE(r.out.find(file), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(cases[k].expected), std::string::npos) << cases[k].text << r.out;
    EXPECT_FALSE(fs::exists(dir / "out")) << "a refused sweep wrote results";
  }
  fs::remove_all(dir);
}

}  // namespace
