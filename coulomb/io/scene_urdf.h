#pragma once
// The collision shapes of a URDF include (docs/scene-format.md, "URDF includes"): the robot's
// primitive collision elements as world geometries of the scene, in the robot's collision group.

#include <cstdint>
#include <optional>
#include <string>

#include "coulomb/multibody/urdf_import.h"
#include "coulomb/sim/scene.h"

namespace coulomb::io {

// Adds every box, sphere, cylinder and mesh (its convex hull; mesh_file.h's formats) of `robot`
// (whose bodies start at `offset` in the scene's model) with the include's friction. group ≠ 1 is
// a robot without self-collision: its shapes do not collide with each other. Returns "" or, for a
// mesh that cannot be read, why, naming the link and the mesh file: a robot never loses a
// collision shape silently.
std::string AddUrdfCollisions(const multibody::UrdfImport& robot, int offset,
                              const std::string& file, double friction, std::uint32_t group,
                              sim::Scene& scene);

// The include's joint friction. `given` (N m or N) replaces every 1-DoF joint's
// <dynamics friction>, 0 switching it off: published values are often placeholders (Drake's
// Allegro hand gives its fingers 10 N m, more than their drives ever push). Without it the URDF's
// values stand, and a note in `scene` says how many joints have friction and the largest.
void ApplyJointFriction(std::optional<double> given, const std::string& file,
                        multibody::UrdfImport& robot, sim::Scene& scene);

}  // namespace coulomb::io
