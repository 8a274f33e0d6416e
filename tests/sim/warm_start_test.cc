// Warm starts match last step's contacts by geometry pair and position, not by feature number.

#include "coulomb/sim/warm_start.h"

#include <gtest/gtest.h>

#include "coulomb/math/contact_frame.h"

namespace coulomb::sim {
namespace {

// Each contact's frame, as the step's contact problem holds them.
std::vector<Eigen::Matrix3d> Frames(const geometry::ContactSet& set) {
  std::vector<Eigen::Matrix3d> frames;
  for (const geometry::Contact& c : set.contacts) frames.push_back(math::ContactFrame(c.normal));
  return frames;
}

// The four bottom corners of a 0.2 m box (body 0) on the ground, features numbered `base`…
geometry::ContactSet Corners(const std::vector<int>& order, std::uint64_t pair, double shift = 0) {
  const std::vector<Eigen::Vector3d> corners = {
      {-0.1, -0.1, 0}, {0.1, -0.1, 0}, {0.1, 0.1, 0}, {-0.1, 0.1, 0}};
  geometry::ContactSet set;
  for (std::size_t k = 0; k < order.size(); ++k) {
    geometry::Contact c;
    c.body_a = 0;
    c.body_b = -1;
    c.point = corners[order[k]] + Eigen::Vector3d(shift, 0, 0);
    c.normal = Eigen::Vector3d::UnitZ();
    c.id = (pair << 24) + k + 1;  // feature numbers in the order given
    set.contacts.push_back(c);
  }
  return set;
}

TEST(WarmStart, CornersKeepTheirImpulsesWhenTheirNumbersChange) {
  const std::vector<math::Transform> X(1);  // the box at the origin
  const geometry::ContactSet before = Corners({0, 1, 2, 3}, 5);
  Eigen::VectorXd impulses(12);
  for (int k = 0; k < 4; ++k) impulses.segment<3>(3 * k) << 1.0 + k, 0.1 * k, -0.05 * k;
  std::vector<PersistentContact> cache;
  RememberContacts(before, Frames(before), impulses, X, cache);
  // Renumbered (another reference face), moved 1 mm: each corner still gets its own impulse.
  const geometry::ContactSet after = Corners({2, 0, 3, 1}, 5, 1e-3);
  Eigen::VectorXd warm;
  WarmStartContacts(after, Frames(after), X, cache, warm);
  const int was[4] = {2, 0, 3, 1};
  for (int k = 0; k < 4; ++k) {
    EXPECT_TRUE(warm.segment<3>(3 * k).isApprox(impulses.segment<3>(3 * was[k]), 1e-12)) << k;
  }
  // Another geometry pair, or a point farther than half the corner spacing: nothing.
  const geometry::ContactSet other_pair = Corners({0}, 6);
  WarmStartContacts(other_pair, Frames(other_pair), X, cache, warm);
  EXPECT_EQ(warm.norm(), 0.0);
  geometry::ContactSet centre = Corners({0}, 5);
  centre.contacts[0].point.setZero();  // 0.14 m from every corner, which are 0.2 m apart
  WarmStartContacts(centre, Frames(centre), X, cache, warm);
  EXPECT_EQ(warm.norm(), 0.0);
}

TEST(WarmStart, ImpulsesFollowTheContactFrameAndTheBody) {
  // A lone contact on a body that moved 5 cm and turned: matched in the body's frame, and its
  // impulse re-expressed in the new contact frame (same world vector).
  std::vector<math::Transform> X(1);
  geometry::ContactSet set = Corners({0}, 9);
  const Eigen::Vector3d impulse_nto(2.0, 0.3, -0.1);
  std::vector<PersistentContact> cache;
  RememberContacts(set, Frames(set), impulse_nto, X, cache);
  const Eigen::Vector3d world = math::ContactFrame(set.contacts[0].normal) * impulse_nto;
  X[0].R = Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  X[0].p = Eigen::Vector3d(0.05, 0, 0);
  set.contacts[0].point = X[0].Apply(set.contacts[0].point);
  set.contacts[0].normal = Eigen::Vector3d(0.1, 0, 1).normalized();
  Eigen::VectorXd warm;
  WarmStartContacts(set, Frames(set), X, cache, warm);
  EXPECT_TRUE((math::ContactFrame(set.contacts[0].normal) * warm.head<3>()).isApprox(world, 1e-12));
}

// Joint limits posed as contacts share the cache with geometric contacts (so checkpoints carry
// them) under keys no geometry pair takes: each limit gets back its own normal impulse, by DoF and
// side, whatever the order of this step's limits and next to the geometric contacts.
TEST(WarmStart, LimitContactsKeepTheirImpulsesByJointAndSide) {
  const std::vector<math::Transform> X(1);
  const geometry::ContactSet corners = Corners({0, 1, 2, 3}, (std::uint64_t{1} << 40) - 1);
  Eigen::VectorXd impulses = Eigen::VectorXd::LinSpaced(12, 1, 12);
  std::vector<PersistentContact> cache;
  RememberContacts(corners, Frames(corners), impulses, X, cache);
  std::vector<contact::LimitContact> limits(3);
  limits[0].dof = 7, limits[0].side = -1;
  limits[1].dof = 2, limits[1].side = 1;
  limits[2].dof = 7, limits[2].side = 1;
  const Eigen::Vector3d impulse0(0.5, 0, 0), impulse1(0.25, 0, 0), impulse2(0.125, 0, 0);
  Eigen::VectorXd limit_impulses(9);
  limit_impulses << impulse0, impulse1, impulse2;
  RememberLimitContacts(limits, limit_impulses, cache);
  // Next step: the lower limit of DoF 7 is out of reach, DoF 3's upper limit is new.
  std::vector<contact::LimitContact> next(3);
  next[0].dof = 2, next[0].side = 1;
  next[1].dof = 3, next[1].side = -1;
  next[2].dof = 7, next[2].side = -1;
  Eigen::VectorXd warm = Eigen::VectorXd::Constant(9, -1);
  WarmStartLimitContacts(next, cache, warm);
  Eigen::VectorXd expected(9);
  expected << 0.25, 0, 0, 0, 0, 0, 0.5, 0, 0;
  EXPECT_EQ(warm, expected);
  // The geometric contacts still find theirs.
  Eigen::VectorXd geometric;
  WarmStartContacts(corners, Frames(corners), X, cache, geometric);
  EXPECT_EQ(geometric, impulses);
}

}  // namespace
}  // namespace coulomb::sim
