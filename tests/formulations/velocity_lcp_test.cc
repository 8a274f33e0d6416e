// The velocity-level formulations (pyramid LCP and exact cone), end to end through sim::Step
// (geometry, contact assembly, multibody): a box on a 30° incline against the analytic slide, and a
// stack; and the LCP formulations' switch away from pivoting on problems above its size limit.

#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/trinkle/polygonal_friction_lcp.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/multibody/dynamics.h"
#include "coulomb/sim/simulate.h"
#include "coulomb/sim/step.h"
#include "tests/support/formulation_names.h"

namespace coulomb {
namespace {

using multibody::Body;
using multibody::JointType;

// A free cube of side 2h and mass m.
int AddCube(multibody::Model& model, geometry::CollisionWorld& world, double h, double m,
            double mu) {
  Body box;
  box.name = "cube" + std::to_string(model.bodies.size());
  box.joint = JointType::kFloating;
  box.inertia.mass = m;
  box.inertia.rotational = (m * 4 * h * h / 6) * Eigen::Matrix3d::Identity();
  const int body = model.AddBody(box);
  world.Add({box.name, body, geometry::Box{Eigen::Vector3d::Constant(h)}, {}, mu});
  return body;
}

void Place(const multibody::Model& model, int body, const Eigen::Matrix3d& R,
           const Eigen::Vector3d& p, Eigen::VectorXd& q) {
  const int at = model.bodies[body].q_index;
  q.segment<3>(at) = p;
  const Eigen::Quaterniond r(R);
  q.segment<4>(at + 3) << r.w(), r.x(), r.y(), r.z();
}

struct InclineRun {
  double slide = 0;
  double max_penetration = 0;
  bool all_solved = true;
  int pivot_free_steps = 0;  // steps whose solver reported 0 iterations
  double worst_pivot_free_residual = 0;
};

// A 0.2 m cube (1 kg) released at rest on a plane tilted by `slope` about y, for `seconds`.
InclineRun RunIncline(double mu, double slope, double seconds, double h,
                      const FormulationSettings& settings) {
  sim::Model m;
  AddCube(m.multibody, m.world, 0.1, 1.0, mu);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(slope, Eigen::Vector3d::UnitY()).toRotationMatrix();
  m.world.Add({"incline", -1, geometry::HalfSpace{}, {R, Eigen::Vector3d::Zero()}, mu});
  m.time_step = h;
  m.settings = settings;
  sim::State initial = sim::MakeRestState(m.multibody);
  Place(m.multibody, 0, R, R * Eigen::Vector3d(0, 0, 0.1), initial.q);
  sim::Data data = sim::MakeData(m, initial);
  const Eigen::VectorXd& q = data.state.q;
  const Eigen::Vector3d start = q.head<3>();
  InclineRun run;
  for (int step = 0; step < static_cast<int>(std::round(seconds / h)); ++step) {
    const sim::StepReport& report = sim::Step(m, data);
    run.all_solved = run.all_solved && report.status == LcpStatus::kSolved;
    run.max_penetration = std::max(run.max_penetration, report.max_penetration);
    if (report.iterations == 0 && report.num_contacts() > 0) {
      ++run.pivot_free_steps;
      run.worst_pivot_free_residual = std::max(run.worst_pivot_free_residual, report.residual);
    }
  }
  const Eigen::Vector3d downhill =
      R * Eigen::Vector3d(-1, 0, 0);  // x tilted down for +slope about y
  run.slide = (q.head<3>() - start).dot(downhill.z() < 0 ? downhill : Eigen::Vector3d(-downhill));
  return run;
}

// Every velocity-level formulation must pass the same physics checks.
class SteppingTest : public ::testing::TestWithParam<const Formulation*> {
 protected:
  FormulationSettings Settings() const {
    FormulationSettings settings;
    settings.formulation = GetParam();
    return settings;
  }
};

TEST_P(SteppingTest, BoxSlidesDownTheInclineAsCoulombPredicts) {
  const double slope = std::numbers::pi / 6, g = 9.81;
  const InclineRun run = RunIncline(0.5, slope, 1.0, 1e-3, Settings());
  EXPECT_TRUE(run.all_solved);
  const double analytic = 0.5 * g * (std::sin(slope) - 0.5 * std::cos(slope));  // 0.3286 m
  EXPECT_NEAR(run.slide, analytic, 0.01 * analytic) << "slide " << run.slide;
  RecordProperty("slide_m", std::to_string(run.slide));
  EXPECT_LT(run.max_penetration, 1e-3);
}

TEST_P(SteppingTest, BoxSticksWhenFrictionSuffices) {
  const InclineRun run = RunIncline(0.7, std::numbers::pi / 6, 0.5, 1e-3, Settings());
  EXPECT_TRUE(run.all_solved);
  EXPECT_LT(std::abs(run.slide), 1e-4);
}

TEST_P(SteppingTest, StackOfFiveCubesStands) {
  // Box–box manifolds (four corners each) and redundant contacts: the LCP is degenerate, and
  // the stack must neither drift nor sink over 2 s at h = 2 ms.
  sim::Model m;
  for (int k = 0; k < 5; ++k) AddCube(m.multibody, m.world, 0.1, 1.0, 0.5);
  m.world.Add({"ground", -1, geometry::HalfSpace{}, {}, 0.5});
  m.time_step = 2e-3;
  m.settings = Settings();
  sim::State initial = sim::MakeRestState(m.multibody);
  for (int k = 0; k < 5; ++k) {
    Place(m.multibody, k, Eigen::Matrix3d::Identity(), Eigen::Vector3d(0, 0, 0.1 + 0.2 * k),
          initial.q);
  }
  sim::Data data = sim::MakeData(m, initial);
  const Eigen::VectorXd &q = data.state.q, &v = data.state.v;
  const multibody::Model& model = m.multibody;
  int max_contacts = 0;
  for (int step = 0; step < 1000; ++step) {
    const sim::StepReport& r = sim::Step(m, data);
    ASSERT_EQ(r.status, LcpStatus::kSolved) << "step " << step;
    ASSERT_EQ(r.unsupported_pairs, 0);
    max_contacts = std::max(max_contacts, r.num_contacts());
  }
  // 4 corners at each of the 5 interfaces; a slightly twisted face adds clipped edge points.
  EXPECT_GE(max_contacts, 20);
  const Eigen::Vector3d top = q.segment<3>(model.bodies[4].q_index);
  EXPECT_LT((top - Eigen::Vector3d(0, 0, 0.9)).norm(), 1e-3) << top.transpose();
  EXPECT_LT(v.norm(), 1e-3);
}

}  // namespace
}  // namespace coulomb

