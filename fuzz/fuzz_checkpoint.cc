// Checkpoint files (ParseCheckpoint). An input that starts with 'C' is read as a whole file, so
// the header, length and checksum checks are fuzzed; any other input, after its first byte, is
// wrapped as the payload of a file with a valid header and checksum, so the field parser behind
// the checksum is fuzzed too (a forged file passes the checksum by construction). A checkpoint
// that parses is checked against the drop scene and its SAP factor rebuilt when small.
#include <cstring>

#include "coulomb/base/fnv_hash.h"
#include "coulomb/io/checkpoint_file.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/checkpoint.h"
#include "fuzz/fuzz_input.h"

namespace {

std::string Wrapped(const std::string& payload) {
  std::string bytes = "CLMBCKPT";
  const auto append = [&bytes](const auto& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(value));
  };
  append(coulomb::io::kCheckpointVersion);
  append(std::uint32_t{0x01020304});
  append(static_cast<std::uint64_t>(payload.size()));
  bytes += payload;
  append(coulomb::Fnv1a(coulomb::kFnvOffsetBasis, payload.data(), payload.size()));
  return bytes;
}

const coulomb::sim::Scene& DropScene() {
  static const coulomb::sim::Scene scene = [] {
    auto read = coulomb::io::ReadSceneFile(std::string(COULOMB_FUZZ_SCENE_DIR) + "/drop.yaml");
    if (!read.ok()) coulomb::fuzz::Broken("the drop example does not load");
    return read.value();
  }();
  return scene;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string input = coulomb::fuzz::AsText(data, size);
  const std::string bytes = input[0] == 'C' ? input : Wrapped(input.substr(1));
  const auto file = coulomb::io::ParseCheckpoint(bytes, "fuzz.ckpt");
  if (!file.ok()) return 0;
  const coulomb::sim::RunCheckpoint& c = file.value().checkpoint;
  const coulomb::math::CholeskySource& factor = c.carried.factor;
  if (factor.lower.rows() != factor.lower.cols())
    coulomb::fuzz::Broken("checkpoint accepted with a non-square SAP factor");
  (void)coulomb::sim::CheckResumable(DropScene(), c);
  if (factor.lower.rows() > 0 && factor.lower.rows() <= 64) {
    coulomb::math::CholeskyFactor rebuilt;
    if (!rebuilt.Restore(factor) && !rebuilt.tag().empty())
      coulomb::fuzz::Broken("a factor that failed to rebuild keeps its tag");
  }
  return 0;
}
