#pragma once
// The `deformables:` section of a scene file (docs/scene-format.md): FEM bodies with their mesh
// (a file or a generated box, ball or cylinder), corotated linear material, Rayleigh damping,
// friction, initial placement and velocity, vertices fixed in the world and vertices attached to
// rigid bodies (both chosen by a world-frame box). Runs after the rigid bodies and their initial
// state exist, since attachments hold the vertices where the bodies are at t = 0.

#include <string>

#include "coulomb/io/yaml_fields.h"
#include "coulomb/sim/scene.h"

namespace coulomb::io {

void ReadSceneDeformables(const Field& list, const std::string& base_dir, sim::Scene& scene);

}  // namespace coulomb::io
