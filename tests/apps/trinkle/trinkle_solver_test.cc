// Paper 1's model on scenes with closed-form answers. Every "solved" answer must also pass the
// model checker (which SolveTrinkle runs; the tests re-run it to be sure).

#include "apps/coulomb/trinkle/trinkle_solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "apps/coulomb/trinkle/cone_newton.h"
#include "apps/coulomb/trinkle/trinkle_scenes.h"
#include "apps/coulomb/trinkle/trinkle_system.h"

namespace coulomb::trinkle {
namespace {

constexpr double kG = 9.81;
const Eigen::Vector3d kHalf(0.3, 0.2, 0.05);  // low box: never tips in these tests

// A box resting flat on the ground z = 0 (normal +z), gravity −z.
TrinkleProblem BoxOnGround(double mu, const Eigen::Vector3d& velocity = Eigen::Vector3d::Zero()) {
  TrinkleProblem p;
  const Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  TrinkleObject box = MakeBox(kHalf, 1000, Eigen::Vector3d(0, 0, kHalf.z()), R, {0, 0, -kG});
  box.linear_velocity = velocity;
  p.objects.push_back(box);
  p.contacts = BoxOnPlaneContacts(box, 0, kHalf, R, Eigen::Vector3d::UnitZ(), mu);
  return p;
}

// A box on a plane inclined by `slope` about the y axis (gravity keeps pointing −z). The
// contact tangent is rotated by `frame_angle` about the plane normal from the downhill direction.
TrinkleProblem BoxOnIncline(double mu, double slope, double frame_angle) {
  TrinkleProblem p;
  const Eigen::Matrix3d R = Eigen::AngleAxisd(slope, Eigen::Vector3d::UnitY()).toRotationMatrix();
  const Eigen::Vector3d n = R * Eigen::Vector3d::UnitZ();
  const TrinkleObject box =
      MakeBox(kHalf, 1000, R * Eigen::Vector3d(0, 0, kHalf.z()), R, {0, 0, -kG});
  p.objects.push_back(box);
  p.contacts = BoxOnPlaneContacts(box, 0, kHalf, R, n, mu);
  const Eigen::Vector3d downhill = (Eigen::Vector3d(0, 0, -1) - n * -n.z()).normalized();
  const Eigen::Vector3d t = Eigen::AngleAxisd(frame_angle, n) * downhill;
  for (TrinkleContact& c : p.contacts) c.tangent = t;
  return p;
}

void ExpectCheckedSolution(const TrinkleProblem& p, const TrinkleSolution& s) {
  ASSERT_EQ(s.status, LcpStatus::kSolved) << s.message;
  EXPECT_TRUE(s.check.ok) << s.check.Summary();
  // The checker is run again here, independently of SolveTrinkle's own run.
  CheckOptions options;
  options.cone_model = s.refinements > 0;
  options.tolerance = s.check.tolerance;
  EXPECT_TRUE(CheckTrinkleSolution(p, BuildTrinkleSystem(p), s, options).ok);
}

TEST(TrinkleSolver, BoxAtRestStaysAtRest) {
  const TrinkleProblem p = BoxOnGround(0.5);
  const TrinkleSolution s = SolveTrinkle(p);
  ExpectCheckedSolution(p, s);
  EXPECT_EQ(s.lcp.lcp.size(), 20);  // n_S + 5 n_R = 0 + 5·4 (eq. 37–39)
  EXPECT_LT(s.acceleration.head<6>().norm(), 1e-9);
  double normal_sum = 0;
  for (int j = 0; j < 4; ++j) normal_sum += s.forces[3 * j];
  EXPECT_NEAR(normal_sum, p.objects[0].mass * kG, 1e-9 * p.objects[0].mass * kG);
}

TEST(TrinkleSolver, SlidingBoxDeceleratesAtMuG) {
  for (const double mu : {0.1, 0.4, 0.9}) {
    const TrinkleProblem p = BoxOnGround(mu, Eigen::Vector3d(1.5, -0.5, 0));
    const TrinkleSolution s = SolveTrinkle(p);
    ExpectCheckedSolution(p, s);
    EXPECT_EQ(s.num_sliding, 4);
    EXPECT_EQ(s.lcp.lcp.size(), 4);  // n_S
    const Eigen::Vector3d expected = -mu * kG * Eigen::Vector3d(1.5, -0.5, 0).normalized();
    EXPECT_LT((s.acceleration.head<3>() - expected).norm(), 1e-9) << "mu " << mu;
    EXPECT_LT(s.acceleration.segment<3>(3).norm(), 1e-8);
  }
}

TEST(TrinkleSolver, InclineSticksOrSlidesAsCoulombSays) {
  const double slope = std::numbers::pi / 6;  // tan 30° = 0.577
  const TrinkleSolution stick = SolveTrinkle(BoxOnIncline(0.7, slope, 0));
  ExpectCheckedSolution(BoxOnIncline(0.7, slope, 0), stick);
  EXPECT_LT(stick.acceleration.head<3>().norm(), 1e-9);
  // Impending slip (rolling contacts, μ = 0.5 < tan 30°): the pyramid aligned with the slope
  // gives the exact Coulomb answer a = g (sin θ − μ cos θ) downhill.
  const TrinkleProblem p = BoxOnIncline(0.5, slope, 0);
  const TrinkleSolution slide = SolveTrinkle(p);
  ExpectCheckedSolution(p, slide);
  EXPECT_NEAR(slide.acceleration.head<3>().norm(), kG * (std::sin(slope) - 0.5 * std::cos(slope)),
              1e-9);
}

TEST(TrinkleSolver, ConeRefinementRemovesThePyramidsAnisotropy) {
  // The square pyramid rotated by 45° to the slope holds up to tan θ = μ √2: with μ = 0.5 and
  // θ = 30° (0.5 < 0.577 < 0.707) it sticks although Coulomb's cone says slide.
  const double slope = std::numbers::pi / 6, mu = 0.5;
  const TrinkleProblem p = BoxOnIncline(mu, slope, std::numbers::pi / 4);
  const TrinkleSolution pyramid = SolveTrinkle(p);
  ExpectCheckedSolution(p, pyramid);
  EXPECT_LT(pyramid.acceleration.head<3>().norm(), 1e-9);
  EXPECT_GT(pyramid.max_cone_ratio, 1.0 + 1e-3);  // outside the cone: not a cone solution
  const TrinkleSolution cone = SolveTrinkleCone(p);
  ExpectCheckedSolution(p, cone);
  EXPECT_GT(cone.refinements, 0);
  EXPECT_LE(cone.max_cone_ratio, 1.0 + 1e-12);
  EXPECT_LE(cone.check.tolerance, 2e-6);
  EXPECT_NEAR(cone.acceleration.head<3>().norm(), kG * (std::sin(slope) - mu * std::cos(slope)),
              1e-6);
}

TEST(TrinkleSolver, DirectConeSolverAgreesWithRefinement) {
  const double slope = std::numbers::pi / 6, mu = 0.5;
  for (const double frame : {0.0, std::numbers::pi / 4, 1.0}) {
    const TrinkleProblem p = BoxOnIncline(mu, slope, frame);
    const TrinkleSolution direct = SolveTrinkleConeDirect(p);
    ASSERT_EQ(direct.status, LcpStatus::kSolved) << direct.message;
    EXPECT_TRUE(direct.check.ok) << direct.check.Summary();
    const TrinkleSolution refined = SolveTrinkleCone(p);
    ASSERT_EQ(refined.status, LcpStatus::kSolved) << refined.message;
    // Coulomb's answer does not depend on the frame; the body accelerations agree.
    const double expected = kG * (std::sin(slope) - mu * std::cos(slope));
    EXPECT_NEAR(direct.acceleration.head<3>().norm(), expected, 1e-9);
    EXPECT_LT((direct.acceleration.head<6>() - refined.acceleration.head<6>()).norm(), 1e-5);
  }
  // Sticking: both find rest.
  const TrinkleSolution stick = SolveTrinkleConeDirect(BoxOnIncline(0.7, slope, 0.3));
  ASSERT_EQ(stick.status, LcpStatus::kSolved);
  EXPECT_LT(stick.acceleration.head<3>().norm(), 1e-9);
}

TEST(TrinkleSolver, FrictionlessIsLoetstedtsLcp) {
  TrinkleProblem p = BoxOnGround(0.5);
  p.frictionless = true;
  p.objects[0].external_wrench.head<3>() += Eigen::Vector3d(7, 0, 0);
  const TrinkleSolution s = SolveTrinkle(p);
  ExpectCheckedSolution(p, s);
  EXPECT_EQ(s.lcp.lcp.size(), 4);  // normals only
  EXPECT_NEAR(s.acceleration[0], 7 / p.objects[0].mass, 1e-9);
}

TEST(TrinkleSolver, SoftFingerHoldsTorqueUpToMuTorsionTimesNormalForce) {
  // A sphere on one soft contact under its centre; a torque about the normal.
  const double m = 2, radius = 0.1, mu_t = 0.02, inertia = 0.4 * m * radius * radius;
  for (const double torque : {0.5 * mu_t * m * kG, 2.0 * mu_t * m * kG}) {
    TrinkleProblem p;
    TrinkleObject ball;
    ball.mass = m;
    ball.inertia = inertia * Eigen::Matrix3d::Identity();
    ball.com = Eigen::Vector3d(0, 0, radius);
    ball.external_wrench << 0, 0, -m * kG, 0, 0, torque;
    p.objects.push_back(ball);
    TrinkleContact c;
    c.a = BodyRef::Object(0);
    c.point = Eigen::Vector3d::Zero();
    c.mu = 0.5;
    c.mu_torsion = mu_t;
    p.contacts.push_back(c);
    const TrinkleSolution s = SolveTrinkle(p);
    ExpectCheckedSolution(p, s);
    EXPECT_EQ(s.lcp.lcp.size(), 7);  // 1 + 4 (pyramid) + 2 (torsion)
    const double expected = std::max(0.0, torque - mu_t * m * kG) / inertia;
    EXPECT_NEAR(s.acceleration[5], expected, 1e-9) << "torque " << torque;
  }
}

// A one-joint vertical prismatic platform (link 0) carrying a box.
TrinkleProblem BoxOnPlatform(double prescribed_acceleration) {
  TrinkleProblem p = BoxOnGround(0.5);
  TrinkleManipulator arm;
  arm.inertia = Eigen::MatrixXd::Constant(1, 1, 5.0);
  arm.joint_velocity = Eigen::VectorXd::Zero(1);
  arm.effort = Eigen::VectorXd::Zero(1);
  arm.gravity_effort = Eigen::VectorXd::Constant(1, 5.0 * kG);
  arm.velocity_product_effort = Eigen::VectorXd::Zero(1);
  arm.known_acceleration = Eigen::VectorXd::Constant(1, prescribed_acceleration);
  TrinkleLink platform;
  platform.jacobian = Eigen::MatrixXd::Zero(6, 1);
  platform.jacobian(2, 0) = 1;  // moves along +z
  arm.links.push_back(platform);
  p.manipulator = arm;
  for (TrinkleContact& c : p.contacts) c.b = BodyRef::Link(0);
  return p;
}

TEST(TrinkleSolver, PrescribedJointAccelerationGivesTheEffort) {
  const double m = BoxOnGround(0.5).objects[0].mass;
  {  // Lift at 2 m/s²: the box follows, c_n = m (g + 2), τ = M a + g_man + c_n.
    const TrinkleProblem p = BoxOnPlatform(2.0);
    const TrinkleSolution s = SolveTrinkle(p);
    ExpectCheckedSolution(p, s);
    EXPECT_NEAR(s.acceleration[2], 2.0, 1e-9);
    EXPECT_NEAR(s.joint_effort[0], 5.0 * 2.0 + 5.0 * kG + m * (kG + 2.0), 1e-7);
  }
  {  // Drop faster than gravity: contact breaks, the box falls freely.
    const TrinkleProblem p = BoxOnPlatform(-2 * kG);
    const TrinkleSolution s = SolveTrinkle(p);
    ExpectCheckedSolution(p, s);
    EXPECT_NEAR(s.acceleration[2], -kG, 1e-9);
    EXPECT_NEAR(s.joint_effort[0], 5.0 * (-2 * kG) + 5.0 * kG, 1e-7);
  }
}

TEST(TrinkleSolver, QuasistaticEquilibriumBalancesForces) {
  TrinkleProblem p = BoxOnGround(0.5);
  p.variant = TrinkleVariant::kQuasistatic;
  const double m = p.objects[0].mass;
  p.objects[0].external_wrench.head<3>() += Eigen::Vector3d(0.3 * m * kG, 0, 0);
  const TrinkleSolution s = SolveTrinkle(p);
  ExpectCheckedSolution(p, s);
  const TrinkleSystem sys = BuildTrinkleSystem(p);
  EXPECT_LT((sys.G * s.forces + sys.force).lpNorm<Eigen::Infinity>(), 1e-8 * m * kG);
  // A push above μ m g has no quasistatic equilibrium.
  p.objects[0].external_wrench[0] = 0.7 * m * kG;
  EXPECT_NE(SolveTrinkle(p).status, LcpStatus::kSolved);
}

TEST(TrinkleSolver, BadInputNamesTheField) {
  TrinkleProblem p = BoxOnGround(0.5);
  p.contacts[2].mu = -0.1;
  TrinkleSolution s = SolveTrinkle(p);
  EXPECT_EQ(s.status, LcpStatus::kBadInput);
  EXPECT_NE(s.message.find("contact 2: mu = -0.1"), std::string::npos) << s.message;
  p = BoxOnGround(0.5);
  p.objects[0].mass = -1;
  s = SolveTrinkle(p);
  EXPECT_NE(s.message.find("object 0: mass"), std::string::npos) << s.message;
}

TEST(TrinkleSolver, ModelCheckerCatchesAWrongAnswer) {
  const TrinkleProblem p = BoxOnGround(0.5);
  TrinkleSolution s = SolveTrinkle(p);
  ASSERT_TRUE(s.check.ok);
  s.forces[1] = 10 * s.forces[0];  // friction far outside the pyramid at contact 0
  const ModelCheck check = CheckTrinkleSolution(p, BuildTrinkleSystem(p), s);
  EXPECT_FALSE(check.ok);
  EXPECT_NE(check.Summary().find("eq. (17) at contact 0"), std::string::npos) << check.Summary();
}

// Each equation group of the checker fires on an answer broken in exactly that way.
TEST(TrinkleSolver, ModelCheckerNamesEachEquationGroup) {
  const auto expect_violation = [](const TrinkleProblem& p, TrinkleSolution s,
                                   const char* equation) {
    const ModelCheck check = CheckTrinkleSolution(p, BuildTrinkleSystem(p), s);
    EXPECT_FALSE(check.ok) << equation;
    EXPECT_NE(check.Summary().find(std::string("eq. ") + equation), std::string::npos)
        << "expected " << equation << " in:\n"
        << check.Summary();
  };
  const TrinkleProblem rest = BoxOnGround(0.5);
  const TrinkleSolution ok = SolveTrinkle(rest);
  ASSERT_TRUE(ok.check.ok);
  TrinkleSolution s = ok;
  s.contact_acceleration[0] = -1.0;  // penetrating
  expect_violation(rest, s, "(9)");
  s = ok;
  s.forces[0] = -1.0;  // pulling
  expect_violation(rest, s, "(11)");
  s = ok;
  s.contact_acceleration[0] = 1.0;  // separating while pushing
  expect_violation(rest, s, "(16)");
  s = ok;
  s.acceleration[2] += 1.0;  // Newton–Euler broken
  expect_violation(rest, s, "(4)-(5)");
  s = ok;
  s.forces[0] = 10.0;
  s.forces[1] = 1.0;                // inside the pyramid ...
  s.contact_acceleration[1] = 1.0;  // ... but not opposing the tangential acceleration
  expect_violation(rest, s, "(18)");
  const TrinkleProblem slide = BoxOnGround(0.5, Eigen::Vector3d(1, 0, 0));
  TrinkleSolution sliding = SolveTrinkle(slide);
  ASSERT_TRUE(sliding.check.ok);
  int loaded = 0;  // the contact carrying the most load
  for (int j = 1; j < 4; ++j)
    loaded = sliding.forces[3 * j] > sliding.forces[3 * loaded] ? j : loaded;
  sliding.forces[3 * loaded + 1] = -sliding.forces[3 * loaded + 1];  // friction along the slip
  expect_violation(slide, sliding, "(12)");
}

}  // namespace
}  // namespace coulomb::trinkle
