// Clutter benchmark of issue 6: N boxes and spheres (N = 100, 500, 2000 by default) dropped into
// a bin, stepped by SAP and, where they finish in reasonable time, by the cone and velocity-LCP
// formulations. Reports µs per step, Newton (or solver) iterations per step, the share of time
// in factorizations, contacts, failed steps, peak memory, and per formulation and thread count
// the exponent of cost against contacts (over all steps and over the settled ones), with an SVG
// plot of the same.
//
//   clutter_bench [--bodies 100,500,2000] [--duration 1.5] [--dt 0.002] [--threads 1,2]
//                 [--formulations sap,cone,velocity-lcp] [--max-bodies-lcp 100]
//                 [--lcp-solver lemke|pgs]
//                 [--max-bodies-cone 10000] [--json FILE] [--svg FILE]
//
// A program, not a Google Benchmark: one run of a 2000-body scene takes minutes.

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "coulomb/base/guarded_main.h"
#include "coulomb/base/numerics_threads.h"
#include "coulomb/base/process_memory.h"
#include "coulomb/base/thread_pool.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/io/svg_plot.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sim/step.h"

namespace {

using namespace coulomb;

// Bodies along each side of a layer: 10 up to 2 000 bodies (20 layers), then as many as keep
// the pile 20 layers deep, rounded up to even (10 000 bodies: 24 × 24, 18 layers), so a larger
// pile is wider, not a taller column that has not landed by the end of the run.
int LayerSide(int bodies) {
  if (bodies <= 2000) return 10;
  return 2 * static_cast<int>(std::ceil(std::sqrt(bodies / 20.0) / 2));
}

// A square bin (1.1 m inside up to 2 000 bodies); each layer is side × side bodies, columns of
// 7 cm boxes (tilted differently per layer) alternating with columns of 4 cm-radius spheres,
// 10.5 cm apart, 0.3 m above the floor and 0.15 m apart, so the bodies fall, tumble and pile up.
std::string ClutterScene(int bodies, double dt, double duration) {
  const int side = LayerSide(bodies);
  const int per_layer = side * side, per_kind = per_layer / 2, rows = side / 2;
  const int layers = (bodies + per_layer - 1) / per_layer;
  const double height = 0.15 * layers + 0.5;
  // Rounded to the µm, so that up to 2 000 bodies the scene is the one measured before the bin
  // grew with the pile (same doubles, same state hashes).
  const auto um = [](double x) { return std::round(x * 1e6) / 1e6; };
  const double inner = um(0.105 * side + 0.05);    // m: the bin's inside width
  const double corner = um(-0.0525 * (side - 1));  // the first body's x and y
  std::string yaml = fmt::format(R"(coulomb: 1
name: clutter_{0}
time_step: {1}
duration: {2}
contact_margin: 0.02  # m: bodies land at up to 8 m/s, 16 mm per 2 ms step
materials:
  plastic: {{friction: 0.5}}
bodies:
  - {{name: floor, joint: fixed, shapes: [{{type: halfspace, material: plastic}}]}}
  - name: walls
    joint: fixed
    shapes:
      - {{type: box, size: [0.1, {5}, {3}], position: [-{6}, 0, {4}], material: plastic}}
      - {{type: box, size: [0.1, {5}, {3}], position: [{6}, 0, {4}], material: plastic}}
      - {{type: box, size: [{7}, 0.1, {3}], position: [0, -{6}, {4}], material: plastic}}
      - {{type: box, size: [{7}, 0.1, {3}], position: [0, {6}, {4}], material: plastic}}
)",
                                 bodies, dt, duration, height, height / 2, um(inner + 0.2),
                                 um(inner / 2 + 0.05), inner);
  int left = bodies;
  for (int layer = 0; left > 0; ++layer) {
    const double z = 0.3 + 0.15 * layer, shift = 0.015 * (layer % 3);
    for (int kind = 0; kind < 2 && left > 0; ++kind) {
      const int count = std::min(per_kind, left);
      left -= count;
      const int columns = (count + rows - 1) / rows;
      const std::string shape = kind == 0
                                    ? "{type: box, size: [0.07, 0.07, 0.07], material: plastic}"
                                    : "{type: sphere, radius: 0.04, material: plastic}";
      yaml += fmt::format(
          "  - {{name: l{}_{}, mass: 0.2, position: [{}, {}, {}], orientation: {{rpy: [{}, 0, "
          "{}]}}, array: {{count: [{}, {}, 1], spacing: [0.21, 0.105, 0.1]}}, shapes: [{}]}}\n",
          layer, kind, corner + 0.105 * kind + shift, corner + shift, z, 0.2 * (layer % 2),
          0.4 * (layer % 3), rows, columns, shape);
    }
  }
  return yaml;
}

