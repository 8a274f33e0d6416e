#include "apps/coulomb/run_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "coulomb/io/checkpoint_file.h"
#include "coulomb/io/html_replay.h"
#include "coulomb/io/run_outputs.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/io/scene_settings.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::app {
namespace {

// Set by SIGINT during a run; read between steps. A signal handler can only reach a flag of
// static storage, so this one variable is process-wide (the library itself has none).
volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void OnInterrupt(int /*signal*/) {
  g_interrupted = 1;
}

int Fail(const std::string& message) {
  fmt::print(stderr, "error: {}\n", message);
  return 2;
}

// Applies the command-line overrides; returns "" or what is wrong.
std::string ApplyOverrides(const RunOptions& o, sim::Scene& scene) {
  if (!o.formulation.empty()) {
    const Formulation* formulation = FindFormulation(o.formulation);
    if (formulation == nullptr) {
      return "--formulation: unknown '" + o.formulation + "' (" + FormulationNames() + ")";
    }
    scene.model.settings.formulation = formulation;
  }
  for (const std::string& assignment : o.settings) {
    if (std::string error = io::ApplySettingOverride(assignment, scene); !error.empty()) {
      return "--set " + error;
    }
  }
  if (!o.solver.empty()) {
    const std::string error =
        scene.model.settings.formulation->select_solver(o.solver, scene.model.settings);
    if (!error.empty()) return "--solver: " + error;
  }
  // A value given on the command line is used or refused, never replaced by the scene's
  // (--dt 0 and --duration -1 used to mean "the scene's" silently).
  if (o.time_step) {
    if (!(*o.time_step > 0 && *o.time_step <= 10))
      return fmt::format("--dt: {} is not in (0, 10] s", *o.time_step);
    scene.model.time_step = *o.time_step;
  }
  if (o.duration) {
    if (!(*o.duration >= 0 && *o.duration <= 1e7))
      return fmt::format("--duration: {} is not in [0, 1e7] s", *o.duration);
    scene.duration = *o.duration;
  }
  return sim::ValidateScene(scene);
}

// How a run's recording is kept: not at all, streamed to --out and dropped from memory, or held
// whole (the HTML replay and the deformable arrays are written from every frame at the end).
enum class Keeping { kNothing, kStreamed, kInMemory };

// A run whose length is absurd for its time step says so before it starts: a recording that
// cannot fit in memory (it would be lost at the end) or whose files would take more than 32 GiB
// is refused, and a very long run is announced.
std::string CheckRunLength(const sim::Scene& scene, Keeping keeping) {
  const double steps = std::round(scene.duration / scene.model.time_step);
  const double frames = steps / scene.record_every;
  const double coordinates =
      static_cast<double>(scene.model.multibody.nq + scene.model.multibody.nv);
  const auto refuse = [&](double bytes, const char* where, int limit_gib) {
    return fmt::format(
        "recording {:.3g} steps of {} s would hold ~{:.1f} GiB {} (more than {}): raise "
        "record_every in the scene, shorten --duration or lengthen --dt",
        steps, scene.model.time_step, bytes / (1 << 30), where, limit_gib);
  };
  if (keeping == Keeping::kInMemory) {
    double per_frame = 8.0 * coordinates + 64;
    for (const fem::FemBody& b : scene.model.deformables.bodies)
      per_frame += 4.0 * 3 * b.rest.num_vertices();  // float32 vertex positions
    const double bytes = frames * per_frame + steps * sizeof(sim::StepRecord);
    if (bytes > 8.0 * (1 << 30)) return refuse(bytes, "in memory", 8);
  } else if (keeping == Keeping::kStreamed) {
    // trajectory.csv: ~25 characters per number; steps.csv: ~150 per row.
    const double bytes = frames * (25 * coordinates + 12) + steps * 150;
    if (bytes > 32.0 * (1 << 30)) return refuse(bytes, "of files in --out", 32);
  }
  if (steps > 1e6) {
    fmt::print(stderr, "note: {:.3g} steps of {} s for {} s of simulated time; a long run\n", steps,
               scene.model.time_step, scene.duration);
  }
  return "";
}

// A bar on a terminal; otherwise a plain line every 10 %.
sim::ProgressCallback MakeProgress(bool quiet) {
  if (quiet) return nullptr;
  const bool terminal = isatty(fileno(stderr)) != 0;
  return [terminal, last = -1](int done, int total) mutable {
    const int percent = total > 0 ? 100 * done / total : 100;
    if (terminal) {
      if (percent != last) {
        const int width = 40, filled = width * percent / 100;
        fmt::print(stderr, "\r[{}{}] {:3d}% ({}/{} steps)", std::string(filled, '#'),
                   std::string(width - filled, '.'), percent, done, total);
        if (done == total) fmt::print(stderr, "\n");
      }
    } else if (percent / 10 != last / 10 || done == total) {
      fmt::print(stderr, "progress: {}% ({}/{} steps)\n", percent, done, total);
    }
    last = percent;
    return true;
  };
}

// A checkpointed or resumed run: the checkpoint read (--resume), where checkpoints go and how
// often, and what identifies the run's scene in them.
struct CheckpointPlan {
  std::optional<io::CheckpointFile> resume;
  std::string path;     // "" : none
  int every_steps = 0;  // 0 : only at the end
  std::string scene_path;
  std::uint64_t scene_hash = 0;
};

// --resume: reads the checkpoint and makes its choices the run's (scene, formulation, solver,
// time step, and the duration unless --duration gives the end time). "" or what is wrong.
std::string ReadResume(RunOptions& o, CheckpointPlan& plan) {
  if (o.resume.empty()) return o.scene.empty() ? "run: give a scene file (or --resume FILE)" : "";
  if (!o.formulation.empty() || !o.solver.empty() || o.time_step || !o.settings.empty()) {
    return "--resume: --formulation, --solver, --set and --dt are the checkpointed run's; a "
           "resumed run "
           "cannot change them (it would not continue the same run)";
  }
  Expected<io::CheckpointFile> read = io::ReadCheckpointFile(o.resume);
  if (!read.ok()) return read.error().ToString();
  plan.resume = std::move(read.value());
  if (o.scene.empty()) o.scene = plan.resume->scene_path;
  o.formulation = plan.resume->formulation;
  o.solver = plan.resume->solver;
  o.settings = plan.resume->settings;
  o.time_step = plan.resume->checkpoint.time_step;
  if (!o.duration) o.duration = plan.resume->duration;
  return "";
}

// After the scene is read: the scene file is the one the checkpoint was written from, and the
// checkpoint fits it; the checkpoint target is writable and not someone else's file.
std::string PlanCheckpoints(const RunOptions& o, const sim::Scene& scene, CheckpointPlan& plan) {
  std::error_code ec;
  plan.scene_path = std::filesystem::absolute(o.scene, ec).lexically_normal().string();
  Expected<std::uint64_t> hash = io::HashFile(o.scene);
  if (!hash.ok()) return hash.error().ToString();
  plan.scene_hash = hash.value();
  if (plan.resume) {
    const io::CheckpointFile& file = *plan.resume;
    if (file.scene_hash != plan.scene_hash) {
      return fmt::format(
          "--resume {}: the scene file {} changed since the checkpoint was written "
          "(a resumed run would not continue the same run)",
          o.resume, o.scene);
    }
    if (std::string why = sim::CheckResumable(scene, file.checkpoint); !why.empty()) {
      return fmt::format("--resume {}: cannot continue {}: {}", o.resume, o.scene, why);
    }
    const std::string solver = scene.model.settings.formulation->solver_name(scene.model.settings);
    if (file.checkpoint.tally.summary.solver != solver) {
      return fmt::format("--resume {}: it was written by solver {}, the scene now selects {}",
                         o.resume, file.checkpoint.tally.summary.solver, solver);
    }
  }
  plan.path = o.checkpoint;
  if (plan.path.empty() && o.checkpoint_every && plan.resume) plan.path = o.resume;
  if (o.checkpoint_every) {
    if (plan.path.empty()) return "--checkpoint-every: needs --checkpoint FILE (where to keep it)";
    const double every = *o.checkpoint_every;
    if (!(every > 0 && every <= 1e7))
      return fmt::format("--checkpoint-every: {} is not in (0, 1e7] s", every);
    const double steps = std::round(every / scene.model.time_step);
    if (steps < 1) {
      return fmt::format("--checkpoint-every: {} s is shorter than one time step ({} s)", every,
                         scene.model.time_step);
    }
    plan.every_steps = static_cast<int>(std::min(steps, 1e9));
  }
  if (plan.path.empty()) return "";
  const std::filesystem::path target(plan.path);
  if (std::filesystem::is_directory(target, ec)) {
    return fmt::format("--checkpoint {}: is a directory, not a file", plan.path);
  }
  const bool resumed_file =
      plan.resume && std::filesystem::equivalent(target, std::filesystem::path(o.resume), ec);
  if (std::filesystem::exists(target, ec) && !resumed_file && !o.force) {
    return fmt::format("--checkpoint {}: already exists (--force replaces it)", plan.path);
  }
  const std::filesystem::path directory =
      target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  if (!std::filesystem::is_directory(directory, ec) || ::access(directory.c_str(), W_OK) != 0) {
    return fmt::format("--checkpoint {}: the folder {} does not exist or is not writable",
                       plan.path, directory.string());
  }
  return "";
}

// The run's summary on stdout: JSON, or the lines a user reads (where it resumed from, where
// its checkpoint and outputs are).
void PrintSummary(const RunOptions& options, const sim::Scene& scene, const CheckpointPlan& plan,
                  int last_checkpoint, const sim::RunSummary& summary) {
  if (options.json) {
    fmt::print("{}", io::FormatSummaryJson(summary));
  } else {
    fmt::print("{}: {} steps of {} s ({} s simulated) with {} / {}\n", scene.name, summary.steps,
               scene.model.time_step, summary.sim_time, summary.formulation, summary.solver);
    fmt::print("  wall {:.3f} s, {:.1f} us/step (max {:.1f}), contacts mean {:.1f} max {}\n",
               summary.wall_seconds, summary.mean_step_us, summary.max_step_us,
               summary.mean_contacts, summary.max_contacts);
    fmt::print("  max penetration {:.3e} m, failed steps {}, energy {:.6g} -> {:.6g} J\n",
               summary.max_penetration, summary.failed_steps, summary.initial_energy,
               summary.final_energy);
    if (plan.resume) {
      fmt::print("  resumed from {} after step {} (t = {:.6g} s)\n", options.resume,
                 plan.resume->checkpoint.steps_done,
                 scene.initial.time + plan.resume->checkpoint.steps_done * scene.model.time_step);
    }
    if (last_checkpoint >= 0) {
      fmt::print("  checkpoint: {} (after step {}, t = {:.6g} s)\n", plan.path, last_checkpoint,
                 scene.initial.time + last_checkpoint * scene.model.time_step);
    }
    if (!options.html.empty()) fmt::print("  replay: {}\n", options.html);
    if (!options.out_dir.empty()) fmt::print("  outputs: {}/\n", options.out_dir);
  }
}

}  // namespace

