#pragma once
// The `constraints:` section of a scene file (docs/scene-format.md): joint couplers, welds and
// distance constraints, enforced by the SAP formulation. Welds hold the relative pose the bodies
// have in the initial state, and a distance constraint without `distance` holds the initial
// distance, so this runs after the initial state is set.

#include "coulomb/io/yaml_fields.h"
#include "coulomb/sim/scene.h"

namespace coulomb::io {

void ReadSceneConstraints(const Field& list, sim::Scene& scene);

}  // namespace coulomb::io
