#pragma once
// Siconos numerics' 3D frictional contact solvers (NSGS, Alart–Curnier and Fischer–Burmeister
// semismooth Newton) on one of our FrictionContactProblems, for `coulomb bench peers`. The answer
// is certified with our own ABH error (CertifyFrictionContact), the measure every solver in the
// comparison is judged by.

#include <string>
#include <vector>

#include "coulomb/complementarity/friction_contact_result.h"

namespace coulomb::peers {

struct SiconosFc3dSolver {
  std::string name;  // "siconos-nsgs", …
  int id = 0;        // SICONOS_FRICTION_3D_*
};

// The Siconos solvers compiled in; empty without Siconos.
std::vector<SiconosFc3dSolver> SiconosFc3dSolvers();

// Solves with Siconos' own stopping test at `tolerance` (its normalized error), then certifies r
// with ours: status kSolved only when our ABH error is within `tolerance` too.
FrictionContactResult SolveWithSiconos(const FrictionContactProblem& problem,
                                       const SiconosFc3dSolver& solver, double tolerance,
                                       int max_iterations);

}  // namespace coulomb::peers
