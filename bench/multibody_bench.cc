// CRBA and RNEA timings on the iiwa + Allegro hand tree (issue #4's micro-benchmark), with
// Google Benchmark. Reads the robots in data/robots.
//
//   ./build/bin/multibody_bench [--benchmark_filter=...]

#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "coulomb/base/random.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/multibody/urdf_import.h"

namespace coulomb::multibody {
namespace {

// The iiwa with the Allegro hand welded to its last link: 7 + 16 = 23 dofs.
std::optional<Model> IiwaWithAllegro() {
  UrdfOptions options;
  const std::string root = std::string(COULOMB_DATA_DIR) + "/robots/drake_models";
  options.package_map["drake_models"] = root;
  const auto arm =
      ReadUrdf(root + "/iiwa_description/urdf/iiwa14_primitive_collision.urdf", options);
  const auto hand = ReadUrdf(
      root + "/allegro_hand_description/urdf/allegro_hand_description_right.urdf", options);
  if (!arm.ok() || !hand.ok()) return std::nullopt;
  Model model = arm.value().model;
  const int flange = static_cast<int>(model.bodies.size()) - 1;
  const int offset = static_cast<int>(model.bodies.size());
  for (Body b : hand.value().model.bodies) {
    b.parent = b.parent < 0 ? flange : b.parent + offset;
    if (b.parent == flange) b.placement.p = Eigen::Vector3d(0, 0, 0.05);
    model.AddBody(b);
  }
  return model;
}

struct Fixture {
  Model model;
  Data data;
  Eigen::VectorXd q, v, a;
};

std::optional<Fixture>& Shared() {
  static std::optional<Fixture> fixture = []() -> std::optional<Fixture> {
    auto model = IiwaWithAllegro();
    if (!model) return std::nullopt;
    Fixture f{*model, MakeData(*model), {}, {}, {}};
    SplitMix64 rng(1);
    f.v = Eigen::VectorXd(model->nv);
    f.a = Eigen::VectorXd(model->nv);
    for (int i = 0; i < model->nv; ++i) {
      f.v[i] = rng.Normal();
      f.a[i] = rng.Normal();
    }
    f.q = IntegrateConfiguration(*model, model->NeutralConfiguration(), f.v, 0.3);
    return f;
  }();
  return fixture;
}

void BM_Crba(benchmark::State& state) {
  auto& f = Shared();
  if (!f) return state.SkipWithError("robots not found under COULOMB_DATA_DIR");
  for (auto _ : state) benchmark::DoNotOptimize(CalcMassMatrix(f->model, f->data, f->q).data());
  state.counters["nv"] = f->model.nv;
}
BENCHMARK(BM_Crba);

void BM_Rnea(benchmark::State& state) {
  auto& f = Shared();
  if (!f) return state.SkipWithError("robots not found under COULOMB_DATA_DIR");
  for (auto _ : state) {
    benchmark::DoNotOptimize(CalcInverseDynamics(f->model, f->data, f->q, f->v, f->a).data());
  }
  state.counters["nv"] = f->model.nv;
}
BENCHMARK(BM_Rnea);

void BM_ForwardDynamics(benchmark::State& state) {
  auto& f = Shared();
  if (!f) return state.SkipWithError("robots not found under COULOMB_DATA_DIR");
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(f->model.nv);
  for (auto _ : state) {
    benchmark::DoNotOptimize(CalcForwardDynamics(f->model, f->data, f->q, f->v, tau).data());
  }
}
BENCHMARK(BM_ForwardDynamics);

}  // namespace
}  // namespace coulomb::multibody

BENCHMARK_MAIN();
