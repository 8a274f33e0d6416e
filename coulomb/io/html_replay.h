#pragma once
// A self-contained HTML replay of a recording: three.js (embedded at build time from npm), the
// shapes once, body poses per frame, contact points and forces. It opens from the file system
// with no network. The page exposes #coulomb-status (data-ready, data-frames, data-errors,
// data-nonbackground) so a headless browser can check that it rendered.

#include <optional>
#include <string>

#include "coulomb/base/error.h"
#include "coulomb/sim/scene.h"
#include "coulomb/sim/simulate.h"

namespace coulomb::io {

// The page, or an error when this build has no three.js (npm was unavailable at configure time).
Expected<std::string> MakeHtmlReplay(const sim::Scene& scene, const sim::Recording& recording);

// Writes the page; refuses to replace an existing file unless `overwrite`.
// Before the run: the file can be written (its folder exists and is writable, it is not a
// folder, and it does not exist unless `overwrite`).
std::optional<InputError> CheckHtmlReplayPath(const std::string& path, bool overwrite);

std::optional<InputError> WriteHtmlReplay(const sim::Scene& scene, const sim::Recording& recording,
                                          const std::string& path, bool overwrite);

}  // namespace coulomb::io
