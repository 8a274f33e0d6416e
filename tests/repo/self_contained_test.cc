// The repository stands alone: a user's clone has nothing beside it, so no file may refer to a
// folder outside the repository, every file an example names is in the repository, and every
// note the code cites ("docs/… .md §N") exists with that section.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/build_paths.h"

namespace coulomb {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::weakly_canonical(coulomb::testing::SourceDir());

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A build folder holds a CMakeCache.txt; data/ holds third-party files quoted as they are.
bool Skipped(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return name == ".git" || name == "node_modules" || name == "data" ||
         fs::exists(dir / "CMakeCache.txt");
}

// The project's own text files: sources, build files, scenes, scripts and docs.
std::vector<fs::path> ProjectTextFiles() {
  static const std::set<std::string> kExtensions = {".cc",   ".h",   ".txt", ".cmake", ".yaml",
                                                    ".py",   ".sh",  ".md",  ".json",  ".js",
                                                    ".html", ".tsv", ".in"};
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->is_directory() && Skipped(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    const fs::path& p = it->path();
    if (it->is_regular_file() &&
        (kExtensions.count(p.extension().string()) > 0 || p.filename() == "run")) {
      files.push_back(p);
    }
  }
  return files;
}

bool InsideRepository(const fs::path& path) {
  const fs::path canonical = fs::weakly_canonical(path);
  const auto [end, _] = std::mismatch(kRoot.begin(), kRoot.end(), canonical.begin());
  return end == kRoot.end();
}

TEST(SelfContained, NoFileRefersToTheSharedFolderBesideTheCheckout) {
  const std::vector<fs::path> files = ProjectTextFiles();
  ASSERT_GT(files.size(), 100u);
  // Spelled in two pieces so that this file does not match itself.
  const std::string sibling = std::string("../") + "shared";
  const std::string data = std::string("shared") + "/data";
  for (const fs::path& file : files) {
    const std::string text = ReadText(file);
    EXPECT_EQ(text.find(sibling), std::string::npos) << fs::relative(file, kRoot);
    EXPECT_EQ(text.find(data), std::string::npos) << fs::relative(file, kRoot);
  }
}

// Every scalar under a `file`, `path` or `package_map` key names something in the repository.
void CollectFileReferences(const YAML::Node& node, bool is_reference,
                           std::vector<std::string>& out) {
  if (node.IsScalar() && is_reference) out.push_back(node.as<std::string>());
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) CollectFileReferences(item, is_reference, out);
  }
  if (node.IsMap()) {
    for (const auto& kv : node) {
      const std::string key = kv.first.as<std::string>();
      CollectFileReferences(
          kv.second, is_reference || key == "file" || key == "path" || key == "package_map", out);
    }
  }
}

TEST(SelfContained, EveryFileAnExampleNamesIsInTheRepository) {
  int scenes = 0, references = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / "examples")) {
    if (entry.path().extension() != ".yaml") continue;
    ++scenes;
    std::vector<std::string> named;
    CollectFileReferences(YAML::LoadFile(entry.path().string()), false, named);
    for (const std::string& name : named) {
      ++references;
      const fs::path resolved = entry.path().parent_path() / name;
      const std::string where = fs::relative(entry.path(), kRoot).string() + ": " + name;
      EXPECT_TRUE(fs::path(name).is_relative()) << where;
      EXPECT_TRUE(InsideRepository(resolved)) << where;
      EXPECT_TRUE(fs::exists(resolved)) << where;
    }
  }
  EXPECT_GE(scenes, 10);
  EXPECT_GE(references, 20);  // the mesh, robot and paper-2 scenes name files
}

// The section numbers a note defines: "## 1.3 …" → "1.3", "### 2.2b …" → "2.2b", "## 0." → "0".
std::set<std::string> Sections(const fs::path& note) {
  std::set<std::string> sections;
  static const std::regex kHeading(R"(^#+\s+([0-9]+(?:\.[0-9]+)*[a-z]?)\.?\s)");
  std::istringstream lines(ReadText(note));
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, kHeading)) sections.insert(m[1]);
  }
  return sections;
}

TEST(SelfContained, EveryCitedNoteAndSectionExists) {
  // "docs/notes/complementarity.md §2.2b", "docs/DESIGN.md", "docs/notes/<note>.md §0–1".
  static const std::regex kCitation(
      R"((docs/[A-Za-z0-9_./-]+\.md)(?:\s+§\s*([0-9]+(?:\.[0-9]+)*[a-z]?))?)");
  int citations = 0, with_section = 0;
  for (const fs::path& file : ProjectTextFiles()) {
    const std::string text = ReadText(file);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kCitation);
         it != std::sregex_iterator(); ++it) {
      const std::string note = (*it)[1];
      const std::string where = fs::relative(file, kRoot).string() + " cites " + note;
      ++citations;
      if (!fs::exists(kRoot / note)) {
        ADD_FAILURE() << where << ", which is not in the repository";
        continue;
      }
      if ((*it)[2].matched) {
        ++with_section;
        std::string section = (*it)[2];
        while (!section.empty() && section.back() == '.') section.pop_back();
        EXPECT_EQ(Sections(kRoot / note).count(section), 1u) << where << " §" << section;
      }
    }
  }
  EXPECT_GE(citations, 50);
  EXPECT_GE(with_section, 40);
}

// Small files with one job each (DESIGN.md): the median C++ source or header stays at most 250
// lines and none passes 600, so a file that grows past it is split rather than left to sprawl.
TEST(SourceFiles, MedianAtMost250LinesAndNoneAbove600) {
  std::vector<std::pair<std::size_t, std::string>> lines;  // (count, path)
  for (const fs::path& p : ProjectTextFiles()) {
    if (p.extension() != ".cc" && p.extension() != ".h") continue;
    const std::string text = ReadText(p);
    lines.emplace_back(std::count(text.begin(), text.end(), '\n'), p.string());
  }
  ASSERT_GT(lines.size(), 100u);
  std::sort(lines.begin(), lines.end());
  EXPECT_LE(lines[lines.size() / 2].first, 250u) << "median file";
  EXPECT_LE(lines.back().first, 600u) << lines.back().second;
}

}  // namespace
}  // namespace coulomb
