// One sim::Step of the rigid examples under each formulation that takes them: wall time per step
// and heap allocations per step, after a warm-up, with Google Benchmark. This is the number
// issue 21's fixed-cost work is judged by (and the profile target: `perf record` this binary
// with --benchmark_filter).
//
//   ./build/bin/step_bench [--benchmark_filter=incline/cone]
//
// It times with the C allocator as it is: the allocations of a warm step are counted by
// tests/sim/step_allocations_test.cc, whose counting allocator (a call and an increment around
// every malloc and free) made SAP's allocating steps 5–7 % slower when this program used it.

#include <benchmark/benchmark.h>

#include <string>

#include "coulomb/base/numerics_threads.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/actuator.h"
#include "coulomb/sim/step.h"

namespace coulomb {
namespace {

constexpr int kWarmUpSteps = 50;

void StepScene(benchmark::State& bench, const std::string& file, const std::string& formulation) {
  Expected<sim::Scene> loaded = io::ReadSceneFile(std::string(COULOMB_EXAMPLES_DIR) + "/" + file);
  if (!loaded.ok()) {
    bench.SkipWithError(loaded.error().ToString().c_str());
    return;
  }
  sim::Scene& scene = loaded.value();
  // Another formulation than the scene's runs with its own default settings, as --formulation.
  scene.model.settings.formulation = FindFormulation(formulation);
  // As in `coulomb bench peers`; said in the counters.
  scene.model.settings.measure_accuracy = false;
  scene.model.settings.measure_stage_times = false;
  sim::Data data = sim::MakeData(scene.model, scene.initial);
  const auto step = [&]() -> const sim::StepReport& { return sim::Step(scene.model, data); };
  for (int i = 0; i < kWarmUpSteps; ++i) step();
  long long failed = 0;
  for (auto _ : bench) {
    const sim::StepReport& report = step();
    failed += report.status != LcpStatus::kSolved;
    benchmark::DoNotOptimize(data.state.v.data());
  }
  bench.counters["failed"] = static_cast<double>(failed);
  bench.counters["accuracy_measures"] = 0;  // off: StepReport::metrics is not computed
  bench.counters["stage_times"] = 0;        // off: StepReport::profile is not measured
}

void RegisterAll() {
  struct Case {
    const char* name;
    const char* file;
  };
  for (const Case& c :
       {Case{"incline", "incline.yaml"}, Case{"incline_stick", "incline_stick.yaml"},
        Case{"rolling_ball", "rolling_ball.yaml"}, Case{"stack", "stack.yaml"},
        Case{"pyramid", "pyramid.yaml"}, Case{"drop", "drop.yaml"}}) {
    for (const char* formulation : {"velocity-lcp", "cone", "sap", "trinkle"}) {
      const std::string file = c.file, name = std::string(c.name) + "/" + formulation;
      benchmark::RegisterBenchmark(name.c_str(), [file, formulation](benchmark::State& s) {
        StepScene(s, file, formulation);
      })->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace
}  // namespace coulomb

int main(int argc, char** argv) {
  coulomb::UseSingleThreadedNumerics();  // as `coulomb run` steps (numerics_threads.h)
  coulomb::RegisterAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
