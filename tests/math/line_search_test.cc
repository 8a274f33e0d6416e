// The line searches of math/line_search.h on 1-D convex functions whose minimizers are known in
// closed form.
#include "coulomb/math/line_search.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace coulomb::math {
namespace {

// ℓ(α) = ½ c (α − a)² + ½ K max(0, α − kink)²: a quadratic with a stiff one-sided wall, the
// shape of a near-rigid contact that closes along the Newton direction.
auto Walled(double c, double a, double K, double kink) {
  return [=](double alpha) {
    const double over = std::max(0.0, alpha - kink);
    LineSample s;
    s.cost = 0.5 * c * (alpha - a) * (alpha - a) + 0.5 * K * over * over;
    s.slope = c * (alpha - a) + K * over;
    s.curvature = c + (over > 0 ? K : 0);
    return s;
  };
}

// The minimizer of Walled(c, a, K, kink) when it lies past the kink.
double WalledMinimizer(double c, double a, double K, double kink) {
  return (c * a + K * kink) / (c + K);
}

TEST(LineSearch, FullStepIsTakenWhenItMeetsArmijo) {
  const auto line = Walled(2.0, 1.2, 0.0, 10.0);  // a plain quadratic, minimum at 1.2
  const LineSample at_zero = line(0.0);
  LineSearchSettings settings;
  ASSERT_TRUE(settings.try_full_step);  // the default
  const LineSearchResult full = ExactLineSearch(line, at_zero, settings);
  ASSERT_TRUE(full.ok);
  EXPECT_EQ(full.alpha, 1.0);
  EXPECT_EQ(full.iterations, 1);
  settings.try_full_step = false;  // the plain exact search finds the minimizer instead
  const LineSearchResult exact = ExactLineSearch(line, at_zero, settings);
  ASSERT_TRUE(exact.ok);
  EXPECT_NEAR(exact.alpha, 1.2, 1e-8);
}

TEST(LineSearch, FullStepThatFailsArmijoFallsBackToTheMinimizer) {
  const double c = 1.0, a = 1.0, K = 1e6, kink = 0.3;  // ℓ(1) is 3.5e5 above ℓ(0)
  const auto line = Walled(c, a, K, kink);
  const LineSearchResult r = ExactLineSearch(line, line(0.0), LineSearchSettings{});
  ASSERT_TRUE(r.ok);
  EXPECT_NEAR(r.alpha, WalledMinimizer(c, a, K, kink), 1e-8);
  EXPECT_GT(r.iterations, 1);
}

TEST(LineSearch, AscentDirectionIsRejectedBeforeAnyStep) {
  const auto line = Walled(1.0, -1.0, 0.0, 10.0);  // ℓ'(0) = 1 > 0
  const LineSearchResult r = ExactLineSearch(line, line(0.0), LineSearchSettings{});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.alpha, 0.0);
  EXPECT_NE(r.message.find("descent"), std::string::npos);
}

// From 1/ρ = 1.25 down by ρ = 0.8 on ½ (α − 0.5)²: 1.25 and 1 fail Armijo, 0.8 is the first
// accepted, and the search goes on through 0.64 to 0.512 (cost 7.2e-5), the grid point of least
// cost, stopping at 0.4096 where the cost rises again.
TEST(LineSearch, BacktrackingGoesOnWhileTheCostFalls) {
  const auto line = Walled(1.0, 0.5, 0.0, 10.0);
  const LineSearchResult r = BacktrackingLineSearch(line, line(0.0), LineSearchSettings{});
  ASSERT_TRUE(r.ok) << r.message;
  EXPECT_NEAR(r.alpha, 0.512, 1e-12);
  EXPECT_EQ(r.iterations, 6);
  const auto rising = Walled(1.0, -1.0, 0.0, 10.0);  // ascent: no step
  EXPECT_FALSE(BacktrackingLineSearch(rising, rising(0.0), LineSearchSettings{}).ok);
}

}  // namespace
}  // namespace coulomb::math
