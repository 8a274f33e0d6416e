#pragma once
// The collision geometry of a model and the first stage of a step (docs/DESIGN.md):
// FindContacts(world, body poses) → ContactSet.
//
// Each geometry is attached to a body (or to the world) with a fixed pose X_BG and a material.
// Pairs are skipped when both geometries are static, belong to the same body, to bodies the
// world excludes (parent–child links by default: their geometries overlap at joints by design),
// or when their group/mask bits do not match both ways. Contact ids combine the geometry pair
// and the narrow phase's feature index, so a corner keeps its id across steps (warm starts).

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "coulomb/geometry/broad_phase.h"
#include "coulomb/geometry/contact_point.h"
#include "coulomb/geometry/contact_set.h"
#include "coulomb/geometry/shape.h"
#include "coulomb/math/spatial.h"

namespace coulomb {
class ThreadPool;  // base/thread_pool.h
}  // namespace coulomb

namespace coulomb::multibody {
struct Model;
}

namespace coulomb::geometry {

struct CollisionGeometry {
  std::string name;
  int body = -1;  // −1: fixed in the world
  Shape shape;
  math::Transform X_BG;   // geometry frame in the body frame (world frame if body = −1)
  double friction = 0.5;  // Coulomb coefficient of the material, ≥ 0
  double restitution = 0;
  double compliance = 0;  // m/N: contact deflection per unit normal force (0: rigid)
  std::uint32_t group = 1, mask = 0xffffffffu;  // pair if (group_a & mask_b) && (group_b & mask_a)
};

struct BodyOverlap {
  int body_a = 0, body_b = 0;  // body_a < body_b
  double depth = 0;            // m, the deepest overlap of their geometries
};

struct CollisionWorld {
  std::vector<CollisionGeometry> geometries;
  double margin = 1e-3;  // m: contacts are reported up to this separation
  // Speculative contacts: each geometry's reach grows by how far its fastest point can travel
  // in the step (SpeculativeReach), so a fast body meets the ground as a contact at φ > 0
  // before it passes into it, rather than 4 cm deep one step later.
  bool speculative = true;
  std::vector<std::pair<int, int>> excluded_body_pairs;  // (min, max) body indices

  int Add(CollisionGeometry geometry);
  // The default filter of a model, as MuJoCo, Drake and Gazebo filter robots: excludes the pairs
  // of bodies welded together (fixed joints, transitively; with the world too: bodies welded to
  // it never meet static geometry), and the neighbour pairs a moving joint connects (parent and
  // child, each with the bodies welded to it).
  void ExcludeAdjacentBodies(const multibody::Model& model);
  // Excludes the pairs of bodies of one articulated tree whose geometries overlap at the poses
  // X_world (published robot models' neighbouring links often intersect in every pose, and a
  // contact there would push them apart with the whole robot's strength); returns those pairs
  // with their depth. Call after ExcludeAdjacentBodies: pairs it filtered are not reported.
  std::vector<BodyOverlap> ExcludeOverlappingLinks(const multibody::Model& model,
                                                   const std::vector<math::Transform>& X_world);
  // "" when every geometry is valid, else the first problem, naming the geometry.
  std::string Validate() const;
};

struct ContactDetection {
  ContactSet contacts;
  int candidate_pairs = 0;    // after the broad phase and filters
  int unsupported_pairs = 0;  // shape pairs the narrow phase cannot handle yet
};

// How far each geometry can travel in a step of h seconds, m: h (|v_G| + |ω| r_G), with v_G the
// velocity of the geometry's origin, ω its body's angular velocity and r_G the radius of a ball
// about that origin that holds the shape. Zero for static geometries, and for every geometry
// when the world is not speculative. `velocity` is body-frame spatial velocity (v, ω), as in
// multibody::Data::velocity.
std::vector<double> SpeculativeReach(const CollisionWorld& world,
                                     const std::vector<math::Vector6d>& velocity, double h);
void SpeculativeReach(const CollisionWorld& world, const std::vector<math::Vector6d>& velocity,
                      double h, std::vector<double>& reach);

// How each geometry moves, so that a speculative point (φ above the margin, found only because
// of the reaches) can be kept only where its pair moves relative to each other fast enough to
// close the gap within the step: a pile's neighbours falling side by side have large reaches but
// no relative motion, and their speculative rows cost SAP 6× the step on a 3 000-sphere pile
// (issue 44).
struct SpeculativeMotion {
  double time_step = 0;  // h, s
  // m: what the step's accelerations add to its travel, h² |g| (semi-implicit Euler moves by
  // h (v + h a)); forces from other contacts within the step are not foreseen, as the reaches
  // do not foresee them either.
  double slack = 0;
  std::vector<Eigen::Vector3d> linear, angular;  // per geometry, world frame: v of its origin, ω
};
// From body-frame spatial velocities (multibody::Data::velocity) at the poses X_world; empty
// when the world is not speculative (then nothing is filtered).
void CalcSpeculativeMotion(const CollisionWorld& world, const std::vector<math::Transform>& X_world,
                           const std::vector<math::Vector6d>& velocity, double h,
                           const Eigen::Vector3d& gravity, SpeculativeMotion& motion);

// X_WB of every body (as in multibody::Data::X_world). `reach` (one per geometry, m; empty:
// none) widens each pair's margin to margin + reach_a + reach_b.
ContactDetection FindContacts(const CollisionWorld& world,
                              const std::vector<math::Transform>& X_world,
                              const std::vector<double>& reach = {});

// FindContacts' intermediate arrays, kept between steps for their capacity.
struct CollisionScratch {
  std::vector<math::Transform> X_WG;
  std::vector<Aabb> boxes;
  BroadPhaseScratch broad_phase;
  std::vector<std::pair<int, int>> pairs;
  std::vector<ContactPoint> points;
  struct Piece {  // one thread's share of the narrow phase
    std::vector<ContactPoint> points;
    std::vector<Contact> contacts;
    int unsupported = 0;
  };
  std::vector<Piece> pieces;
};
// The narrow phase runs on the workers when each would get at least this many candidate pairs
// (a loop on them costs about as much as a few pairs' narrow phase).
inline constexpr int kMinPairsPerThread = 256;
// The same into `out` (its contacts rewritten, storage reused). With `motion` (non-empty), a
// point farther apart than the margin is kept only if φ − h ‖v_a − v_b‖ − slack ≤ margin, with
// v_a, v_b the two geometries' velocities at its witnesses. With `workers`, the narrow phase is
// split among them; the contacts come out the same, in the same order, on any number of threads.
void FindContacts(const CollisionWorld& world, const std::vector<math::Transform>& X_world,
                  const std::vector<double>& reach, CollisionScratch& scratch,
                  ContactDetection& out, const SpeculativeMotion* motion = nullptr,
                  ThreadPool* workers = nullptr);

// Room in FindContacts' arrays for `contacts` contacts and twice as many candidate pairs, so that
// a detection finding up to that many allocates nothing (sim::ReserveContacts).
void ReserveContacts(int contacts, CollisionScratch& scratch, ContactDetection& out);

}  // namespace coulomb::geometry