namespace coulomb {
namespace {
TEST_P(SteppingTest, CompliantContactDeflectsByComplianceTimesLoad) {
  // Two foam surfaces (1e-4 m/N each, in series) under a 1 kg ball: the rest deflection is
  // (c_a + c_b) m g = 1.962 mm.
  Expected<sim::Scene> scene = io::ParseScene(R"(coulomb: 1
duration: 1.0
materials: {foam: {friction: 0.5, compliance: 1.0e-4}}
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, material: foam}]}
  - {name: ball, mass: 1.0, position: [0, 0, 0.1], shapes: [{type: sphere, radius: 0.1, material: foam}]}
)",
                                              "soft.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  scene.value().model.settings = Settings();
  sim::Recording recording;
  const sim::RunSummary summary = sim::Simulate(scene.value(), &recording);
  EXPECT_EQ(summary.failed_steps, 0);
  const double deflection = 0.1 - recording.frames.back().q[2];
  EXPECT_NEAR(deflection, 2e-4 * 9.81, 0.01 * 2e-4 * 9.81);
}
INSTANTIATE_TEST_SUITE_P(Formulations, SteppingTest,
                         ::testing::Values(testing_support::Named("velocity-lcp"),
                                           testing_support::Named("cone")),
                         testing_support::FormulationTestName);
}  // namespace
}  // namespace coulomb

