#include "coulomb/geometry/collision_world.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "coulomb/base/thread_pool.h"
#include "coulomb/multibody/model.h"

namespace coulomb::geometry {
namespace {

using math::Transform;

Transform At(const Eigen::Vector3d& p) {
  return {Eigen::Matrix3d::Identity(), p};
}

// A body welded to the world (a robot's base link, and anything welded to it) cannot move: its
// contacts with static geometry and with other welded bodies are dropped; with a moving body
// they stay.
TEST(CollisionWorld, BodiesWeldedToTheWorldDoNotCollideWithStaticGeometry) {
  multibody::Model model;
  multibody::Body b;
  b.name = "base";  // fixed joint, no parent: welded to the world
  b.joint = multibody::JointType::kFixed;
  model.AddBody(b);
  b.name = "plate";  // welded to the base
  b.parent = 0;
  model.AddBody(b);
  b.name = "link";  // revolute on the base: moves
  b.joint = multibody::JointType::kRevolute;
  model.AddBody(b);
  CollisionWorld world;
  world.Add({"base", 0, Sphere{0.5}, {}, 0.5});
  world.Add({"plate", 1, Sphere{0.5}, At({0.4, 0, 0}), 0.5});
  world.Add({"link", 2, Sphere{0.5}, At({0, 0.4, 0}), 0.5});
  world.Add({"ground", -1, Sphere{0.5}, At({0, 0, 0.2}), 0.5});
  world.ExcludeAdjacentBodies(model);
  const std::vector<Transform> poses(3);
  const ContactDetection d = FindContacts(world, poses);
  // Left: link–ground only. Link–base is parent–child, and link–plate too: the plate is welded
  // to the link's parent, so the joint makes them neighbours.
  EXPECT_EQ(d.candidate_pairs, 1);
  for (const Contact& c : d.contacts.contacts) EXPECT_TRUE(c.body_a == 2 && c.body_b == -1);
}

// A body of 1 kg on `joint` below `parent` (−1: the world).
void AddBody(multibody::Model& model, const char* name, multibody::JointType joint, int parent) {
  multibody::Body b;
  b.name = name;
  b.joint = joint;
  b.parent = parent;
  b.inertia.mass = 1;
  model.AddBody(b);
}

// A floating hand: palm (0) with a sensor link welded to it (1), a finger on a revolute joint (2)
// with its own welded tip (3), and a second phalanx (4) on the finger. Pairs inside a welded
// group and between the two groups a moving joint connects are filtered; the rest collide.
TEST(CollisionWorld, FiltersWeldedGroupsAndTheirNeighboursInsideAMovingTree) {
  multibody::Model model;
  using multibody::JointType;
  AddBody(model, "palm", JointType::kFloating, -1);
  AddBody(model, "sensor", JointType::kFixed, 0);
  AddBody(model, "finger", JointType::kRevolute, 0);
  AddBody(model, "tip", JointType::kFixed, 2);
  AddBody(model, "phalanx", JointType::kRevolute, 2);
  CollisionWorld world;
  for (int body = 0; body < 5; ++body) world.Add({"g", body, Sphere{0.5}, {}, 0.5});
  world.Add({"ground", -1, Sphere{0.5}, {}, 0.5});
  world.ExcludeAdjacentBodies(model);
  const std::vector<std::pair<int, int>> filtered = {{0, 1}, {0, 2}, {0, 3}, {1, 2},
                                                     {1, 3}, {2, 3}, {2, 4}, {3, 4}};
  EXPECT_EQ(world.excluded_body_pairs, filtered);
  // Every sphere overlaps every other at the origin: what is left is palm/sensor–phalanx and
  // each of the five bodies against the ground.
  const ContactDetection d = FindContacts(world, std::vector<Transform>(5));
  EXPECT_EQ(d.candidate_pairs, 2 + 5);
}

// Links of one robot that overlap where it starts are filtered and reported with their depth;
// the same overlap between two robots is a contact to resolve.
TEST(CollisionWorld, OverlapsInsideOneTreeAreFilteredAndReported) {
  multibody::Model model;
  using multibody::JointType;
  AddBody(model, "base", JointType::kFloating, -1);         // 0
  AddBody(model, "upper", JointType::kRevolute, 0);         // 1
  AddBody(model, "lower", JointType::kRevolute, 1);         // 2: overlaps base, not its neighbour
  AddBody(model, "other_robot", JointType::kFloating, -1);  // 3: overlaps lower
  CollisionWorld world;
  world.Add({"base", 0, Sphere{0.5}, {}, 0.5});
  world.Add({"upper", 1, Sphere{0.1}, At({0, 0, 5}), 0.5});
  world.Add({"lower", 2, Sphere{0.5}, {}, 0.5});
  world.Add({"other", 3, Sphere{0.5}, {}, 0.5});
  world.ExcludeAdjacentBodies(model);
  // Poses: lower 0.8 m from base (overlap 0.2 m), other 0.9 m from lower (overlap 0.1 m) and
  // 1.7 m from base.
  const std::vector<Transform> poses = {At({0, 0, 0}), At({0, 0, 0}), At({0.8, 0, 0}),
                                        At({1.7, 0, 0})};
  const std::vector<BodyOverlap> overlaps = world.ExcludeOverlappingLinks(model, poses);
  ASSERT_EQ(overlaps.size(), 1u);
  EXPECT_EQ(overlaps[0].body_a, 0);
  EXPECT_EQ(overlaps[0].body_b, 2);
  EXPECT_NEAR(overlaps[0].depth, 0.2, 1e-9);
  const ContactDetection d = FindContacts(world, poses);
  ASSERT_EQ(d.candidate_pairs, 1);
  EXPECT_EQ(d.contacts.contacts[0].body_a + d.contacts.contacts[0].body_b, 2 + 3);
}

TEST(CollisionWorld, FiltersStaticSameBodyAdjacentAndMasks) {
  // Bodies: 0 (root), 1 (child of 0), 2 (free). Overlapping spheres everywhere.
  multibody::Model model;
  multibody::Body b;
  b.name = "root";
  b.joint = multibody::JointType::kFloating;  // moving bodies (welded ones are tested below)
  model.AddBody(b);
  b.name = "child";
  b.parent = 0;
  model.AddBody(b);
  b.name = "free";
  b.parent = -1;
  model.AddBody(b);
  CollisionWorld world;
  world.Add({"g0", 0, Sphere{0.5}, {}, 0.5});
  world.Add({"g0b", 0, Sphere{0.5}, {}, 0.5});  // same body as g0
  world.Add({"g1", 1, Sphere{0.5}, {}, 0.5});   // adjacent to body 0
  world.Add({"g2", 2, Sphere{0.5}, {}, 0.8});   // free: touches all
  world.Add({"s", -1, Sphere{0.5}, At({0, 0, 0.1}), 0.5});
  world.Add({"s2", -1, Sphere{0.5}, At({0, 0, 0.2}), 0.5});  // static–static: never
  world.ExcludeAdjacentBodies(model);
  ASSERT_EQ(world.Validate(), "");
  const std::vector<Transform> poses = {At({0, 0, 0}), At({0, 0, 0.3}), At({0.1, 0, 0})};
  const ContactDetection d = FindContacts(world, poses);
  // Allowed pairs: g0–g2, g0b–g2, g1–g2, g0–s, g0b–s, g0–s2, g0b–s2, g1–s, g1–s2, g2–s, g2–s2.
  EXPECT_EQ(d.candidate_pairs, 11);
  EXPECT_EQ(d.contacts.contacts.size(), 11u);
  for (const Contact& c : d.contacts.contacts) {
    EXPECT_GE(c.body_a, 0);  // the moving body is A
    EXPECT_NE(c.body_a, c.body_b);
  }
  // Masks: g2 only collides with group 2, which nobody else is in.
  world.geometries[3].mask = 2;
  EXPECT_EQ(FindContacts(world, poses).candidate_pairs, 6);
}

TEST(CollisionWorld, ContactIdsPersistWhileTheBoxSettles) {
  multibody::Model model;
  multibody::Body b;
  b.name = "box";
  b.joint = multibody::JointType::kFloating;
  model.AddBody(b);
  CollisionWorld world;
  world.Add({"box", 0, Box{Eigen::Vector3d(0.2, 0.1, 0.05)}, {}, 0.6});
  world.Add({"ground", -1, HalfSpace{}, {}, 0.4});
  const auto ids = [&](double z, double x) {
    std::vector<std::uint64_t> out;
    for (const Contact& c : FindContacts(world, {At({x, 0, z})}).contacts.contacts)
      out.push_back(c.id);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto before = ids(0.0505, 0.0), after = ids(0.0499, 0.01);
  ASSERT_EQ(before.size(), 4u);
  EXPECT_EQ(before, after);
  // Friction of the pair: the harmonic mean of 0.6 and 0.4.
  EXPECT_NEAR(FindContacts(world, {At({0, 0, 0.05})}).contacts.contacts[0].mu, 0.48, 1e-15);
}

// A sphere 5 cm above the ground falling at 4 m/s travels 4 cm in a 10 ms step and 6 cm in
// 15 ms: its contact is found (at φ = 5 cm) only when the step can close the gap, and never
// when the world is not speculative. A spinning sphere reaches farther by ω r.
TEST(CollisionWorld, SpeculativeReachFindsContactsTheStepCanClose) {
  CollisionWorld world;
  world.Add({"ground", -1, HalfSpace{}, {}, 0.5});
  world.Add({"ball", 0, Sphere{0.1}, {}, 0.5});
  const std::vector<Transform> poses = {At({0, 0, 0.15})};
  math::Vector6d velocity = math::Vector6d::Zero();
  velocity[2] = -4;  // m/s, body frame = world frame here
  const auto found = [&](double h) {
    return FindContacts(world, poses, SpeculativeReach(world, {velocity}, h)).contacts.contacts;
  };
  EXPECT_TRUE(FindContacts(world, poses).contacts.contacts.empty());
  EXPECT_TRUE(found(0.010).empty());   // reach 4 cm < 5 cm
  ASSERT_EQ(found(0.015).size(), 1u);  // reach 6 cm
  EXPECT_NEAR(found(0.015)[0].phi, 0.05, 1e-12);
  const std::vector<double> reach = SpeculativeReach(world, {velocity}, 0.015);
  EXPECT_EQ(reach[0], 0.0);  // static geometry
  EXPECT_NEAR(reach[1], 0.06, 1e-12);
  velocity[3] = 10;  // rad/s about x: the surface moves 1 m/s faster
  EXPECT_NEAR(SpeculativeReach(world, {velocity}, 0.015)[1], 0.015 * (4 + 10 * 0.1), 1e-12);
  world.speculative = false;
  EXPECT_EQ(SpeculativeReach(world, {velocity}, 0.015)[1], 0.0);
}

// Two balls 2 cm apart falling side by side at 4 m/s: each reaches 6 cm in a 15 ms step, so
// their pair is found at φ = 2 cm, but with the pair's relative motion (SpeculativeMotion) it is
// kept only when they move relative to each other fast enough to close the gap: not side by side,
// not at 1 m/s apart (1.5 cm), yes at 2 m/s apart (3 cm) or spinning at 2 m/s; each falling ball
// against the ground (5 cm below, 6 cm of travel) always.
TEST(CollisionWorld, SpeculativeMotionKeepsOnlyPairsThatCanCloseTheirGap) {
  CollisionWorld world;
  world.Add({"ground", -1, HalfSpace{}, {}, 0.5});
  world.Add({"left", 0, Sphere{0.1}, {}, 0.5});
  world.Add({"right", 1, Sphere{0.1}, {}, 0.5});
  const double h = 0.015;
  const std::vector<Transform> poses = {At({0, 0, 0.15}), At({0.22, 0, 0.15})};
  const auto found = [&](const std::vector<math::Vector6d>& velocity, bool relative) {
    CollisionScratch scratch;
    ContactDetection out;
    SpeculativeMotion motion;
    CalcSpeculativeMotion(world, poses, velocity, h, Eigen::Vector3d(0, 0, -9.81), motion);
    FindContacts(world, poses, SpeculativeReach(world, velocity, h), scratch, out,
                 relative ? &motion : nullptr);
    int balls = 0, ground = 0;
    for (const Contact& c : out.contacts.contacts) (c.body_b < 0 ? ground : balls) += 1;
    return std::pair(balls, ground);
  };
  math::Vector6d fall = math::Vector6d::Zero();
  fall[2] = -4;
  std::vector<math::Vector6d> velocity = {fall, fall};
  EXPECT_EQ(found(velocity, false), std::pair(1, 2));  // per-geometry reaches alone
  EXPECT_EQ(found(velocity, true), std::pair(0, 2));   // no relative motion: dropped
  velocity[1][0] = -1;  // right ball 1 m/s towards the left one: 1.5 cm < 2 cm
  EXPECT_EQ(found(velocity, true), std::pair(0, 2));
  velocity[1][0] = -2;  // 3 cm ≥ 2 cm
  EXPECT_EQ(found(velocity, true), std::pair(1, 2));
  // Spin counts: the right ball's surface at the left one moves at ω r.
  velocity[1][0] = 0;
  velocity[1][5] = 20;  // rad/s about z: 2 m/s at its surface, along the gap's tangent
  EXPECT_EQ(found(velocity, true), std::pair(1, 2));
}

// Pairs with a half-space are culled before the narrow phase when the other geometry's box lies
// above it (collision_world.cc): a box standing on an edge against a tilted plane, its lowest
// edge just inside and just outside the margin, keeps its contacts in the first case and has none
// in the second, as the narrow phase alone decides.
TEST(CollisionWorld, HalfSpaceCullKeepsEveryContactWithinTheMargin) {
  CollisionWorld world;
  world.margin = 1e-3;
  const Eigen::Matrix3d tilt = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitY()).matrix();
  world.Add({"slope", -1, HalfSpace{}, {tilt, Eigen::Vector3d(0.2, 0, -0.1)}, 0.5});
  world.Add({"box", 0, Box{Eigen::Vector3d(0.1, 0.2, 0.3)}, {}, 0.5});
  const Eigen::Vector3d n = tilt.col(2);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 1, 0).normalized()).matrix();
  // The box's lowest point along n from its centre, and the centre that puts it at `gap`.
  const double depth = (R.transpose() * n).cwiseAbs().dot(Eigen::Vector3d(0.1, 0.2, 0.3));
  const auto contacts_at = [&](double gap) {
    const Eigen::Vector3d centre = Eigen::Vector3d(0.2, 0, -0.1) + (depth + gap) * n +
                                   Eigen::Vector3d(0.05, 0.3, 0) -
                                   n.dot(Eigen::Vector3d(0.05, 0.3, 0)) * n;
    return FindContacts(world, {Transform{R, centre}}).contacts.contacts;
  };
  const auto inside = contacts_at(0.999e-3);
  ASSERT_EQ(inside.size(), 1u);
  EXPECT_NEAR(inside[0].phi, 0.999e-3, 1e-12);
  EXPECT_TRUE(contacts_at(1.001e-3).empty());
  EXPECT_EQ(contacts_at(-0.01).size(), 1u);
}

