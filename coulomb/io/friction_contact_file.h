#pragma once
// Reading frictional contact problems FC(W, q, μ) from files:
//  * Siconos' FC3D text form (`frictionContact_printInFile`): dimension (must be 3), n_c, the
//    NumericsMatrix W (dense or sparse-block), q (3 n_c), μ (n_c); the rest is ignored;
//  * FCLib HDF5 local problems (detected by the HDF5 signature), through fclib_file.h.
// Every defect is an InputError naming the file, line and field.

#include <string>

#include "coulomb/base/error.h"
#include "coulomb/complementarity/friction_contact_problem.h"

namespace coulomb {

Expected<FrictionContactProblem> ReadFrictionContactFile(const std::string& path);
Expected<FrictionContactProblem> ParseSiconosFrictionContact(const std::string& text,
                                                             const std::string& origin);

// True when `path` starts with HDF5's signature.
bool IsHdf5File(const std::string& path);

// Whether a problem file holds an LCP or a frictional contact problem: HDF5 files are FCLib
// problems; Siconos text files are told apart by their header (an LCP reads "n storage n n",
// an FC3D problem "3 n_c storage 3n_c 3n_c"). Unreadable files count as LCPs, whose reader
// then reports the defect.
enum class ProblemFileKind { kLcp, kFrictionContact };
ProblemFileKind DetectProblemFileKind(const std::string& path);

}  // namespace coulomb