struct Row {
  int bodies = 0;
  std::string formulation;
  int steps = 0, failed = 0;
  double mean_us = 0, settled_us = 0;  // all steps; the last third
  double iterations = 0, settled_iterations = 0;
  double contacts = 0, settled_contacts = 0;
  double factor_share = 0;            // of solve time, SAP only
  double settled_factorizations = 0;  // SAP only: fewer than iterations when factors are reused
  double max_penetration = 0;
  // Shares of the settled steps' time: contact detection, assembly (mass matrix, Jacobians,
  // free motion), the solve; the rest is advancing the state.
  double collision_share = 0, assembly_share = 0, solve_share = 0;
  int threads = 1;
  std::uint64_t state_hash = 0;  // of the final state: equal for every thread count
  // MB the run's peak resident memory rose above the process's before it (scene, Data,
  // workspaces, factorizations); −1 when the kernel cannot reset the peak.
  double peak_mb = -1;
};

Row Run(int bodies, const Formulation* formulation, double dt, double duration,
        const FormulationSettings& base, int threads) {
  const bool peak_reset = ResetPeakResident();
  const long resident_before = ResidentKb();
  Expected<sim::Scene> loaded = io::ParseScene(ClutterScene(bodies, dt, duration), "clutter", ".");
  if (!loaded.ok()) throw std::runtime_error(loaded.error().ToString());
  sim::Scene scene = std::move(loaded.value());
  scene.model.settings = base;
  scene.model.settings.formulation = formulation;
  sim::Data data = sim::MakeData(scene.model, scene.initial);
  data.workers = ThreadPool(threads);
  Row row;
  row.bodies = bodies;
  row.threads = threads;
  row.formulation = std::string(formulation->name);
  row.steps = scene.NumSteps();
  const int settled_from = row.steps - row.steps / 3;
  double solve = 0, factor = 0;
  sim::StepProfile settled;
  for (int step = 0; step < row.steps; ++step) {
    const sim::StepReport& r = sim::Step(scene.model, data);
    const double us = 1e6 * r.profile.Total();
    row.failed += r.status == LcpStatus::kSolved ? 0 : 1;
    row.mean_us += us / row.steps;
    row.iterations += static_cast<double>(r.iterations) / row.steps;
    row.contacts += static_cast<double>(r.num_contacts()) / row.steps;
    row.max_penetration = std::max(row.max_penetration, r.max_penetration);
    solve += r.profile.solve;
    factor += r.factor_seconds;
    if (step >= settled_from) {
      const double n = row.steps - settled_from;
      row.settled_us += us / n;
      row.settled_iterations += r.iterations / n;
      row.settled_factorizations += r.factorizations / n;
      row.settled_contacts += r.num_contacts() / n;
      settled.collision += r.profile.collision;
      settled.assembly += r.profile.assembly;
      settled.solve += r.profile.solve;
      settled.advance += r.profile.advance;
    }
    if (step % 50 == 0) {
      fmt::print(stderr, "  {} bodies {}: step {}/{}, {} contacts, {:.0f} us, {} iterations\n",
                 bodies, row.formulation, step, row.steps, r.num_contacts(), us, r.iterations);
    }
  }
  row.factor_share = solve > 0 ? factor / solve : 0;
  if (const double total = settled.Total(); total > 0) {
    row.collision_share = settled.collision / total;
    row.assembly_share = settled.assembly / total;
    row.solve_share = settled.solve / total;
  }
  row.state_hash = sim::HashState(data.state);
  if (peak_reset && resident_before >= 0) {
    row.peak_mb = static_cast<double>(PeakResidentKb() - resident_before) / 1024.0;
  }
  return row;
}

