// The SAP constraint projections (docs/notes/sap-and-deformables.md §1.2–1.3) against independent
// truths: the optimality conditions of a projection, finite differences of cost and impulse,
// and continuity across region boundaries.
#include "coulomb/convex/sap_constraint.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

namespace coulomb::convex {
namespace {

constexpr double kMu = 0.6, kRn = 2.0, kRt = 0.05;

SapConstraint Cone() {
  SapConstraint c;
  c.kind = SapConstraint::Kind::kFrictionCone;
  c.mu = kMu;
  c.R = Eigen::Vector3d(kRn, kRt, kRt);
  c.v_hat = Eigen::Vector3d(0.3, 0, 0);
  return c;
}

SapConstraint Box() {
  SapConstraint c;
  c.kind = SapConstraint::Kind::kBox;
  c.R = Eigen::Vector2d(0.5, 2.0);
  c.v_hat = Eigen::Vector2d(0.1, -0.2);
  c.lower = Eigen::Vector2d(0.0, -1.0);
  c.upper = Eigen::Vector2d(INFINITY, 1.0);
  return c;
}

// The constraint velocity whose unconstrained impulse is y: v_c = v̂ − R y.
Eigen::VectorXd VelocityFor(const SapConstraint& c, const Eigen::VectorXd& y) {
  return c.v_hat - c.R.cwiseProduct(y);
}

// Projection onto a closed convex cone C in the R inner product ⟨a, b⟩ = aᵀ R b is
// characterized by γ ∈ C, ⟨y − γ, γ⟩_R = 0 and ⟨y − γ, c⟩_R ≤ 0 for every c ∈ C; checking the
// last on the cone's generators (1, μ cos θ, μ sin θ) is enough.
void ExpectIsRNormProjection(const Eigen::Vector3d& y, const Eigen::Vector3d& gamma) {
  const Eigen::Vector3d R(kRn, kRt, kRt);
  const double scale = y.norm();
  EXPECT_LE(gamma.tail<2>().norm(), kMu * gamma[0] + 1e-12 * scale);
  const Eigen::Vector3d r = R.cwiseProduct(y - gamma);
  EXPECT_NEAR(r.dot(gamma), 0, 1e-10 * scale * scale);
  for (int k = 0; k < 360; ++k) {
    const double theta = k * M_PI / 180;
    const Eigen::Vector3d generator(1, kMu * std::cos(theta), kMu * std::sin(theta));
    EXPECT_LE(r.dot(generator), 1e-10 * scale) << "theta " << k << " deg";
  }
}

TEST(RegularizedCone, EachRegionIsTheRNormProjection) {
  const Eigen::Vector3d stick(1.0, 0.3, -0.2), slide(1.0, 3.0, 1.0), separate(-1.0, 0.5, 0.0);
  EXPECT_EQ(ProjectOntoRegularizedCone(stick, kMu, kRn, kRt).region,
            ConeProjection::Region::kStiction);
  EXPECT_EQ(ProjectOntoRegularizedCone(slide, kMu, kRn, kRt).region,
            ConeProjection::Region::kSliding);
  EXPECT_EQ(ProjectOntoRegularizedCone(separate, kMu, kRn, kRt).region,
            ConeProjection::Region::kSeparation);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-3, 3);
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector3d y(u(rng), u(rng), u(rng));
    ExpectIsRNormProjection(y, ProjectOntoRegularizedCone(y, kMu, kRn, kRt).gamma);
  }
}

TEST(RegularizedCone, SlidingFrictionOpposesSlipOnTheConeBoundary) {
  const Eigen::Vector3d y(0.5, -2.0, 1.0);
  const ConeProjection p = ProjectOntoRegularizedCone(y, kMu, kRn, kRt);
  ASSERT_EQ(p.region, ConeProjection::Region::kSliding);
  EXPECT_NEAR(p.gamma.tail<2>().norm(), kMu * p.gamma[0], 1e-12);
  // γ_t ∥ y_t, and y_t = −R_t⁻¹ v_t: friction opposes the tangential velocity.
  EXPECT_NEAR(p.gamma.tail<2>().normalized().dot(y.tail<2>().normalized()), 1.0, 1e-12);
}

