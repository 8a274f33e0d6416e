#include "coulomb/sweep/sweep_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "coulomb/io/svg_plot.h"
#include "coulomb/sweep/sweep_formula.h"
#include "coulomb/sweep/sweep_metrics.h"

namespace coulomb::sweep {
namespace {

constexpr std::size_t kMaxSeries = 10;
constexpr std::size_t kMaxFailuresListed = 20;

double Number(const std::string& field) {
  if (field.empty()) return std::nan("");
  char* end = nullptr;
  const double x = std::strtod(field.c_str(), &end);
  return end != field.c_str() && *end == 0 ? x : std::nan("");
}

std::size_t ColumnIndex(const JournalRows& t, const std::string& name) {
  return static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), name) -
                                  t.columns.begin());
}

bool NumericParameter(const JournalRows& t, std::size_t column) {
  return std::all_of(t.rows.begin(), t.rows.end(),
                     [&](const auto& r) { return std::isfinite(Number(r[column])); });
}

std::string FileName(const std::string& text) {
  std::string out;
  for (const char c : text) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

double Median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The label of the series a row belongs to in a plot against parameter `x`: the values of the
// other grid parameters (only the non-numeric ones when that gives too many series).
std::string SeriesLabel(const SweepDefinition& sweep, const JournalRows& t,
                        const std::vector<std::string>& row, std::size_t x, bool text_only) {
  std::string label;
  for (std::size_t p = 0; p < sweep.parameters.size(); ++p) {
    const std::size_t c = 3 + p;
    if (c == x || sweep.parameters[p].random()) continue;
    if (text_only && NumericParameter(t, c)) continue;
    label += fmt::format("{}{}={}", label.empty() ? "" : ", ", sweep.parameters[p].key, row[c]);
  }
  return label.empty() ? "runs" : label;
}

// The parameter values of a row as the formula's variables.
std::vector<double> FormulaValues(const SweepDefinition& sweep,
                                  const std::vector<std::string>& row) {
  std::vector<double> values;
  for (std::size_t p = 0; p < sweep.parameters.size(); ++p) values.push_back(Number(row[3 + p]));
  return values;
}

std::vector<std::string> ParameterNames(const SweepDefinition& sweep) {
  std::vector<std::string> names;
  for (const SweepParameter& p : sweep.parameters) names.push_back(p.key);
  return names;
}

io::Plot MakePlot(const SweepDefinition& sweep, const JournalRows& t, std::size_t x,
                  const std::string& metric, std::vector<std::string>& reference_lines) {
  const std::size_t m = ColumnIndex(t, metric);
  io::Plot plot;
  plot.title = fmt::format("{}: {} against {}", sweep.name, metric, t.columns[x]);
  plot.x_label = t.columns[x];
  plot.y_label = metric;
  std::set<std::string> labels;
  for (const auto& row : t.rows) labels.insert(SeriesLabel(sweep, t, row, x, false));
  const bool text_only = labels.size() > kMaxSeries;
  std::map<std::string, io::PlotSeries> series;
  std::vector<std::string> order;
  const bool grid_x = !sweep.parameters[x - 3].random();
  for (const auto& row : t.rows) {
    const std::string label = SeriesLabel(sweep, t, row, x, text_only);
    if (!series.count(label)) {
      order.push_back(label);
      series[label].label = label;
      series[label].line = grid_x && sweep.repeats == 1;
    }
    series[label].points.emplace_back(Number(row[x]), Number(row[m]));
  }
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo;
  for (const auto& row : t.rows) {
    x_lo = std::min(x_lo, Number(row[x]));
    x_hi = std::max(x_hi, Number(row[x]));
  }
  plot.log_x = x_lo > 0 && x_hi / x_lo >= 100;
  for (std::size_t k = 0; k < order.size() && k < kMaxSeries; ++k) {
    io::PlotSeries s = series[order[k]];
    std::sort(s.points.begin(), s.points.end());
    plot.series.push_back(s);
  }
  for (const SweepReference& ref : sweep.references) {
    if (ref.metric != metric) continue;
    // The formula along x, the other parameters at the first row's values.
    io::PlotSeries s{ref.label, {}, true, false, true};
    std::vector<double> values = FormulaValues(sweep, t.rows.front());
    for (int i = 0; i <= 100; ++i) {
      const double f = i / 100.0;
      values[x - 3] = plot.log_x ? x_lo * std::pow(x_hi / x_lo, f) : x_lo + f * (x_hi - x_lo);
      const FormulaValue v = EvaluateFormula(ref.formula, ParameterNames(sweep), values);
      if (v.error.empty()) s.points.emplace_back(values[x - 3], v.value);
    }
    plot.series.push_back(s);
    // The largest gap to the formula per series, at each run's own parameter values.
    for (const std::string& label : order) {
      double worst = 0;
      int n = 0;
      for (const auto& row : t.rows) {
        if (SeriesLabel(sweep, t, row, x, text_only) != label) continue;
        const FormulaValue v =
            EvaluateFormula(ref.formula, ParameterNames(sweep), FormulaValues(sweep, row));
        const double y = Number(row[m]);
        if (v.error.empty() && std::isfinite(y))
          worst = std::max(worst, std::abs(y - v.value)), ++n;
      }
      reference_lines.push_back(
          fmt::format("| {} | {} | {} | {:.3e} | {} |", metric, ref.label, label, worst, n));
    }
  }
  return plot;
}

}  // namespace

