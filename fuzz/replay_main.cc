// Without libFuzzer (a gcc build, the test suite), each fuzz target is a program that runs its
// one-input function on the files and folders it is given: the seed corpus and every input a
// fuzzing run ever found, so the regressions are tested in every build. Options (`-runs=0` and
// the like, meant for libFuzzer) are ignored, so ctest calls both kinds the same way.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void RunFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  std::fprintf(stderr, "%s (%zu bytes)\n", path.c_str(), bytes.size());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  int inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("-")) continue;
    const std::filesystem::path path(arg);
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file()) files.push_back(entry.path());
      std::sort(files.begin(), files.end());  // a fixed order, so a failure repeats
      for (const auto& file : files) RunFile(file), ++inputs;
    } else if (std::filesystem::is_regular_file(path)) {
      RunFile(path), ++inputs;
    } else {
      std::fprintf(stderr, "%s: no such file or folder\n", arg.c_str());
      return 2;
    }
  }
  std::fprintf(stderr, "ran %d inputs\n", inputs);
  return inputs > 0 ? 0 : 2;
}
