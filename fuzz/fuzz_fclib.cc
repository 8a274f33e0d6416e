// FCLib HDF5 problem files (ReadFclibFile, through Debian's libfclib and libhdf5). HDF5 reads
// files, not buffers, so each input goes through one scratch file of this process.
#include <unistd.h>

#include <fstream>

#include "coulomb/complementarity/friction_contact_problem.h"
#include "coulomb/io/fclib_file.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/coulomb_fuzz_fclib_" + std::to_string(getpid()) + ".hdf5";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const auto problem = coulomb::ReadFclibFile(path);
  if (problem.ok() && !coulomb::ValidateFrictionContactProblem(problem.value()).empty())
    coulomb::fuzz::Broken("FCLib problem accepted but ValidateFrictionContactProblem refuses it");
  return 0;
}
