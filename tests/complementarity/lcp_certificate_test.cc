// The certificate is the referee of every other test, so it is checked against hand-computed
// values first.

#include "coulomb/complementarity/lcp_certificate.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/support/known_lcps.h"

namespace coulomb {
namespace {

using testing::Deudeu;

TEST(LcpCertificate, ExactSolutionHasZeroMeasures) {
  // z = (4/3, 7/3) solves 2z1 + z2 = 5, z1 + 2z2 = 6 with w = 0.
  const LcpCertificate c = CertifyLcp(Deudeu(), Eigen::Vector2d(4.0 / 3.0, 7.0 / 3.0));
  EXPECT_TRUE(c.finite);
  EXPECT_LT(c.Worst(), 1e-15);
  EXPECT_TRUE(c.Passes());
}

TEST(LcpCertificate, MeasuresMatchHandComputation) {
  // z = (1, 0): w = (2 − 5, 1 − 6) = (−3, −5). min(z, w) = (−3, −5) → 5 / (1 + 6).
  Eigen::VectorXd w;
  const LcpCertificate c = CertifyLcp(Deudeu(), Eigen::Vector2d(1, 0), &w);
  EXPECT_DOUBLE_EQ(w[0], -3);
  EXPECT_DOUBLE_EQ(w[1], -5);
  EXPECT_DOUBLE_EQ(c.natural_residual, 5.0 / 7.0);
  EXPECT_DOUBLE_EQ(c.w_infeasibility, 5.0 / 7.0);
  EXPECT_DOUBLE_EQ(c.z_infeasibility, 0.0);
  EXPECT_DOUBLE_EQ(c.complementarity, 3.0 / ((1.0 + 1.0) * (1.0 + 5.0)));
  EXPECT_FALSE(c.Passes());
}

// Paper 1's acceleration LCP of a 100 kg body on three sliding contacts (BlueVolta's hull,
// eq. (12) makes M non-symmetric; one eigenvalue is 0.01): every z_i is basic at z ≈ 1 050, so
// w is zero up to the rounding of M z. That answer, from an LU here, must certify; a genuine
// complementarity violation of the same size must not.
TEST(LcpCertificate, AnAllBasicAnswerCertifiesWhenWIsRoundingOnly) {
  LcpProblem p;
  p.M.resize(3, 3);
  p.M << 52.13903, -62.13846, -21.19615, -50.49008, 59.63533, 24.54644, -22.92153, 23.19835,
      38.94012;
  p.q = Eigen::Vector3d(-10.70856, -9.3854, -9.61623);
  const Eigen::VectorXd z = p.M.fullPivLu().solve(-p.q);
  ASSERT_GT(z.minCoeff(), 100.0);
  const LcpCertificate c = CertifyLcp(p, z);
  EXPECT_TRUE(c.Passes()) << c.Worst();
  Eigen::VectorXd off = z;
  off[2] += 1e-3;  // w moves by ~0.04: z_i w_i ≈ 40, far from complementary
  EXPECT_FALSE(CertifyLcp(p, off).Passes());
}

TEST(LcpCertificate, NegativeZFailsEvenWhenComplementary) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(1, 1);
  p.q = Eigen::VectorXd::Constant(1, 1.0);
  // z = −1 gives w = 0: complementary but infeasible.
  const LcpCertificate c = CertifyLcp(p, Eigen::VectorXd::Constant(1, -1.0));
  EXPECT_DOUBLE_EQ(c.z_infeasibility, 0.5);
  EXPECT_FALSE(c.Passes());
}

TEST(LcpCertificate, NonFiniteOrWrongSizeNeverPasses) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(CertifyLcp(Deudeu(), Eigen::Vector2d(nan, 0)).Passes());
  EXPECT_FALSE(CertifyLcp(Deudeu(), Eigen::Vector3d(0, 0, 0)).Passes(1e300));
}

}  // namespace
}  // namespace coulomb
