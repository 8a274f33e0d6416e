// Scene files (ParseScene): YAML with bodies, shapes, meshes, robots, deformables and settings.
// Relative paths resolve against examples/scenes, so mutated scenes reach the real meshes and
// robots. A scene the reader accepts must also run: a small one is stepped a few times, which
// finds solver hangs, throws and NaN that would otherwise need a whole run to show.
#include <algorithm>
#include <cmath>

#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto parsed = coulomb::io::ParseScene(coulomb::fuzz::AsText(data, size), "fuzz.yaml",
                                        COULOMB_FUZZ_SCENE_DIR);
  if (!parsed.ok()) return 0;
  coulomb::sim::Scene& scene = parsed.value();
  if (!coulomb::sim::ValidateScene(scene).empty())
    coulomb::fuzz::Broken("scene accepted but ValidateScene refuses it");
  constexpr int kMaxSteppedBodies = 16;
  constexpr int kSteps = 3;
  // Stepping is what makes an input slow, and slow inputs starve the fuzzer: only small scenes
  // are stepped (a 1 000-tet cylinder takes seconds per step under the sanitizers).
  constexpr int kMaxSteppedTets = 200;
  int tets = 0;
  for (const auto& body : scene.model.deformables.bodies) tets += body.rest.num_tets();
  if (static_cast<int>(scene.model.multibody.bodies.size()) > kMaxSteppedBodies ||
      scene.model.deformables.bodies.size() > 1 || tets > kMaxSteppedTets)
    return 0;
  scene.duration = std::min(scene.duration, kSteps * scene.model.time_step);
  const auto summary =
      coulomb::sim::Simulate(scene, nullptr, [](int done, int) { return done < kSteps; });
  if (summary.stopped.empty() && !std::isfinite(summary.final_energy))
    coulomb::fuzz::Broken("run kept going with a non-finite energy");
  return 0;
}