SweepReport MakeSweepReport(const SweepDefinition& sweep, const JournalRows& t) {
  SweepReport report;
  std::string& md = report.markdown;
  std::map<std::string, int> by_status;
  const std::size_t status = ColumnIndex(t, "status"), reason = ColumnIndex(t, "reason");
  for (const auto& row : t.rows) ++by_status[row[status]];
  md += fmt::format("# Sweep {}\n\nSweep file `{}`, scene `{}`: {} of {} runs recorded.\n\n",
                    sweep.name, sweep.path, sweep.scene_path, t.rows.size(), sweep.NumRuns());
  md += "| status | runs |\n|---|---:|\n";
  for (const auto& [s, n] : by_status) md += fmt::format("| {} | {} |\n", s, n);
  const int failures =
      static_cast<int>(t.rows.size()) - (by_status.count("ok") ? by_status["ok"] : 0);
  report.failures = failures;
  if (failures > 0) {
    md += fmt::format(
        "\n## Runs that did not end ok ({})\n\n| run | values | status | reason "
        "|\n|---:|---|---|---|\n",
        failures);
    std::size_t listed = 0;
    for (const auto& row : t.rows) {
      if (row[status] == "ok" || listed++ >= kMaxFailuresListed) continue;
      std::string values;
      for (std::size_t p = 0; p < sweep.parameters.size(); ++p) {
        values += fmt::format("{}{}={}", p ? ", " : "", sweep.parameters[p].key, row[3 + p]);
      }
      md += fmt::format("| {} | {} | {} | {} |\n", row[0], values, row[status], row[reason]);
    }
    if (listed > kMaxFailuresListed)
      md += fmt::format("\n(first {} listed; results.csv has all)\n", kMaxFailuresListed);
  }
  if (t.rows.empty()) return report;
  std::vector<std::string> reference_lines;
  std::string figures;
  for (std::size_t p = 0; p < sweep.parameters.size(); ++p) {
    const std::size_t x = 3 + p;
    std::set<std::string> distinct;
    for (const auto& row : t.rows) distinct.insert(row[x]);
    if (distinct.size() < 2 || !NumericParameter(t, x)) continue;
    for (const std::string& metric : MetricColumnsOf(sweep)) {
      if (IsTimingColumn(metric) && metric != "mean_step_us") continue;
      const io::Plot plot = MakePlot(sweep, t, x, metric, reference_lines);
      const std::string file =
          fmt::format("plots/{}_vs_{}.svg", FileName(metric), FileName(sweep.parameters[p].key));
      report.plots.emplace_back(file, io::RenderSvgPlot(plot));
      figures += fmt::format("![{}]({})\n\n", plot.title, file);
    }
  }
  if (!reference_lines.empty()) {
    md +=
        "\n## Against the closed form\n\n| metric | reference | series | largest gap | runs "
        "|\n|---|---|---|---:|---:|\n";
    for (const std::string& line : reference_lines) md += line + "\n";
  }
  md +=
      "\n## Metrics (median over the recorded runs, and range)\n\n| metric | median | min | max "
      "|\n|---|---:|---:|---:|\n";
  for (const std::string& metric : MetricColumnsOf(sweep)) {
    const std::size_t m = ColumnIndex(t, metric);
    std::vector<double> v;
    for (const auto& row : t.rows) {
      if (std::isfinite(Number(row[m]))) v.push_back(Number(row[m]));
    }
    if (v.empty()) continue;
    md += fmt::format("| {} | {:.6g} | {:.6g} | {:.6g} |\n", metric, Median(v),
                      *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  }
  if (!figures.empty()) md += "\n## Plots\n\n" + figures;
  return report;
}

}  // namespace coulomb::sweep
