// Collision detection time for 1 000 boxes and spheres settled in a bin (issue #4's
// micro-benchmark): bounding boxes, sweep-and-prune, analytic narrow phase.
//
//   ./build/bin/collision_bench

#include <benchmark/benchmark.h>

#include <numbers>
#include <vector>

#include "coulomb/base/random.h"
#include "coulomb/geometry/collision_world.h"

namespace coulomb::geometry {
namespace {

// 1 000 bodies (half boxes, half spheres, 5 cm) packed on a 10 × 10 grid, 10 layers, jittered
// so that neighbours touch, in a 1 m bin made of five static half-spaces.
CollisionWorld Bin(std::vector<multibody::Transform>& poses) {
  CollisionWorld world;
  SplitMix64 rng(7);
  world.Add({"floor", -1, HalfSpace{}, {}, 0.5});
  for (int k = 0; k < 4; ++k) {
    // Outward normals +x, +y, −x, −y at x = 0, y = 0, x = 1, y = 1 (pointing into the bin).
    const Eigen::Matrix3d R =
        (Eigen::AngleAxisd(k * std::numbers::pi / 2, Eigen::Vector3d::UnitZ()) *
         Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitY()))
            .toRotationMatrix();
    world.Add({"wall",
               -1,
               HalfSpace{},
               {R, R * Eigen::Vector3d(0, 0, -0.5) + Eigen::Vector3d(0.5, 0.5, 0)},
               0.5});
  }
  for (int i = 0; i < 1000; ++i) {
    const int x = i % 10, y = (i / 10) % 10, z = i / 100;
    const Eigen::Vector3d p(0.05 + 0.1 * x + 0.002 * rng.Normal(),
                            0.05 + 0.1 * y + 0.002 * rng.Normal(), 0.05 + 0.099 * z);
    poses.push_back(
        {Eigen::AngleAxisd(rng.Uniform(-0.1, 0.1), Eigen::Vector3d::UnitZ()).toRotationMatrix(),
         p});
    if (i % 2) {
      world.Add({"box", i, Box{Eigen::Vector3d::Constant(0.05)}, {}, 0.5});
    } else {
      world.Add({"ball", i, Sphere{0.05}, {}, 0.5});
    }
  }
  return world;
}

// The whole first stage of a step: AABBs, sweep-and-prune, filters, narrow phase, ContactSet.
void BM_BinFindContacts(benchmark::State& state) {
  std::vector<multibody::Transform> poses;
  const CollisionWorld world = Bin(poses);
  ContactDetection detection;
  for (auto _ : state) {
    detection = FindContacts(world, poses);
    benchmark::DoNotOptimize(detection.contacts.contacts.data());
  }
  state.counters["pairs"] = detection.candidate_pairs;
  state.counters["contacts"] = static_cast<double>(detection.contacts.contacts.size());
}
BENCHMARK(BM_BinFindContacts)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace coulomb::geometry

BENCHMARK_MAIN();
