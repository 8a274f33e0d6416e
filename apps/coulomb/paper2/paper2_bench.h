#pragma once
// `coulomb bench paper2`: paper 2's four scenes (cylinder compression on four meshes, the stable
// and the collapsing arch, the soft gripper with the teddy bear, the arm with the hand and the
// soft ball), each run end to end and judged by its figure of merit, in one table.

#include <string>
#include <vector>

#include "apps/coulomb/paper2/paper2_cases.h"

namespace coulomb::paper2 {

struct Paper2Options {
  bool json = false;
  bool quick = false;    // CI-sized runs: coarse meshes, short horizons
  std::string cases;     // comma-separated substrings of case names ("arch,teddy"); "" = all
  std::string examples;  // the scene folder; "" = this source tree's examples/scenes
  std::string data;      // the shared data folder; "" = the build's
  std::string out;       // also write paper2.md, paper2.json, cylinder_crush.svg, replays here
  bool force = false;    // replace those files if they exist
};

struct Paper2Row {
  std::string name, scene;
  std::string status = "ok";  // ok | failed: why
  int dofs = 0;               // rigid velocities + 3 × every deformable vertex
  int max_constraints = 0;    // most contacts in a step + holonomic constraints
  int steps = 0, failed_steps = 0;
  double mean_iterations = 0, us_per_step = 0, realtime_factor = 0, sim_time = 0;
  double mean_linearizations = 0;  // coupled solves per step (sim::StepReport::linearizations)
  std::string first_failure;
  Figure figure;
};

// Runs one case; `replay` (optional) receives the HTML replay's path to write.
Paper2Row RunPaper2Case(const Paper2Case& c, const Paper2Options& options,
                        const std::string& replay = "");

std::string FormatPaper2Markdown(const std::vector<Paper2Row>& rows);
std::string FormatPaper2Json(const std::vector<Paper2Row>& rows);
// The cylinder's force–approach curves beside the reference, as an SVG plot.
std::string FormatCylinderSvg(const std::vector<Paper2Row>& rows);

int RunPaper2Bench(const Paper2Options& options);

}  // namespace coulomb::paper2
