// SAP's Newton solver against independent certificates: closed-form minimizers, and the KKT
// conditions of SAP's dual (a second-order-cone QP in the impulses) that do not use the
// solver's projections.
#include "coulomb/convex/sap_solver.h"

#include <gtest/gtest.h>

#include <random>

#include "coulomb/convex/sap_model.h"

namespace coulomb::convex {
namespace {

// One particle of mass m moving at v* along x, held by a rigid-ish bilateral row.
SapProblem OneDofProblem(double m, double v_star, double R, double v_hat) {
  SapProblem p;
  p.time_step = 0.01;
  p.cliques.push_back({0, Eigen::MatrixXd::Constant(1, 1, m), {}});
  p.v_star = Eigen::VectorXd::Constant(1, v_star);
  SapConstraint c;
  c.jacobian.name = "row";
  c.jacobian.clique_a = 0;
  c.jacobian.J_a = Eigen::MatrixXd::Ones(1, 1);
  c.R = Eigen::VectorXd::Constant(1, R);
  c.v_hat = Eigen::VectorXd::Constant(1, v_hat);
  c.lower = Eigen::VectorXd::Constant(1, -INFINITY);
  c.upper = Eigen::VectorXd::Constant(1, INFINITY);
  p.constraints.push_back(c);
  return p;
}

TEST(SapSolver, BilateralRowHasTheClosedFormMinimizer) {
  // ℓ = ½ m (v − v*)² + ½ R⁻¹ (v̂ − v)²  ⇒  v = (m v* + v̂/R) / (m + 1/R).
  const double m = 2.0, v_star = -1.0, R = 0.01, v_hat = 0.5;
  const SapResult r = SolveSap(OneDofProblem(m, v_star, R, v_hat), {});
  ASSERT_TRUE(r.converged()) << r.message;
  const double expected = (m * v_star + v_hat / R) / (m + 1 / R);
  EXPECT_NEAR(r.v[0], expected, 1e-12);
  EXPECT_NEAR(r.gamma[0], (v_hat - expected) / R, 1e-10);
  EXPECT_LE(r.iterations, 2);  // a quadratic: one Newton step, then the test passes
}

TEST(SapSolver, NoConstraintsReturnsFreeMotionWithoutFactorizing) {
  SapProblem p = OneDofProblem(1.0, 3.0, 1.0, 0.0);
  p.constraints.clear();
  const SapResult r = SolveSap(p, {});
  ASSERT_TRUE(r.converged());
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.v[0], 3.0);
}

// Several 6-dof cliques coupled by random frictional contacts and one bounded row.
SapProblem RandomContactProblem(int num_cliques, int num_contacts, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  SapProblem p;
  p.time_step = 1e-3;
  p.v_star.resize(6 * num_cliques);
  for (int k = 0; k < num_cliques; ++k) {
    Eigen::MatrixXd B = Eigen::MatrixXd::NullaryExpr(6, 6, [&] { return u(rng); });
    p.cliques.push_back({6 * k, B * B.transpose() + Eigen::MatrixXd::Identity(6, 6), {}});
    for (int i = 0; i < 6; ++i) p.v_star[6 * k + i] = u(rng);
  }
  for (int i = 0; i < num_contacts; ++i) {
    SapConstraint c;
    c.kind = SapConstraint::Kind::kFrictionCone;
    c.jacobian.name = "contact " + std::to_string(i);
    c.jacobian.clique_a = i % num_cliques;
    c.jacobian.J_a = Eigen::MatrixXd::NullaryExpr(3, 6, [&] { return u(rng); });
    if (i % 3 != 0) {
      c.jacobian.clique_b = (i + 1) % num_cliques;
      c.jacobian.J_b = Eigen::MatrixXd::NullaryExpr(3, 6, [&] { return u(rng); });
    }
    c.mu = 0.3 + 0.5 * std::abs(u(rng));
    const double R_t = 1e-3 * (1.5 + u(rng));
    c.R = Eigen::Vector3d(1e-2 * (1.5 + u(rng)), R_t, R_t);
    c.v_hat = Eigen::Vector3d(0.2 * u(rng), 0, 0);
    p.constraints.push_back(c);
  }
  return p;
}

// SAP's dual: γ* = argmin over γ ∈ F of ½ γᵀ (W + R) γ − γᵀ (v̂ − J v*), W = J A⁻¹ Jᵀ. Its KKT
// conditions: γ ∈ F, g = (W + R) γ − (v̂ − J v*) ∈ F* (μ‖g_t‖ ≤ g_n), γ ⊥ g. Also the primal
// v = v* + A⁻¹ Jᵀ γ. None of this uses the solver's projection.
void ExpectDualKkt(const SapProblem& p, const SapResult& r, double tolerance) {
  const int n = p.nv();
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (const SapClique& c : p.cliques) A.block(c.start, c.start, c.size(), c.size()) = c.A;
  const int rows = 3 * static_cast<int>(p.constraints.size());
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows, n);
  Eigen::VectorXd R(rows), v_hat(rows);
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const SapConstraint& c = p.constraints[i];
    const int row = 3 * static_cast<int>(i);
    J.block(row, p.cliques[c.jacobian.clique_a].start, 3, 6) = c.jacobian.J_a;
    if (c.jacobian.clique_b >= 0) {
      J.block(row, p.cliques[c.jacobian.clique_b].start, 3, 6) = c.jacobian.J_b;
    }
    R.segment<3>(row) = c.R;
    v_hat.segment<3>(row) = c.v_hat;
  }
  const Eigen::MatrixXd W = J * A.llt().solve(J.transpose());
  const Eigen::VectorXd g =
      (W + Eigen::MatrixXd(R.asDiagonal())) * r.gamma - (v_hat - J * p.v_star);
  const double scale = 1 + g.norm() + r.gamma.norm();
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const double mu = p.constraints[i].mu;
    const Eigen::Vector3d gi = g.segment<3>(3 * i), yi = r.gamma.segment<3>(3 * i);
    EXPECT_LE(yi.tail<2>().norm(), mu * yi[0] + tolerance * scale) << "contact " << i;
    EXPECT_LE(mu * gi.tail<2>().norm(), gi[0] + tolerance * scale) << "contact " << i;
    EXPECT_NEAR(gi.dot(yi), 0, tolerance * scale * scale) << "contact " << i;
  }
  const Eigen::VectorXd v = p.v_star + A.llt().solve(J.transpose() * r.gamma);
  EXPECT_LT((v - r.v).norm(), tolerance * (1 + v.norm()));
}

