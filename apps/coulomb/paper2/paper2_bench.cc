#include "apps/coulomb/paper2/paper2_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "apps/coulomb/bench_outputs.h"
#include "coulomb/io/html_replay.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/io/text_file.h"

namespace coulomb::paper2 {
namespace {

std::string ExamplesDir(const Paper2Options& o) {
  return o.examples.empty() ? std::string(COULOMB_SOURCE_DIR) + "/examples/scenes" : o.examples;
}

std::string DataDir(const Paper2Options& o) {
  return o.data.empty() ? std::string(COULOMB_DATA_DIR) : o.data;
}

// The scene of a case: its file with the case's replacements, each of which must apply (a
// replacement that finds nothing means the scene file changed under the benchmark).
Expected<sim::Scene> LoadCase(const Paper2Case& c, const std::string& dir) {
  const std::string path = dir + "/" + c.scene_file;
  Expected<std::string> text = io::ReadTextFile(path);
  if (!text.ok()) return text.error();
  std::string scene_text = std::move(text.value());
  for (const auto& [from, to] : c.replace) {
    if (scene_text.find(from) == std::string::npos) {
      return InputError{path, 0, "", fmt::format("'{}' is not in the file ({})", from, c.name)};
    }
    for (std::size_t at = scene_text.find(from); at != std::string::npos;
         at = scene_text.find(from, at + to.size())) {
      scene_text.replace(at, from.size(), to);
    }
  }
  Expected<sim::Scene> scene = io::ParseScene(scene_text, path, dir);
  if (!scene.ok()) return scene;
  if (c.duration > 0) scene.value().duration = c.duration;
  if (c.time_step > 0) scene.value().model.time_step = c.time_step;
  return scene;
}

int CountDofs(const sim::Scene& scene) {
  int dofs = scene.model.multibody.nv;
  for (const fem::FemBody& b : scene.model.deformables.bodies) dofs += 3 * b.rest.num_vertices();
  return dofs;
}

int CountHolonomic(const sim::Scene& scene) {
  const multibody::Model& m = scene.model.multibody;
  return static_cast<int>(scene.model.deformables.attachments.size() + m.couplers.size() +
                          m.welds.size() + m.distances.size());
}

bool Selected(const std::string& filter, const std::string& name) {
  if (filter.empty()) return true;
  std::size_t start = 0;
  while (start <= filter.size()) {
    const std::size_t comma = std::min(filter.find(',', start), filter.size());
    const std::string part = filter.substr(start, comma - start);
    if (!part.empty() && name.find(part) != std::string::npos) return true;
    start = comma + 1;
  }
  return false;
}

std::string FileName(const std::string& case_name) {
  std::string out;
  for (const char ch : case_name) {
    if (std::isalnum(static_cast<unsigned char>(ch))) out += ch;
    if (ch == ' ' && !out.empty() && out.back() != '_') out += '_';
  }
  return out;
}

}  // namespace

Paper2Row RunPaper2Case(const Paper2Case& c, const Paper2Options& options,
                        const std::string& replay) {
  Paper2Row row;
  row.name = c.name;
  row.scene = c.scene_file;
  Expected<sim::Scene> loaded = LoadCase(c, ExamplesDir(options));
  if (!loaded.ok()) {
    row.status = "failed: " + loaded.error().ToString();
    return row;
  }
  const sim::Scene& scene = loaded.value();
  std::vector<std::pair<double, double>> reference;
  if (c.judge == Judge::kCylinderCurve) {
    std::string error;
    reference = ReadCylinderReference(
        DataDir(options) + "/reference/cylinder_crush/displacement-force-fem-solution.dat", error);
    if (!error.empty()) {
      row.status = "failed: " + error;
      return row;
    }
  }
  sim::Recording recording;
  const sim::RunSummary s = sim::Simulate(scene, &recording);
  row.dofs = CountDofs(scene);
  row.max_constraints = s.max_contacts + CountHolonomic(scene);
  row.steps = s.steps;
  row.failed_steps = s.failed_steps;
  row.first_failure = s.first_failure;
  row.mean_iterations = s.mean_iterations;
  row.mean_linearizations = s.mean_linearizations;
  row.us_per_step = s.mean_step_us;
  row.sim_time = s.sim_time;
  row.realtime_factor = s.wall_seconds > 0 ? s.sim_time / s.wall_seconds : 0;
  row.figure = JudgeRun(c, scene, recording, reference);
  if (!s.stopped.empty()) {  // judged on what ran, and never a pass
    row.figure.pass = false;
    row.figure.text = "STOPPED: " + s.stopped + "; until then: " + row.figure.text;
  }
  if (!replay.empty()) {
    if (const auto error = io::WriteHtmlReplay(scene, recording, replay, true)) {
      row.status = "failed: replay: " + error->ToString();
    }
  }
  return row;
}

std::string FormatPaper2Markdown(const std::vector<Paper2Row>& rows) {
  std::string out =
      "| scene | DoFs | max constraints | steps | failed steps | solves/step | Newton it./step | "
      "µs/step | real-time factor | figure of merit | goal met |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
  for (const Paper2Row& r : rows) {
    if (r.status != "ok") {
      out += fmt::format("| {} | {} |  |  |  |  |  |  |  |  |  |\n", r.name, r.status);
      continue;
    }
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {:.2f} | {:.2f} | {:.0f} | {:.3g} | {}: {} | {} |\n", r.name,
        r.dofs, r.max_constraints, r.steps, r.failed_steps, r.mean_linearizations,
        r.mean_iterations, r.us_per_step, r.realtime_factor, r.figure.name, r.figure.text,
        r.figure.pass ? "yes" : "**no**");
  }
  return out;
}

