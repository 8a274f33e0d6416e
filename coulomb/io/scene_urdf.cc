#include "coulomb/io/scene_urdf.h"

#include <fmt/format.h>

#include <algorithm>

#include "coulomb/io/scene_shapes.h"

namespace coulomb::io {

std::string AddUrdfCollisions(const multibody::UrdfImport& robot, int offset,
                              const std::string& file, double friction, std::uint32_t group,
                              sim::Scene& scene) {
  using Kind = multibody::CollisionGeometry::Shape;
  for (const multibody::CollisionGeometry& c : robot.collisions) {
    geometry::CollisionGeometry g;
    g.name =
        fmt::format("{}/{}", robot.model.bodies[c.body].name, scene.model.world.geometries.size());
    g.body = c.body + offset;
    g.X_BG = c.X_BG;
    g.friction = friction;
    g.group = group;
    g.mask = group == 1 ? 0xffffffffu : ~group;
    if (c.shape == Kind::kBox) {
      g.shape = geometry::Box{0.5 * c.size};
    } else if (c.shape == Kind::kSphere) {
      g.shape = geometry::Sphere{c.size[0]};
    } else if (c.shape == Kind::kCylinder) {
      g.shape = geometry::Cylinder{c.size[0], 0.5 * c.size[1]};
    } else {
      // Collision meshes are used as their convex hulls, as other engines do.
      Expected<geometry::Shape> mesh = LoadMeshShape(c.mesh_path, c.mesh_scale, true);
      if (!mesh.ok()) {
        return fmt::format("{}: link '{}': collision mesh: {}", file,
                           robot.model.bodies[c.body].name, mesh.error().ToString());
      }
      g.shape = mesh.value();
    }
    scene.model.world.Add(g);
    scene.geometry_colors.push_back("#c8c8d0");
  }
  return "";
}

void ApplyJointFriction(std::optional<double> given, const std::string& file,
                        multibody::UrdfImport& robot, sim::Scene& scene) {
  int frictional = 0;
  double largest = 0;
  for (multibody::Body& body : robot.model.bodies) {
    if (given && multibody::VelocitySize(body.joint) == 1) body.friction = *given;
    frictional += body.friction > 0 ? 1 : 0;
    largest = std::max(largest, body.friction);
  }
  if (frictional > 0 && !given) {
    scene.notes.push_back(
        fmt::format("{}: {} joint(s) with <dynamics friction> up to {:g} N m, enforced by sap as "
                    "joint friction; `joint_friction:` on this urdf entry replaces it (0: off)",
                    file, frictional, largest));
  }
}

}  // namespace coulomb::io
