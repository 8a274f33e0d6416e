// Anderson acceleration of the contact sweeps (sweep_acceleration.h) on a pile, checked against
// the assembled problem it never forms: the accelerated answer passes the ABH certificate computed
// from the assembled W and q, its velocities are v* + M⁻¹ Jᵀ r (the mixed iterates kept v(r)),
// and it gets there in fewer sweeps than plain Gauss–Seidel from the same start.

#include "coulomb/formulations/sweep_acceleration.h"

#include <gtest/gtest.h>

#include <string>

#include "coulomb/base/random.h"
#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/multibody/dynamics.h"
#include "tests/support/assembled_check.h"

namespace coulomb {
namespace {

// A 5 × 5 × 4 cubic packing of unit spheres on the ground, each touching the ones beside and
// below it: one island of 25 + 75 + 160 = 260 contacts, hyperstatic, thrown downwards and
// sideways at random so that some contacts stick, some slide and some open.
contact::ContactProblem MakePile() {
  constexpr int kSide = 5, kHeight = 4;
  multibody::Model model;
  const auto index = [](int i, int j, int k) { return (k * kSide + j) * kSide + i; };
  for (int n = 0; n < kSide * kSide * kHeight; ++n) {
    multibody::Body b;
    b.name = "sphere" + std::to_string(n);
    b.joint = multibody::JointType::kFloating;
    b.inertia.mass = 1.0;
    b.inertia.rotational = 0.1 * Eigen::Matrix3d::Identity();
    model.AddBody(b);
  }
  Eigen::VectorXd q = model.NeutralConfiguration();
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv);
  SplitMix64 rng(11);
  geometry::ContactSet contacts;
  const auto add = [&](int a, int b, const Eigen::Vector3d& p, const Eigen::Vector3d& n) {
    geometry::Contact c;
    c.body_a = a;
    c.body_b = b;
    c.point = p;
    c.normal = n;
    c.mu = 0.4;
    contacts.contacts.push_back(c);
  };
  for (int k = 0; k < kHeight; ++k) {
    for (int j = 0; j < kSide; ++j) {
      for (int i = 0; i < kSide; ++i) {
        const int n = index(i, j, k);
        const Eigen::Vector3d centre(i, j, 0.5 + k);
        q.segment<3>(7 * n) = centre;
        v.segment<3>(6 * n) =
            Eigen::Vector3d(rng.Uniform(-0.2, 0.2), rng.Uniform(-0.2, 0.2), rng.Uniform(-1.0, 0.0));
        v.segment<3>(6 * n + 3) = Eigen::Vector3d(rng.Uniform(-1, 1), rng.Uniform(-1, 1), 0);
        add(n, k == 0 ? -1 : index(i, j, k - 1), centre - Eigen::Vector3d(0, 0, 0.5),
            Eigen::Vector3d::UnitZ());
        if (i > 0)
          add(n, index(i - 1, j, k), centre - Eigen::Vector3d(0.5, 0, 0), Eigen::Vector3d::UnitX());
        if (j > 0)
          add(n, index(i, j - 1, k), centre - Eigen::Vector3d(0, 0.5, 0), Eigen::Vector3d::UnitY());
      }
    }
  }
  multibody::Data data = multibody::MakeData(model);
  return contact::BuildContactProblem(model, data, q, v, Eigen::VectorXd::Zero(model.nv), contacts,
                                      1e-3);
}

ContactSweepResult Sweep(const ContactRows& rows, int depth) {
  ContactSweepParams params;
  params.tolerance = 1e-9;
  params.max_sweeps = 20000;
  params.acceleration_depth = depth;
  ContactSweepResult result;
  SolveContactSweeps(rows, params, {}, result);
  return result;
}

TEST(SweepAcceleration, PileAnswerPassesTheAssembledCertificateInFewerSweeps) {
  const contact::ContactProblem problem = MakePile();
  ContactRows rows;
  MakeContactRows(problem, PositionCorrection{}, rows);
  ASSERT_EQ(rows.num_islands(), 1);
  ASSERT_EQ(rows.num_contacts(), 260);
  const ContactSweepResult plain = Sweep(rows, 0);
  const ContactSweepResult accelerated = Sweep(rows, kDefaultAccelerationDepth);
  ASSERT_TRUE(plain.solved()) << plain.message;
  ASSERT_TRUE(accelerated.solved()) << accelerated.message;
  ExpectAssembledCertificate(problem, accelerated, 1e-9, 1e-11, 1e-10);
  // Some contacts slide and some open, so the map is only piecewise smooth: the history restarts.
  EXPECT_GT(accelerated.acceleration.restarts, 0);
  EXPECT_LT(accelerated.sweeps, plain.sweeps / 2) << plain.sweeps;
}

// Depth 0 is plain Gauss–Seidel, bit for bit; a small island is never accelerated.
TEST(SweepAcceleration, OffOrSmallIslandsLeaveTheSweepsAsTheyWere) {
  const contact::ContactProblem problem = MakePile();
  ContactRows rows;
  MakeContactRows(problem, PositionCorrection{}, rows);
  ContactSweepParams params;
  params.tolerance = 1e-9;
  params.max_sweeps = 20000;
  ContactSweepResult off, small;
  SolveContactSweeps(rows, params, {}, off);
  params.acceleration_depth = 5;
  params.accelerated_island_contacts = rows.num_contacts();
  SolveContactSweeps(rows, params, {}, small);
  EXPECT_EQ(off.r, small.r);
  EXPECT_EQ(off.v, small.v);
  EXPECT_EQ(off.sweeps, small.sweeps);
}

}  // namespace
}  // namespace coulomb