// A jumble of 600 spheres and boxes on the ground: the narrow phase split among two threads
// finds the same contacts, in the same order and to the bit, as one thread, and more than one
// thread's worth of pairs (so the split ran).
TEST(CollisionWorld, TwoThreadsFindTheContactsOfOne) {
  CollisionWorld world;
  world.Add({"ground", -1, HalfSpace{}, {}, 0.5});
  std::vector<Transform> poses;
  constexpr int kSide = 10, kLayers = 6;
  for (int i = 0; i < kSide * kSide * kLayers; ++i) {
    const int x = i % kSide, y = (i / kSide) % kSide, z = i / (kSide * kSide);
    // Neighbours 9 cm apart overlap by a few millimetres; every other body is a tilted box.
    const Eigen::Vector3d p(0.09 * x + 0.003 * (y % 3), 0.09 * y, 0.045 + 0.088 * z);
    CollisionGeometry geometry;
    geometry.name = fmt::format("body {}", i);
    geometry.body = static_cast<int>(poses.size());
    if (i % 2 == 0) {
      geometry.shape = Sphere{0.047};
      poses.push_back(At(p));
    } else {
      geometry.shape = Box{Eigen::Vector3d(0.046, 0.046, 0.046)};
      const Eigen::Vector3d axis = Eigen::Vector3d(1, 2, 3).normalized();
      poses.push_back({Eigen::AngleAxisd(0.1 * (i % 7), axis).toRotationMatrix(), p});
    }
    world.Add(std::move(geometry));
  }
  CollisionScratch scratch;
  ContactDetection one, two;
  FindContacts(world, poses, {}, scratch, one);
  ThreadPool workers(2);
  FindContacts(world, poses, {}, scratch, two, nullptr, &workers);
  ASSERT_GT(one.candidate_pairs, 2 * kMinPairsPerThread);
  ASSERT_GT(one.contacts.contacts.size(), 1000u);
  EXPECT_EQ(one.candidate_pairs, two.candidate_pairs);
  EXPECT_EQ(one.unsupported_pairs, two.unsupported_pairs);
  ASSERT_EQ(one.contacts.contacts.size(), two.contacts.contacts.size());
  for (std::size_t k = 0; k < one.contacts.contacts.size(); ++k) {
    const Contact& a = one.contacts.contacts[k];
    const Contact& b = two.contacts.contacts[k];
    ASSERT_EQ(a.id, b.id) << k;
    EXPECT_EQ(a.point, b.point) << k;
    EXPECT_EQ(a.normal, b.normal) << k;
    EXPECT_EQ(a.phi, b.phi) << k;
  }
}

TEST(CollisionWorld, ValidationNamesTheGeometry) {
  CollisionWorld world;
  world.Add({"wheel", 0, Sphere{-1}, {}, 0.5});
  EXPECT_NE(world.Validate().find("geometry 0 ('wheel'): sphere radius -1"), std::string::npos);
  world.geometries[0].shape = Sphere{1};
  world.geometries[0].friction = -0.2;
  EXPECT_NE(world.Validate().find("friction = -0.2"), std::string::npos);
}

}  // namespace
}  // namespace coulomb::geometry
