// The `coulomb` command-line tool.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <string>

#include "apps/coulomb/paper2/paper2_bench.h"
#include "apps/coulomb/peers/peers_bench.h"
#include "apps/coulomb/run_command.h"
#include "apps/coulomb/solve_command.h"
#include "apps/coulomb/sweep/sweep_command.h"
#include "apps/coulomb/trinkle/trinkle_study.h"
#include "coulomb/base/guarded_main.h"
#include "coulomb/base/numerics_threads.h"
#include "coulomb/formulations/formulation.h"

namespace {

// `coulomb solve FILE`: one LCP or frictional contact problem through the solvers.
CLI::App* AddSolveCommand(CLI::App& app, coulomb::app::SolveOptions& solve) {
  CLI::App* solve_cmd = app.add_subcommand(
      "solve",
      "Solve an LCP (Siconos .dat, Coulomb JSON) or a 3D frictional contact problem (Siconos FC3D "
      ".dat, FCLib HDF5)");
  solve_cmd->add_option("file", solve.file, "problem file")->required();
  solve_cmd
      ->add_option("--solver", solve.solver,
                   "LCP: lemke | fip | ipm | newton | pgs | enum | portfolio | all; frictional "
                   "contact: nsgs | nsn | ppa | ipm | portfolio | all")
      ->capture_default_str();
  solve_cmd->add_flag("--json", solve.json, "one JSON object per solver on stdout");
  solve_cmd->add_option("--seed", solve.seed, "seed of Lemke's restart covering vectors")
      ->capture_default_str();
  solve_cmd
      ->add_option("--tolerance", solve.tolerance,
                   "acceptance threshold (LCP certificate, default 1e-10; cone: "
                   "ABH error, default 1e-8)")
      ->capture_default_str();
  solve_cmd
      ->add_option("--time-limit", solve.time_limit,
                   "frictional contact: wall-time budget per solve, s; the best answer so far "
                   "is returned as time_limit when it runs out")
      ->capture_default_str();
  return solve_cmd;
}

// One line per registered formulation: its name, what it is and its solvers.
std::string FormulationHelp() {
  std::string help;
  for (const coulomb::Formulation* f : coulomb::Formulations()) {
    help += fmt::format("{}: {} (solvers: {})\n", f->name, f->summary, f->solver_names);
  }
  return help;
}

constexpr const char* kSetHelp =
    "KEY=VALUE: set a scene setting without editing the file (time_step=5e-4, "
    "solver.tolerance=1e-8, gravity=[0,0,-1.62]); repeatable, applied in order; "
    "`coulomb info --settings-reference` lists the keys";

// `coulomb run SCENE`: simulate a scene file.
CLI::App* AddRunCommand(CLI::App& app, coulomb::app::RunOptions& run) {
  CLI::App* run_cmd = app.add_subcommand("run", "Simulate a scene file (YAML)");
  run_cmd->add_option("scene", run.scene,
                      "scene file (with --resume: the checkpoint's scene when left out)");
  run_cmd->add_option("--formulation", run.formulation,
                      FormulationHelp() + "(default: the scene's)");
  run_cmd->add_option("--solver", run.solver,
                      "LCP solver, cone solver, or SAP line search (exact | backtracking) of the "
                      "formulation (default: the scene's)");
  run_cmd->add_option("--dt", run.time_step, "time step, s (default: the scene's)");
  run_cmd->add_option("--duration", run.duration, "simulated time, s (default: the scene's)");
  run_cmd->add_option("--set", run.settings, kSetHelp)->allow_extra_args(false);
  // A path that looks like an option is a forgotten value (`--out --quiet` made a folder
  // named --quiet).
  const auto not_an_option = CLI::Validator(
      [](const std::string& path) {
        return path.rfind('-', 0) == 0 ? "'" + path + "' looks like an option, not a path"
                                       : std::string();
      },
      "PATH");
  run_cmd->add_option("--out", run.out_dir, "write trajectory.csv, steps.csv, summary.json here")
      ->check(not_an_option);
  run_cmd->add_option("--html", run.html, "write a self-contained HTML replay to this file")
      ->check(not_an_option);
  run_cmd
      ->add_option("--checkpoint", run.checkpoint,
                   "keep a checkpoint of the run in this file (at the end, and every "
                   "--checkpoint-every s); replaced atomically each time")
      ->check(not_an_option);
  run_cmd->add_option("--checkpoint-every", run.checkpoint_every,
                      "simulated seconds between checkpoints (needs --checkpoint, or --resume "
                      "to keep checkpointing into the file resumed from)");
  run_cmd
      ->add_option("--resume", run.resume,
                   "continue the run of this checkpoint, bit-identically, to its duration "
                   "(or --duration: the end time)")
      ->check(not_an_option);
  run_cmd->add_flag("--json", run.json, "print the run summary as JSON on stdout");
  run_cmd->add_flag("--force", run.force, "replace existing output files");
  run_cmd->add_flag("--quiet", run.quiet, "no progress display");
  run_cmd
      ->add_option("--threads", run.threads,
                   "threads the step runs on (default 0: all cores; on 2 cores a second thread "
                   "gains 1.6-1.8x on piles of 4 096 contacts or more and costs nothing below, "
                   "where islands are swept in order); every count gives the same answer, bit for "
                   "bit")
      ->check(CLI::NonNegativeNumber);
  return run_cmd;
}

// `coulomb info SCENE`.
CLI::App* AddInfoCommand(CLI::App& app, coulomb::app::InfoOptions& info) {
  CLI::App* info_cmd =
      app.add_subcommand("info", "Summarize a scene: bodies, DoFs, shapes, contacts at t = 0");
  info_cmd->add_option("scene", info.scene, "scene file");
  info_cmd->add_option("--set", info.settings, kSetHelp)->allow_extra_args(false);
  info_cmd->add_flag("--settings", info.print_settings,
                     "print the scene's effective settings as YAML (a scene file reads them back)");
  info_cmd->add_flag("--settings-reference", info.reference,
                     "print every setting: type, unit, default, range, formulations (Markdown)");
  return info_cmd;
}

// `coulomb bench trinkle`: paper 1's tables.
CLI::App* AddTrinkleCommand(CLI::App& bench, coulomb::app::TrinkleStudyOptions& study) {
  CLI::App* trinkle_cmd = bench.add_subcommand(
      "trinkle", "Paper 1's Tables 1-4 on generated problems, paper settings vs Coulomb");
  trinkle_cmd->add_option("--seed", study.seed, "generator seed")->capture_default_str();
  trinkle_cmd->add_flag("--json", study.json, "one JSON object with every table");
  trinkle_cmd->add_flag("--quick", study.quick, "sizes up to 50 only");
  trinkle_cmd->add_option("--emit", study.emit_dir,
                          "also write every data set (pyramid and velocity LCP JSON, FCLib HDF5) "
                          "into this directory; existing files are never overwritten");
  return trinkle_cmd;
}

// `coulomb bench peers`: the peer engines side by side.
CLI::App* AddPeersCommand(CLI::App& bench, coulomb::peers::PeersBenchOptions& peers) {
  CLI::App* peers_cmd = bench.add_subcommand(
      "peers", "The same scenes through Coulomb, MuJoCo, Bullet, DART and ODE, side by side");
  peers_cmd->add_flag("--json", peers.json, "one JSON array of rows on stdout");
  peers_cmd->add_flag("--quick", peers.quick, "a quarter of each horizon, one repeat");
  peers_cmd
      ->add_option("--repeats", peers.repeats,
                   "runs per engine and scene, interleaved across engines (fastest run's time)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  peers_cmd->add_option("--scenes", peers.scenes,
                        "comma-separated: stack_1ms, stack_10ms, bin, incline_mu0.5, "
                        "incline_mu0.7, mass_ratio, ball_torque, chain (default: all)");
  peers_cmd->add_option("--engines", peers.engines,
                        "comma-separated: coulomb, mujoco, bullet, dart, ode (default: all)");
  peers_cmd->add_option("--part", peers.part, "scenes | problems | all")->capture_default_str();
  peers_cmd->add_option("--data", peers.data,
                        "shared data directory with the frictional contact problems (default: "
                        "the build's)");
  peers_cmd->add_option("--tolerance", peers.tolerance, "problems: ABH error to reach")
      ->check(CLI::Range(1e-16, 1.0))
      ->capture_default_str();
  peers_cmd->add_option(
      "--out", peers.out,
      "also write peers.md, peers.json, fc3d_profile.svg and scenes.svg into this directory");
  peers_cmd->add_flag("--force", peers.force, "replace those files if they exist");
  return peers_cmd;
}

// `coulomb bench paper2`: paper 2's scenes.
CLI::App* AddPaper2Command(CLI::App& bench, coulomb::paper2::Paper2Options& paper2) {
  CLI::App* paper2_cmd = bench.add_subcommand(
      "paper2", "Paper 2's scenes: cylinder compression, the arch, the soft gripper, arm + hand");
  paper2_cmd->add_flag("--json", paper2.json, "one JSON array of rows on stdout");
  paper2_cmd->add_flag("--quick", paper2.quick, "coarse meshes and short horizons (CI-sized)");
  paper2_cmd->add_option("--cases", paper2.cases,
                         "comma-separated parts of case names: cylinder, arch, teddy, ball "
                         "(default: all)");
  paper2_cmd->add_option("--examples", paper2.examples,
                         "scene folder (default: the source tree's)");
  paper2_cmd->add_option("--data", paper2.data, "shared data directory (default: the build's)");
  paper2_cmd->add_option("--out", paper2.out,
                         "also write paper2.md, paper2.json, cylinder_crush.svg and one HTML "
                         "replay per case into this directory");
  paper2_cmd->add_flag("--force", paper2.force, "replace those files if they exist");
  return paper2_cmd;
}

// `coulomb sweep FILE`: many runs of one scene with varied settings.
CLI::App* AddSweepCommand(CLI::App& app, coulomb::app::SweepOptions& sweep) {
  CLI::App* sweep_cmd = app.add_subcommand(
      "sweep",
      "Run every variant of a sweep file (docs/sweeps.md) on all cores, or on every rank of "
      "`mpirun -np K coulomb sweep FILE`; rows are recorded as runs finish");
  sweep_cmd->add_option("file", sweep.file, "sweep file (YAML)")->required();
  sweep_cmd->add_option("--threads", sweep.threads,
                        "worker threads per rank (default: the machine's cores / its ranks)");
  sweep_cmd->add_option("--out", sweep.out, "results folder (default: the sweep file's output)");
  sweep_cmd->add_flag("--resume", sweep.resume,
                      "continue the folder's results: run only what is missing");
  sweep_cmd->add_flag("--force", sweep.force, "replace the folder's results");
  sweep_cmd->add_flag("--list", sweep.list, "print every run's parameter values, run nothing");
  sweep_cmd->add_flag("--quiet", sweep.quiet, "no progress display");
  return sweep_cmd;
}

int Run(int argc, char** argv) {
  coulomb::UseSingleThreadedNumerics();  // one thread, deterministic (numerics_threads.h)
  CLI::App app{"Coulomb: frictional contact simulation and complementarity solvers"};
  app.set_version_flag("--version", "coulomb 0.1.0");
  app.require_subcommand(1);

  coulomb::app::SolveOptions solve;
  coulomb::app::RunOptions run;
  coulomb::app::InfoOptions info;
  coulomb::app::TrinkleStudyOptions study;
  coulomb::peers::PeersBenchOptions peers;
  coulomb::paper2::Paper2Options paper2;
  coulomb::app::SweepOptions sweep;
  CLI::App* solve_cmd = AddSolveCommand(app, solve);
  CLI::App* run_cmd = AddRunCommand(app, run);
  CLI::App* info_cmd = AddInfoCommand(app, info);
  CLI::App* sweep_cmd = AddSweepCommand(app, sweep);
  CLI::App* bench_cmd = app.add_subcommand("bench", "Reproduction and comparison studies");
  bench_cmd->require_subcommand(1);
  CLI::App* trinkle_cmd = AddTrinkleCommand(*bench_cmd, study);
  CLI::App* peers_cmd = AddPeersCommand(*bench_cmd, peers);
  CLI::App* paper2_cmd = AddPaper2Command(*bench_cmd, paper2);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 exits 0 for --help/--version and 106-ish for errors; we promise 2 for bad input.
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (solve_cmd->parsed()) return coulomb::app::RunSolve(solve);
  if (run_cmd->parsed()) return coulomb::app::RunScene(run);
  if (info_cmd->parsed()) return coulomb::app::RunInfo(info);
  if (sweep_cmd->parsed()) return coulomb::app::RunSweep(sweep);
  if (trinkle_cmd->parsed()) return coulomb::app::RunTrinkleStudy(study);
  if (peers_cmd->parsed()) return coulomb::peers::RunPeersBench(peers);
  if (paper2_cmd->parsed()) return coulomb::paper2::RunPaper2Bench(paper2);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  return coulomb::GuardedMain([&] { return Run(argc, argv); });
}
