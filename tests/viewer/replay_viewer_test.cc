// The HTML replay in a real browser: `coulomb run --html` on an example, then headless Chromium
// (Debian's, no download) loads the file from disk; the page reports through #coulomb-status
// whether it rendered (non-background pixels), how many frames it holds, and console errors.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "tests/support/build_paths.h"

namespace {

std::string Capture(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  pclose(pipe);
  return out;
}

int Attribute(const std::string& dom, const std::string& name) {
  const std::regex pattern(name + "=\"([0-9]+)\"");
  std::smatch match;
  return std::regex_search(dom, match, pattern) ? std::stoi(match[1]) : -1;
}

// Runs `name` for 0.5 s with an HTML replay and loads it: it must render, hold `frames` frames
// (the initial state and one per step) and raise no console error.
void ExpectRenders(const std::string& name, int frames) {
  const std::string chromium = "/usr/bin/chromium";
  ASSERT_TRUE(std::filesystem::exists(chromium))
      << "install Debian's chromium (scripts/install-deps.sh)";
  const auto dir = coulomb::testing::TempPath("coulomb_viewer_test_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string html = (dir / (name + ".html")).string();
  const std::string scene =
      std::string(coulomb::testing::SourceDir()) + "/examples/scenes/" + name + ".yaml";
  const std::string run = std::string(coulomb::testing::CliPath()) + " run " + scene +
                          " --duration 0.5 --quiet --html " + html + " > /dev/null";
  ASSERT_EQ(std::system(run.c_str()), 0);
  const std::string dom =
      Capture(chromium +
              " --headless=new --no-sandbox --disable-gpu --use-angle=swiftshader "
              "--enable-unsafe-swiftshader --window-size=800,600 --virtual-time-budget=4000 "
              "--user-data-dir=" +
              (dir / "profile").string() + " --dump-dom file://" + html + " 2>/dev/null");
  ASSERT_NE(dom.find("coulomb-status"), std::string::npos) << dom.substr(0, 500);
  EXPECT_EQ(Attribute(dom, "data-ready"), 1);
  EXPECT_EQ(Attribute(dom, "data-errors"), 0);
  EXPECT_EQ(Attribute(dom, "data-frames"), frames);
  EXPECT_GT(Attribute(dom, "data-nonbackground"), 800 * 600 / 20);  // the scene fills the view
  std::filesystem::remove_all(dir);
}

TEST(ReplayViewer, RendersInHeadlessChromium) {
  ExpectRenders("incline", 501);  // 1 ms steps
}

// Convex meshes and a triangle mesh travel as vertex and index arrays and are drawn as such.
TEST(ReplayViewer, RendersMeshes) {
  ExpectRenders("mesh_terrain", 251);  // 2 ms steps
}

}  // namespace