std::string FormatPaper2Json(const std::vector<Paper2Row>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const Paper2Row& r : rows) {
    out.push_back({{"scene", r.name},
                   {"file", r.scene},
                   {"status", r.status},
                   {"dofs", r.dofs},
                   {"max_constraints", r.max_constraints},
                   {"steps", r.steps},
                   {"failed_steps", r.failed_steps},
                   {"first_failure", r.first_failure},
                   {"mean_linearizations", r.mean_linearizations},
                   {"mean_newton_iterations", r.mean_iterations},
                   {"us_per_step", r.us_per_step},
                   {"realtime_factor", r.realtime_factor},
                   {"sim_time", r.sim_time},
                   {"figure",
                    {{"name", r.figure.name},
                     {"value", r.figure.value},
                     {"unit", r.figure.unit},
                     {"text", r.figure.text},
                     {"pass", r.figure.pass}}}});
  }
  return out.dump(2) + "\n";
}

int RunPaper2Bench(const Paper2Options& options) {
  std::vector<Paper2Case> cases;
  for (Paper2Case& c : Paper2Cases(options.quick)) {
    if (Selected(options.cases, c.name)) cases.push_back(std::move(c));
  }
  if (cases.empty()) {
    fmt::print(stderr, "error: --cases: no case matches '{}'\n", options.cases);
    return 2;
  }
  const std::filesystem::path dir(options.out);
  std::vector<std::filesystem::path> outputs;
  if (!options.out.empty()) {
    outputs = {dir / "paper2.md", dir / "paper2.json", dir / "cylinder_crush.svg"};
    for (const Paper2Case& c : cases) outputs.push_back(dir / (FileName(c.name) + ".html"));
    if (const std::string defect = app::PrepareOutputs(outputs, options.force); !defect.empty()) {
      fmt::print(stderr, "error: {}\n", defect);
      return 2;
    }
  }
  std::vector<Paper2Row> rows;
  for (const Paper2Case& c : cases) {
    const std::string replay =
        options.out.empty() ? "" : (dir / (FileName(c.name) + ".html")).string();
    rows.push_back(RunPaper2Case(c, options, replay));
    if (!options.json) fmt::print(stderr, "{}: {}\n", c.name, rows.back().status);
  }
  const std::string table = FormatPaper2Markdown(rows);
  const std::string json = FormatPaper2Json(rows);
  fmt::print("{}", options.json ? json : table);
  if (!options.out.empty()) {
    const std::string svg = FormatCylinderSvg(rows);
    bool ok = app::WriteText(outputs[0], table) && app::WriteText(outputs[1], json);
    if (!svg.empty()) ok = ok && app::WriteText(outputs[2], svg);
    if (!ok) return 1;
  }
  const bool all_ok = std::all_of(rows.begin(), rows.end(), [](const Paper2Row& r) {
    return r.status == "ok" && r.failed_steps == 0;
  });
  return all_ok ? 0 : 1;
}

}  // namespace coulomb::paper2