int RunScene(const RunOptions& given) {
  RunOptions options = given;
  CheckpointPlan plan;
  if (std::string defect = ReadResume(options, plan); !defect.empty()) return Fail(defect);
  Expected<sim::Scene> loaded = io::ReadSceneFile(options.scene);
  if (!loaded.ok()) return Fail(loaded.error().ToString());
  sim::Scene& scene = loaded.value();
  if (std::string defect = ApplyOverrides(options, scene); !defect.empty()) return Fail(defect);
  for (const std::string& w : scene.warnings) fmt::print(stderr, "warning: {}\n", w);
  for (const std::string& n : scene.notes) fmt::print(stderr, "note: {}\n", n);
  const std::string ignored = sim::ConstraintsIgnoredBy(scene);
  if (!ignored.empty()) fmt::print(stderr, "warning: {}\n", ignored);
  // Outputs are checked before the first step: a refusal after a long run would throw it away.
  if (std::string defect = PlanCheckpoints(options, scene, plan); !defect.empty()) {
    return Fail(defect);
  }
  if (!options.out_dir.empty()) {
    if (auto e = io::CheckRunOutputs(scene, options.out_dir, options.force)) {
      return Fail(e->ToString());
    }
  }
  if (!options.html.empty()) {
    if (auto e = io::CheckHtmlReplayPath(options.html, options.force)) return Fail(e->ToString());
  }
  const bool record = !options.out_dir.empty() || !options.html.empty();
  // Only the HTML replay and the deformable arrays need every frame at the end; without them
  // the rows written are dropped from memory (a long --out run does not grow).
  const bool keep_frames = !options.html.empty() || (record && !scene.model.deformables.empty());
  const Keeping keeping = keep_frames ? Keeping::kInMemory
                          : record    ? Keeping::kStreamed
                                      : Keeping::kNothing;
  if (std::string defect = CheckRunLength(scene, keeping); !defect.empty()) return Fail(defect);
  sim::Recording recording;
  sim::RunControl control;
  control.resume = plan.resume ? &plan.resume->checkpoint : nullptr;
  control.checkpoint_every = plan.every_steps;
  control.checkpoint_at_end = !plan.path.empty();
  // All cores unless told: the answer is the same for any count (docs/determinism.md), and islands
  // too small to share run in order on the caller's thread, so small scenes lose nothing.
  control.threads = options.threads > 0
                        ? options.threads
                        : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int last_checkpoint = -1;
  if (!plan.path.empty()) {
    control.on_checkpoint = [&](const sim::RunCheckpoint& checkpoint) {
      const io::CheckpointFile file{plan.scene_path, plan.scene_hash,  options.formulation,
                                    options.solver,  options.settings, scene.duration,
                                    checkpoint};
      if (auto e = io::WriteCheckpointFile(plan.path, file)) return e->ToString();
      last_checkpoint = checkpoint.steps_done;
      return std::string();
    };
  }
  // trajectory.csv and steps.csv are written as the run goes (a killed run keeps its frames);
  // Ctrl-C ends the run after the step in progress, with every output and the checkpoint.
  io::RunOutputStream stream;
  if (!options.out_dir.empty()) {
    if (auto e = stream.Open(scene, options.out_dir, options.force)) return Fail(e->ToString());
  }
  std::optional<InputError> stream_error;
  const sim::ProgressCallback display = MakeProgress(options.quiet);
  const sim::ProgressCallback progress = [&](int done, int total) {
    if (!options.out_dir.empty() && !stream_error) {
      stream_error = keep_frames ? stream.Append(recording) : stream.AppendAndRelease(recording);
    }
    if (stream_error || g_interrupted != 0) return false;
    return !display || display(done, total);
  };
  const auto previous_handler = std::signal(SIGINT, OnInterrupt);
  const sim::RunSummary summary =
      sim::Simulate(scene, record ? &recording : nullptr, progress, control);
  std::signal(SIGINT, previous_handler);
  if (stream_error) return Fail(stream_error->ToString());
  if (!options.out_dir.empty()) {
    if (auto e = stream.Finish(scene, recording, summary)) return Fail(e->ToString());
  }
  if (!options.html.empty()) {
    if (auto e = io::WriteHtmlReplay(scene, recording, options.html, options.force)) {
      return Fail(e->ToString());
    }
  }
  PrintSummary(options, scene, plan, last_checkpoint, summary);
  if (!summary.stopped.empty()) fmt::print(stderr, "error: {}\n", summary.stopped);
  if (!summary.solver_switch.empty()) {
    fmt::print(stderr, "note: from {}\n", summary.solver_switch);
  }
  if (summary.failed_steps > 0) {
    fmt::print(stderr, "warning: {} step(s) not certified; first: {}\n", summary.failed_steps,
               summary.first_failure);
  }
  if (g_interrupted != 0 && summary.steps < scene.NumSteps()) {
    fmt::print(stderr,
               "interrupted after step {} (t = {:.6g} s); the outputs hold the run so far\n",
               summary.steps, summary.sim_time);
    return 130;  // as a shell reports a command ended by SIGINT
  }
  if (summary.failed_steps > 0 || !summary.stopped.empty()) return 1;
  return 0;
}

