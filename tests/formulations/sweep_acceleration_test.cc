// Anderson acceleration of the contact sweeps (sweep_acceleration.h) on a pile, checked against
// the assembled problem it never forms: the accelerated answer passes the ABH certificate computed
// from the assembled W and q, its velocities are v* + M⁻¹ Jᵀ r (the mixed iterates kept v(r)),
// and it gets there in fewer sweeps than plain Gauss–Seidel from the same start.

#include "coulomb/formulations/sweep_acceleration.h"

#include <gtest/gtest.h>

#include "coulomb/base/thread_pool.h"
#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/formulations/pyramid_contact.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"
#include "tests/support/assembled_check.h"
#include "tests/support/sphere_pile.h"

namespace coulomb {
namespace {

// A 5 × 5 × 4 cubic packing of spheres: one island of 25 + 75 + 160 = 260 contacts.
contact::ContactProblem MakePile() {
  return testing::MakeSpherePile(5, 4, 11);
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

// The velocity LCP's law, the Stewart–Trinkle pyramid, accelerated the same way: the answer's
// (p_n, β, λ), laid out as the full LCP of the assembled W (stewart_trinkle_lcp.h), solves that
// LCP to the tolerance, each contact's r is its z's impulse (no mixed iterate is returned), and
// it takes fewer sweeps than plain Gauss–Seidel from the same start.
TEST(SweepAcceleration, PyramidPileAnswerSolvesTheAssembledLcpInFewerSweeps) {
  const contact::ContactProblem problem = MakePile();
  ContactRows rows;
  MakeContactRows(problem, PositionCorrection{}, rows);
  constexpr int kDirections = 4;
  constexpr double kTolerance = 1e-8;
  ContactSweepParams params;
  params.law = ContactLaw::kPyramid;
  params.directions = kDirections;
  params.tolerance = kTolerance;
  params.max_sweeps = 20000;
  ContactSweepResult plain, accelerated;
  SolveContactSweeps(rows, params, {}, plain);
  params.acceleration_depth = kDefaultAccelerationDepth;
  SolveContactSweeps(rows, params, {}, accelerated);
  ASSERT_TRUE(plain.solved()) << plain.message;
  ASSERT_TRUE(accelerated.solved()) << accelerated.message;
  EXPECT_LT(accelerated.sweeps, plain.sweeps / 2) << plain.sweeps;  // 112 against 460
  const LocalContactProblem local = MakeLocalContactProblem(problem, PositionCorrection{});
  const LcpProblem lcp =
      MakeStewartTrinkleLcp(Eigen::MatrixXd(local.W), local.q, problem.mu, kDirections);
  const int nc = problem.num_contacts(), d = kDirections;
  const PyramidDirections directions = MakePyramidDirections(d);
  const Eigen::VectorXd z = StewartTrinkleUnknowns(accelerated, nc, d);
  for (int k = 0; k < nc; ++k) {
    const double* zk = accelerated.pyramid.data() + (d + 2) * k;
    EXPECT_EQ(accelerated.r.segment<3>(3 * k), PyramidContactImpulse(zk, directions)) << k;
  }
  const Eigen::VectorXd w = lcp.M * z + lcp.q;
  const double scale = std::max(1.0, local.q.lpNorm<Eigen::Infinity>());
  EXPECT_GE(z.minCoeff(), 0.0);
  EXPECT_LE(z.cwiseMin(w).cwiseAbs().maxCoeff(), 2 * kTolerance * scale);
  const Eigen::VectorXd v = problem.v_star + local.MinvJt * accelerated.r;
  EXPECT_LT((v - accelerated.v).norm(), 1e-10 * (1 + v.norm()));
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

// The Anderson step's two passes on two threads: the same bits as on one (to 1e-4, which this
// hyperstatic packing takes ~400 sweeps to reach), since every inner
// product is summed piece by piece in piece order (a 12 × 12 × 4 pile: 1 632 contacts, 7 pieces
// of contacts and 3 of velocities). The island is swept in parts, so that its sweeps, and with
// them the Anderson step, run on the workers (an island swept in order keeps its step on the
// caller).
TEST(SweepAcceleration, TwoThreadsGiveTheBitsOfOne) {
  const contact::ContactProblem problem = testing::MakeSpherePile(12, 4, 3);
  ContactRows rows;
  MakeContactRows(problem, PositionCorrection{}, rows);
  ASSERT_EQ(rows.num_islands(), 1);
  ASSERT_GT(rows.num_contacts(), 4 * kAccelerationPiece) << "too few pieces for two threads";
  ContactSweepParams params;
  params.tolerance = 1e-4;
  params.max_sweeps = 3000;
  params.acceleration_depth = kDefaultAccelerationDepth;
  params.island_parts = 4;
  params.partitioned_island_contacts = rows.num_contacts();
  ContactSweepResult one, two;
  SolveContactSweeps(rows, params, {}, one);
  ThreadPool workers(2);
  params.workers = &workers;
  SolveContactSweeps(rows, params, {}, two);
  ASSERT_EQ(two.partitioned_islands, 1);
  ASSERT_TRUE(one.solved()) << one.message;
  ExpectAssembledCertificate(problem, one, 1e-4, 1e-8, 1e-9);
  EXPECT_EQ(one.sweeps, two.sweeps);
  EXPECT_EQ(one.r, two.r);
  EXPECT_EQ(one.v, two.v);
}

}  // namespace
}  // namespace coulomb
