// The frictional contact (cone) solvers: the cone projection against its defining properties,
// the exact one-contact solver against hand-solved cases, and NSGS / NSN / PPA on random
// rigid-body problems and on Siconos' FC3D data, every answer checked by the certificate
// computed from the problem data alone.

#include "coulomb/complementarity/cone_solvers.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <numbers>

#include "coulomb/base/random.h"
#include "coulomb/complementarity/single_contact_solver.h"
#include "coulomb/io/friction_contact_file.h"
#include "tests/support/build_paths.h"

namespace coulomb {
namespace {

TEST(FrictionCone, ProjectionIsTheMoreauDecomposition) {
  SplitMix64 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const double mu = trial % 10 == 0 ? 0.0 : rng.Uniform(0.05, 2.0);
    const Eigen::Vector3d r(rng.Uniform(-2, 2), rng.Uniform(-2, 2), rng.Uniform(-2, 2));
    const Eigen::Vector3d p = ProjectOntoFrictionCone(r, mu);
    // p ∈ K_μ, r − p in the polar cone (‖x_T‖ μ ≤ −x_N), and ⟨p, r − p⟩ = 0.
    EXPECT_GE(p[0], -1e-14);
    EXPECT_LE(p.tail<2>().norm(), mu * p[0] + 1e-12);
    const Eigen::Vector3d x = r - p;
    EXPECT_LE(mu * x.tail<2>().norm(), -x[0] + 1e-12) << r.transpose() << " mu " << mu;
    EXPECT_NEAR(p.dot(x), 0.0, 1e-12);
    EXPECT_TRUE(ProjectOntoFrictionCone(p, mu).isApprox(p, 1e-14) || p.norm() < 1e-15);
  }
}

TEST(SingleContact, HandSolvedRegimes) {
  const Eigen::Matrix3d W = Eigen::Matrix3d::Identity();
  // Separating: q_N ≥ 0 → r = 0.
  auto s = SolveSingleContact(W, Eigen::Vector3d(0.5, 3, 0), 0.5, Eigen::Vector3d::Zero());
  EXPECT_EQ(s.regime, ContactRegime::kSeparated);
  EXPECT_EQ(s.r.norm(), 0.0);
  // Sticking: r = −q = (1, −0.3, 0) is inside the cone of μ = 0.5.
  s = SolveSingleContact(W, Eigen::Vector3d(-1, 0.3, 0), 0.5, Eigen::Vector3d::Zero());
  EXPECT_EQ(s.regime, ContactRegime::kSticking);
  EXPECT_TRUE(s.r.isApprox(Eigen::Vector3d(1, -0.3, 0), 1e-14));
  // Sliding along +t2: r_N = 1, r_T = −μ r_N (0, 1), u_T = (0, 2 − 0.5).
  s = SolveSingleContact(W, Eigen::Vector3d(-1, 0, 2), 0.5, Eigen::Vector3d::Zero());
  EXPECT_EQ(s.regime, ContactRegime::kSliding);
  EXPECT_NEAR((s.r - Eigen::Vector3d(1, 0, -0.5)).norm(), 0.0, 1e-12);
}

// A random Delassus operator of a rigid system: W = J M⁻¹ Jᵀ + εI with J random.
FrictionContactProblem RandomRigidProblem(SplitMix64& rng, int nc, int nv, double regularize) {
  FrictionContactProblem p;
  Eigen::MatrixXd J(3 * nc, nv);
  for (Eigen::Index k = 0; k < J.size(); ++k) J.data()[k] = rng.Uniform(-1, 1);
  Eigen::VectorXd m(nv);
  for (int i = 0; i < nv; ++i) m[i] = rng.Uniform(0.5, 3.0);
  Eigen::MatrixXd W = J * m.cwiseInverse().asDiagonal() * J.transpose();
  W.diagonal().array() += regularize;
  p.W = W.sparseView();
  Eigen::VectorXd v(nv);
  for (int i = 0; i < nv; ++i) v[i] = rng.Uniform(-1, 1);
  p.q = J * v;
  p.mu.resize(nc);
  for (int i = 0; i < nc; ++i) p.mu[i] = rng.Uniform(0.1, 1.0);
  return p;
}

TEST(SingleContact, RandomProblemsAreSolvedExactly) {
  SplitMix64 rng(11);
  int sliding = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const FrictionContactProblem p = RandomRigidProblem(rng, 1, 6, 0.0);
    const auto s = SolveSingleContact(Eigen::Matrix3d(Eigen::MatrixXd(p.W)), p.q, p.mu[0],
                                      Eigen::Vector3d::Zero());
    sliding += s.regime == ContactRegime::kSliding;
    EXPECT_NE(s.regime, ContactRegime::kFallback);
    EXPECT_LE(CertifyFrictionContact(p, s.r).error, 1e-10) << "trial " << trial;
  }
  EXPECT_GT(sliding, 50);  // the sample exercises the sliding branch
}