namespace coulomb {
namespace {

// Three 0.2 m cubes stacked on the ground for 0.1 s under `formulation`, with Lemke asked for and
// max_pivoting_rows = 30 (below the stack's LCP size): the summary and the recording.
struct ThreeCubeRun {
  sim::Scene scene;
  sim::Recording recording;
  sim::RunSummary summary;
  double TopCubeHeight() const {
    return recording.frames.back().q[scene.model.multibody.bodies.back().q_index + 2];
  }
};

ThreeCubeRun RunThreeCubesWithPivotingLimit(
    const std::string& formulation,
    const std::string& solver = "{name: lemke, max_pivoting_rows: 30}") {
  Expected<sim::Scene> scene = io::ParseScene(
      "coulomb: 1\nduration: 0.1\nformulation: " + formulation + "\nsolver: " + solver + R"(

materials: {wood: {friction: 0.5}}
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, material: wood}]}
  - {name: cube, mass: 1.0, position: [0, 0, 0.1], array: {count: [1, 1, 3], spacing: [0, 0, 0.2]},
     shapes: [{type: box, size: [0.2, 0.2, 0.2], material: wood}]}
)",
      "stack3.yaml", ".");
  ThreeCubeRun run;
  if (!scene.ok()) {
    ADD_FAILURE() << scene.error().ToString();
    return run;  // no frames: the tests stop at their ASSERT
  }
  run.scene = std::move(scene.value());
  run.summary = sim::Simulate(run.scene, &run.recording);
  return run;
}

// Every step of `run` certified, `switch_text` in its solver switch, and the stack standing: the
// top cube has not moved a millimetre.
void ExpectCertifiedStandingStack(const ThreeCubeRun& run, const std::string& switch_text) {
  ASSERT_FALSE(run.recording.frames.empty());
  EXPECT_EQ(run.summary.failed_steps, 0) << run.summary.first_failure;
  EXPECT_NE(run.summary.solver_switch.find(switch_text), std::string::npos)
      << run.summary.solver_switch;
  EXPECT_NEAR(run.TopCubeHeight(), 0.5, 1e-3);
}

// A problem beyond max_pivoting_rows runs the block Gauss–Seidel, certified, and the run says
// which solver ran instead of the one asked for, and why.
TEST(VelocityLcp, TooLargeForPivotingRunsGaussSeidelAndSaysSo) {
  // 12 contacts × (4 + 2) = 72 rows > 30.
  ExpectCertifiedStandingStack(
      RunThreeCubesWithPivotingLimit("velocity-lcp"),
      "72 LCP rows exceed solver.max_pivoting_rows = 30 for lemke: block Gauss-Seidel (pgs)");
}

// Gauss–Seidel that stops uncertified (here after its one allowed sweep) on a problem within
// twice max_pivoting_rows hands it to Lemke, whose answer is taken only if it passes the LCP
// certificate; the run says so.
TEST(VelocityLcp, StalledGaussSeidelWithinTwiceThePivotingLimitIsRescuedByLemke) {
  ExpectCertifiedStandingStack(
      RunThreeCubesWithPivotingLimit("velocity-lcp",
                                     "{name: lemke, max_pivoting_rows: 40, max_sweeps: 1}"),
      "pgs stopped (sweep limit reached");
  // Beyond twice the limit there is no rescue: the one sweep fails the steps.
  const ThreeCubeRun alone = RunThreeCubesWithPivotingLimit(
      "velocity-lcp", "{name: lemke, max_pivoting_rows: 30, max_sweeps: 1}");
  EXPECT_GT(alone.summary.failed_steps, 0);
}

// Paper 1's acceleration-level stepper likewise: its contact sweeps run instead of Lemke (12
// rolling contacts × 5 = 60 rows > 30), every step is certified, the run says so, and the stack
// stands.
TEST(AccelerationStep, TooLargeForPivotingRunsTheContactSweepsAndSaysSo) {
  ExpectCertifiedStandingStack(
      RunThreeCubesWithPivotingLimit("trinkle"),
      "exceed solver.max_pivoting_rows = 30 for lemke: contact sweeps (pgs) ran instead");
}

