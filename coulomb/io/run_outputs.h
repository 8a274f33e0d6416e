#pragma once
// The files a run writes (documented in docs/scene-format.md, "Outputs"):
//  * trajectory.csv — one row per recorded frame: time, then every generalized position q
//    (columns named body.coordinate, floating joints as x y z qw qx qy qz), then every v;
//  * steps.csv      — one row per step: step, time, contacts, status, iterations, residual,
//    max_penetration_m, and the stage times in µs;
//  * summary.json   — RunSummary as one JSON object;
//  * deformable_<name>_x.npy / _tets.npy — per FEM body, vertex positions per frame (float32)
//    and its elements (int32), as NumPy arrays.
// Existing files are never replaced unless `overwrite`.

#include <optional>
#include <string>

#include "coulomb/base/error.h"
#include "coulomb/sim/scene.h"
#include "coulomb/sim/simulate.h"

namespace coulomb::io {

std::string FormatSummaryJson(const sim::RunSummary& summary);

// Before the first step: the directory exists or can be made, is writable, and holds none of
// the files the run will write (unless `overwrite`), so a finished run is never thrown away.
std::optional<InputError> CheckRunOutputs(const sim::Scene& scene, const std::string& directory,
                                          bool overwrite);

std::optional<InputError> WriteRunOutputs(const sim::Scene& scene, const sim::Recording& recording,
                                          const sim::RunSummary& summary,
                                          const std::string& directory, bool overwrite);

}  // namespace coulomb::io
