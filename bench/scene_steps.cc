// `scene_steps SCENE STEPS [REPEATS] [--timed-path]`: the wall time of STEPS steps of a scene
// through sim::Step from C++, the baseline of bench/python_overhead.py (the same steps driven
// from Python). Prints one JSON object: the median seconds over REPEATS runs, and the state hash.
// `--timed-path` turns the per-step accuracy measures and stage clocks off, as `coulomb bench
// peers` does, so that a profile of a small scene shows the step the peers table times.

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "coulomb/base/guarded_main.h"
#include "coulomb/base/numerics_threads.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"

namespace {

int Run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const auto timed_path = std::find(args.begin(), args.end(), "--timed-path");
  const bool measures = timed_path == args.end();
  if (!measures) args.erase(timed_path);
  if (args.size() < 2) {
    fmt::print(stderr, "usage: scene_steps SCENE STEPS [REPEATS] [--timed-path]\n");
    return 2;
  }
  coulomb::UseSingleThreadedNumerics();
  coulomb::Expected<coulomb::sim::Scene> scene = coulomb::io::ReadSceneFile(args[0]);
  if (!scene.ok()) {
    fmt::print(stderr, "error: {}\n", scene.error().ToString());
    return 2;
  }
  scene.value().model.settings.measure_accuracy = measures;
  scene.value().model.settings.measure_stage_times = measures;
  const long steps = std::strtol(args[1].c_str(), nullptr, 10);
  const int repeats = args.size() > 2 ? std::atoi(args[2].c_str()) : 5;
  std::vector<double> seconds;
  std::uint64_t hash = 0;
  for (int r = 0; r < repeats; ++r) {
    const coulomb::sim::Scene& s = scene.value();
    coulomb::sim::Data data = coulomb::sim::MakeData(s.model, s.initial);
    const auto start = std::chrono::steady_clock::now();
    for (long k = 0; k < steps; ++k) coulomb::sim::Step(s.model, data);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    hash = coulomb::sim::HashState(data.state);
  }
  std::sort(seconds.begin(), seconds.end());
  fmt::print("{{\"seconds\": {}, \"steps\": {}, \"repeats\": {}, \"state_hash\": \"{:016x}\"}}\n",
             seconds[seconds.size() / 2], steps, repeats, hash);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return coulomb::GuardedMain([&] { return Run(argc, argv); });
}
