#pragma once
// The files a run writes (documented in docs/scene-format.md, "Outputs"):
//  * trajectory.csv — one row per recorded frame: time, then every generalized position q
//    (columns named body.coordinate, floating joints as x y z qw qx qy qz), then every v;
//  * steps.csv      — one row per step: step, time, contacts, status, iterations, residual,
//    max_penetration_m, and the stage times in µs;
//  * summary.json   — RunSummary as one JSON object;
//  * deformable_<name>_x.npy / _tets.npy — per FEM body, vertex positions per frame (float32)
//    and its elements (int32), as NumPy arrays.
// Existing files are never replaced unless `overwrite`. RunOutputStream writes the two CSV files
// as the run goes.

#include <cstddef>
#include <memory>
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

// The outputs written as the run goes: Open makes trajectory.csv and steps.csv (after the checks
// of CheckRunOutputs), Append writes the rows of the recording not yet written and flushes both
// files with every recorded frame, so a run that is killed keeps every frame it computed (its
// last row says where it stopped); Finish writes the rest, the deformable arrays and
// summary.json.
class RunOutputStream {
 public:
  RunOutputStream();
  ~RunOutputStream();
  RunOutputStream(RunOutputStream&&) noexcept;
  RunOutputStream& operator=(RunOutputStream&&) noexcept;
  std::optional<InputError> Open(const sim::Scene& scene, const std::string& directory,
                                 bool overwrite);
  std::optional<InputError> Append(const sim::Recording& recording);
  // Append, then empties the recording's frames and steps, so a long run that keeps nothing
  // else from its recording (no HTML replay, no deformable bodies) holds no more than a frame.
  std::optional<InputError> AppendAndRelease(sim::Recording& recording);
  std::optional<InputError> Finish(const sim::Scene& scene, const sim::Recording& recording,
                                   const sim::RunSummary& summary);

 private:
  struct Files;
  std::unique_ptr<Files> files_;
  std::size_t frames_written_ = 0, steps_written_ = 0;
};

// Open and Finish at once, for a run recorded whole.
std::optional<InputError> WriteRunOutputs(const sim::Scene& scene, const sim::Recording& recording,
                                          const sim::RunSummary& summary,
                                          const std::string& directory, bool overwrite);

}  // namespace coulomb::io
