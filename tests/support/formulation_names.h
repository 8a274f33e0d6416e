#pragma once
// Readable names of parametrized tests over formulations ("velocity_lcp", "cone", "trinkle").

#include <gtest/gtest.h>

#include <string>

#include "coulomb/sim/step.h"

namespace coulomb::testing_support {

inline std::string FormulationTestName(const ::testing::TestParamInfo<sim::FormulationKind>& info) {
  std::string name(sim::ToString(info.param));
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

}  // namespace coulomb::testing_support