void PrintHeader() {
  fmt::print(
      "| bodies | formulation | threads | steps | failed | µs/step (all) | µs/step (settled) | "
      "iterations/step (settled) | factorizations/step (settled) | contacts (settled) | "
      "factorization share | collision / assembly / solve (settled) | max penetration (m) | "
      "peak memory (MB) | state hash "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

void PrintRow(const Row& r) {
  fmt::print(
      "| {} | {} | {} | {} | {} | {:.0f} | {:.0f} | {:.2f} | {:.2f} | {:.0f} | {:.0f} % | "
      "{:.0f} / {:.0f} / {:.0f} % | {:.2e} | {:.0f} | {:016x} |\n",
      r.bodies, r.formulation, r.threads, r.steps, r.failed, r.mean_us, r.settled_us,
      r.settled_iterations, r.settled_factorizations, r.settled_contacts, 100 * r.factor_share,
      100 * r.collision_share, 100 * r.assembly_share, 100 * r.solve_share, r.max_penetration,
      r.peak_mb, r.state_hash);
  std::fflush(stdout);
}

// Least-squares slope of log(y) against log(x).
double LogLogSlope(const std::vector<double>& x, const std::vector<double>& y) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += std::log(x[i]) / x.size();
    my += std::log(y[i]) / y.size();
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
    sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
  }
  return sxx > 0 ? sxy / sxx : NAN;
}

// The solver options of the command line.
struct Options {
  std::string cholesky = std::string(convex::ToString(convex::SapSolverParams{}.linear_solver));
  std::string ordering = "amd", lcp_solver = "lemke";
  double beta = FormulationSettings{}.sap.regularization.beta;
  double sigma = FormulationSettings{}.sap.regularization.sigma;
  convex::LaggedFactorizationSettings lagged = convex::SapSolverParams{}.lagged;
  bool try_full_step = math::LineSearchSettings{}.try_full_step;
  int island_parts = ConeParams{}.island_parts;
  int partitioned_island_contacts = ConeParams{}.partitioned_island_contacts;
};

// The runs' settings from the command-line names; empty (with a message) on a bad name.
std::optional<FormulationSettings> MakeSettings(const Options& options) {
  const auto cholesky = convex::ParseSparseCholesky(options.cholesky);
  const auto ordering = convex::ParseFillOrdering(options.ordering);
  const auto lcp = ParseLcpSolverKind(options.lcp_solver);
  if (!cholesky || !ordering || !lcp) {
    fmt::print(stderr, "unknown --linear-solver '{}', --ordering '{}' or --lcp-solver '{}'\n",
               options.cholesky, options.ordering, options.lcp_solver);
    return std::nullopt;
  }
  FormulationSettings settings;
  settings.sap.solver.linear_solver = *cholesky;
  settings.sap.solver.ordering = *ordering;
  settings.sap.solver.lagged = options.lagged;
  settings.sap.solver.line_search_settings.try_full_step = options.try_full_step;
  settings.sap.regularization.beta = options.beta;
  settings.sap.regularization.sigma = options.sigma;
  settings.cone.solver = ConeSolverKind::kNsgs;  // the portfolio's Newton is dense
  settings.cone.settings.tolerance = 1e-4;
  settings.cone.settings.nsgs.max_sweeps = 300;  // as examples/scenes/large/pile_10k.yaml
  settings.cone.island_parts = options.island_parts;
  settings.cone.partitioned_island_contacts = options.partitioned_island_contacts;
  settings.velocity_lcp.solver = *lcp;
  return settings;
}

