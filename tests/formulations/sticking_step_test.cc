// The sticking step (sticking_step.h) on a 10⁶ kg cube resting on a 1 kg cube on the ground,
// where Gauss–Seidel stalls: its answer checked against the ABH certificate of the assembled
// problem (W and q it never forms) and its velocities against v* + M⁻¹ Jᵀ r.

#include "coulomb/formulations/sticking_step.h"

#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/formulations/contact_sweeps.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb {
namespace {

using multibody::Body;
using multibody::JointType;

constexpr double kHalf = 0.1;  // m, half the cubes' side

struct Stack {
  contact::ContactProblem problem;
  ContactRows rows;
  Eigen::VectorXd r;  // a guess inside every cone: the weights spread unevenly
};

Stack MakeStack() {
  multibody::Model model;
  model.gravity = Eigen::Vector3d(0, 0, -9.81);
  for (const double mass : {1.0, 1e6}) {
    Body b;
    b.name = mass > 1 ? "heavy" : "light";
    b.joint = JointType::kFloating;
    b.inertia.mass = mass;
    b.inertia.rotational = mass * (2 * kHalf) * (2 * kHalf) / 6 * Eigen::Matrix3d::Identity();
    model.AddBody(b);
  }
  Eigen::VectorXd q = model.NeutralConfiguration();
  q[2] = kHalf;
  q[7 + 2] = 3 * kHalf;
  geometry::ContactSet set;
  for (int level = 0; level < 2; ++level) {
    for (const double x : {-kHalf, kHalf}) {
      for (const double y : {-kHalf, kHalf}) {
        geometry::Contact c;
        c.body_a = level == 0 ? 0 : 1;
        c.body_b = level == 0 ? -1 : 0;
        c.point = Eigen::Vector3d(x, y, 2 * kHalf * level);
        c.normal = Eigen::Vector3d::UnitZ();
        c.mu = 0.5;
        set.contacts.push_back(c);
      }
    }
  }
  multibody::Data data = multibody::MakeData(model);
  Stack s;
  s.problem = contact::BuildContactProblem(model, data, q, Eigen::VectorXd::Zero(model.nv),
                                           Eigen::VectorXd::Zero(model.nv), set, 1e-3);
  MakeContactRows(s.problem, PositionCorrection{}, s.rows);
  // Each level carries what rests on it, spread 40/30/20/10 over its corners, with a small
  // sideways push: inside the cones, but not an answer.
  const double heavy = 1e6 * 9.81 * 1e-3, both = (1e6 + 1) * 9.81 * 1e-3;
  s.r = Eigen::VectorXd::Zero(24);
  const double share[4] = {0.4, 0.3, 0.2, 0.1};
  for (int k = 0; k < 8; ++k) {
    const double load = (k < 4 ? both : heavy) * share[k % 4];
    s.r.segment<3>(3 * k) = Eigen::Vector3d(load, 0.01 * load, -0.02 * load);
  }
  return s;
}

// The assembled problem's certificate of r, from W and q formed here and nowhere in the step.
FrictionContactCertificate Certify(const Stack& s, const Eigen::VectorXd& r) {
  const LocalContactProblem local = MakeLocalContactProblem(s.problem, PositionCorrection{});
  FrictionContactProblem fc;
  fc.W = local.W;
  fc.q = local.q;
  fc.mu = s.problem.mu;
  return CertifyFrictionContact(fc, r);
}

std::vector<int> AllContacts(const ContactRows& rows) {
  std::vector<int> all(rows.num_contacts());
  std::iota(all.begin(), all.end(), 0);
  return all;
}

TEST(StickingStep, StopsEveryContactOfAHyperstaticStack) {
  Stack s = MakeStack();
  Eigen::VectorXd r = s.r, v;
  VelocityAfterImpulses(s.rows, r, v);
  ASSERT_GT(Certify(s, r).error, 1e-3);  // the guess is far from an answer
  StickingScratch scratch;
  const std::vector<int> all = AllContacts(s.rows);
  ASSERT_TRUE(ApplyStickingStep(s.rows, all, r, v, scratch));
  // Exact but for rounding, which the 10⁶ : 1 masses amplify: impulses of 10⁴ N s on a 1 kg body.
  const FrictionContactCertificate certificate = Certify(s, r);
  EXPECT_LT(certificate.error, 1e-8);
  EXPECT_LT(certificate.u.lpNorm<Eigen::Infinity>(), 1e-10);  // m/s
  // The velocities it left are the impulses' own.
  Eigen::VectorXd v_afresh;
  VelocityAfterImpulses(s.rows, r, v_afresh);
  EXPECT_LT((v - v_afresh).norm(), 1e-9 * (1 + v_afresh.norm()));
  // Undone, exactly what was there.
  UndoStickingStep(all, r, v, scratch);
  EXPECT_EQ(r, s.r);
  Eigen::VectorXd v_before;
  VelocityAfterImpulses(s.rows, s.r, v_before);
  EXPECT_EQ(v, v_before);
}

TEST(StickingStep, LeavesAnIslandWithASlidingContactToNewton) {
  Stack s = MakeStack();
  Eigen::VectorXd r = s.r, v;
  r.segment<2>(4) = Eigen::Vector2d(0.5 * r[3], 0);  // contact 1 on its cone's boundary
  VelocityAfterImpulses(s.rows, r, v);
  const Eigen::VectorXd r_before = r, v_before = v;
  StickingScratch scratch;
  EXPECT_FALSE(ApplyStickingStep(s.rows, AllContacts(s.rows), r, v, scratch));
  EXPECT_EQ(r, r_before);
  EXPECT_EQ(v, v_before);
}

// Inside the sweeps: stalled Gauss–Seidel without the step, solved with it.
TEST(StickingStep, SolvesTheIslandGaussSeidelStallsOn) {
  const Stack s = MakeStack();
  ContactSweepParams params;
  params.tolerance = 1e-8;
  params.stop_on_stall = true;
  ContactSweepResult plain, with_step;
  SolveContactSweeps(s.rows, params, s.r, plain);
  EXPECT_EQ(plain.status, LcpStatus::kStalled) << plain.message;
  params.sticking_step = true;
  SolveContactSweeps(s.rows, params, s.r, with_step);
  ASSERT_TRUE(with_step.solved()) << with_step.message;
  EXPECT_EQ(with_step.sticking_steps, 1);
  const FrictionContactCertificate certificate = Certify(s, with_step.r);
  EXPECT_LT(certificate.error, 1e-8);
  // Both measures are rounding here (~1e-9 with 10⁴ N s impulses on a 1 kg body).
  EXPECT_NEAR(certificate.error, with_step.error, 2e-9);
}

}  // namespace
}  // namespace coulomb
