#include "coulomb/io/run_outputs.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace coulomb::io {
namespace {

std::vector<std::string> CoordinateNames(const multibody::Model& model, bool velocity) {
  std::vector<std::string> names;
  for (const multibody::Body& b : model.bodies) {
    const std::string base = b.joint_name.empty() ? b.name : b.joint_name;
    if (b.joint == multibody::JointType::kFloating) {
      const char* q[] = {"x", "y", "z", "qw", "qx", "qy", "qz"};
      const char* v[] = {"vx", "vy", "vz", "wx", "wy", "wz"};
      for (int i = 0; i < (velocity ? 6 : 7); ++i)
        names.push_back(base + "." + (velocity ? v[i] : q[i]));
    } else if (b.joint == multibody::JointType::kBall) {
      const char* q[] = {"qw", "qx", "qy", "qz"};
      const char* v[] = {"wx", "wy", "wz"};
      for (int i = 0; i < (velocity ? 3 : 4); ++i)
        names.push_back(base + "." + (velocity ? v[i] : q[i]));
    } else if (b.joint != multibody::JointType::kFixed) {
      names.push_back(base + (velocity ? ".v" : ".q"));
    }
  }
  return names;
}

std::string TrajectoryCsv(const sim::Scene& scene, const sim::Recording& recording) {
  std::string out = "time";
  for (const std::string& n : CoordinateNames(scene.model, false)) out += "," + n;
  for (const std::string& n : CoordinateNames(scene.model, true)) out += "," + n;
  out += "\n";
  for (const sim::Frame& f : recording.frames) {
    out += fmt::format("{:.9g}", f.time);
    for (Eigen::Index i = 0; i < f.q.size(); ++i) out += fmt::format(",{:.17g}", f.q[i]);
    for (Eigen::Index i = 0; i < f.v.size(); ++i) out += fmt::format(",{:.17g}", f.v[i]);
    out += "\n";
  }
  return out;
}

std::string StepsCsv(const sim::Recording& recording) {
  std::string out =
      "step,time,contacts,status,iterations,residual,max_penetration_m,signorini_W,cone_Ns,"
      "dissipation_W,misalignment,gliding_mps,collision_us,assembly_us,solve_us,advance_us\n";
  for (const sim::StepRecord& s : recording.steps) {
    const sim::ContactMetrics& m = s.metrics;
    out += fmt::format(
        "{},{:.9g},{},{},{},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.2f},{:.2f},{:.2f},"
        "{:.2f}\n",
        s.step, s.time, s.contacts, ToString(s.status), s.iterations, s.residual, s.max_penetration,
        m.signorini, m.cone, m.dissipation, m.misalignment, m.gliding, 1e6 * s.profile.collision,
        1e6 * s.profile.assembly, 1e6 * s.profile.solve, 1e6 * s.profile.advance);
  }
  return out;
}

std::optional<InputError> WriteText(const std::filesystem::path& path, const std::string& text,
                                    bool overwrite) {
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec)) {
    return InputError{path.string(), 0, "",
                      "already exists; refusing to overwrite it (use --force)"};
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return InputError{path.string(), 0, "", "cannot be opened for writing"};
  out << text;
  if (!out) return InputError{path.string(), 0, "", "write failed (disk full?)"};
  return std::nullopt;
}

}  // namespace

std::string FormatSummaryJson(const sim::RunSummary& s) {
  const auto number = [](double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
  };
  nlohmann::json j;
  j["scene"] = s.scene;
  j["formulation"] = s.formulation;
  j["solver"] = s.solver;
  j["steps"] = s.steps;
  j["sim_time"] = number(s.sim_time);
  j["wall_seconds"] = number(s.wall_seconds);
  j["mean_step_us"] = number(s.mean_step_us);
  j["max_step_us"] = number(s.max_step_us);
  j["max_penetration"] = number(s.max_penetration);
  j["failed_steps"] = s.failed_steps;
  j["first_failure"] = s.first_failure;
  j["max_contacts"] = s.max_contacts;
  j["mean_contacts"] = number(s.mean_contacts);
  j["mean_iterations"] = number(s.mean_iterations);
  j["unsupported_pairs"] = s.unsupported_pairs;
  j["worst_metrics"] = {{"signorini_W", number(s.worst.signorini)},
                        {"cone_Ns", number(s.worst.cone)},
                        {"dissipation_W", number(s.worst.dissipation)},
                        {"misalignment", number(s.worst.misalignment)},
                        {"gliding_mps", number(s.worst.gliding)}};
  j["initial_energy"] = number(s.initial_energy);
  j["final_energy"] = number(s.final_energy);
  j["state_hash"] = fmt::format("{:016x}", s.state_hash);
  return j.dump(2) + "\n";
}

std::optional<InputError> WriteRunOutputs(const sim::Scene& scene, const sim::Recording& recording,
                                          const sim::RunSummary& summary,
                                          const std::string& directory, bool overwrite) {
  std::error_code ec;
  std::filesystem::create_directories(directory, ec);
  if (ec) return InputError{directory, 0, "", "cannot create the directory: " + ec.message()};
  const std::filesystem::path dir(directory);
  // Check every target first so that a refusal leaves no half-written set behind.
  for (const char* name : {"trajectory.csv", "steps.csv", "summary.json"}) {
    if (!overwrite && std::filesystem::exists(dir / name, ec)) {
      return InputError{(dir / name).string(), 0, "",
                        "already exists; refusing to overwrite it (use --force)"};
    }
  }
  if (auto e = WriteText(dir / "trajectory.csv", TrajectoryCsv(scene, recording), overwrite))
    return e;
  if (auto e = WriteText(dir / "steps.csv", StepsCsv(recording), overwrite)) return e;
  return WriteText(dir / "summary.json", FormatSummaryJson(summary), overwrite);
}

}  // namespace coulomb::io
