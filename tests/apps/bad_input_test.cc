// The bad-input table of docs/bad-inputs.md, run as tests: each row is a `coulomb` command on a
// malformed input (files in tests/bad_input/), the exit code it must end with and the fragments
// its message must contain (file, line, key, reason). The document is the test's data, so what
// users read is what is checked.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/build_paths.h"
#include "tests/support/cli_runner.h"

namespace {

struct BadInputCase {
  int number = 0;
  std::string what;
  std::string command;  // arguments of `coulomb`, $TMP for a scratch folder
  int exit_code = 2;
  std::vector<std::string> fragments;  // each must appear in the output
};

// Names the row in ctest's listing and gtest's failure report instead of dumping its bytes.
void PrintTo(const BadInputCase& row, std::ostream* out) {
  *out << "row " << row.number << ": " << row.what;
}

// Code spans (`...`) of one table cell, in order.
std::vector<std::string> CodeSpans(const std::string& cell) {
  std::vector<std::string> spans;
  static const std::regex kSpan("`([^`]*)`");
  for (std::sregex_iterator it(cell.begin(), cell.end(), kSpan), end; it != end; ++it)
    spans.push_back((*it)[1]);
  return spans;
}

std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  bool in_code = false;
  for (std::size_t i = 1; i < row.size(); ++i) {  // row[0] is the leading '|'
    const char c = row[i];
    if (c == '`') in_code = !in_code;
    if (c == '|' && !in_code) {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += c;
    }
  }
  return cells;
}

std::vector<BadInputCase> ReadTable() {
  std::vector<BadInputCase> cases;
  std::ifstream doc(std::string(coulomb::testing::SourceDir()) + "/docs/bad-inputs.md");
  static const std::regex kRow(R"(^\|\s*(\d+)\s*\|)");
  for (std::string line; std::getline(doc, line);) {
    if (!std::regex_search(line, kRow)) continue;
    const std::vector<std::string> cells = Cells(line);
    if (cells.size() < 5) continue;
    BadInputCase c;
    c.number = std::stoi(cells[0]);
    c.what = cells[1];
    const std::vector<std::string> command = CodeSpans(cells[2]);
    c.command = command.empty() ? "" : command.front();
    c.exit_code = std::stoi(cells[3]);
    c.fragments = CodeSpans(cells[4]);
    cases.push_back(c);
  }
  return cases;
}

class BadInput : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(BadInput, ExitsWithItsCodeAndNamesTheFault) {
  const BadInputCase& c = GetParam();
  ASSERT_FALSE(c.command.empty()) << "row " << c.number << " has no command";
  ASSERT_FALSE(c.fragments.empty()) << "row " << c.number << " checks no message";
  const auto tmp = coulomb::testing::TempPath("coulomb_bad_input_" + std::to_string(c.number));
  std::filesystem::remove_all(tmp);
  std::filesystem::create_directories(tmp);
  const std::string command = std::regex_replace(c.command, std::regex(R"(\$TMP)"), tmp.string());
  // From the source folder, so the table's paths read as a user in a clone would type them.
  const coulomb::testing::CliRun run =
      coulomb::testing::RunCli(command, true, coulomb::testing::SourceDir());
  EXPECT_EQ(run.exit_code, c.exit_code) << c.what << "\n$ coulomb " << command << "\n" << run.out;
  for (const std::string& fragment : c.fragments)
    EXPECT_NE(run.out.find(fragment), std::string::npos)
        << c.what << ": the message lacks `" << fragment << "`\n$ coulomb " << command << "\n"
        << run.out;
  std::filesystem::remove_all(tmp);
}

TEST(BadInputTable, HasAtLeastSixtyNumberedRows) {
  const std::vector<BadInputCase> cases = ReadTable();
  EXPECT_GE(cases.size(), 60u);
  for (std::size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(cases[i].number, int(i) + 1);
}

INSTANTIATE_TEST_SUITE_P(Table, BadInput, ::testing::ValuesIn(ReadTable()),
                         [](const ::testing::TestParamInfo<BadInputCase>& info) {
                           return "row" + std::to_string(info.param.number);
                         });

}  // namespace
