#pragma once
// FCLib problems (HDF5, `/fclib_local` and `/fclib_global`). Read with libhdf5's own API in a
// child process (io/hdf5_reader.h: libfclib's reader exits the program on a malformed dataset,
// and libhdf5 can crash on a damaged file), checked dataset by dataset here; written through
// Debian's libfclib (Apache-2.0). Only 3D local problems without the optional V, R, s blocks, and
// global ones without G, are supported; anything else is an error naming the dataset.

#include <optional>
#include <string>

#include "coulomb/base/error.h"
#include "coulomb/complementarity/friction_contact_problem.h"

namespace coulomb {

Expected<FrictionContactProblem> ReadFclibLocal(const std::string& path);

// An FCLib global problem (`/fclib_global`, M v = H r + f, u = Hᵀ v + w, no G block) condensed
// to the local problem W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w that the cone solvers take.
Expected<FrictionContactProblem> ReadFclibGlobal(const std::string& path);

// Whichever of the two the file holds.
Expected<FrictionContactProblem> ReadFclibFile(const std::string& path);

// Refuses to replace an existing file unless `overwrite`.
std::optional<InputError> WriteFclibLocal(const FrictionContactProblem& problem,
                                          const std::string& path, bool overwrite = false);

}  // namespace coulomb