class ConeSolverTest : public ::testing::TestWithParam<ConeSolverKind> {};

TEST_P(ConeSolverTest, RandomFullRankProblems) {
  SplitMix64 rng(23);
  ConeSolverSettings settings;
  settings.tolerance = 1e-9;
  int solved = 0, total = 0;
  for (int nc : {2, 5, 10, 20}) {
    for (int trial = 0; trial < 5; ++trial, ++total) {
      const FrictionContactProblem p = RandomRigidProblem(rng, nc, 3 * nc + 6, 0.0);
      const FrictionContactResult r = SolveFrictionContact(p, GetParam(), settings);
      // Independent check: the certificate recomputed here from (W, q, μ).
      const double error = CertifyFrictionContact(p, r.r).error;
      EXPECT_NEAR(error, r.error, 1e-12 + 1e-6 * error);
      if (r.solved()) {
        ++solved;
        EXPECT_LE(error, settings.tolerance);
      }
    }
  }
  EXPECT_EQ(solved, total) << ToString(GetParam());
}

TEST_P(ConeSolverTest, RankDeficientProblemsSolvedByPpaAndPortfolio) {
  // More contact rows than DoFs (hyperstatic): W is singular, ABH's hard case for NSN.
  SplitMix64 rng(29);
  ConeSolverSettings settings;
  settings.tolerance = 1e-8;
  int solved = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const FrictionContactProblem p = RandomRigidProblem(rng, 8, 12, 0.0);
    const FrictionContactResult r = SolveFrictionContact(p, GetParam(), settings);
    if (r.solved()) {
      EXPECT_LE(CertifyFrictionContact(p, r.r).error, settings.tolerance);
    }
    solved += r.solved();
  }
  if (GetParam() == ConeSolverKind::kProximal || GetParam() == ConeSolverKind::kPortfolio) {
    EXPECT_EQ(solved, 10);
  }
  RecordProperty("solved", solved);
}

// A budget far below what a hard problem needs (200 contacts on 60 DoFs, hyperstatic, at an
// unreachable 1e-14): every solver stops at its first check after the budget with status
// time_limit and the best iterate so far, whose error is what the certificate recomputed here
// says, before its iteration cap.
TEST_P(ConeSolverTest, ABudgetRunsOutWithTheBestIterateAndItsError) {
  SplitMix64 rng(31);
  const FrictionContactProblem p = RandomRigidProblem(rng, 200, 60, 0.0);
  ConeSolverSettings settings;
  settings.tolerance = 1e-14;
  settings.time_limit = 1e-3;  // s
  const FrictionContactResult r = SolveFrictionContact(p, GetParam(), settings);
  EXPECT_EQ(r.status, LcpStatus::kTimeLimit) << r.message;
  EXPECT_NE(r.message.find("time limit"), std::string::npos) << r.message;
  ASSERT_TRUE(r.r.allFinite());
  const double error = CertifyFrictionContact(p, r.r).error;
  EXPECT_NEAR(error, r.error, 1e-12 + 1e-9 * error);
  EXPECT_GT(error, settings.tolerance);
  EXPECT_LT(r.iterations, settings.nsgs.max_sweeps);
  // Without a budget the same call is no different from before: a function of its input.
  settings.time_limit = INFINITY;
  settings.nsgs.max_sweeps = 3;
  settings.newton.max_iterations = 1;
  settings.newton.max_proximal_iterations = 1;
  settings.portfolio_nsgs_sweeps = 3;
  settings.ipm.max_iterations = 3;
  settings.ipm.polish_iterations = 1;
  const FrictionContactResult a = SolveFrictionContact(p, GetParam(), settings);
  const FrictionContactResult b = SolveFrictionContact(p, GetParam(), settings);
  EXPECT_NE(a.status, LcpStatus::kTimeLimit);
  EXPECT_EQ(a.r, b.r);
}

INSTANTIATE_TEST_SUITE_P(All, ConeSolverTest, ::testing::ValuesIn(AllConeSolverKinds()),
                         [](const auto& info) { return std::string(ToString(info.param)); });