// Sweeps that stop uncertified (one allowed) hand the step to the dense LCP: Lemke within twice
// max_pivoting_rows, whose certificate decides; the interior point method above that.
TEST(AccelerationStep, StalledSweepsHandTheStepToTheDenseLcp) {
  const ThreeCubeRun lemke = RunThreeCubesWithPivotingLimit(
      "trinkle", "{name: lemke, max_pivoting_rows: 30, max_sweeps: 1}");
  ExpectCertifiedStandingStack(lemke, "after 1 sweeps; the dense LCP ran");
  EXPECT_EQ(lemke.summary.solver_switch.find("ipm"), std::string::npos)
      << lemke.summary.solver_switch;
  ExpectCertifiedStandingStack(
      RunThreeCubesWithPivotingLimit("trinkle",
                                     "{name: lemke, max_pivoting_rows: 20, max_sweeps: 1}"),
      "exceed twice solver.max_pivoting_rows = 20 for lemke: ipm ran instead");
}

// Paper 1's stepper under pgs (the contact sweeps on every problem): the box slides down the
// 30° incline as Coulomb predicts (eq. 12's sliding rows), sticks where friction suffices (the
// square pyramid's rolling rows), and moves as under Lemke to within the sweeps' tolerance.
TEST(AccelerationStep, ContactSweepsSlideAndStickAsLemkeDoes) {
  const double slope = std::numbers::pi / 6, g = 9.81;
  FormulationSettings lemke;
  lemke.formulation = FindFormulation("trinkle");
  FormulationSettings sweeps = lemke;
  sweeps.trinkle.solver = LcpSolverKind::kProjectedGaussSeidel;
  const InclineRun slide = RunIncline(0.5, slope, 1.0, 1e-3, sweeps);
  const InclineRun slide_lemke = RunIncline(0.5, slope, 1.0, 1e-3, lemke);
  EXPECT_TRUE(slide.all_solved && slide_lemke.all_solved);
  const double analytic = 0.5 * g * (std::sin(slope) - 0.5 * std::cos(slope));  // 0.3286 m
  EXPECT_NEAR(slide.slide, analytic, 0.01 * analytic);
  EXPECT_NEAR(slide.slide, slide_lemke.slide, 1e-5);
  EXPECT_LT(slide.max_penetration, 1e-3);
  const InclineRun stick = RunIncline(0.7, slope, 0.5, 1e-3, sweeps);
  EXPECT_TRUE(stick.all_solved);
  EXPECT_LT(std::abs(stick.slide), 1e-4);
}

}  // namespace
}  // namespace coulomb

