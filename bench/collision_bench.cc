// Collision detection time for 1 000 boxes and spheres settled in a bin (issue #4's
// micro-benchmark): bounding boxes, sweep-and-prune, narrow phase. Two variants: primitives on
// half-spaces (the analytic routines), and the same with every box a convex mesh and the floor
// a triangle mesh of 800 triangles (GJK/EPA, face clipping and the triangle tree).
//
//   ./build/bin/collision_bench

#include <benchmark/benchmark.h>

#include <array>
#include <numbers>
#include <vector>

#include "coulomb/base/random.h"
#include "coulomb/geometry/collision_world.h"

namespace coulomb::geometry {
namespace {

// A 1 m square floor at z = 0 cut into 20 × 20 cells of two triangles.
Shape MeshFloor() {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;
  const int n = 20;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) vertices.emplace_back(double(i) / n, double(j) / n, 0.0);
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i;
      triangles.push_back({a, a + 1, a + n + 2});
      triangles.push_back({a, a + n + 2, a + n + 1});
    }
  }
  return MakeTriangleMesh(vertices, triangles, "floor").value();
}

Shape MeshCube(double half) {
  std::vector<Eigen::Vector3d> corners;
  for (int c = 0; c < 8; ++c) {
    corners.emplace_back(c & 1 ? half : -half, c & 2 ? half : -half, c & 4 ? half : -half);
  }
  return MakeConvexMesh(corners, "cube").value();
}

// 1 000 bodies (half boxes, half spheres, 5 cm) packed on a 10 × 10 grid, 10 layers, jittered
// so that neighbours touch, in a 1 m bin made of five static half-spaces (or, with `meshes`,
// mesh cubes and spheres on a triangle-mesh floor inside four half-space walls).
CollisionWorld Bin(std::vector<math::Transform>& poses, bool meshes) {
  CollisionWorld world;
  SplitMix64 rng(7);
  const Shape cube = meshes ? MeshCube(0.05) : Shape(Box{Eigen::Vector3d::Constant(0.05)});
  world.Add({"floor", -1, meshes ? MeshFloor() : Shape(HalfSpace{}), {}, 0.5});
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
      world.Add({"box", i, cube, {}, 0.5});
    } else {
      world.Add({"ball", i, Sphere{0.05}, {}, 0.5});
    }
  }
  return world;
}

// The whole first stage of a step: AABBs, sweep-and-prune, filters, narrow phase, ContactSet.
void BM_BinFindContacts(benchmark::State& state) {
  std::vector<math::Transform> poses;
  const CollisionWorld world = Bin(poses, state.range(0) != 0);
  ContactDetection detection;
  for (auto _ : state) {
    detection = FindContacts(world, poses);
    benchmark::DoNotOptimize(detection.contacts.contacts.data());
  }
  state.counters["pairs"] = detection.candidate_pairs;
  state.counters["contacts"] = static_cast<double>(detection.contacts.contacts.size());
  state.counters["unsupported"] = detection.unsupported_pairs;
  state.SetLabel(state.range(0) ? "mesh cubes, triangle-mesh floor" : "primitives, half-spaces");
}
BENCHMARK(BM_BinFindContacts)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace coulomb::geometry

BENCHMARK_MAIN();