// Central differences of ℓ and γ against −γ and G, in the interior of each region.
void ExpectDerivativesMatchFiniteDifferences(const SapConstraint& c, const Eigen::VectorXd& v_c) {
  const ConstraintEvaluation e = EvaluateConstraint(c, v_c);
  const int r = c.rows();
  const double h = 1e-6;
  for (int k = 0; k < r; ++k) {
    Eigen::VectorXd plus = v_c, minus = v_c;
    plus[k] += h;
    minus[k] -= h;
    const ConstraintEvaluation ep = EvaluateConstraint(c, plus), em = EvaluateConstraint(c, minus);
    EXPECT_NEAR((ep.cost - em.cost) / (2 * h), -e.gamma[k], 1e-6) << "row " << k;
    const Eigen::VectorXd column = -(ep.gamma - em.gamma) / (2 * h);
    EXPECT_LT((column - e.G.col(k)).norm(), 1e-5 * (1 + e.G.norm())) << "column " << k;
  }
  EXPECT_LT((e.G - e.G.transpose()).norm(), 1e-12 * (1 + e.G.norm()));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(e.G);
  EXPECT_GE(eig.eigenvalues().minCoeff(), -1e-12 * (1 + e.G.norm()));
}

TEST(RegularizedCone, GradientAndHessianMatchFiniteDifferencesInEveryRegion) {
  SapConstraint stiff = Cone();  // near-rigid normal, R_t > R_n (μ̂ > μ), as in clutter
  stiff.R = Eigen::Vector3d(2.5e-4, 1e-3, 1e-3);
  stiff.mu = 0.5;
  for (const Eigen::Vector3d& y :
       {Eigen::Vector3d(1.0, 0.3, -0.2), Eigen::Vector3d(1.0, 3.0, 1.0),
        Eigen::Vector3d(-0.5, 0.4, 0.1), Eigen::Vector3d(-1.0, 0.1, 0.0)}) {
    SCOPED_TRACE(::testing::Message() << "stiff, y = " << y.transpose());
    ExpectDerivativesMatchFiniteDifferences(stiff, VelocityFor(stiff, y));
  }
  const SapConstraint c = Cone();
  for (const Eigen::Vector3d& y :
       {Eigen::Vector3d(1.0, 0.3, -0.2), Eigen::Vector3d(1.0, 3.0, 1.0),
        Eigen::Vector3d(0.2, -0.4, 2.5), Eigen::Vector3d(-1.0, 0.5, 0.0)}) {
    SCOPED_TRACE(::testing::Message() << "y = " << y.transpose());
    ExpectDerivativesMatchFiniteDifferences(c, VelocityFor(c, y));
  }
}

TEST(RegularizedCone, ImpulseAndCostAreContinuousAcrossRegionBoundaries) {
  const SapConstraint c = Cone();
  const double mu_hat = kMu * kRt / kRn;
  const Eigen::Vector2d t = Eigen::Vector2d(0.6, 0.8);  // unit
  // Stiction–sliding boundary ‖y_t‖ = μ y_n, and sliding–separation boundary y_n = −μ̂ ‖y_t‖.
  for (const Eigen::Vector3d& y :
       {Eigen::Vector3d(1.0, kMu * t[0], kMu * t[1]), Eigen::Vector3d(-mu_hat, t[0], t[1])}) {
    const double delta = 1e-7;
    const Eigen::Vector3d inside = y * (1 - delta), outside = y * (1 + delta);
    const ConstraintEvaluation a = EvaluateConstraint(c, VelocityFor(c, inside));
    const ConstraintEvaluation b = EvaluateConstraint(c, VelocityFor(c, outside));
    EXPECT_LT((a.gamma - b.gamma).norm(), 1e-5);
    EXPECT_NEAR(a.cost, b.cost, 1e-5);
  }
}

TEST(BoxConstraint, ClampsEachRowAndMatchesFiniteDifferences) {
  const SapConstraint c = Box();
  // Row 0 inside [0, ∞), row 1 clamped at its upper bound 1.
  const Eigen::Vector2d y(0.4, 3.0);
  const ConstraintEvaluation e = EvaluateConstraint(c, VelocityFor(c, y));
  EXPECT_NEAR(e.gamma[0], 0.4, 1e-14);
  EXPECT_NEAR(e.gamma[1], 1.0, 1e-14);
  EXPECT_EQ(e.G(1, 1), 0.0);
  for (const Eigen::Vector2d& yy :
       {Eigen::Vector2d(0.4, 3.0), Eigen::Vector2d(-0.5, -2.0), Eigen::Vector2d(2.0, 0.3)}) {
    ExpectDerivativesMatchFiniteDifferences(c, VelocityFor(c, yy));
  }
  // Continuity of the cost at the bound (the continuous form of docs/notes/sap-and-deformables.md
  // §1, not Drake's −b v_c).
  const ConstraintEvaluation below =
      EvaluateConstraint(c, VelocityFor(c, Eigen::Vector2d(0.4, 1 - 1e-9)));
  const ConstraintEvaluation above =
      EvaluateConstraint(c, VelocityFor(c, Eigen::Vector2d(0.4, 1 + 1e-9)));
  EXPECT_NEAR(below.cost, above.cost, 1e-8);
}

}  // namespace
}  // namespace coulomb::convex
