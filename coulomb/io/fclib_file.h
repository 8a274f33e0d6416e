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

// Refuses to replace an existing file unless `overwrite`.
std::optional<InputError> WriteFclibLocal(const FrictionContactProblem& problem,
                                          const std::string& path, bool overwrite = false);

}  // namespace coulomb
