// The registered formulations: one line each (formulation.h says what a descriptor holds).

#include <array>

#include "coulomb/formulations/formulation.h"

namespace coulomb {

extern const Formulation kConeFormulation;
extern const Formulation kTrinkleFormulation;
extern const Formulation kSapFormulation;

namespace {

const std::array<const Formulation*, 4> kRegistered = {
    &kVelocityLcpFormulation,
    &kConeFormulation,
    &kTrinkleFormulation,
    &kSapFormulation,
};

}  // namespace

std::span<const Formulation* const> Formulations() {
  return kRegistered;
}

const Formulation* FindFormulation(std::string_view name) {
  for (const Formulation* f : kRegistered) {
    if (f->name == name) return f;
  }
  return nullptr;
}

std::string FormulationNames() {
  std::string names;
  for (const Formulation* f : kRegistered) {
    if (!names.empty()) names += ", ";
    names += f->name;
  }
  return names;
}

std::string FormulationsSupporting(bool FormulationSupport::*capability) {
  std::string names;
  for (const Formulation* f : kRegistered) {
    if (!(f->supports.*capability)) continue;
    if (!names.empty()) names += ", ";
    names += f->name;
  }
  return names;
}

const Formulation* FirstFormulationSupporting(bool FormulationSupport::*capability) {
  for (const Formulation* f : kRegistered) {
    if (f->supports.*capability) return f;
  }
  return nullptr;
}

}  // namespace coulomb