// The assembled Hessian (slot-mapped sparse lower triangle) equals A + Jᵀ G J formed densely,
// with constraints whose second clique comes before and after the first.
TEST(SapHessian, EqualsTheDenseFormula) {
  const SapProblem p = RandomContactProblem(4, 7, 11);
  const SapModel model = MakeSapModel(p);
  std::vector<ConstraintMatrix> G;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Eigen::Matrix3d B = Eigen::Matrix3d::NullaryExpr([&] { return u(rng); });
    G.emplace_back(B * B.transpose());
  }
  SapHessian hessian(p, model);
  const Eigen::MatrixXd lower = Eigen::MatrixXd(hessian.Assemble(G));
  const Eigen::MatrixXd J = Eigen::MatrixXd(model.J);
  Eigen::MatrixXd JtGJ = Eigen::MatrixXd::Zero(model.size, model.size);
  for (std::size_t i = 0; i < p.constraints.size(); ++i) {
    const Eigen::MatrixXd Ji = J.middleRows(model.row_offset[i], 3);
    JtGJ += Ji.transpose() * G[i] * Ji;
  }
  const Eigen::MatrixXd expected = Eigen::MatrixXd(model.A) + JtGJ;
  EXPECT_LT((lower - Eigen::MatrixXd(expected.triangularView<Eigen::Lower>())).norm(),
            1e-12 * expected.norm());
  // Assembling again (as every Newton iteration does) starts from zero.
  EXPECT_EQ(Eigen::MatrixXd(hessian.Assemble(G)), lower);
}

TEST(SapSolver, RandomContactProblemsSatisfyTheDualKktConditions) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const SapProblem p = RandomContactProblem(5, 8, seed);
    SapSolverParams params;
    params.rel_tolerance = 1e-10;
    const SapResult r = SolveSap(p, params);
    ASSERT_TRUE(r.converged()) << r.message;
    EXPECT_LT(r.iterations, 30);
    ExpectDualKkt(p, r, 1e-7);
  }
}

// The three line searches take different paths to the same minimizer, each certified by the
// dual KKT conditions.
TEST(SapSolver, EveryLineSearchReachesTheKktAnswer) {
  SapSolverParams full_first, exact, backtracking;
  exact.line_search_settings.try_full_step = false;
  backtracking.line_search = SapSolverParams::LineSearch::kBacktracking;
  for (SapSolverParams* params : {&full_first, &exact, &backtracking}) {
    params->rel_tolerance = 1e-10;
  }
  for (unsigned seed = 40; seed <= 45; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const SapProblem p = RandomContactProblem(4, 6, seed);
    const SapResult a = SolveSap(p, full_first), b = SolveSap(p, exact),
                    c = SolveSap(p, backtracking);
    ASSERT_TRUE(a.converged() && b.converged() && c.converged())
        << a.message << b.message << c.message;
    for (const SapResult* r : {&a, &b, &c}) ExpectDualKkt(p, *r, 1e-7);
    EXPECT_LT((a.v - b.v).norm(), 1e-7 * (1 + a.v.norm()));
    EXPECT_LT((a.v - c.v).norm(), 1e-7 * (1 + a.v.norm()));
  }
}

