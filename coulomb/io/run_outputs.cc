#include "coulomb/io/run_outputs.h"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <type_traits>

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

std::string TrajectoryHeader(const sim::Scene& scene) {
  std::string out = "time";
  for (const std::string& n : CoordinateNames(scene.model.multibody, false)) out += "," + n;
  for (const std::string& n : CoordinateNames(scene.model.multibody, true)) out += "," + n;
  return out + "\n";
}

std::string TrajectoryRow(const sim::Frame& f) {
  std::string out = fmt::format("{:.9g}", f.time);
  for (Eigen::Index i = 0; i < f.q.size(); ++i) out += fmt::format(",{:.17g}", f.q[i]);
  for (Eigen::Index i = 0; i < f.v.size(); ++i) out += fmt::format(",{:.17g}", f.v[i]);
  return out + "\n";
}

constexpr const char* kStepsHeader =
    "step,time,contacts,status,iterations,residual,max_penetration_m,signorini_W,cone_Ns,"
    "dissipation_W,misalignment,gliding_mps,collision_us,assembly_us,solve_us,advance_us\n";

std::string StepsRow(const sim::StepRecord& s) {
  const sim::ContactMetrics& m = s.metrics;
  return fmt::format(
      "{},{:.9g},{},{},{},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.3e},{:.2f},{:.2f},{:.2f},"
      "{:.2f}\n",
      s.step, s.time, s.contacts, ToString(s.status), s.iterations, s.residual, s.max_penetration,
      m.signorini, m.cone, m.dissipation, m.misalignment, m.gliding, 1e6 * s.profile.collision,
      1e6 * s.profile.assembly, 1e6 * s.profile.solve, 1e6 * s.profile.advance);
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
  j["solver_switch"] = s.solver_switch;
  j["stopped"] = s.stopped;
  j["max_contacts"] = s.max_contacts;
  j["mean_contacts"] = number(s.mean_contacts);
  j["mean_iterations"] = number(s.mean_iterations);
  j["mean_factorizations"] = number(s.mean_factorizations);
  j["mean_linearizations"] = number(s.mean_linearizations);
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

namespace {

// A NumPy .npy file (format 1.0): little-endian float32 ('<f4') or int32 ('<i4') in C order.
template <class T>
std::string Npy(const std::vector<T>& values, const std::vector<std::size_t>& shape) {
  std::string dims;
  for (const std::size_t d : shape) dims += fmt::format("{}, ", d);
  if (shape.size() > 1) dims.resize(dims.size() - 2);
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}",
                                   std::is_same_v<T, float> ? "<f4" : "<i4", dims);
  header.append(63 - (10 + header.size()) % 64, ' ');  // pad the preamble to 64 bytes
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  const std::size_t at = out.size();
  out.resize(at + values.size() * sizeof(T));
  std::memcpy(out.data() + at, values.data(), values.size() * sizeof(T));
  return out;
}

// Per deformable body: deformable_<name>_x.npy (frames × vertices × 3, m, float32) and
// deformable_<name>_tets.npy (elements × 4 vertex indices).
std::vector<std::pair<std::string, std::string>> DeformableFiles(const sim::Scene& scene,
                                                                 const sim::Recording& recording) {
  std::vector<std::pair<std::string, std::string>> files;
  for (std::size_t d = 0; d < scene.model.deformables.bodies.size(); ++d) {
    const fem::FemBody& body = scene.model.deformables.bodies[d];
    const auto n = static_cast<std::size_t>(body.rest.num_vertices());
    std::vector<float> x;
    x.reserve(recording.frames.size() * n * 3);
    for (const sim::Frame& f : recording.frames) {
      x.insert(x.end(), f.deformables[d].data(), f.deformables[d].data() + 3 * n);
    }
    const std::vector<int> tets(body.rest.tets.data(),
                                body.rest.tets.data() + body.rest.tets.size());
    files.emplace_back("deformable_" + body.name + "_x.npy",
                       Npy(x, {recording.frames.size(), n, 3}));
    files.emplace_back("deformable_" + body.name + "_tets.npy",
                       Npy(tets, {static_cast<std::size_t>(body.rest.num_tets()), 4}));
  }
  return files;
}

}  // namespace