namespace coulomb {
namespace {

// Lemke's warm basis under `formulation`, switched by `switch_of`: on the sliding and the
// sticking box the contact set persists, so after the first step the basis implied by last step's
// impulses (forces) is re-solved and certified instead of a pivot path; the motion is the same as
// with Lemke alone.
void ExpectWarmBasisReplacesLemkesPath(const char* formulation,
                                       bool& (*switch_of)(FormulationSettings&)) {
  for (const double mu : {0.5, 0.7}) {  // slides (0.5 < tan 30°) and sticks (0.7)
    FormulationSettings lemke_only;
    lemke_only.formulation = FindFormulation(formulation);
    switch_of(lemke_only) = false;
    FormulationSettings warm = lemke_only;
    switch_of(warm) = true;
    const double slope = std::numbers::pi / 6;
    const InclineRun a = RunIncline(mu, slope, 0.5, 1e-3, lemke_only);
    const InclineRun b = RunIncline(mu, slope, 0.5, 1e-3, warm);
    EXPECT_TRUE(a.all_solved && b.all_solved) << "mu " << mu;
    EXPECT_EQ(a.pivot_free_steps, 0) << "mu " << mu;
    // Every step but the first (no warm start yet) and a few with a new basis.
    EXPECT_GT(b.pivot_free_steps, 450) << "mu " << mu;
    // Taken only at Lemke's usual accuracy, a thousandth of its acceptance tolerance.
    EXPECT_LE(b.worst_pivot_free_residual, 1e-3 * kLcpCertifyTolerance) << "mu " << mu;
    EXPECT_NEAR(b.slide, a.slide, 1e-9) << "mu " << mu;
  }
}

TEST(VelocityLcp, WarmBasisReplacesLemkesPathOnAPersistentContactSet) {
  ExpectWarmBasisReplacesLemkesPath(
      "velocity-lcp", [](FormulationSettings& s) -> bool& { return s.velocity_lcp.warm_basis; });
}

// Paper 1's stepper: its acceleration LCP re-solved from the basis that last step's forces imply.
TEST(AccelerationStep, WarmBasisReplacesLemkesPathOnAPersistentContactSet) {
  ExpectWarmBasisReplacesLemkesPath(
      "trinkle", [](FormulationSettings& s) -> bool& { return s.trinkle.warm_basis; });
}

// The acceleration LCP's basis from one rolling contact's force (square pyramid: facets −t, −o,
// +t, +o; z = (c_n, s_−t, s_−o, λ_+t, λ_+o)).
TEST(ContactLcpBasis, GuessFollowsWhichFacetsTheForceReaches) {
  trinkle::ContactLcpLayout layout;
  layout.num_components = 3;
  layout.unilateral = {0};
  trinkle::FrictionGroup group;
  group.components = {1, 2};
  group.normal = 0;
  group.mu = 0.5;
  group.facets = trinkle::SquareFacets(2);
  layout.groups = {group};
  const trinkle::ContactLcp lcp =
      trinkle::BuildContactLcp(Eigen::Matrix3d::Identity(), Eigen::Vector3d(-1, 0, 0), layout);
  ASSERT_EQ(lcp.lcp.size(), 5);
  std::vector<char> guess;
  Eigen::VectorXd z;
  // Inside the pyramid: every slack positive, no multiplier.
  trinkle::GuessContactLcpBasis(lcp, Eigen::Vector3d(10, 1, 0), guess, z);
  EXPECT_EQ(guess, (std::vector<char>{1, 1, 1, 0, 0}));
  EXPECT_NEAR(z[1], 6.0, 1e-12);  // s_−t = μ c_n + c_t
  EXPECT_NEAR(z[2], 5.0, 1e-12);
  // On the +t facet (c_t = μ c_n): its multiplier joins.
  trinkle::GuessContactLcpBasis(lcp, Eigen::Vector3d(10, 5, 0), guess, z);
  EXPECT_EQ(guess, (std::vector<char>{1, 1, 1, 1, 0}));
  // On the −t facet, a pair facet: its slack leaves.
  trinkle::GuessContactLcpBasis(lcp, Eigen::Vector3d(10, -5, 0), guess, z);
  EXPECT_EQ(guess, (std::vector<char>{1, 0, 1, 0, 0}));
  // Not pressed: nothing.
  trinkle::GuessContactLcpBasis(lcp, Eigen::Vector3d(0, 0, 0), guess, z);
  EXPECT_EQ(guess, (std::vector<char>{0, 0, 0, 0, 0}));
}

// The basis a contact's impulse implies, on the 4-direction pyramid (D_j at 0, 90, 180, 270°).
TEST(StewartTrinkleBasis, GuessFollowsEachContactsRegime) {
  const int d = 4;
  Eigen::VectorXd mu(4);
  mu << 0.5, 0.5, 0.5, 0.0;
  Eigen::VectorXd impulses(12);
  impulses << 2.0, -1.0, 0.0,  // sliding along −t: on the face, leaning on D_2 only
      2.0, 0.3, 0.4,           // sticking between D_0 and D_1 (0.5 < μ p_n = 1)
      0.0, 0.0, 0.0,           // separated
      2.0, 0.0, 0.0;           // frictionless
  std::vector<char> guess;
  Eigen::VectorXd z;
  GuessStewartTrinkleBasis(impulses, mu, d, guess, z);
  const auto beta = [&](int c, int j) { return 4 + c * d + j; };
  const auto lambda = [&](int c) { return 4 + 4 * d + c; };
  ASSERT_EQ(guess.size(), 4u * (d + 2));
  EXPECT_EQ(std::vector<char>(guess.begin(), guess.begin() + 4), (std::vector<char>{1, 1, 0, 1}));
  EXPECT_EQ(guess[beta(0, 2)], 1);
  EXPECT_EQ(guess[beta(0, 0)] + guess[beta(0, 1)] + guess[beta(0, 3)], 0);
  EXPECT_EQ(guess[lambda(0)], 1);
  EXPECT_EQ(guess[beta(1, 0)] + guess[beta(1, 1)], 2);
  EXPECT_EQ(guess[lambda(1)], 0);
  for (int c : {2, 3}) {
    for (int j = 0; j < d; ++j) EXPECT_EQ(guess[beta(c, j)], 0) << c;
    EXPECT_EQ(guess[lambda(c)], 0) << c;
  }
  // z holds the impulses as unknowns: (0.3, 0.4) = 0.3 D_0 + 0.4 D_1.
  EXPECT_NEAR(z[beta(1, 0)], 0.3, 1e-15);
  EXPECT_NEAR(z[beta(1, 1)], 0.4, 1e-15);
  EXPECT_NEAR(z[beta(0, 2)], 1.0, 1e-15);
  // A wrong-sized warm start guesses nothing.
  GuessStewartTrinkleBasis(Eigen::VectorXd::Ones(5), mu, d, guess, z);
  EXPECT_EQ(std::count(guess.begin(), guess.end(), 1), 0);
}

// A contact without friction impulse gets its slip speed λ = max(0, −min_j D_jᵀ u_T): checked on
// one contact of W = I whose free velocity slides along +t at 2 m/s, against the LCP certificate.
TEST(StewartTrinkleBasis, SlipSpeedCompletesAFrictionlessContactsAnswer) {
  const Eigen::MatrixXd W = Eigen::MatrixXd::Identity(3, 3);
  Eigen::VectorXd q(3);
  q << 1.0, 2.0, 0.0;  // separating at 1 m/s, sliding at 2 m/s
  Eigen::VectorXd mu(1);
  mu << 0.5;
  const LcpProblem lcp = MakeStewartTrinkleLcp(W, q, mu, 4);
  Eigen::VectorXd z = Eigen::VectorXd::Zero(lcp.size()), w;
  EXPECT_FALSE(CertifyLcp(lcp, z).Passes());  // λ = 0: w on D_2 is −2
  CompleteSlipSpeeds(lcp, 1, 4, z, w);
  EXPECT_DOUBLE_EQ(z[5], 2.0);
  EXPECT_TRUE(CertifyLcp(lcp, z).Passes(1e-15));
}

}  // namespace
}  // namespace coulomb