// The runs of one formulation at one thread count, by size: one line of the scaling plot.
struct Series {
  std::string formulation;
  int threads = 1;
  std::vector<const Row*> rows;
  std::string Label() const {
    return fmt::format("{}, {} thread{}", formulation, threads, threads == 1 ? "" : "s");
  }
  // Least-squares exponent of µs/step against contacts, over all steps or the settled third.
  double Exponent(bool settled) const {
    std::vector<double> contacts, cost;
    for (const Row* r : rows) {
      const double n = settled ? r->settled_contacts : r->contacts;
      if (n <= 0) continue;  // nothing landed yet: no point on a log axis
      contacts.push_back(n);
      cost.push_back(settled ? r->settled_us : r->mean_us);
    }
    return contacts.size() >= 2 ? LogLogSlope(contacts, cost) : NAN;
  }
};

std::vector<Series> GroupRows(const std::vector<Row>& rows) {
  std::vector<Series> series;
  for (const Row& r : rows) {
    auto it = std::find_if(series.begin(), series.end(), [&](const Series& s) {
      return s.formulation == r.formulation && s.threads == r.threads;
    });
    if (it == series.end()) it = series.insert(series.end(), Series{r.formulation, r.threads, {}});
    it->rows.push_back(&r);
  }
  return series;
}

// µs/step over all steps against mean contacts, log–log, one line per formulation and thread
// count, its fitted exponent (cost ∝ contacts^exponent) in the legend.
std::string ScalingSvg(const std::vector<Series>& series) {
  io::Plot plot;
  plot.title = "Clutter piling into a bin: cost of a step against its contacts";
  plot.x_label = "contacts (mean over the run)";
  plot.y_label = "µs per step (mean over the run)";
  plot.log_x = plot.log_y = true;
  for (const Series& s : series) {
    io::PlotSeries line;
    const double exponent = s.Exponent(false);
    // Short: the legend has 190 px.
    const std::string name = fmt::format("{}, {} thr", s.formulation, s.threads);
    line.label = std::isfinite(exponent) ? fmt::format("{}: n^{:.2f}", name, exponent) : name;
    for (const Row* r : s.rows) line.points.emplace_back(r->contacts, r->mean_us);
    plot.series.push_back(std::move(line));
  }
  return io::RenderSvgPlot(plot);
}

// The exponents on stdout and, with paths, every row as JSON and the scaling plot as SVG.
void Report(const std::vector<Row>& rows, const std::string& json_path,
            const std::string& svg_path) {
  nlohmann::json out = nlohmann::json::array();
  for (const Row& r : rows) {
    out.push_back({{"bodies", r.bodies},
                   {"formulation", r.formulation},
                   {"threads", r.threads},
                   {"state_hash", fmt::format("{:016x}", r.state_hash)},
                   {"steps", r.steps},
                   {"failed_steps", r.failed},
                   {"mean_step_us", r.mean_us},
                   {"settled_step_us", r.settled_us},
                   {"settled_iterations", r.settled_iterations},
                   {"settled_contacts", r.settled_contacts},
                   {"factor_share", r.factor_share},
                   {"collision_share", r.collision_share},
                   {"assembly_share", r.assembly_share},
                   {"solve_share", r.solve_share},
                   {"settled_factorizations", r.settled_factorizations},
                   {"max_penetration", r.max_penetration},
                   {"peak_memory_mb", r.peak_mb},
                   {"mean_iterations", r.iterations},
                   {"mean_contacts", r.contacts}});
  }
  const std::vector<Series> series = GroupRows(rows);
  for (const Series& s : series) {
    if (s.rows.size() < 2) continue;
    fmt::print(
        "\n{}: cost ∝ contacts^{:.2f} over all steps, ^{:.2f} settled ({} sizes, {} to {} "
        "bodies)",
        s.Label(), s.Exponent(false), s.Exponent(true), s.rows.size(), s.rows.front()->bodies,
        s.rows.back()->bodies);
  }
  fmt::print("\n");
  if (!json_path.empty()) std::ofstream(json_path) << out.dump(2) << "\n";
  if (!svg_path.empty()) std::ofstream(svg_path) << ScalingSvg(series);
}

