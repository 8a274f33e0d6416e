#pragma once
// The `solver:` section of a scene file (docs/scene-format.md): every formulation's settings,
// and the solver chosen by name for the scene's formulation.

#include "coulomb/io/yaml_fields.h"
#include "coulomb/sim/step.h"

namespace coulomb::io {

// Throws ParseFailure naming the key on an unknown key or a bad value.
void ReadSolverSettings(const Field& f, FormulationSettings& settings);

}  // namespace coulomb::io
