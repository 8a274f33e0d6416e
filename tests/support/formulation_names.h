#pragma once
// Registered formulations by name for the tests, and readable names of tests parametrized over
// them ("velocity_lcp", "cone", "trinkle", "sap").

#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "coulomb/formulations/formulation.h"

namespace coulomb::testing_support {

// The registered formulation `name`; a misspelt name is a bug in the test, so it throws.
inline const Formulation* Named(std::string_view name) {
  const Formulation* f = FindFormulation(name);
  if (f == nullptr) throw std::invalid_argument("no formulation named " + std::string(name));
  return f;
}

inline std::string FormulationTestName(const ::testing::TestParamInfo<const Formulation*>& info) {
  std::string name(info.param->name);
  for (char& c : name) c = c == '-' ? '_' : c;
  return name;
}

}  // namespace coulomb::testing_support

namespace coulomb {

// gtest prints a test's parameter by name rather than by address.
inline void PrintTo(const Formulation* f, std::ostream* os) {
  *os << (f == nullptr ? "null" : f->name);
}

}  // namespace coulomb