TEST(SapSolver, WarmStartAtTheAnswerNeedsNoFactorization) {
  const SapProblem p = RandomContactProblem(3, 4, 3);
  const SapResult first = SolveSap(p, {});
  ASSERT_TRUE(first.converged());
  const SapResult second = SolveSap(p, {}, first.v);
  ASSERT_TRUE(second.converged());
  EXPECT_EQ(second.iterations, 0);
}

TEST(SapSolver, FactorizationReusesTheSymbolicAnalysisWhileThePatternHolds) {
  math::CholeskyFactor factorization;
  const SapProblem p = RandomContactProblem(5, 8, 5);
  const SapResult a = SolveSap(p, {}, {}, &factorization);
  ASSERT_TRUE(a.converged());
  ASSERT_GE(factorization.factorizations(), 2);
  EXPECT_EQ(factorization.symbolic_analyses(), 1);
  SapProblem shifted = p;  // same contact graph, different data: still one analysis
  shifted.v_star *= 2;
  ASSERT_TRUE(SolveSap(shifted, {}, {}, &factorization).converged());
  EXPECT_EQ(factorization.symbolic_analyses(), 1);
  const SapResult c = SolveSap(RandomContactProblem(5, 9, 5), {}, {}, &factorization);
  ASSERT_TRUE(c.converged());
  EXPECT_EQ(factorization.symbolic_analyses(), 2);
}

// Reusing factorizations as CG preconditioners changes the path, not the answer: the same
// dual KKT certificate holds, with fewer factorizations than Newton iterations.
TEST(SapSolver, ReusedFactorizationsReachTheSameKktAnswerWithFewerFactorizations) {
  int iterations = 0, factorizations = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    const SapProblem p = RandomContactProblem(5, 8, seed);
    SapSolverParams params;
    params.rel_tolerance = 1e-10;
    params.lagged.max_cg_iterations = 10;
    // These problems are small: let the CG budget ignore how cheap their factorization is.
    params.lagged.max_factorization_share = 1e9;
    params.lagged.min_factorization_flops = 0;
    math::CholeskyFactor factor;
    const SapResult r = SolveSap(p, params, {}, &factor);
    ASSERT_TRUE(r.converged()) << r.message;
    ExpectDualKkt(p, r, 1e-7);
    EXPECT_EQ(r.factorizations, factor.factorizations());
    iterations += r.iterations;
    factorizations += r.factorizations;
    // The next step's problem (a nudged v*) starts from this one's factor.
    SapProblem next = p;
    next.v_star *= 1.01;
    const SapResult s = SolveSap(next, params, r.v, &factor);
    ASSERT_TRUE(s.converged()) << s.message;
    ExpectDualKkt(next, s, 1e-7);
    iterations += s.iterations;
    factorizations += s.factorizations;
  }
  EXPECT_LT(factorizations, iterations / 2);
}

TEST(SapSolver, BadInputIsAValueNamingTheConstraint) {
  SapProblem p = RandomContactProblem(2, 2, 1);
  p.constraints[1].mu = -0.1;
  SapResult r = SolveSap(p, {});
  EXPECT_EQ(r.status, SapStatus::kBadInput);
  EXPECT_NE(r.message.find("contact 1"), std::string::npos) << r.message;
  p = RandomContactProblem(2, 2, 1);
  p.v_star[3] = NAN;
  r = SolveSap(p, {});
  EXPECT_EQ(r.status, SapStatus::kBadInput);
  EXPECT_NE(r.message.find("not finite"), std::string::npos) << r.message;
}

TEST(SapSolver, IterationLimitIsReportedWithTheParameterToChange) {
  SapSolverParams params;
  params.max_iterations = 1;
  params.rel_tolerance = 1e-14;
  const SapResult r = SolveSap(RandomContactProblem(5, 8, 9), params);
  EXPECT_EQ(r.status, SapStatus::kIterationLimit);
  EXPECT_NE(r.message.find("max_iterations"), std::string::npos) << r.message;
  EXPECT_TRUE(r.v.allFinite());
}

}  // namespace
}  // namespace coulomb::convex