TEST(ConeSolvers, BadInputIsReported) {
  FrictionContactProblem p;
  p.W = Eigen::MatrixXd(Eigen::Matrix3d::Identity()).sparseView();
  p.q = Eigen::Vector3d(-1, 0, 0);
  p.mu = Eigen::VectorXd::Constant(1, -0.2);
  for (ConeSolverKind kind : AllConeSolverKinds()) {
    const FrictionContactResult r = SolveFrictionContact(p, kind);
    EXPECT_EQ(r.status, LcpStatus::kBadInput);
    EXPECT_NE(r.message.find("mu[0]"), std::string::npos) << r.message;
  }
}

TEST(ConeSolvers, SiconosFrictionContactData) {
  const std::filesystem::path dir =
      std::filesystem::path(coulomb::testing::DataDir()) / "siconos" / "FrictionContact";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  ConeSolverSettings settings;
  settings.tolerance = 1e-8;
  int read = 0, solved = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    const auto problem = ReadFrictionContactFile(entry.path().string());
    if (!problem.ok()) {
      // Only 2D and global (GFC3D) problems are refused, each with a reason.
      EXPECT_FALSE(problem.error().reason.empty()) << name;
      continue;
    }
    // The large capsule problems take seconds each: they run in bench/, not in CI.
    if (problem.value().num_contacts() > 200) continue;
    ++read;
    const FrictionContactResult r =
        SolveFrictionContact(problem.value(), ConeSolverKind::kPortfolio, settings);
    const double error = CertifyFrictionContact(problem.value(), r.r).error;
    if (r.solved()) {
      ++solved;
      EXPECT_LE(error, settings.tolerance) << name;
    } else {
      ADD_FAILURE() << name << ": " << ToString(r.status) << " error " << error << " " << r.message;
    }
  }
  EXPECT_GE(read, 15);
  EXPECT_EQ(solved, read);
}

// Hyperstatic problems, where W is singular and with it plain semismooth Newton's Jacobian: the
// interior-point iterates get within 1e-6 on their own (the IPM's Newton matrix
// M + ∂c/∂x + W_NT² stays nonsingular), and from there its Newton polish certifies every one.
TEST(ConeInteriorPoint, SolvesRankDeficientProblems) {
  SplitMix64 rng(29);
  ConeSolverSettings settings;
  settings.tolerance = 1e-8;
  ConeSolverSettings unpolished = settings;
  unpolished.ipm.polish_iterations = 0;
  int plain_newton = 0;
  for (int trial = 0; trial < 10; ++trial) {
    const FrictionContactProblem p = RandomRigidProblem(rng, 8, 12, 0.0);
    const FrictionContactResult r =
        SolveFrictionContact(p, ConeSolverKind::kInteriorPoint, settings);
    EXPECT_TRUE(r.solved()) << "trial " << trial << ": " << r.message;
    EXPECT_LE(CertifyFrictionContact(p, r.r).error, settings.tolerance);
    const FrictionContactResult interior =
        SolveFrictionContact(p, ConeSolverKind::kInteriorPoint, unpolished);
    EXPECT_EQ(interior.message.find("Newton"), std::string::npos) << interior.message;
    EXPECT_LE(CertifyFrictionContact(p, interior.r).error, 1e-6) << interior.message;
    plain_newton += SolveFrictionContact(p, ConeSolverKind::kNewton, settings).solved();
  }
  RecordProperty("plain_newton_solved", plain_newton);  // 9 of 10 when written
}

// Every FC3D problem of Siconos' data the reader takes, the large capsule and sphere sets
// included (tens of ms each here, where the portfolio takes seconds on some): certified.
TEST(ConeInteriorPoint, SolvesEverySiconosFrictionContactProblem) {
  const std::filesystem::path dir =
      std::filesystem::path(coulomb::testing::DataDir()) / "siconos" / "FrictionContact";
  ConeSolverSettings settings;
  settings.tolerance = 1e-8;
  int read = 0, solved = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto problem = ReadFrictionContactFile(entry.path().string());
    if (!problem.ok()) continue;
    ++read;
    const FrictionContactResult r =
        SolveFrictionContact(problem.value(), ConeSolverKind::kInteriorPoint, settings);
    const double error = CertifyFrictionContact(problem.value(), r.r).error;
    EXPECT_TRUE(r.solved()) << entry.path().filename() << ": " << r.message;
    if (r.solved()) {
      ++solved;
      EXPECT_LE(error, settings.tolerance) << entry.path().filename();
    }
  }
  EXPECT_GE(read, 20);
  EXPECT_EQ(solved, read);
}

}  // namespace
}  // namespace coulomb