namespace coulomb {
namespace {

// A 10⁶ kg cube on a 1 kg cube under the cone's portfolio: Gauss–Seidel stalls (contraction
// 1 − 1e-6), and plain Newton from where it stopped finishes the step. Every step certified, the
// heavy cube does not sink into the light one, and the sweeps hand over once their error stops
// falling from one sweep to the next: 3.4 iterations a step (sweeps plus Newton), where waiting
// for a rate over four sweeps took 11 and the PPA alternation before it 22.
TEST(ConeFormulation, AStalledSmallIslandIsFinishedByPlainNewton) {
  Expected<sim::Scene> scene = io::ParseScene(R"(coulomb: 1
time_step: 0.001
duration: 0.5
formulation: cone
materials: {m: {friction: 0.5}}
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, material: m}]}
  - {name: light, mass: 1.0, position: [0, 0, 0.1],
     shapes: [{type: box, size: [0.2, 0.2, 0.2], material: m}]}
  - {name: heavy, mass: 1.0e6, position: [0, 0, 0.3],
     shapes: [{type: box, size: [0.2, 0.2, 0.2], material: m}]}
)",
                                              "mass_ratio.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  sim::Recording recording;
  const sim::RunSummary summary = sim::Simulate(scene.value(), &recording);
  EXPECT_EQ(summary.failed_steps, 0) << summary.first_failure;
  EXPECT_LT(summary.mean_iterations, 6);
  const int heavy = scene.value().model.multibody.bodies.back().q_index;
  EXPECT_NEAR(recording.frames.back().q[heavy + 2], 0.3, 1e-3);
}

}  // namespace
}  // namespace coulomb

