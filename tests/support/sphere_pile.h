#pragma once
// A contact problem for the sweeps' tests: a side × side × height cubic packing of unit spheres
// (1 kg) on the ground, each touching the ones beside and below it (one island, hyperstatic),
// thrown downwards and sideways at random so that some contacts stick, some slide and some open.

#include <cstdint>

#include "coulomb/contact/contact_problem.h"

namespace coulomb::testing {

contact::ContactProblem MakeSpherePile(int side, int height, std::uint64_t seed);

}  // namespace coulomb::testing
