#include "apps/coulomb/peers/peers_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/coulomb/bench_outputs.h"
#include "apps/coulomb/peers/scene_times_plot.h"
#include "apps/coulomb/peers/solver_problems.h"
#include "coulomb/base/process_memory.h"

namespace coulomb::peers {
namespace {

std::vector<std::string> SplitNames(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

bool Selected(const std::vector<std::string>& names, const std::string& name) {
  return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

// Mean wall time per step (µs) of the steps that end after `from` seconds.
double MeanStepMicros(const PeerRun& run, const PeerScene& scene, double from) {
  double sum = 0;
  int count = 0;
  for (std::size_t k = 0; k < run.step_seconds.size(); ++k) {
    if ((k + 1) * scene.time_step <= from + 1e-12) continue;
    sum += run.step_seconds[k];
    ++count;
  }
  return count > 0 ? 1e6 * sum / count : 0;
}

std::string Number(double x, int digits = 3) {
  if (!std::isfinite(x)) return "NaN";
  return fmt::format("{:.{}g}", x, digits);
}

std::string StatusCell(const PeerRow& row) {
  if (row.status == "ok") return row.measures.passed ? "pass" : "**fail**";
  return row.status;  // stopped by the budget: timed, not judged
}

}  // namespace

namespace {

// One engine's runs of one scene, gathered round by round (RunSceneRows).
struct RowRuns {
  const PeerEngine* engine = nullptr;
  PeerRow row;
  std::vector<double> means, settled;
  PeerRun last;
  bool active = true;   // more runs to do
  bool failed = false;  // a run failed (or was not run): no time, no measures
};

RowRuns StartRow(const PeerScene& scene, const PeerEngine& engine) {
  RowRuns runs;
  runs.engine = &engine;
  PeerRow& row = runs.row;
  row.scene = scene.name;
  row.engine = engine.engine;
  row.solver = engine.solver;
  row.version = engine.version;
  row.settings = engine.settings;
  row.steps = scene.NumSteps();
  if (!engine.installed) {
    row.status = "not installed";
    runs.active = false;
  }
  return runs;
}

// One more run; the row stops taking runs when one fails or hits the wall budget (one budget's
// worth is enough to time it).
void AddRun(const PeerScene& scene, RowRuns& runs) {
  PeerRow& row = runs.row;
  const long resident_before = ResidentKb();
  const bool peak_reset = ResetPeakResident();
  runs.last = runs.engine->run(scene);
  const PeerRun& run = runs.last;
  const long peak = PeakResidentKb();
  if (peak_reset && peak >= 0 && resident_before >= 0) {
    row.peak_memory_mb =
        std::max(row.peak_memory_mb, static_cast<double>(peak - resident_before) / 1024.0);
  }
  if (!run.ok) {
    row.status = run.message.rfind("not run", 0) == 0 ? run.message : "failed: " + run.message;
    runs.active = false;
    runs.failed = true;
    return;
  }
  runs.means.push_back(MeanStepMicros(run, scene, -1));
  if (scene.settle_time >= 0) runs.settled.push_back(MeanStepMicros(run, scene, scene.settle_time));
  if (run.stopped) {
    row.status = fmt::format("stopped after {} of {} steps ({} s budget)", run.step_seconds.size(),
                             row.steps, scene.wall_budget);
    runs.active = false;
  }
}

PeerRow FinishRow(const PeerScene& scene, RowRuns& runs) {
  PeerRow& row = runs.row;
  if (runs.failed) {
    row.peak_memory_mb = -1;
    return row;  // reported as failed, whichever round it failed in
  }
  if (runs.means.empty()) return row;  // not installed
  const PeerRun& run = runs.last;
  row.us_per_step = *std::min_element(runs.means.begin(), runs.means.end());
  if (!runs.settled.empty() && !run.stopped) {
    row.settled_us = *std::min_element(runs.settled.begin(), runs.settled.end());
  }
  row.iterations = run.iterations;
  row.contacts = run.contacts;
  row.failures = run.failures;
  row.measures = MeasureRun(scene, run.frames);
  row.measures.passed = row.measures.passed && !run.stopped;  // judged only over the full run
  return row;
}

}  // namespace

std::vector<PeerRow> RunSceneRows(const PeerScene& scene,
                                  const std::vector<const PeerEngine*>& engines, int repeats) {
  std::vector<RowRuns> runs;
  runs.reserve(engines.size());
  for (const PeerEngine* engine : engines) runs.push_back(StartRow(scene, *engine));
  for (int round = 0; round < std::max(1, repeats); ++round) {
    for (RowRuns& r : runs) {
      if (r.active) AddRun(scene, r);
    }
  }
  std::vector<PeerRow> rows;
  rows.reserve(runs.size());
  for (RowRuns& r : runs) rows.push_back(FinishRow(scene, r));
  return rows;
}

PeerRow RunPeerRow(const PeerScene& scene, const PeerEngine& engine, int repeats) {
  return RunSceneRows(scene, {&engine}, repeats).front();
}

std::string FormatMarkdown(const std::vector<PeerRow>& rows) {
  std::string out =
      "| scene | engine | solver | µs/step | settled µs/step | iterations | contacts | "
      "failures | penetration, mm | energy gain, J | peak memory, MB | figure | value | verdict |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|\n";
  for (const PeerRow& r : rows) {
    if (r.status != "ok" && r.us_per_step <= 0) {
      out += fmt::format("| {} | {} | {} | | | | | | | | | | | {} |\n", r.scene, r.engine, r.solver,
                         r.status);
      continue;
    }
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", r.scene,
        r.engine, r.solver, Number(r.us_per_step), r.settled_us >= 0 ? Number(r.settled_us) : "",
        r.iterations < 0 ? "direct" : Number(r.iterations), Number(r.contacts), r.failures,
        Number(1e3 * r.measures.max_penetration), Number(r.measures.max_energy_gain),
        r.peak_memory_mb >= 0 ? Number(r.peak_memory_mb) : "", r.measures.figure_name,
        Number(r.measures.figure), StatusCell(r));
  }
  return out;
}

std::string FormatJson(const std::vector<PeerRow>& rows, const std::vector<ProblemRun>& problems,
                       const std::vector<std::string>& skipped) {
  nlohmann::json array = nlohmann::json::array();
  for (const PeerRow& r : rows) {
    nlohmann::json j = {{"scene", r.scene},     {"engine", r.engine},     {"solver", r.solver},
                        {"version", r.version}, {"settings", r.settings}, {"status", r.status},
                        {"steps", r.steps}};
    if (r.us_per_step > 0) {
      j["us_per_step"] = r.us_per_step;
      if (r.settled_us >= 0) j["settled_us_per_step"] = r.settled_us;
      j["iterations"] = r.iterations;  // −1: a direct (pivoting) solver
      j["contacts"] = r.contacts;
      j["failures"] = r.failures;
      j["max_penetration"] = r.measures.max_penetration;
      j["max_energy_gain"] = r.measures.max_energy_gain;
      if (r.peak_memory_mb >= 0) j["peak_memory_mb"] = r.peak_memory_mb;
      j["figure"] = r.measures.figure_name;
      // JSON has no NaN: a non-finite figure (the run blew up) is null.
      j["value"] = std::isfinite(r.measures.figure) ? nlohmann::json(r.measures.figure)
                                                    : nlohmann::json(nullptr);
      j["passed"] = r.measures.passed;
    }
    array.push_back(j);
  }
  nlohmann::json solved = nlohmann::json::array();
  for (const ProblemRun& p : problems) {
    solved.push_back({{"problem", p.problem},
                      {"contacts", p.contacts},
                      {"solver", p.solver},
                      {"solved", p.solved},
                      {"error", p.error},
                      {"iterations", p.iterations},
                      {"seconds", p.seconds}});
  }
  const nlohmann::json all = {{"scenes", array}, {"problems", solved}, {"not_read", skipped}};
  return all.dump(1) + "\n";
}

std::string FormatVerdict(const std::vector<PeerRow>& rows) {
  struct Best {
    const PeerRow* coulomb = nullptr;
    const PeerRow* peer = nullptr;
  };
  std::vector<std::string> order;
  std::map<std::string, Best> best;
  for (const PeerRow& r : rows) {
    if (!best.count(r.scene)) order.push_back(r.scene);
    Best& b = best[r.scene];
    // Coulomb counts only with every step certified (its formulations say when one is not).
    if (r.status != "ok" || !r.measures.passed) continue;
    if (r.engine == "coulomb" && r.failures > 0) continue;
    const PeerRow*& slot = r.engine == "coulomb" ? b.coulomb : b.peer;
    if (!slot || r.us_per_step < slot->us_per_step) slot = &r;
  }
  std::string out =
      "| scene | fastest passing Coulomb | µs/step | fastest passing peer | µs/step | "
      "Coulomb / peer |\n|---|---|---:|---|---:|---:|\n";
  for (const std::string& scene : order) {
    const Best& b = best[scene];
    const auto name = [](const PeerRow* r) {
      return r ? r->engine + " " + r->solver : std::string("none passed");
    };
    const auto time = [](const PeerRow* r) { return r ? Number(r->us_per_step) : std::string(); };
    const std::string ratio =
        b.coulomb && b.peer ? Number(b.coulomb->us_per_step / b.peer->us_per_step, 2) : "";
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", scene, name(b.coulomb), time(b.coulomb),
                       name(b.peer), time(b.peer), ratio);
  }
  return out;
}

std::string FormatSettings(const std::vector<PeerRow>& rows) {
  std::string out = "| engine | solver | version | settings |\n|---|---|---|---|\n";
  std::vector<std::string> seen;
  for (const PeerRow& r : rows) {
    const std::string key = r.engine + "/" + r.solver;
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    out += fmt::format("| {} | {} | {} | {} |\n", r.engine, r.solver, r.version, r.settings);
  }
  return out;
}

namespace {

// The output files of --out DIR; none is replaced without --force.
struct OutputFiles {
  std::filesystem::path markdown, json, profile, scenes;
};

std::string CheckOutputs(const PeersBenchOptions& options, OutputFiles& files) {
  if (options.out.empty()) return "";
  const std::filesystem::path dir(options.out);
  files = {dir / "peers.md", dir / "peers.json", dir / "fc3d_profile.svg", dir / "scenes.svg"};
  return app::PrepareOutputs({files.markdown, files.json, files.profile, files.scenes},
                             options.force);
}

std::vector<PeerRow> RunScenes(const PeersBenchOptions& options,
                               const std::vector<PeerScene>& scenes) {
  const std::vector<std::string> engine_names = SplitNames(options.engines);
  const int repeats = options.quick ? 1 : options.repeats;
  const std::vector<PeerEngine>& all = AllPeerEngines();
  std::vector<const PeerEngine*> engines;
  for (const PeerEngine& engine : all) {
    if (Selected(engine_names, engine.engine)) engines.push_back(&engine);
  }
  std::vector<PeerRow> rows;
  for (const PeerScene& scene : scenes) {
    for (PeerRow& row : RunSceneRows(scene, engines, repeats)) {
      if (!options.json) {
        fmt::print(stderr, "{} / {} {}: {}\n", scene.name, row.engine, row.solver, row.status);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace

int RunPeersBench(const PeersBenchOptions& options) {
  if (options.part != "scenes" && options.part != "problems" && options.part != "all") {
    fmt::print(stderr, "error: --part: '{}' is not scenes, problems or all\n", options.part);
    return 2;
  }
  OutputFiles files;
  if (const std::string defect = CheckOutputs(options, files); !defect.empty()) {
    fmt::print(stderr, "error: {}\n", defect);
    return 2;
  }
  const std::vector<std::string> scene_names = SplitNames(options.scenes);
  std::vector<PeerScene> scenes;
  for (PeerScene& scene : MakePeerScenes(options.quick)) {
    if (Selected(scene_names, scene.name)) scenes.push_back(std::move(scene));
  }
  if (scenes.empty()) {
    fmt::print(stderr, "error: --scenes: no scene named {}\n", options.scenes);
    return 2;
  }
  std::vector<PeerRow> rows;
  std::string report;
  if (options.part != "problems") {
    rows = RunScenes(options, scenes);
    report = "## Scenes\n\n" + FormatMarkdown(rows) + "\n" + FormatVerdict(rows) + "\n" +
             FormatSettings(rows);
  }
  std::vector<ProblemRun> problems;
  std::vector<std::string> skipped;
  if (options.part != "scenes") {
    const std::string data = options.data.empty() ? COULOMB_DATA_DIR : options.data;
    problems = RunFrictionProblems(FrictionProblemFiles(data), options.tolerance, skipped);
    report += "\n## 3D frictional contact problems\n\n" +
              FormatProblemTables(problems, options.tolerance);
    if (!skipped.empty()) {
      report += "\nNot read (and not counted):\n\n";
      for (const std::string& s : skipped) report += "* " + s + "\n";
    }
  }
  const std::string json = FormatJson(rows, problems, skipped);
  fmt::print("{}", options.json ? json : report);
  if (!options.out.empty()) {
    bool ok = app::WriteText(files.markdown, report) && app::WriteText(files.json, json);
    if (!problems.empty())
      ok = ok && app::WriteText(files.profile, PerformanceProfileSvg(problems));
    if (!rows.empty()) ok = ok && app::WriteText(files.scenes, SceneTimesSvg(rows));
    if (!ok) return 1;
  }
  return 0;
}

}  // namespace coulomb::peers
