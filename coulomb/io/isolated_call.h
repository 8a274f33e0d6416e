#pragma once
// Runs a piece of work in a forked child process and returns the bytes it produced, so that a
// library that can crash or hang on bad input (libhdf5 on a damaged file, hdf5_reader.h) cannot
// take the calling program down with it. The child runs `work`, writes its answer to a pipe and
// ends with _exit (no atexit handlers, no stdio flush, no leak check: its memory is the OS's to
// reclaim); a crash in it runs no handler of the caller's (signals back to their defaults); the
// parent reads at most `max_bytes` within `time_limit`, then kills and reaps it.
//
// The work must not rely on other threads of the caller (only the forking thread exists in the
// child) and its answer must be self-contained bytes.

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "coulomb/base/error.h"

namespace coulomb::io {

// The child's answer, or an InputError (no file, no field) whose reason says what happened:
// "crashed (Floating point exception)", "did not finish within 60 s", "answered more than N
// bytes", "exited with status 3", or why the child could not be started.
Expected<std::string> RunIsolated(const std::function<std::string()>& work, std::size_t max_bytes,
                                  std::chrono::milliseconds time_limit);

}  // namespace coulomb::io
