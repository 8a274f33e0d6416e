// Collision detection time for 1 000 boxes and spheres settled in a bin (issue #4's
// micro-benchmark): bounding boxes, sweep-and-prune, analytic narrow phase.
//
//   ./build/bin/collision_bench

#include <benchmark/benchmark.h>

#include <numbers>
#include <vector>

#include "coulomb/base/random.h"
#include "coulomb/geometry/broad_phase.h"
#include "coulomb/geometry/narrow_phase.h"

namespace coulomb::geometry {
namespace {

struct Scene {
  std::vector<Shape> shapes;
  std::vector<multibody::Transform> poses;
};

// 1 000 bodies (half boxes, half spheres, 5 cm) packed on a 10 × 10 grid, 10 layers, jittered
// so that neighbours touch, in a 1 m bin made of five half-spaces.
Scene Bin() {
  Scene s;
  SplitMix64 rng(7);
  const auto wall = [&](const Eigen::Matrix3d& R, const Eigen::Vector3d& p) {
    s.shapes.push_back(HalfSpace{});
    s.poses.push_back({R, p});
  };
  wall(Eigen::Matrix3d::Identity(), Eigen::Vector3d::Zero());
  for (int k = 0; k < 4; ++k) {
    // Outward normals +x, +y, −x, −y at x = 0, y = 0, x = 1, y = 1 (pointing into the bin).
    const Eigen::Matrix3d R =
        (Eigen::AngleAxisd(k * std::numbers::pi / 2, Eigen::Vector3d::UnitZ()) *
         Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitY()))
            .toRotationMatrix();
    wall(R, R * Eigen::Vector3d(0, 0, -0.5) + Eigen::Vector3d(0.5, 0.5, 0));
  }
  for (int i = 0; i < 1000; ++i) {
    const int x = i % 10, y = (i / 10) % 10, z = i / 100;
    const Eigen::Vector3d p(0.05 + 0.1 * x + 0.002 * rng.Normal(),
                            0.05 + 0.1 * y + 0.002 * rng.Normal(), 0.05 + 0.099 * z);
    const Eigen::Matrix3d R =
        Eigen::AngleAxisd(rng.Uniform(-0.1, 0.1), Eigen::Vector3d::UnitZ()).toRotationMatrix();
    if (i % 2) {
      s.shapes.push_back(Box{Eigen::Vector3d::Constant(0.05)});
    } else {
      s.shapes.push_back(Sphere{0.05});
    }
    s.poses.push_back({R, p});
  }
  return s;
}

void BM_BinCollision(benchmark::State& state) {
  const Scene scene = Bin();
  std::vector<Aabb> boxes(scene.shapes.size());
  std::vector<ContactPoint> contacts;
  std::size_t pairs = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < scene.shapes.size(); ++i)
      boxes[i] = ComputeAabb(scene.shapes[i], scene.poses[i], 1e-3);
    // Walls never collide with each other.
    const auto candidates =
        FindCandidatePairs(boxes, [](int i, int j) { return i >= 5 || j >= 5; });
    contacts.clear();
    for (const auto& [i, j] : candidates) {
      Collide(scene.shapes[j], scene.poses[j], scene.shapes[i], scene.poses[i], 1e-3, contacts);
    }
    pairs = candidates.size();
    benchmark::DoNotOptimize(contacts.data());
  }
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["contacts"] = static_cast<double>(contacts.size());
}
BENCHMARK(BM_BinCollision)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace coulomb::geometry

BENCHMARK_MAIN();
