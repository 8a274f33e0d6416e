// The `coulomb solve` command as a user runs it: exit codes, messages, JSON.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/io/lcp_file.h"
#include "tests/support/cli_runner.h"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

using testing::CliRun;
using testing::RunCli;

fs::path WriteTemp(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() / ("coulomb_cli_" + name);
  std::ofstream(path) << text;
  return path;
}

TEST(SolveCli, SolvedProblemExitsZeroWithCertifiedJson) {
  const fs::path file = WriteTemp("ok.dat", "2\n0\n2 2\n2 2\n2 1\n1 2\n-5 -6\n");
  const CliRun run = RunCli("solve " + file.string() + " --solver lemke --json");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const auto j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["solver"], "lemke");
  EXPECT_EQ(j["status"], "solved");
  // Re-certify the printed z independently of the tool.
  LcpProblem p;
  p.M.resize(2, 2);
  p.M << 2, 1, 1, 2;
  p.q = Eigen::Vector2d(-5, -6);
  const Eigen::Vector2d z(j["z"][0].template get<double>(), j["z"][1].template get<double>());
  EXPECT_TRUE(CertifyLcp(p, z).Passes());
  for (const char* key : {"iterations", "residual", "seconds", "restarts", "certificate"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
}

TEST(SolveCli, AllPrintsOneRowPerSolver) {
  const fs::path file = WriteTemp("all.dat", "2\n0\n2 2\n2 2\n2 1\n1 2\n-5 -6\n");
  const CliRun run = RunCli("solve " + file.string() + " --solver all --json");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  std::istringstream lines(run.out);
  std::string line;
  int rows = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["status"], "solved") << line;
    ++rows;
  }
  EXPECT_EQ(rows, 7);
}

TEST(SolveCli, UnsolvableExitsOneWithReason) {
  const fs::path file = WriteTemp("infeasible.dat", "2\n0\n2 2\n2 2\n1 -1\n-1 1\n-1 -1\n");
  const CliRun run = RunCli("solve " + file.string());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_NE(run.out.find("no_solution"), std::string::npos) << run.out;
}

TEST(SolveCli, BadInputExitsTwoNamingFileLineField) {
  const fs::path file = WriteTemp("nan.dat", "2\n0\n2 2\n2 2\n1 nan\n2 4\n-1 -2\n");
  CliRun run = RunCli("solve " + file.string());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find(file.string() + ":5: M[1][0]: value is NaN"), std::string::npos)
      << run.out;

  run = RunCli("solve /nonexistent/file.dat");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find("/nonexistent/file.dat"), std::string::npos);

  run = RunCli("solve " + file.string() + " --solver nosuch");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.out.find("unknown solver 'nosuch'"), std::string::npos);

  const fs::path binary = WriteTemp("binary.dat", std::string("\x7f"
                                                              "ELF\x01\x02\0\0garbage",
                                                              16));
  run = RunCli("solve " + binary.string());
  EXPECT_EQ(run.exit_code, 2) << run.out;

  run = RunCli("solve");
  EXPECT_EQ(run.exit_code, 2);
}

}  // namespace
}  // namespace coulomb

namespace coulomb {
namespace {

TEST(BenchTrinkleCli, QuickStudyCertifiesEveryDataSetWithASolution) {
  const CliRun run = RunCli("bench trinkle --quick --json", /*with_stderr=*/false);
  ASSERT_EQ(run.exit_code, 0) << run.out.substr(0, 2000);
  const auto j = nlohmann::json::parse(run.out);
  const auto& summary = j["summary"];
  EXPECT_GE(summary["data_sets"].get<int>(), 200);
  EXPECT_EQ(summary["certified_with_solution"], summary["has_solution"]);
  ASSERT_TRUE(j.contains("table1_paper_settings"));
  for (const auto& row : j["table1_paper_settings"]) {
    for (const char* key : {"size", "data_sets", "lemke_frac_solved", "lemke_avg_starts",
                            "lemke_avg_iterations", "fip_frac_solved", "fip_avg_iterations"}) {
      EXPECT_TRUE(row.contains(key)) << key;
    }
  }
  EXPECT_EQ(j["per_mu"].size(), 3u);
}

}  // namespace
}  // namespace coulomb
