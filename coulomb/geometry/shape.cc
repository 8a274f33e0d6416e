#include "coulomb/geometry/shape.h"

#include <fmt/format.h>

#include <cmath>

namespace coulomb::geometry {
namespace {

bool Positive(double x) {
  return std::isfinite(x) && x > 0;
}

}  // namespace

std::string ShapeName(const Shape& shape) {
  static const char* names[] = {"half-space", "sphere",      "box",          "capsule",
                                "cylinder",   "convex mesh", "triangle mesh"};
  return names[shape.index()];
}

std::string ValidateShape(const Shape& shape) {
  if (const auto* s = std::get_if<Sphere>(&shape); s && !Positive(s->radius)) {
    return fmt::format("sphere radius {} must be positive", s->radius);
  }
  if (const auto* b = std::get_if<Box>(&shape);
      b && !(Positive(b->half_extents.x()) && Positive(b->half_extents.y()) &&
             Positive(b->half_extents.z()))) {
    return "box half extents must be positive";
  }
  if (const auto* c = std::get_if<Capsule>(&shape);
      c && !(Positive(c->radius) && std::isfinite(c->half_length) && c->half_length >= 0)) {
    return "capsule radius must be positive and half length >= 0";
  }
  if (const auto* c = std::get_if<Cylinder>(&shape);
      c && !(Positive(c->radius) && Positive(c->half_length))) {
    return "cylinder radius and half length must be positive";
  }
  if (const auto* m = std::get_if<ConvexMesh>(&shape); m && !m->data)
    return "convex mesh has no data";
  if (const auto* m = std::get_if<TriangleMesh>(&shape); m && !m->data) {
    return "triangle mesh has no data";
  }
  return "";
}

}  // namespace coulomb::geometry
