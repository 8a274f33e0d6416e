#pragma once
// Checkpoint files (docs/checkpoints.md): a sim::RunCheckpoint and what `coulomb run --resume`
// needs to rebuild the run's scene (the scene file, its hash, the command-line choices), as one
// binary file:
//   "CLMBCKPT" · u32 version · u32 byte-order mark 0x01020304 · u64 payload size · payload ·
//   u64 FNV-1a of the payload
// Numbers are stored as their raw bytes (little-endian on every machine Coulomb builds for),
// so the state read back is bit-identical to the state written. A file that is truncated,
// corrupted, of another version or byte order, or not a checkpoint at all is refused, naming
// which. Writing is atomic: the file is written beside the target, flushed to disk (fsync) and
// renamed over it, so a run killed while writing leaves the previous checkpoint intact.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "coulomb/base/error.h"
#include "coulomb/sim/checkpoint.h"

namespace coulomb::io {

// Version 2 added the run's --set overrides; version 1 files (none) are still read.
inline constexpr std::uint32_t kCheckpointVersion = 3;

struct CheckpointFile {
  std::string scene_path;             // absolute path of the scene file the run read
  std::uint64_t scene_hash = 0;       // FNV-1a of that file's bytes when the run started
  std::string formulation;            // --formulation of the run ("" : the scene's)
  std::string solver;                 // --solver of the run ("" : the scene's)
  std::vector<std::string> settings;  // --set KEY=VALUE of the run, in order
  double duration = 0;                // s, the run's simulated time
  sim::RunCheckpoint checkpoint;
};

// FNV-1a of a file's bytes (the scene_hash of a checkpoint), or the read error.
Expected<std::uint64_t> HashFile(const std::string& path);

// Writes `file` to `path` atomically (see above); the error names the path and the reason.
std::optional<InputError> WriteCheckpointFile(const std::string& path, const CheckpointFile& file);

// Parses the bytes of a checkpoint file; `path` only names it in errors.
Expected<CheckpointFile> ParseCheckpoint(const std::string& bytes, const std::string& path);
Expected<CheckpointFile> ReadCheckpointFile(const std::string& path);

}  // namespace coulomb::io
