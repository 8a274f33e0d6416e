#pragma once
// FCLib local problems (HDF5, `/fclib_local`), read and written through Debian's libfclib
// (Apache-2.0) rather than hand-written HDF5 code. Only 3D local problems without the optional
// V, R, s blocks are supported; anything else is reported as an error naming the field.

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