int Run(int argc, char** argv) {
  coulomb::UseSingleThreadedNumerics();
  CLI::App app{"Clutter benchmark: SAP vs cone vs velocity-LCP on piles of boxes and spheres"};
  std::vector<int> sizes = {100, 500, 2000};
  std::vector<int> thread_counts = {1};
  std::vector<std::string> formulations = {"sap", "cone", "velocity-lcp"};
  double duration = 1.5, dt = 0.002;
  int max_lcp = 100, max_cone = 10000;
  std::string json_path, svg_path, scene_path;
  Options options;
  app.add_option("--bodies", sizes, "scene sizes")->delimiter(',');
  app.add_option("--formulations", formulations, "formulations to run")->delimiter(',');
  app.add_option("--duration", duration, "simulated time per run, s");
  app.add_option("--dt", dt, "time step, s");
  app.add_option("--threads", thread_counts,
                 "thread counts to run each scene with (the answers agree bit for bit)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--max-bodies-lcp", max_lcp, "largest scene run under velocity-lcp");
  app.add_option("--max-bodies-cone", max_cone, "largest scene run under cone");
  app.add_option("--lcp-solver", options.lcp_solver,
                 "velocity-lcp's solver: lemke (dense, exact) or pgs (contact-block Gauss-Seidel)");
  app.add_option("--json", json_path, "also write the rows as JSON here");
  app.add_option("--svg", svg_path,
                 "also write the plot of µs/step against contacts (log-log) as SVG here");
  app.add_option("--beta", options.beta, "SAP's near-rigid threshold for contacts");
  app.add_option("--sigma", options.sigma, "SAP's friction regularization σ");
  app.add_option("--ordering", options.ordering, "SAP's fill-reducing ordering: amd|metis");
  app.add_option("--linear-solver", options.cholesky,
                 "SAP's CHOLMOD mode: auto|supernodal|simplicial");
  app.add_option("--reuse-cg", options.lagged.max_cg_iterations,
                 "SAP: CG iterations allowed on a reused factorization before refactoring (0: "
                 "factor every Newton iteration)");
  app.add_option("--cg-tolerance", options.lagged.cg_tolerance,
                 "SAP: relative residual at which the reused-factor CG stops");
  app.add_option("--full-step", options.try_full_step,
                 "SAP: take the full Newton step when it meets Armijo's condition (1) or always "
                 "search the line (0)");
  app.add_option("--write-scene", scene_path,
                 "write the scene of the first --bodies size as YAML here (for coulomb run, "
                 "--html) and exit");
  app.add_option("--island-parts", options.island_parts,
                 "cone: sweep islands of at least --partitioned-island-contacts contacts in this "
                 "many parts (1: the ground-up order)");
  app.add_option("--partitioned-island-contacts", options.partitioned_island_contacts,
                 "cone: the fewest contacts of an island swept in parts");
  CLI11_PARSE(app, argc, argv);

  if (!scene_path.empty()) {
    if (sizes.empty()) return 2;
    std::ofstream(scene_path) << ClutterScene(sizes.front(), dt, duration);
    return 0;
  }
  const std::optional<FormulationSettings> settings = MakeSettings(options);
  if (!settings) return 2;
  std::vector<Row> rows;
  PrintHeader();
  for (const int n : sizes) {
    for (const std::string& name : formulations) {
      const Formulation* formulation = FindFormulation(name);
      if (formulation == nullptr) {
        fmt::print(stderr, "unknown formulation '{}' ({})\n", name, FormulationNames());
        return 2;
      }
      if ((name == "velocity-lcp" && n > max_lcp) || (name == "cone" && n > max_cone)) continue;
      for (const int threads : thread_counts) {
        try {
          rows.push_back(Run(n, formulation, dt, duration, *settings, threads));
        } catch (const std::exception& e) {  // the generated scene failed to load
          fmt::print(stderr, "{} bodies, {}: {}\n", n, name, e.what());
          return 1;
        }
        PrintRow(rows.back());  // as soon as it is done: a 2 000-body run takes long
      }
    }
  }
  Report(rows, json_path, svg_path);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return coulomb::GuardedMain([&] { return Run(argc, argv); });
}