namespace coulomb {
namespace {

// Ten 1 m cubes resting on each other at δt = 1 ms under the cone (the peers' stack_1ms). Inside
// the penetration slop the rounding of φ no longer gives each corner its own target velocity, so
// last step's impulses stay an answer: the sweeps accept them or polish them in a few sweeps,
// and no step is handed to Newton (before the slop: 411 of these 1 000 steps were).
TEST(PenetrationSlop, ARestingStackKeepsLastStepsImpulses) {
  Expected<sim::Scene> scene = io::ParseScene(R"(coulomb: 1
duration: 1.0
time_step: 0.001
formulation: cone
materials: {wood: {friction: 0.5}}
bodies:
  - {name: ground, joint: fixed, shapes: [{type: halfspace, material: wood}]}
  - {name: cube, mass: 1.0, position: [0, 0, 0.5], array: {count: [1, 1, 10], spacing: [0, 0, 1.0]},
     shapes: [{type: box, size: [1, 1, 1], material: wood}]}
)",
                                              "stack_1ms.yaml", ".");
  ASSERT_TRUE(scene.ok()) << scene.error().ToString();
  const sim::Model& m = scene.value().model;
  sim::Data data = sim::MakeData(m, scene.value().initial);
  int few_sweeps = 0;
  double deepest = 0;
  const int steps = 1000;
  for (int step = 0; step < steps; ++step) {
    const sim::StepReport& r = sim::Step(m, data);
    ASSERT_EQ(r.status, LcpStatus::kSolved) << "step " << step << ": " << r.message;
    if (r.iterations <= 4) ++few_sweeps;
    deepest = std::max(deepest, r.max_penetration);
  }
  EXPECT_GE(few_sweeps, steps - 10);
  // Overlaps inside the slop are left alone, and no deeper one arises.
  EXPECT_LE(deepest, 2 * kPenetrationSlop);
  const Eigen::VectorXd& q = data.state.q;
  const int top = m.multibody.bodies.back().q_index;
  EXPECT_NEAR(q[top + 2], 9.5, 1e-6);
  EXPECT_LT(q.segment<2>(top).norm(), 1e-6);
}

// The bias of one contact against its closed form: −κ φ̃ / h with φ̃ = φ moved `slop` towards 0.
TEST(PenetrationSlop, OnlyTheGapBeyondTheSlopIsCorrected) {
  contact::ContactProblem problem;
  problem.time_step = 0.01;
  problem.phi = Eigen::VectorXd::Zero(1);
  problem.restitution = Eigen::VectorXd::Zero(1);
  problem.compliance = Eigen::VectorXd::Zero(1);
  const PositionCorrection correction{.fraction = 0.5, .max_speed = 1.0, .slop = 1e-6};
  const auto required = [&](double phi) {
    problem.phi[0] = phi;
    return RequiredNormalVelocity(problem, 0, 0.0, correction);
  };
  EXPECT_EQ(required(0.9e-6), 0.0);
  EXPECT_EQ(required(-0.9e-6), 0.0);
  EXPECT_NEAR(required(-3e-6), 0.5 * 2e-6 / 0.01, 1e-18);  // pushed out to −slop
  EXPECT_NEAR(required(3e-6), -0.5 * 2e-6 / 0.01, 1e-18);  // may close to +slop
  EXPECT_EQ(required(-1.0), 1.0);                          // capped at max_speed
}

}  // namespace
}  // namespace coulomb
