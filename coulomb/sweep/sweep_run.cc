#include "coulomb/sweep/sweep_run.h"

#include <fmt/format.h>

#include <cmath>
#include <exception>
#include <limits>

#include "coulomb/base/stopwatch.h"
#include "coulomb/sim/checkpoint.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sweep/sweep_metrics.h"
#include "coulomb/sweep/sweep_scene.h"

namespace coulomb::sweep {

std::vector<std::string> MetricColumnsOf(const SweepDefinition& sweep) {
  std::vector<std::string> columns;
  for (const std::string& m : sweep.metrics) {
    for (std::string& c : ColumnsOf(m, sweep.base->scene).columns) columns.push_back(std::move(c));
  }
  return columns;
}

std::vector<std::string> SweepColumns(const SweepDefinition& sweep) {
  std::vector<std::string> columns = {"index", "point", "repeat"};
  for (const SweepParameter& p : sweep.parameters) columns.push_back(p.key);
  columns.emplace_back("status");
  columns.emplace_back("reason");
  for (std::string& c : MetricColumnsOf(sweep)) columns.push_back(std::move(c));
  columns.emplace_back("wall_seconds");
  columns.emplace_back("state_hash");
  return columns;
}

namespace {

// The run itself; exceptions are the caller's.
std::optional<SweepRow> Run(const SweepDefinition& sweep, SweepRow& row,
                            const std::atomic<bool>* cancel, const Stopwatch& clock) {
  const std::size_t n_columns = MetricColumnsOf(sweep).size();
  row.metrics.assign(n_columns, std::numeric_limits<double>::quiet_NaN());
  Expected<sim::Scene> built =
      BuildRunScene(*sweep.base, RunAssignments(sweep, MakeRunSpec(sweep, row.index)));
  if (!built.ok()) {
    row.status = "error";
    row.reason = "scene refused: " + built.error().ToString();
    return row;
  }
  const sim::Scene& scene = built.value();
  bool over_time = false, cancelled = false;
  const sim::ProgressCallback progress = [&](int, int) {
    cancelled = cancel != nullptr && cancel->load(std::memory_order_relaxed);
    over_time = clock.Seconds() > sweep.time_limit;
    return !cancelled && !over_time;
  };
  // The final state comes from the end-of-run checkpoint (the one place Simulate hands it out).
  Eigen::VectorXd q, v;
  sim::RunControl control;
  control.checkpoint_at_end = true;
  control.on_checkpoint = [&](const sim::RunCheckpoint& c) {
    q = c.q;
    v = c.v;
    return std::string();
  };
  const sim::RunSummary summary = sim::Simulate(scene, nullptr, progress, control);
  if (cancelled) return std::nullopt;
  row.state_hash = summary.state_hash;
  std::size_t column = 0;
  for (const std::string& m : sweep.metrics) {
    for (const double x : MeasureMetric(m, scene, summary, q, v)) row.metrics[column++] = x;
  }
  const std::vector<std::string> names = MetricColumnsOf(sweep);
  if (over_time) {
    row.status = "time_limit";
    row.reason = fmt::format("stopped after {} of {} steps at the {} s time limit", summary.steps,
                             scene.NumSteps(), sweep.time_limit);
  } else if (!summary.stopped.empty()) {
    row.status = "diverged";
    row.reason = summary.stopped;
  } else {
    for (std::size_t c = 0; c < row.metrics.size(); ++c) {
      if (!std::isfinite(row.metrics[c])) {
        row.status = "not_finite";
        row.reason = fmt::format("{} is {}", names[c], row.metrics[c]);
        break;
      }
    }
    if (row.status.empty() && summary.failed_steps > 0) {
      row.status = "uncertified";
      row.reason = fmt::format("{} of {} steps not certified; first: {}", summary.failed_steps,
                               summary.steps, summary.first_failure);
    }
    if (row.status.empty()) row.status = "ok";
  }
  return row;
}

}  // namespace

std::optional<SweepRow> RunSweepRun(const SweepDefinition& sweep, int index,
                                    const std::atomic<bool>* cancel) {
  const Stopwatch clock;
  const SweepRunSpec spec = MakeRunSpec(sweep, index);
  SweepRow row;
  row.index = index;
  row.point = spec.point;
  row.repeat = spec.repeat;
  row.values = spec.values;
  std::optional<SweepRow> result;
  try {
    result = Run(sweep, row, cancel, clock);
  } catch (const std::exception& e) {
    row.status = "error";
    row.reason = std::string("the run threw: ") + e.what();
    result = row;
  }
  if (result) result->wall_seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb::sweep
