#pragma once
// Sweep files: YAML, `coulomb_sweep: 1`, documented in docs/sweeps.md. A sweep is a base scene,
// parameters (any scene setting of docs/settings.md, or any value of the scene file by its key
// path) given as grids, lists or seeded random draws, repeats, the metrics to keep and an
// output folder. Every defect is an InputError naming the sweep file, the line and the key.
//
// Run `index` of a sweep is fully determined by the index: its grid point, its repeat and its
// random draws (a SplitMix64 stream seeded from the sweep's seed and the index), so a run gives
// the same result however the sweep is scheduled.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coulomb/base/error.h"

namespace coulomb::sweep {

struct BaseScene;  // sweep_scene.h

enum class Distribution { kUniform, kLogUniform, kNormal };

// One varied (or fixed) parameter.
struct SweepParameter {
  std::string key;       // "friction", "solver.tolerance", "bodies[cube].velocity"
  bool setting = false;  // a key of the settings table (else a path into the scene file)
  int line = 0;          // of its key in the sweep file
  // A grid axis: the values as YAML flow text ("0.25", "cone", "[0, 0, 1]"), in order.
  std::vector<std::string> values;
  std::vector<int> value_lines;  // the line of each value (for its errors)
  // A random draw per run instead (values empty): per component of lo/hi (mean/sd for normal).
  std::optional<Distribution> distribution;
  std::vector<double> lo, hi;
  bool vector_valued = false;  // lo/hi were given as lists

  bool random() const { return distribution.has_value(); }
};

// A closed-form reference drawn beside a metric in the plots and compared in sweep.md: a
// formula of the numeric parameters (muparser syntax: sin, cos, sqrt, min, max, _pi, ^).
struct SweepReference {
  std::string metric;  // a metric column, "displacement.cube"
  std::string formula;
  std::string label;
  int line = 0;
};

struct SweepDefinition {
  std::string path;                        // the sweep file as given
  std::string name;                        // default: the file's stem
  std::string scene_path;                  // resolved against the sweep file's folder
  std::vector<SweepParameter> fixed;       // `set:` (one value each, every run)
  std::vector<SweepParameter> parameters;  // grid axes and random draws, file order
  int repeats = 1;
  std::uint64_t seed = 1;
  double time_limit = 600;           // s of wall time per run
  std::vector<std::string> metrics;  // as given ("final_energy", "position.cube")
  std::vector<SweepReference> references;
  std::string output;                     // folder, relative to the working directory
  std::shared_ptr<const BaseScene> base;  // the scene file, read once

  int GridPoints() const;  // product of the grid axes' sizes (1 without any)
  int NumRuns() const { return GridPoints() * repeats; }
};

// One run: its place in the sweep and the value of every parameter (fixed first, then the
// parameters in file order), as YAML flow text.
struct SweepRunSpec {
  int index = 0, point = 0, repeat = 0;
  std::vector<std::string> values;  // one per SweepDefinition::parameters
};

// The run `index` (0 ≤ index < NumRuns()): grid point index / repeats, the last grid axis
// varying fastest; the random draws from SplitMix64(seed ⊕ hash(index)), in parameter order.
SweepRunSpec MakeRunSpec(const SweepDefinition& sweep, int index);

// The run's (key, value) assignments: `set:` first, then the parameters in file order.
std::vector<std::pair<std::string, std::string>> RunAssignments(const SweepDefinition& sweep,
                                                                const SweepRunSpec& run);

// Reads and checks a sweep file: syntax, keys, types, the scene file exists and every grid
// value (and each random range's ends) is accepted by the scene, metric names are known and
// formulas evaluate.
Expected<SweepDefinition> ReadSweepFile(const std::string& path);

// A number printed so that reading it back gives the same double.
std::string FormatNumber(double x);

}  // namespace coulomb::sweep
