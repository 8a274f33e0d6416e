// URDF robots (ParseUrdf, through urdfdom): a model the reader accepts passes Model::Validate,
// with a welded and with a floating base.
#include "coulomb/multibody/urdf_import.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string xml = coulomb::fuzz::AsText(data, size);
  for (const bool floating : {false, true}) {
    coulomb::multibody::UrdfOptions options;
    options.floating_base = floating;
    const auto robot =
        coulomb::multibody::ParseUrdf(xml, "fuzz.urdf", COULOMB_FUZZ_URDF_DIR, options);
    if (!robot.ok()) return 0;
    if (!robot.value().model.Validate().empty())
      coulomb::fuzz::Broken("URDF accepted but Model::Validate refuses it");
  }
  return 0;
}
