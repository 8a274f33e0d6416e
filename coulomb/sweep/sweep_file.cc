#include "coulomb/sweep/sweep_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>

#include "coulomb/base/random.h"
#include "coulomb/io/text_file.h"
#include "coulomb/io/yaml_fields.h"
#include "coulomb/sweep/sweep_formula.h"
#include "coulomb/sweep/sweep_metrics.h"
#include "coulomb/sweep/sweep_scene.h"

namespace coulomb::sweep {
namespace {

using io::Field;
using io::ParseFailure;

constexpr int kSweepSchemaVersion = 1;
constexpr int kMaxRuns = 10'000'000;
// Grids up to this many points are checked point by point when the file is read (every
// combination of values builds its scene); larger ones value by value.
constexpr int kCheckEveryPointUpTo = 2000;

std::string FlowText(const YAML::Node& node) {
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

// A list of numbers or a single number, for the ends of a random range.
std::vector<double> Numbers(const Field& field, bool& vector_valued) {
  vector_valued = field.node.IsSequence();
  if (!vector_valued) return {field.Double()};
  std::vector<double> out;
  for (std::size_t k = 0; k < field.SequenceSize(); ++k) out.push_back(field.At(k).Double());
  if (out.empty()) field.Fail("an empty list");
  return out;
}

// {linspace: [lo, hi, n]} or {logspace: [lo, hi, n]}: n values from lo to hi, both included.
void ReadSpacedValues(const Field& spec, bool logarithmic, SweepParameter& p) {
  if (spec.SequenceSize() != 3) spec.Fail("must be [first, last, count]");
  const double lo = spec.At(0).Double(), hi = spec.At(1).Double();
  const int n = spec.At(2).Int(1, kMaxRuns);
  if (logarithmic && !(lo > 0 && hi > 0)) spec.Fail("logspace needs first and last > 0");
  for (int i = 0; i < n; ++i) {
    const double t = n == 1 ? 0.0 : static_cast<double>(i) / (n - 1);
    double x = logarithmic ? std::exp(std::log(lo) + t * (std::log(hi) - std::log(lo)))
                           : lo + t * (hi - lo);
    if (i == n - 1) x = hi;  // the last value exactly as written
    if (i == 0) x = lo;
    p.values.push_back(FormatNumber(x));
    p.value_lines.push_back(spec.line());
  }
}

void ReadRandom(const Field& spec, Distribution d, SweepParameter& p) {
  if (spec.SequenceSize() != 2) {
    spec.Fail(d == Distribution::kNormal ? "must be [mean, standard deviation]"
                                         : "must be [low, high]");
  }
  bool vector_lo = false, vector_hi = false;
  p.lo = Numbers(spec.At(0), vector_lo);
  p.hi = Numbers(spec.At(1), vector_hi);
  if (vector_lo != vector_hi || p.lo.size() != p.hi.size()) {
    spec.Fail("both ends must be numbers, or lists of the same length");
  }
  for (std::size_t k = 0; k < p.lo.size(); ++k) {
    if (d == Distribution::kNormal && !(p.hi[k] >= 0)) spec.Fail("a negative standard deviation");
    if (d != Distribution::kNormal && !(p.lo[k] <= p.hi[k])) spec.Fail("low is above high");
    if (d == Distribution::kLogUniform && !(p.lo[k] > 0)) spec.Fail("log_uniform needs low > 0");
  }
  p.vector_valued = vector_lo;
  p.distribution = d;
}

// One entry of `parameters:` (or of `set:`, where only one value is allowed).
SweepParameter ReadParameter(const Field& field, const std::string& key, int key_line,
                             bool single_value) {
  SweepParameter p;
  p.key = key;
  p.line = key_line;
  p.setting = IsSettingKey(key);
  const YAML::Node& node = field.node;
  if (node.IsSequence()) {
    if (single_value) {
      p.values = {FlowText(node)};
      p.value_lines = {field.line()};
      return p;
    }
    if (node.size() == 0) field.Fail("an empty list of values");
    for (std::size_t k = 0; k < node.size(); ++k) {
      p.values.push_back(FlowText(node[k]));
      p.value_lines.push_back(field.At(k).line());
    }
    return p;
  }
  if (node.IsMap() && !single_value) {
    field.CheckKeys({"values", "linspace", "logspace", "uniform", "log_uniform", "normal"});
    if (node.size() != 1)
      field.Fail("give one of values, linspace, logspace, uniform, log_uniform, normal");
    const std::string how = node.begin()->first.Scalar();
    const Field spec = field[how];
    if (how == "values") return ReadParameter(spec, key, key_line, false);
    if (how == "linspace" || how == "logspace") ReadSpacedValues(spec, how == "logspace", p);
    if (how == "uniform") ReadRandom(spec, Distribution::kUniform, p);
    if (how == "log_uniform") ReadRandom(spec, Distribution::kLogUniform, p);
    if (how == "normal") ReadRandom(spec, Distribution::kNormal, p);
    return p;
  }
  if (!node.IsDefined() || node.IsNull()) field.Fail("missing value");
  p.values = {FlowText(node)};
  p.value_lines = {field.line()};
  return p;
}

// Each value of each parameter on its own: the scene accepts it (else the value's line).
void CheckValues(const BaseScene& base, const std::vector<SweepParameter>& parameters,
                 const std::string& section) {
  for (const SweepParameter& p : parameters) {
    const std::string where = section + "." + p.key;
    if (!p.setting) {
      if (std::string why = CheckScenePath(base, p.key); !why.empty()) {
        throw ParseFailure(p.line, where, why);
      }
    }
    std::vector<std::pair<std::string, int>> tried;
    for (std::size_t k = 0; k < p.values.size(); ++k)
      tried.emplace_back(p.values[k], p.value_lines[k]);
    if (p.random()) {
      const auto text = [&](const std::vector<double>& x) {
        if (!p.vector_valued) return FormatNumber(x[0]);
        std::string s = "[";
        for (std::size_t k = 0; k < x.size(); ++k) s += (k ? ", " : "") + FormatNumber(x[k]);
        return s + "]";
      };
      tried.emplace_back(text(p.lo), p.line);
      if (p.distribution != Distribution::kNormal) tried.emplace_back(text(p.hi), p.line);
    }
    for (const auto& [value, line] : tried) {
      Expected<sim::Scene> scene = BuildRunScene(base, {{p.key, value}});
      if (!scene.ok()) {
        throw ParseFailure(line, where, fmt::format("value {}: {}", value, scene.error().reason));
      }
    }
  }
}

std::vector<Assignment> AssignmentsOf(const SweepDefinition& sweep, const SweepRunSpec& run) {
  std::vector<Assignment> values;
  for (const SweepParameter& p : sweep.fixed) values.emplace_back(p.key, p.values[0]);
  for (std::size_t k = 0; k < sweep.parameters.size(); ++k) {
    values.emplace_back(sweep.parameters[k].key, run.values[k]);
  }
  return values;
}

void ReadMetricsAndReferences(const Field& root, const BaseScene& base, SweepDefinition& sweep) {
  std::vector<std::string> columns;
  if (root.Has("metrics")) {
    const Field list = root["metrics"];
    for (std::size_t k = 0; k < list.SequenceSize(); ++k) {
      const std::string metric = list.At(k).String();
      const MetricColumns c = ColumnsOf(metric, base.scene);
      if (!c.error.empty()) list.At(k).Fail(c.error);
      sweep.metrics.push_back(metric);
    }
  } else {
    sweep.metrics = DefaultMetrics();
  }
  for (const std::string& m : sweep.metrics) {
    for (const std::string& c : ColumnsOf(m, base.scene).columns) columns.push_back(c);
  }
  if (!root.Has("reference")) return;
  Field list = root["reference"];
  const bool one = list.node.IsMap();
  const std::size_t n = one ? 1 : list.SequenceSize();
  for (std::size_t k = 0; k < n; ++k) {
    const Field r = one ? list : list.At(k);
    r.CheckKeys({"metric", "formula", "label"});
    SweepReference ref{r["metric"].String(), r["formula"].String(),
                       io::OptionalString(r, "label", "closed form"), r.line()};
    if (std::find(columns.begin(), columns.end(), ref.metric) == columns.end()) {
      r["metric"].Fail(fmt::format("'{}' is not one of the sweep's metric columns", ref.metric));
    }
    std::vector<std::string> names;
    std::vector<double> values;
    const SweepRunSpec first = MakeRunSpec(sweep, 0);
    for (std::size_t p = 0; p < sweep.parameters.size(); ++p) {
      names.push_back(sweep.parameters[p].key);
      char* end = nullptr;
      const double x = std::strtod(first.values[p].c_str(), &end);
      values.push_back(end != first.values[p].c_str() && *end == 0 ? x : std::nan(""));
    }
    const FormulaValue v = EvaluateFormula(ref.formula, names, values);
    if (!v.error.empty()) r["formula"].Fail(v.error);
    sweep.references.push_back(ref);
  }
}

SweepDefinition ReadSweep(const Field& root, const std::string& path) {
  root.CheckKeys({"coulomb_sweep", "name", "scene", "set", "parameters", "repeats", "seed",
                  "time_limit", "metrics", "reference", "output"});
  if (root["coulomb_sweep"].Int(0, 1000) != kSweepSchemaVersion) {
    root["coulomb_sweep"].Fail(
        fmt::format("this build reads sweep files of version {}", kSweepSchemaVersion));
  }
  SweepDefinition sweep;
  sweep.path = path;
  sweep.name = io::OptionalString(root, "name", std::filesystem::path(path).stem().string());
  const Field scene = root["scene"];
  sweep.scene_path =
      (std::filesystem::path(path).parent_path() / scene.String()).lexically_normal().string();
  Expected<BaseScene> base = ReadBaseScene(sweep.scene_path);
  if (!base.ok()) scene.Fail("cannot be read: " + base.error().ToString());
  if (root.Has("set")) {
    const Field set = root["set"];
    set.RequireMap();
    for (const auto& entry : set.node) {
      const std::string key = entry.first.Scalar();
      sweep.fixed.push_back(ReadParameter(set[key], key, entry.first.Mark().line + 1, true));
    }
  }
  const Field parameters = root["parameters"];
  parameters.RequireMap();
  for (const auto& entry : parameters.node) {
    const std::string key = entry.first.Scalar();
    sweep.parameters.push_back(
        ReadParameter(parameters[key], key, entry.first.Mark().line + 1, false));
  }
  if (sweep.parameters.empty()) parameters.Fail("no parameter to vary");
  sweep.repeats = root.Has("repeats") ? root["repeats"].Int(1, kMaxRuns) : 1;
  if (root.Has("seed")) sweep.seed = static_cast<std::uint64_t>(root["seed"].Int(0, 2'000'000'000));
  sweep.time_limit = io::OptionalDouble(root, "time_limit", sweep.time_limit);
  if (!(sweep.time_limit > 0 && sweep.time_limit <= 1e7)) {
    root["time_limit"].Fail(fmt::format("{} is not in (0, 1e7] s", sweep.time_limit));
  }
  double runs = sweep.repeats;
  for (const SweepParameter& p : sweep.parameters) runs *= p.random() ? 1 : p.values.size();
  if (runs > kMaxRuns) parameters.Fail(fmt::format("{:.3g} runs (more than {})", runs, kMaxRuns));
  sweep.output = io::OptionalString(root, "output", "sweep-" + sweep.name);
  CheckValues(base.value(), sweep.fixed, "set");
  CheckValues(base.value(), sweep.parameters, "parameters");
  ReadMetricsAndReferences(root, base.value(), sweep);
  sweep.base = std::make_shared<const BaseScene>(std::move(base.value()));
  // Every combination, where that is affordable: a formulation × solver grid can pair names
  // that are each fine alone.
  const int points = sweep.GridPoints();
  for (int point = 0; point < (points <= kCheckEveryPointUpTo ? points : 1); ++point) {
    const SweepRunSpec run = MakeRunSpec(sweep, point * sweep.repeats);
    Expected<sim::Scene> s = BuildRunScene(*sweep.base, AssignmentsOf(sweep, run));
    if (!s.ok()) {
      std::string values;
      for (std::size_t k = 0; k < run.values.size(); ++k) {
        values += fmt::format("{}{}={}", k ? ", " : "", sweep.parameters[k].key, run.values[k]);
      }
      parameters.Fail(
          fmt::format("the combination {} is refused: {}", values, s.error().ToString()));
    }
  }
  return sweep;
}

}  // namespace

std::string FormatNumber(double x) {
  return fmt::format("{}", x);
}

int SweepDefinition::GridPoints() const {
  int n = 1;
  for (const SweepParameter& p : parameters)
    n *= p.random() ? 1 : static_cast<int>(p.values.size());
  return n;
}

SweepRunSpec MakeRunSpec(const SweepDefinition& sweep, int index) {
  SweepRunSpec run;
  run.index = index;
  run.point = index / sweep.repeats;
  run.repeat = index % sweep.repeats;
  // The run's own stream: the index mixed through one SplitMix64 step so neighbouring runs do
  // not share draws.
  SplitMix64 mix(sweep.seed ^ (0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(index) + 1)));
  SplitMix64 random(mix.Next());
  int rest = run.point;
  run.values.resize(sweep.parameters.size());
  for (std::size_t k = sweep.parameters.size(); k-- > 0;) {  // the last axis varies fastest
    const SweepParameter& p = sweep.parameters[k];
    if (p.random()) continue;
    const int n = static_cast<int>(p.values.size());
    run.values[k] = p.values[rest % n];
    rest /= n;
  }
  for (std::size_t k = 0; k < sweep.parameters.size(); ++k) {  // draws in file order
    const SweepParameter& p = sweep.parameters[k];
    if (!p.random()) continue;
    std::string text = p.vector_valued ? "[" : "";
    for (std::size_t c = 0; c < p.lo.size(); ++c) {
      double x = 0;
      switch (*p.distribution) {
        case Distribution::kUniform:
          x = random.Uniform(p.lo[c], p.hi[c]);
          break;
        case Distribution::kLogUniform:
          x = std::exp(random.Uniform(std::log(p.lo[c]), std::log(p.hi[c])));
          break;
        case Distribution::kNormal:
          x = p.lo[c] + p.hi[c] * random.Normal();
          break;
      }
      text += (c ? ", " : "") + FormatNumber(x);
    }
    run.values[k] = text + (p.vector_valued ? "]" : "");
  }
  return run;
}

Expected<SweepDefinition> ReadSweepFile(const std::string& path) {
  Expected<std::string> text = io::ReadTextFile(path);
  if (!text.ok()) return text.error();
  return io::CatchParseFailures<SweepDefinition>(path, [&] {
    YAML::Node root;
    try {
      root = YAML::Load(text.value());
    } catch (const YAML::ParserException& e) {
      throw ParseFailure(e.mark.line + 1, "", std::string("not valid YAML: ") + e.msg);
    }
    return ReadSweep(Field{root, ""}, path);
  });
}

std::vector<std::pair<std::string, std::string>> RunAssignments(const SweepDefinition& sweep,
                                                                const SweepRunSpec& run) {
  return AssignmentsOf(sweep, run);
}

}  // namespace coulomb::sweep