int RunInfo(const InfoOptions& options) {
  if (options.reference) {
    fmt::print("{}", io::SettingsReferenceMarkdown());
    return 0;
  }
  if (options.scene.empty()) return Fail("info: give a scene file (or --settings-reference)");
  const std::string& scene_path = options.scene;
  Expected<sim::Scene> loaded = io::ReadSceneFile(scene_path);
  if (!loaded.ok()) return Fail(loaded.error().ToString());
  sim::Scene& scene = loaded.value();
  for (const std::string& assignment : options.settings) {
    if (std::string error = io::ApplySettingOverride(assignment, scene); !error.empty()) {
      return Fail("--set " + error);
    }
  }
  if (std::string defect = sim::ValidateScene(scene); !defect.empty()) return Fail(defect);
  if (options.print_settings) {
    fmt::print("{}", io::EffectiveSettingsYaml(scene));
    return 0;
  }
  for (const std::string& w : scene.warnings) fmt::print(stderr, "warning: {}\n", w);
  for (const std::string& n : scene.notes) fmt::print(stderr, "note: {}\n", n);
  fmt::print("scene {} ({})\n", scene.name, scene_path);
  fmt::print("  {} bodies, nq = {}, nv = {}, total mass {:.6g} kg\n",
             scene.model.multibody.bodies.size(), scene.model.multibody.nq,
             scene.model.multibody.nv, scene.model.multibody.TotalMass());
  for (const multibody::Body& b : scene.model.multibody.bodies) {
    fmt::print("    {:<24} joint {:<10} parent {:<16} mass {:.6g} kg\n", b.name,
               multibody::ToString(b.joint),
               b.parent < 0 ? std::string("world") : scene.model.multibody.bodies[b.parent].name,
               b.inertia.mass);
  }
  fmt::print("  {} collision geometries, margin {} m\n", scene.model.world.geometries.size(),
             scene.model.world.margin);
  for (const geometry::CollisionGeometry& g : scene.model.world.geometries) {
    fmt::print("    {:<24} {:<10} on {:<16} mu {}\n", g.name, geometry::ShapeName(g.shape),
               g.body < 0 ? std::string("world") : scene.model.multibody.bodies[g.body].name,
               g.friction);
  }
  const fem::DeformableModel& soft = scene.model.deformables;
  if (!soft.empty()) {
    fmt::print("  {} deformable bodies, {} vertex attachments\n", soft.bodies.size(),
               soft.attachments.size());
  }
  for (const fem::FemBody& b : soft.bodies) {
    fmt::print(
        "    {:<24} {} vertices, {} tets, {} fixed, {}, E {:.4g} Pa, nu {}, mass {:.6g} kg\n",
        b.name, b.rest.num_vertices(), b.rest.num_tets(), b.fixed_vertices.size(),
        fem::ToString(b.model), b.material.youngs_modulus, b.material.poisson_ratio,
        b.density * fem::TotalVolume(b.rest));
  }
  multibody::Data data = multibody::MakeData(scene.model.multibody);
  multibody::CalcForwardKinematics(scene.model.multibody, data, scene.initial.q, scene.initial.v);
  const geometry::ContactDetection detection =
      geometry::FindContacts(scene.model.world, data.X_world);
  fmt::print("  contacts at t = 0: {} ({} unsupported shape pairs)\n",
             detection.contacts.contacts.size(), detection.unsupported_pairs);
  // The deepest few, by geometry: an overlap at t = 0 is usually a modelling mistake.
  std::vector<geometry::Contact> deepest = detection.contacts.contacts;
  std::sort(deepest.begin(), deepest.end(),
            [](const geometry::Contact& a, const geometry::Contact& b) { return a.phi < b.phi; });
  for (std::size_t k = 0; k < std::min<std::size_t>(deepest.size(), 5); ++k) {
    fmt::print("    {} – {}: phi {:.4g} m\n",
               scene.model.world.geometries[deepest[k].geometry_a].name,
               scene.model.world.geometries[deepest[k].geometry_b].name, deepest[k].phi);
  }
  if (!soft.empty()) {
    const auto deformable_contacts = contact::FindDeformableContacts(
        soft, scene.initial.deformables, scene.model.world, data.X_world, scene.model.world.margin);
    const auto polygons = std::count_if(
        deformable_contacts.begin(), deformable_contacts.end(),
        [](const contact::DeformableContact& c) { return c.triangle >= 0; });
    fmt::print("  deformable contacts at t = 0: {} ({} at vertices, {} surface polygons)\n",
               deformable_contacts.size(), deformable_contacts.size() - polygons, polygons);
  }
  fmt::print("  time step {} s, duration {} s ({} steps), formulation {}, {} actuators\n",
             scene.model.time_step, scene.duration, scene.NumSteps(),
             scene.model.settings.formulation->name, scene.model.actuators.size());
  return 0;
}

}  // namespace coulomb::app
