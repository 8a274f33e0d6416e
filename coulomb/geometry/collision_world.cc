#include "coulomb/geometry/collision_world.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "coulomb/base/thread_pool.h"
#include "coulomb/geometry/broad_phase.h"
#include "coulomb/geometry/narrow_phase.h"
#include "coulomb/multibody/model.h"

namespace coulomb::geometry {

int CollisionWorld::Add(CollisionGeometry geometry) {
  geometries.push_back(std::move(geometry));
  return static_cast<int>(geometries.size()) - 1;
}

void CollisionWorld::ExcludeAdjacentBodies(const multibody::Model& model) {
  // Welded groups: a body on a fixed joint moves with its parent, transitively; −1 is the group
  // of the world. Bodies of one group can exchange no impulse (their relative velocity is zero
  // whatever the state: a hand's sensor links fixed to its palm, two links of a humanoid's torso),
  // and a constraint between them would have a zero Delassus block.
  const int n = static_cast<int>(model.bodies.size());
  std::vector<int> group(n);
  std::map<int, std::vector<int>> members;
  for (int i = 0; i < n; ++i) {
    const int parent = model.bodies[i].parent;
    const bool fixed = model.bodies[i].joint == multibody::JointType::kFixed;
    group[i] = !fixed ? i : (parent < 0 ? -1 : group[parent]);
    members[group[i]].push_back(i);
  }
  const auto exclude_between = [&](const std::vector<int>& a, const std::vector<int>& b) {
    for (const int x : a) {
      for (const int y : b) {
        if (x != y) excluded_body_pairs.emplace_back(std::min(x, y), std::max(x, y));
      }
    }
  };
  for (const auto& [g, bodies] : members) {
    exclude_between(bodies, bodies);
    // Bodies welded to the world (a robot's base link) cannot move: their contacts with static
    // geometry have nothing to act on (an iiwa base sunk 1.5 cm into the ground it stands on
    // reported that as penetration every step).
    if (g < 0) exclude_between(bodies, {-1});
  }
  // Neighbours: the two welded groups a moving joint connects (parent–child links, extended over
  // the links welded to either), whose shapes overlap at the joint by design. A joint to the
  // world itself is not a neighbour pair: a floating robot must still meet the ground.
  for (int i = 0; i < n; ++i) {
    const int parent = model.bodies[i].parent;
    if (parent < 0 || model.bodies[i].joint == multibody::JointType::kFixed) continue;
    exclude_between(members[group[parent]], members[group[i]]);
  }
  std::sort(excluded_body_pairs.begin(), excluded_body_pairs.end());
  excluded_body_pairs.erase(std::unique(excluded_body_pairs.begin(), excluded_body_pairs.end()),
                            excluded_body_pairs.end());
}

std::vector<BodyOverlap> CollisionWorld::ExcludeOverlappingLinks(
    const multibody::Model& model, const std::vector<math::Transform>& X_world) {
  // The tree of a body: its topmost ancestor below the world.
  const int n = static_cast<int>(model.bodies.size());
  std::vector<int> tree(n);
  for (int i = 0; i < n; ++i) {
    const int parent = model.bodies[i].parent;
    tree[i] = parent < 0 ? i : tree[parent];
  }
  std::map<std::pair<int, int>, double> depth;  // deepest overlap per body pair
  for (const Contact& c : FindContacts(*this, X_world).contacts.contacts) {
    if (c.body_a < 0 || c.body_b < 0 || tree[c.body_a] != tree[c.body_b] || !(c.phi < 0)) continue;
    const std::pair<int, int> pair(std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b));
    depth[pair] = std::max(depth[pair], -c.phi);
  }
  std::vector<BodyOverlap> overlaps;
  for (const auto& [pair, d] : depth) {
    overlaps.push_back({pair.first, pair.second, d});
    excluded_body_pairs.push_back(pair);
  }
  std::sort(excluded_body_pairs.begin(), excluded_body_pairs.end());
  return overlaps;
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

namespace {

// Radius of a ball about the geometry's origin that holds the shape (∞ for a half-space):
// exact for the primitives, the corner of the bounding box for meshes.
double BoundingRadius(const Shape& shape) {
  if (const auto* s = std::get_if<Sphere>(&shape)) return s->radius;
  if (const auto* b = std::get_if<Box>(&shape)) return b->half_extents.norm();
  if (const auto* c = std::get_if<Capsule>(&shape)) return c->half_length + c->radius;
  if (const auto* c = std::get_if<Cylinder>(&shape)) return std::hypot(c->half_length, c->radius);
  const Aabb box = ComputeAabb(shape, math::Transform{}, 0);
  return box.lower.cwiseAbs().cwiseMax(box.upper.cwiseAbs()).norm();
}

}  // namespace

std::vector<double> SpeculativeReach(const CollisionWorld& world,
                                     const std::vector<math::Vector6d>& velocity, double h) {
  std::vector<double> reach;
  SpeculativeReach(world, velocity, h, reach);
  return reach;
}

void SpeculativeReach(const CollisionWorld& world, const std::vector<math::Vector6d>& velocity,
                      double h, std::vector<double>& reach) {
  reach.assign(world.geometries.size(), 0.0);
  if (!world.speculative) return;
  for (std::size_t i = 0; i < reach.size(); ++i) {
    const CollisionGeometry& g = world.geometries[i];
    if (g.body < 0) continue;
    const Eigen::Vector3d v = velocity[g.body].head<3>(), w = velocity[g.body].tail<3>();
    const double radius = BoundingRadius(g.shape);
    const double spin = std::isfinite(radius) ? w.norm() * radius : 0.0;
    reach[i] = h * ((v + w.cross(g.X_BG.p)).norm() + spin);
  }
}

void CalcSpeculativeMotion(const CollisionWorld& world, const std::vector<math::Transform>& X_world,
                           const std::vector<math::Vector6d>& velocity, double h,
                           const Eigen::Vector3d& gravity, SpeculativeMotion& motion) {
  motion.time_step = h;
  motion.slack = h * h * gravity.norm();
  const std::size_t n = world.speculative ? world.geometries.size() : 0;
  motion.linear.assign(n, Eigen::Vector3d::Zero());
  motion.angular.assign(n, Eigen::Vector3d::Zero());
  for (std::size_t i = 0; i < n; ++i) {
    const CollisionGeometry& g = world.geometries[i];
    if (g.body < 0) continue;
    const Eigen::Matrix3d& R = X_world[g.body].R;
    const Eigen::Vector3d v = velocity[g.body].head<3>(), w = velocity[g.body].tail<3>();
    motion.linear[i] = R * (v + w.cross(g.X_BG.p));
    motion.angular[i] = R * w;
  }
}

ContactDetection FindContacts(const CollisionWorld& world,
                              const std::vector<math::Transform>& X_world,
                              const std::vector<double>& reach) {
  CollisionScratch scratch;
  ContactDetection out;
  FindContacts(world, X_world, reach, scratch, out);
  return out;
}

namespace {

// Whether `box` (already inflated by its geometry's margin and reach) lies farther than `reach`
// above the half-space geometry b at X_WB (false for any other shape): its lowest corner along
// the half-space's normal n is at n·(centre − p) − Σ |n_i| e_i. The slack keeps a box whose
// rounding puts it on the boundary in the narrow phase.
bool AboveHalfSpace(const Aabb& box, const CollisionGeometry& b, const math::Transform& X_WB,
                    double reach) {
  if (!std::holds_alternative<HalfSpace>(b.shape)) return false;
  const Eigen::Vector3d n = X_WB.R.col(2);
  const Eigen::Vector3d centre = 0.5 * (box.lower + box.upper);
  const Eigen::Vector3d half = 0.5 * (box.upper - box.lower);
  const double height = n.dot(centre - X_WB.p);
  const double extent = n.cwiseAbs().dot(half);
  return height - extent > reach + 1e-12 * (std::abs(height) + extent + 1.0);
}

// Whether the speculative point p of geometries a (origin at origin_a) and b can come within the
// margin in the step: φ − h ‖v_a(witness_a) − v_b(witness_b)‖ − slack ≤ margin. The relative
// speed, not only its normal part: within the step, impulses from the pair's other contacts can
// turn any relative motion towards the gap (on the bin, keeping only pairs that approach along n
// let SAP sink 0.14 mm at δt = 3 ms, against 0.01 mm).
bool ClosesWithinStep(const SpeculativeMotion& motion, double margin, int a,
                      const Eigen::Vector3d& origin_a, int b, const Eigen::Vector3d& origin_b,
                      const ContactPoint& p) {
  const Eigen::Vector3d v_a = motion.linear[a] + motion.angular[a].cross(p.witness_a - origin_a);
  const Eigen::Vector3d v_b = motion.linear[b] + motion.angular[b].cross(p.witness_b - origin_b);
  const double speed = (v_a - v_b).norm();
  return p.phi - motion.time_step * speed - motion.slack <= margin;
}

// The narrow phase of pairs [begin, end), their contacts appended to `contacts` in pair order;
// returns how many pairs had no routine.
int CollidePairs(const CollisionWorld& world, const std::vector<double>& reach,
                 const CollisionScratch& scratch, const SpeculativeMotion* motion, int begin,
                 int end, std::vector<ContactPoint>& points, std::vector<Contact>& contacts) {
  const auto reach_of = [&](int i) { return reach.empty() ? 0.0 : reach[i]; };
  const std::vector<math::Transform>& X_WG = scratch.X_WG;
  int unsupported = 0;
  for (int pair = begin; pair < end; ++pair) {
    auto [i, j] = scratch.pairs[pair];
    // Body A should move: put a static geometry second.
    if (world.geometries[i].body < 0) std::swap(i, j);
    const CollisionGeometry& a = world.geometries[i];
    const CollisionGeometry& b = world.geometries[j];
    // A geometry whose inflated box lies wholly above a half-space is not within its margin of
    // it: every body pairs with the ground and the walls in the broad phase, and on a hanging
    // chain or a stack the narrow phase on those pairs was a tenth of the step.
    if (AboveHalfSpace(scratch.boxes[i], b, X_WG[j], reach_of(j))) continue;
    points.clear();
    const double margin = world.margin + reach_of(i) + reach_of(j);
    if (Collide(a.shape, X_WG[i], b.shape, X_WG[j], margin, points) < 0) {
      ++unsupported;
      continue;
    }
    for (const ContactPoint& p : points) {
      if (motion != nullptr && p.phi > world.margin &&
          !ClosesWithinStep(*motion, world.margin, i, X_WG[i].p, j, X_WG[j].p, p)) {
        continue;
      }
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
      contacts.push_back(c);
    }
  }
  return unsupported;
}

}  // namespace

void FindContacts(const CollisionWorld& world, const std::vector<math::Transform>& X_world,
                  const std::vector<double>& reach, CollisionScratch& scratch,
                  ContactDetection& out, const SpeculativeMotion* motion, ThreadPool* workers) {
  if (motion != nullptr && motion->linear.size() != world.geometries.size()) motion = nullptr;
  out.contacts.contacts.clear();
  out.candidate_pairs = out.unsupported_pairs = 0;
  const int n = static_cast<int>(world.geometries.size());
  const auto reach_of = [&](int i) { return reach.empty() ? 0.0 : reach[i]; };
  std::vector<math::Transform>& X_WG = scratch.X_WG;
  std::vector<Aabb>& boxes = scratch.boxes;
  X_WG.resize(n);
  boxes.resize(n);
  for (int i = 0; i < n; ++i) {
    const CollisionGeometry& g = world.geometries[i];
    X_WG[i] = g.body < 0 ? g.X_BG : X_world[g.body] * g.X_BG;
    boxes[i] = ComputeAabb(g.shape, X_WG[i], world.margin + reach_of(i));
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
  FindCandidatePairs(boxes, keep, scratch.broad_phase, scratch.pairs);
  const int pairs = static_cast<int>(scratch.pairs.size());
  out.candidate_pairs = pairs;
  const int threads = workers != nullptr ? workers->size() : 1;
  if (threads <= 1 || pairs < kMinPairsPerThread * threads) {
    out.unsupported_pairs = CollidePairs(world, reach, scratch, motion, 0, pairs, scratch.points,
                                         out.contacts.contacts);
    return;
  }
  // One contiguous piece of the pairs per thread, each into its own list; the lists joined in
  // piece order are the one-thread list, contact for contact, whatever the thread count.
  scratch.pieces.resize(threads);
  workers->ParallelFor(threads, [&](int t0, int t1) {
    for (int t = t0; t < t1; ++t) {
      CollisionScratch::Piece& piece = scratch.pieces[t];
      piece.contacts.clear();
      piece.unsupported =
          CollidePairs(world, reach, scratch, motion, ThreadPool::PieceBegin(pairs, threads, t),
                       ThreadPool::PieceBegin(pairs, threads, t + 1), piece.points, piece.contacts);
    }
  });
  for (const CollisionScratch::Piece& piece : scratch.pieces) {
    out.contacts.contacts.insert(out.contacts.contacts.end(), piece.contacts.begin(),
                                 piece.contacts.end());
    out.unsupported_pairs += piece.unsupported;
  }
}

void ReserveContacts(int contacts, CollisionScratch& scratch, ContactDetection& out) {
  const auto n = static_cast<std::size_t>(std::max(contacts, 0));
  // Boxes that overlap within the margin outnumber the contacts (about 1.5 to 1 in a resting pile
  // of spheres, examples/scenes/bin.yaml).
  scratch.pairs.reserve(2 * n);
  out.contacts.contacts.reserve(n);
}

}  // namespace coulomb::geometry