std::optional<InputError> CheckRunOutputs(const sim::Scene& scene, const std::string& directory,
                                          bool overwrite) {
  std::error_code ec;
  if (std::filesystem::exists(directory, ec) && !std::filesystem::is_directory(directory, ec)) {
    return InputError{directory, 0, "", "exists and is not a directory"};
  }
  std::filesystem::create_directories(directory, ec);
  if (ec) return InputError{directory, 0, "", "cannot create the directory: " + ec.message()};
  const std::filesystem::path dir(directory);
  std::vector<std::string> names = {"trajectory.csv", "steps.csv", "summary.json"};
  for (const fem::FemBody& body : scene.model.deformables.bodies) {
    names.push_back("deformable_" + body.name + "_x.npy");
    names.push_back("deformable_" + body.name + "_tets.npy");
  }
  for (const std::string& name : names) {
    if (!overwrite && std::filesystem::exists(dir / name, ec)) {
      return InputError{(dir / name).string(), 0, "",
                        "already exists; refusing to overwrite it (use --force)"};
    }
  }
  // Writable: a probe file created and removed now, not a refusal after the whole run.
  const std::filesystem::path probe = dir / ".coulomb_write_probe";
  {
    std::ofstream out(probe, std::ios::binary | std::ios::trunc);
    if (!out) return InputError{directory, 0, "", "cannot write into the directory"};
  }
  std::filesystem::remove(probe, ec);
  return std::nullopt;
}

struct RunOutputStream::Files {
  std::filesystem::path directory;
  bool overwrite = false;
  std::ofstream trajectory, steps;
};

RunOutputStream::RunOutputStream() = default;
RunOutputStream::~RunOutputStream() = default;
RunOutputStream::RunOutputStream(RunOutputStream&&) noexcept = default;
RunOutputStream& RunOutputStream::operator=(RunOutputStream&&) noexcept = default;

std::optional<InputError> RunOutputStream::Open(const sim::Scene& scene,
                                                const std::string& directory, bool overwrite) {
  // Check every target first so that a refusal leaves no half-written set behind.
  if (auto e = CheckRunOutputs(scene, directory, overwrite)) return e;
  files_ = std::make_unique<Files>();
  files_->directory = directory;
  files_->overwrite = overwrite;
  const auto open = [](const std::filesystem::path& path, std::ofstream& out,
                       const std::string& header) -> std::optional<InputError> {
    out.open(path, std::ios::binary | std::ios::trunc);
    if (!out) return InputError{path.string(), 0, "", "cannot be opened for writing"};
    out << header << std::flush;
    return std::nullopt;
  };
  if (auto e =
          open(files_->directory / "trajectory.csv", files_->trajectory, TrajectoryHeader(scene))) {
    return e;
  }
  return open(files_->directory / "steps.csv", files_->steps, kStepsHeader);
}

std::optional<InputError> RunOutputStream::Append(const sim::Recording& recording) {
  if (!files_) return InputError{"", 0, "", "the run's outputs were not opened"};
  const bool new_frames = frames_written_ < recording.frames.size();
  for (; steps_written_ < recording.steps.size(); ++steps_written_)
    files_->steps << StepsRow(recording.steps[steps_written_]);
  for (; frames_written_ < recording.frames.size(); ++frames_written_)
    files_->trajectory << TrajectoryRow(recording.frames[frames_written_]);
  // Flushed with every recorded frame: a killed run keeps every frame it computed.
  if (new_frames) {
    files_->steps.flush();
    files_->trajectory.flush();
  }
  if (!files_->steps || !files_->trajectory) {
    return InputError{files_->directory.string(), 0, "", "write failed (disk full?)"};
  }
  return std::nullopt;
}

std::optional<InputError> RunOutputStream::AppendAndRelease(sim::Recording& recording) {
  if (auto e = Append(recording)) return e;
  recording.frames.clear();
  recording.steps.clear();
  frames_written_ = steps_written_ = 0;
  return std::nullopt;
}

std::optional<InputError> RunOutputStream::Finish(const sim::Scene& scene,
                                                  const sim::Recording& recording,
                                                  const sim::RunSummary& summary) {
  if (auto e = Append(recording)) return e;
  files_->steps.close();
  files_->trajectory.close();
  for (const auto& [name, bytes] : DeformableFiles(scene, recording)) {
    if (auto e = WriteText(files_->directory / name, bytes, files_->overwrite)) return e;
  }
  return WriteText(files_->directory / "summary.json", FormatSummaryJson(summary),
                   files_->overwrite);
}

std::optional<InputError> WriteRunOutputs(const sim::Scene& scene, const sim::Recording& recording,
                                          const sim::RunSummary& summary,
                                          const std::string& directory, bool overwrite) {
  RunOutputStream stream;
  if (auto e = stream.Open(scene, directory, overwrite)) return e;
  return stream.Finish(scene, recording, summary);
}

}  // namespace coulomb::io
