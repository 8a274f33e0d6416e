#pragma once
// What a sweep keeps of each run: fields of `coulomb run`'s summary and final poses of bodies.
//
//   summary fields      steps, sim_time, failed_steps, max_penetration (m), mean_step_us,
//                       max_step_us, mean_contacts, max_contacts, mean_iterations,
//                       mean_factorizations, initial_energy (J), final_energy (J),
//                       energy_change (J, final − initial), worst_signorini_W, worst_cone_Ns,
//                       worst_dissipation_W, worst_misalignment, worst_gliding_mps
//   position.BODY       final world position of the body's frame: .x .y .z (m)
//   orientation.BODY    final orientation as a quaternion: .w .x .y .z
//   velocity.BODY       final world velocity of the body's frame origin: .x .y .z (m/s)
//   displacement.BODY   distance from the initial to the final position (m): the slide of the
//                       incline
//
// Wall-clock fields (mean_step_us, max_step_us) vary between runs of the same sweep; every other
// one is a function of the run's scene and settings only.

#include <string>
#include <vector>

#include "coulomb/sim/scene.h"
#include "coulomb/sim/simulate.h"

namespace coulomb::sweep {

// The columns one metric expands to ("position.cube" → position.cube.x, .y, .z), or an error
// message when the name is unknown or names no body of the scene.
struct MetricColumns {
  std::vector<std::string> columns;
  std::string error;
};
MetricColumns ColumnsOf(const std::string& metric, const sim::Scene& scene);

// Whether a column holds wall-clock time (left out when tables are compared across schedules).
bool IsTimingColumn(const std::string& column);

// The metric's values for a run of `scene` that ended at (q, v) with `summary`, one per column.
std::vector<double> MeasureMetric(const std::string& metric, const sim::Scene& scene,
                                  const sim::RunSummary& summary, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& v);

// The metrics kept when a sweep file names none.
std::vector<std::string> DefaultMetrics();

}  // namespace coulomb::sweep
