#include "coulomb/geometry/collision_world.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "coulomb/geometry/broad_phase.h"
#include "coulomb/geometry/narrow_phase.h"
#include "coulomb/multibody/model.h"

namespace coulomb::geometry {

int CollisionWorld::Add(CollisionGeometry geometry) {
  geometries.push_back(std::move(geometry));
  return static_cast<int>(geometries.size()) - 1;
}

void CollisionWorld::ExcludeAdjacentBodies(const multibody::Model& model) {
  // Bodies welded to the world (a robot's base link) cannot move: their contacts with static
  // geometry and with each other have nothing to act on (an iiwa base sunk 1.5 cm into the
  // ground it stands on reported that as penetration every step).
  std::vector<int> welded;
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const int parent = model.bodies[i].parent;
    if (parent >= 0) excluded_body_pairs.emplace_back(parent, static_cast<int>(i));
    const bool fixed = model.bodies[i].joint == multibody::JointType::kFixed;
    if (fixed && (parent < 0 || std::binary_search(welded.begin(), welded.end(), parent))) {
      for (const int other : welded) excluded_body_pairs.emplace_back(other, static_cast<int>(i));
      excluded_body_pairs.emplace_back(-1, static_cast<int>(i));
      welded.push_back(static_cast<int>(i));
    }
  }
  std::sort(excluded_body_pairs.begin(), excluded_body_pairs.end());
}

std::string CollisionWorld::Validate() const {
  if (!(std::isfinite(margin) && margin >= 0))
    return fmt::format("margin = {} must be >= 0", margin);
  for (std::size_t i = 0; i < geometries.size(); ++i) {
    const CollisionGeometry& g = geometries[i];
    if (const std::string e = ValidateShape(g.shape); !e.empty()) {
      return fmt::format("geometry {} ('{}'): {}", i, g.name, e);
    }
    if (std::holds_alternative<TriangleMesh>(g.shape) && g.body >= 0) {
      return fmt::format(
          "geometry {} ('{}'): a triangle mesh must be static (attached to the world); use a "
          "convex mesh on a moving body",
          i, g.name);
    }
    if (!(std::isfinite(g.friction) && g.friction >= 0)) {
      return fmt::format("geometry {} ('{}'): friction = {} must be finite and >= 0", i, g.name,
                         g.friction);
    }
    if (!(std::isfinite(g.compliance) && g.compliance >= 0)) {
      return fmt::format("geometry {} ('{}'): compliance = {} m/N must be finite and >= 0", i,
                         g.name, g.compliance);
    }
    if (!(g.restitution >= 0 && g.restitution <= 1)) {
      return fmt::format("geometry {} ('{}'): restitution = {} must be in [0, 1]", i, g.name,
                         g.restitution);
    }
  }
  return "";
}

ContactDetection FindContacts(const CollisionWorld& world,
                              const std::vector<multibody::Transform>& X_world) {
  ContactDetection out;
  const int n = static_cast<int>(world.geometries.size());
  std::vector<multibody::Transform> X_WG(n);
  std::vector<Aabb> boxes(n);
  for (int i = 0; i < n; ++i) {
    const CollisionGeometry& g = world.geometries[i];
    X_WG[i] = g.body < 0 ? g.X_BG : X_world[g.body] * g.X_BG;
    boxes[i] = ComputeAabb(g.shape, X_WG[i], world.margin);
  }
  const auto keep = [&](int i, int j) {
    const CollisionGeometry& a = world.geometries[i];
    const CollisionGeometry& b = world.geometries[j];
    if (a.body == b.body) return false;  // same body, or both static
    if (!((a.group & b.mask) && (b.group & a.mask))) return false;
    const std::pair<int, int> bodies(std::min(a.body, b.body), std::max(a.body, b.body));
    return !std::binary_search(world.excluded_body_pairs.begin(), world.excluded_body_pairs.end(),
                               bodies);
  };
  const auto pairs = FindCandidatePairs(boxes, keep);
  out.candidate_pairs = static_cast<int>(pairs.size());
  std::vector<ContactPoint> points;
  for (auto [i, j] : pairs) {
    // Body A should move: put a static geometry second.
    if (world.geometries[i].body < 0) std::swap(i, j);
    const CollisionGeometry& a = world.geometries[i];
    const CollisionGeometry& b = world.geometries[j];
    points.clear();
    if (Collide(a.shape, X_WG[i], b.shape, X_WG[j], world.margin, points) < 0) {
      ++out.unsupported_pairs;
      continue;
    }
    for (const ContactPoint& p : points) {
      Contact c;
      c.body_a = a.body;
      c.body_b = b.body;
      c.point = p.point;
      c.normal = p.normal;
      c.phi = p.phi;
      c.mu = CombineFriction(a.friction, b.friction);
      c.restitution = std::max(a.restitution, b.restitution);
      c.compliance = a.compliance + b.compliance;  // springs in series
      c.geometry_a = i;
      c.geometry_b = j;
      // 20 bits per geometry, 24 for the feature (a triangle mesh numbers 8 per triangle).
      c.id = ((static_cast<std::uint64_t>(std::min(i, j)) << 44) |
              (static_cast<std::uint64_t>(std::max(i, j)) << 24)) +
             static_cast<std::uint64_t>(p.feature) + 1;
      out.contacts.contacts.push_back(c);
    }
  }
  return out;
}

}  // namespace coulomb::geometry
