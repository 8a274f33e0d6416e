#pragma once
// Paper 2's validation and robotics scenes (Han et al. 2023 §VI; docs/notes/sap-and-deformables.md
// §4) as benchmark cases: which scene file, what to change for each variant, and the figure of
// merit a reader of the paper would compare, computed from the recorded run alone.

#include <string>
#include <utility>
#include <vector>

#include "coulomb/sim/scene.h"
#include "coulomb/sim/simulate.h"

namespace coulomb::paper2 {

// The figure of merit of one run: a number with its unit, a sentence, and whether it meets the
// scene's goal.
struct Figure {
  std::string name;  // e.g. "keystone drift"
  double value = 0;
  std::string unit;  // "%", "m"
  std::string text;  // e.g. "0.21 % of the 7.2 m span (goal < 1 %)"
  bool pass = false;
  // Cylinder only: the force–approach curve (m, MN/m) and the reference it was judged against.
  std::vector<std::pair<double, double>> curve, reference;
};

enum class Judge { kCylinderCurve, kArchStands, kArchFalls, kToyHeld, kBallHeld };

struct Paper2Case {
  std::string name;        // row label, e.g. "cylinder r6"
  std::string scene_file;  // under examples/scenes/
  // Text replacements applied to the scene file before it is read (mesh size, friction).
  std::vector<std::pair<std::string, std::string>> replace;
  double duration = -1;   // s; < 0: the scene's
  double time_step = -1;  // s; < 0: the scene's
  Judge judge = Judge::kCylinderCurve;
};

// The cases of `coulomb bench paper2`: four cylinder meshes, the arch at μ = 1.0 and 0.2, the
// gripper with the teddy bear, and the arm with the hand and the ball. `quick`: CI-sized
// versions (one coarse cylinder, short horizons, longer steps where the result allows it).
std::vector<Paper2Case> Paper2Cases(bool quick);

// The reference force–approach curve of the cylinder (solids4foam's quarter model: approach =
// 2 × its plate displacement; force per metre of the whole cylinder), from `path`; empty with
// `error` set when the file cannot be read.
std::vector<std::pair<double, double>> ReadCylinderReference(const std::string& path,
                                                             std::string& error);

// The figure of merit of a finished run. `reference` is only read by the cylinder judge.
Figure JudgeRun(const Paper2Case& c, const sim::Scene& scene, const sim::Recording& recording,
                const std::vector<std::pair<double, double>>& reference);

}  // namespace coulomb::paper2
