// Gauss–Seidel on body velocities (contact_sweeps.h), checked against the assembled problem it
// never forms: its W_ii and M⁻¹ Jᵀ against MakeLocalContactProblem's W and M⁻¹ Jᵀ, its answer
// against the ABH certificate computed from that W, its islands and order against the contact
// graph, and its answer's velocities against those of the semismooth Newton solver.

#include "coulomb/formulations/contact_sweeps.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "coulomb/complementarity/cone_solvers.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"
#include "coulomb/multibody/dynamics.h"
#include "tests/support/assembled_check.h"

namespace coulomb {
namespace {

using multibody::Body;
using multibody::JointType;

// Three free spheres stacked on the ground (one island), a fourth apart on the ground (a second),
// and a two-link pendulum hung from the world whose tip touches the fourth's side (joining that
// island):
// free bodies (6 DoFs) and a tree (2 DoFs) on the sides of contacts.
struct Scene {
  multibody::Model model;
  Eigen::VectorXd q, v;
  geometry::ContactSet contacts;
};

Scene MakeScene() {
  Scene s;
  for (int i = 0; i < 4; ++i) {
    Body b;
    b.name = "sphere" + std::to_string(i);
    b.joint = JointType::kFloating;
    b.inertia.mass = 1.0 + i;
    b.inertia.rotational = 0.004 * (1.0 + i) * Eigen::Matrix3d::Identity();
    s.model.AddBody(b);
  }
  for (int i = 0; i < 2; ++i) {
    Body link;
    link.name = "link" + std::to_string(i);
    link.parent = i == 0 ? -1 : 4;
    link.joint = JointType::kRevolute;
    link.axis = Eigen::Vector3d::UnitY();
    link.placement.p = i == 0 ? Eigen::Vector3d(2.12, 0, 0.9) : Eigen::Vector3d(0, 0, -0.4);
    link.inertia.mass = 0.5;
    link.inertia.rotational = 0.01 * Eigen::Matrix3d::Identity();
    s.model.AddBody(link);
  }
  s.q = s.model.NeutralConfiguration();
  for (int i = 0; i < 3; ++i) s.q[7 * i + 2] = 0.1 + 0.2 * i;
  s.q.segment<3>(21) = Eigen::Vector3d(2, 0, 0.1);
  s.v = Eigen::VectorXd::Zero(s.model.nv);
  s.v[2] = -0.3;     // the bottom sphere moving into the ground
  s.v[6 + 0] = 0.2;  // the middle one sliding sideways
  const auto add = [&](int a, int b, const Eigen::Vector3d& p, const Eigen::Vector3d& n, double phi,
                       double mu) {
    geometry::Contact c;
    c.body_a = a;
    c.body_b = b;
    c.point = p;
    c.normal = n.normalized();
    c.phi = phi;
    c.mu = mu;
    s.contacts.contacts.push_back(c);
  };
  add(2, 1, {0.01, 0, 0.4}, {0.05, 0, 1}, -1e-4, 0.6);  // top on middle
  add(0, -1, {0, 0, 0}, {0, 0, 1}, -2e-4, 0.5);         // bottom on the ground
  add(3, -1, {2, 0, 0}, {0, 0, 1}, 0.0, 0.3);           // the lone sphere on the ground
  add(1, 0, {0, 0.01, 0.2}, {0, 0.1, 1}, 1e-4, 0.8);    // middle on bottom
  add(5, 3, {2.1, 0, 0.1}, {1, 0, 0.1}, -1e-4, 0.4);    // the pendulum's tip on its side
  return s;
}

contact::ContactProblem Build(const Scene& s) {
  multibody::Data data = multibody::MakeData(s.model);
  return contact::BuildContactProblem(s.model, data, s.q, s.v, Eigen::VectorXd::Zero(s.model.nv),
                                      s.contacts, 1e-3);
}

// The scene's problem and its rows.
struct Rows {
  contact::ContactProblem problem = Build(MakeScene());
  ContactRows rows;
  Rows() { MakeContactRows(problem, PositionCorrection{}, rows); }
};

// The sweeps to `tolerance` (cone unless said), with a cap no test here reaches.
ContactSweepResult Sweep(const ContactRows& rows, double tolerance,
                         ContactLaw law = ContactLaw::kCone, const Eigen::VectorXd& warm = {},
                         double polish = 1e-3) {
  ContactSweepParams params;
  params.law = law;
  params.tolerance = tolerance;
  params.max_sweeps = 5000;
  params.small_island_polish = polish;
  ContactSweepResult result;
  SolveContactSweeps(rows, params, warm, result);
  return result;
}

TEST(ContactRows, DiagonalBlocksAndColumnsMatchTheAssembledProblem) {
  const Rows setup;
  const contact::ContactProblem& problem = setup.problem;
  const ContactRows& rows = setup.rows;
  const LocalContactProblem local = MakeLocalContactProblem(problem, PositionCorrection{});
  const Eigen::MatrixXd W(local.W);
  const Eigen::MatrixXd MinvJt(local.MinvJt);
  ASSERT_EQ(rows.num_contacts(), 5);
  for (int k = 0; k < rows.num_contacts(); ++k) {
    EXPECT_LT((rows.contacts[k].W.W - W.block<3, 3>(3 * k, 3 * k)).norm(), 1e-12 * W.norm()) << k;
    // M⁻¹ J_kᵀ Δ for a unit impulse, through the rows' sides, against the assembled columns.
    for (int c = 0; c < 3; ++c) {
      Eigen::VectorXd v = Eigen::VectorXd::Zero(problem.nv());
      for (const ContactRows::Side& side : rows.contacts[k].sides) {
        for (int d = 0; d < side.size; ++d) {
          v[side.start + d] += rows.MinvJt[side.offset + d + side.size * c];
        }
      }
      EXPECT_LT((v - MinvJt.col(3 * k + c)).norm(), 1e-12 * MinvJt.norm()) << k << " " << c;
    }
  }
  EXPECT_LT((rows.q - local.q).norm(), 1e-12 * local.q.norm());
}

// W from the rows' blocks alone (the small-problem Newton path) against the assembly through
// G = J L⁻ᵀ: the same matrix, including the zero blocks of contacts that share no body.
TEST(ContactRows, DelassusFromRowsMatchesTheAssembledOne) {
  const Rows setup;
  const Eigen::MatrixXd expected(MakeLocalContactProblem(setup.problem, PositionCorrection{}).W);
  math::TripletBuffer entries;
  Eigen::SparseMatrix<double> W;
  AssembleDelassusFromRows(setup.rows, entries, W);
  ASSERT_EQ(W.rows(), expected.rows());
  ASSERT_EQ(W.cols(), expected.cols());
  EXPECT_LT((Eigen::MatrixXd(W) - expected).norm(), 1e-12 * expected.norm());
  // Blocks of contacts on different bodies are not stored at all.
  int stored_blocks = 0, nonzero_blocks = 0;
  for (int i = 0; i < setup.rows.num_contacts(); ++i) {
    for (int j = 0; j < setup.rows.num_contacts(); ++j) {
      nonzero_blocks += expected.block<3, 3>(3 * i, 3 * j).norm() > 0 ? 1 : 0;
      stored_blocks += Eigen::MatrixXd(W).block<3, 3>(3 * i, 3 * j).norm() > 0 ? 1 : 0;
    }
  }
  EXPECT_EQ(stored_blocks, nonzero_blocks);
  EXPECT_EQ(W.nonZeros(), 9 * nonzero_blocks);
}

TEST(ContactRows, IslandsFollowTheContactGraphAndStartFromTheGround) {
  const ContactRows& rows = Rows().rows;
  ASSERT_EQ(rows.num_islands(), 2);
  // Island 0 holds the first contact (the stack: contacts 0, 1, 3), bottom up: the ground
  // contact, then middle on bottom, then top on middle.
  const std::vector<int> stack(rows.order.begin() + rows.island_start[0],
                               rows.order.begin() + rows.island_start[1]);
  EXPECT_EQ(stack, (std::vector<int>{1, 3, 0}));
  const std::vector<int> lone(rows.order.begin() + rows.island_start[1],
                              rows.order.begin() + rows.island_start[2]);
  EXPECT_EQ(lone, (std::vector<int>{2, 4}));
}

TEST(ContactSweeps, AnswerPassesTheCertificateOfTheAssembledProblem) {
  const Rows setup;
  const contact::ContactProblem& problem = setup.problem;
  const ContactSweepResult result = Sweep(setup.rows, 1e-10);
  ASSERT_TRUE(result.solved()) << result.message;
  EXPECT_EQ(result.islands, 2);
  // The independent check: ABH's error from the assembled W and q, and v⁺ from M⁻¹ Jᵀ.
  const AssembledCheck check = ExpectAssembledCertificate(problem, result, 1e-10, 1e-12, 1e-12);
  const FrictionContactProblem& fc = check.fc;
  const FrictionContactCertificate& certificate = check.certificate;
  // The impulses are not unique in general, but here every contact's v⁺ is pinned: compare the
  // contact velocities with the semismooth Newton solver's answer.
  const FrictionContactResult newton = SolveFrictionContact(fc, ConeSolverKind::kNewton);
  ASSERT_TRUE(newton.solved()) << newton.message;
  EXPECT_LT((certificate.u - newton.u).norm(), 1e-7 * (1 + fc.q.norm()));
}

TEST(ContactSweeps, AnExactWarmStartNeedsNoSweep) {
  const Rows setup;
  // Stopped at the tolerance itself (no polish), then accepted without a sweep only with room:
  // the cold answer is within a tenth of the second tolerance.
  const ContactSweepResult cold = Sweep(setup.rows, 1e-9, ContactLaw::kCone, {}, 1);
  ASSERT_TRUE(cold.solved());
  EXPECT_GT(cold.sweeps, 1);
  const ContactSweepResult warm = Sweep(setup.rows, 1e-7, ContactLaw::kCone, cold.r, 1);
  EXPECT_TRUE(warm.solved());
  EXPECT_EQ(warm.sweeps, 0);
  EXPECT_EQ(warm.r, cold.r);
}

// The warm start's error: exact from WarmStartError (against the certificate of the assembled
// problem), and never above it in the sweeps' result, which stops measuring a warm start it
// rejects.
TEST(ContactSweeps, WarmStartErrorIsTheCertificatesAndTheSweepsReportALowerBound) {
  const Rows setup;
  Eigen::VectorXd warm = Sweep(setup.rows, 1e-9).r;
  warm *= 1.3;  // off the answer: rejected
  const LocalContactProblem local = MakeLocalContactProblem(setup.problem, PositionCorrection{});
  FrictionContactProblem fc;
  fc.W = local.W;
  fc.q = local.q;
  fc.mu = setup.problem.mu;
  Eigen::VectorXd projected = warm;
  for (int k = 0; k < setup.rows.num_contacts(); ++k) {
    projected.segment<3>(3 * k) = ProjectOntoFrictionCone(warm.segment<3>(3 * k), fc.mu[k]);
  }
  const double exact = CertifyFrictionContact(fc, projected).error;
  Eigen::VectorXd scratch;
  EXPECT_NEAR(WarmStartError(setup.rows, warm, scratch), exact, 1e-12 * (1 + exact));
  const ContactSweepResult result = Sweep(setup.rows, 1e-9, ContactLaw::kCone, warm);
  EXPECT_GT(result.sweeps, 0);
  EXPECT_GT(result.warm_error, 0);
  EXPECT_LE(result.warm_error, exact * (1 + 1e-12));
  EXPECT_EQ(WarmStartError(setup.rows, Eigen::VectorXd(), scratch),
            std::numeric_limits<double>::infinity());
}

TEST(ContactSweeps, ASweepCapReportsTheErrorItReached) {
  const Rows setup;
  const ContactRows& rows = setup.rows;
  ContactSweepParams params;
  params.tolerance = 1e-14;
  params.max_sweeps = 2;
  ContactSweepResult result;
  SolveContactSweeps(rows, params, {}, result);
  EXPECT_EQ(result.status, LcpStatus::kIterationLimit);
  EXPECT_GT(result.error, 1e-14);
  EXPECT_NE(result.message.find("sweep limit"), std::string::npos) << result.message;
  params.relaxation = 2.5;
  SolveContactSweeps(rows, params, {}, result);
  EXPECT_EQ(result.status, LcpStatus::kBadInput);
  EXPECT_NE(result.message.find("relaxation"), std::string::npos) << result.message;
}

// The pyramid law: the sweeps' (p_n, β, λ) per contact, laid out as the full Stewart–Trinkle LCP
// of the assembled W (stewart_trinkle_lcp.h), must solve that LCP: its natural residual, computed
// from M z + q of the full problem, within the tolerance.
TEST(ContactSweeps, PyramidAnswerSolvesTheAssembledStewartTrinkleLcp) {
  const Rows setup;
  const contact::ContactProblem& problem = setup.problem;
  const ContactSweepResult result = Sweep(setup.rows, 1e-10, ContactLaw::kPyramid);
  ASSERT_TRUE(result.solved()) << result.message;
  const LocalContactProblem local = MakeLocalContactProblem(problem, PositionCorrection{});
  const LcpProblem lcp = MakeStewartTrinkleLcp(Eigen::MatrixXd(local.W), local.q, problem.mu, 4);
  const Eigen::VectorXd z = StewartTrinkleUnknowns(result, problem.num_contacts(), 4);
  const Eigen::VectorXd w = lcp.M * z + lcp.q;
  const double scale = std::max(1.0, local.q.lpNorm<Eigen::Infinity>());
  EXPECT_GE(z.minCoeff(), 0.0);
  EXPECT_LE(z.cwiseMin(w).cwiseAbs().maxCoeff(), 1e-9 * scale);
  EXPECT_LT((problem.v_star + local.MinvJt * result.r - result.v).norm(), 1e-12);
}

}  // namespace
}  // namespace coulomb
