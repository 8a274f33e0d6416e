#include "coulomb/sweep/sweep_metrics.h"

#include <fmt/format.h>

#include <array>
#include <functional>
#include <limits>

#include "coulomb/multibody/dynamics.h"

namespace coulomb::sweep {
namespace {

using SummaryField = std::pair<const char*, std::function<double(const sim::RunSummary&)>>;

// The summary's numeric fields under the names of `coulomb run --json` (worst_metrics flattened).
const std::vector<SummaryField>& SummaryFields() {
  static const std::vector<SummaryField> fields = {
      {"steps", [](const sim::RunSummary& s) { return s.steps; }},
      {"sim_time", [](const sim::RunSummary& s) { return s.sim_time; }},
      {"failed_steps", [](const sim::RunSummary& s) { return s.failed_steps; }},
      {"max_penetration", [](const sim::RunSummary& s) { return s.max_penetration; }},
      {"mean_step_us", [](const sim::RunSummary& s) { return s.mean_step_us; }},
      {"max_step_us", [](const sim::RunSummary& s) { return s.max_step_us; }},
      {"mean_contacts", [](const sim::RunSummary& s) { return s.mean_contacts; }},
      {"max_contacts", [](const sim::RunSummary& s) { return s.max_contacts; }},
      {"mean_iterations", [](const sim::RunSummary& s) { return s.mean_iterations; }},
      {"mean_factorizations", [](const sim::RunSummary& s) { return s.mean_factorizations; }},
      {"mean_linearizations", [](const sim::RunSummary& s) { return s.mean_linearizations; }},
      {"initial_energy", [](const sim::RunSummary& s) { return s.initial_energy; }},
      {"final_energy", [](const sim::RunSummary& s) { return s.final_energy; }},
      {"energy_change", [](const sim::RunSummary& s) { return s.final_energy - s.initial_energy; }},
      {"worst_signorini_W", [](const sim::RunSummary& s) { return s.worst.signorini; }},
      {"worst_cone_Ns", [](const sim::RunSummary& s) { return s.worst.cone; }},
      {"worst_dissipation_W", [](const sim::RunSummary& s) { return s.worst.dissipation; }},
      {"worst_misalignment", [](const sim::RunSummary& s) { return s.worst.misalignment; }},
      {"worst_gliding_mps", [](const sim::RunSummary& s) { return s.worst.gliding; }},
  };
  return fields;
}

const SummaryField* FindSummaryField(const std::string& name) {
  for (const SummaryField& f : SummaryFields()) {
    if (name == f.first) return &f;
  }
  return nullptr;
}

// "position.cube" → ("position", "cube"); ("", "") when it is not KIND.BODY.
std::pair<std::string, std::string> SplitBodyMetric(const std::string& metric) {
  const std::size_t dot = metric.find('.');
  if (dot == std::string::npos) return {};
  return {metric.substr(0, dot), metric.substr(dot + 1)};
}

constexpr std::array<const char*, 4> kBodyMetrics = {"position", "orientation", "velocity",
                                                     "displacement"};

std::vector<std::string> BodyColumns(const std::string& kind, const std::string& metric) {
  if (kind == "displacement") return {metric};
  if (kind == "orientation") {
    return {metric + ".w", metric + ".x", metric + ".y", metric + ".z"};
  }
  return {metric + ".x", metric + ".y", metric + ".z"};
}

}  // namespace

MetricColumns ColumnsOf(const std::string& metric, const sim::Scene& scene) {
  if (FindSummaryField(metric) != nullptr) return {{metric}, ""};
  const auto [kind, body] = SplitBodyMetric(metric);
  bool known_kind = false;
  for (const char* k : kBodyMetrics) known_kind = known_kind || kind == k;
  if (!known_kind) {
    std::string names;
    for (const SummaryField& f : SummaryFields()) names += std::string(f.first) + ", ";
    return {{},
            fmt::format("unknown metric '{}' (summary fields: {}or position.BODY, "
                        "orientation.BODY, velocity.BODY, displacement.BODY)",
                        metric, names)};
  }
  if (scene.model.multibody.FindBody(body) < 0) {
    return {{}, fmt::format("metric '{}': the scene has no body '{}'", metric, body)};
  }
  return {BodyColumns(kind, metric), ""};
}

bool IsTimingColumn(const std::string& column) {
  return column == "mean_step_us" || column == "max_step_us" || column == "wall_seconds";
}

std::vector<double> MeasureMetric(const std::string& metric, const sim::Scene& scene,
                                  const sim::RunSummary& summary, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& v) {
  if (const SummaryField* f = FindSummaryField(metric)) return {f->second(summary)};
  const auto [kind, name] = SplitBodyMetric(metric);
  const int body = scene.model.multibody.FindBody(name);
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (body < 0 || q.size() != scene.model.multibody.nq || v.size() != scene.model.multibody.nv) {
    return std::vector<double>(BodyColumns(kind, metric).size(), kNaN);
  }
  multibody::Data data = multibody::MakeData(scene.model.multibody);
  multibody::CalcForwardKinematics(scene.model.multibody, data, q, v);
  const math::Transform X = data.X_world[body];
  if (kind == "position") return {X.p.x(), X.p.y(), X.p.z()};
  if (kind == "orientation") {
    Eigen::Quaterniond r(X.R);
    if (r.w() < 0) r.coeffs() = -r.coeffs();  // the one of ±r with w ≥ 0, for readable tables
    return {r.w(), r.x(), r.y(), r.z()};
  }
  if (kind == "velocity") {
    const Eigen::Vector3d u =
        multibody::CalcPointJacobian(scene.model.multibody, data, body, Eigen::Vector3d::Zero()) *
        v;
    return {u.x(), u.y(), u.z()};
  }
  multibody::CalcForwardKinematics(scene.model.multibody, data, scene.initial.q, scene.initial.v);
  return {(X.p - data.X_world[body].p).norm()};
}

std::vector<std::string> DefaultMetrics() {
  return {"failed_steps", "max_penetration", "energy_change", "mean_step_us"};
}

}  // namespace coulomb::sweep
