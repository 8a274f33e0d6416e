// One contact's pyramid LCP in closed form (pyramid_contact.h), checked by the LCP's own natural
// residual and against Lemke's tableau (small_lemke.h) on the same problem.

#include "coulomb/formulations/pyramid_contact.h"

#include <gtest/gtest.h>

#include <random>

#include "coulomb/complementarity/small_lemke.h"

namespace coulomb {
namespace {

// The pyramid LCP of (W, q, μ) solved by the tableau alone.
SmallLcpVector SolveByTableau(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu,
                              const PyramidDirections& directions) {
  const int d = directions.count;
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(d + 1, 3);
  G(0, 0) = 1;
  for (int j = 0; j < d; ++j) G.block<1, 2>(1 + j, 1) = directions.direction[j].transpose();
  SmallLcpMatrix M = SmallLcpMatrix::Zero(d + 2, d + 2);
  M.topLeftCorner(d + 1, d + 1) = G * W * G.transpose();
  for (int j = 0; j < d; ++j) M(1 + j, d + 1) = 1, M(d + 1, 1 + j) = -1;
  M(d + 1, 0) = mu;
  SmallLcpVector lcp_q = SmallLcpVector::Zero(d + 2);
  lcp_q.head(d + 1) = G * q;
  SmallLcpVector z;
  EXPECT_TRUE(SolveSmallLcp(M, lcp_q, z));
  return z;
}

// A free body's contact block: diagonal-heavy (mass and inertia terms) with the lever arm's
// normal–tangent coupling, as in a pile.
Eigen::Matrix3d RandomContactBlock(std::mt19937& random) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> size(0.5, 5.0);
  Eigen::Matrix3d A;
  for (int i = 0; i < 9; ++i) A.data()[i] = 0.3 * normal(random);
  Eigen::Matrix3d W = A * A.transpose();
  for (int i = 0; i < 3; ++i) W(i, i) += size(random);
  return W;
}

TEST(PyramidContact, SlidesInClosedFormOnEveryDirectionCount) {
  std::mt19937 random(11);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> friction(0.05, 1.2);
  int sliding = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const PyramidDirections directions = MakePyramidDirections(3 + trial % 8);
    const int d = directions.count;
    const Eigen::Matrix3d W = RandomContactBlock(random);
    const double mu = friction(random);
    // Approaching, with a tangential velocity large enough that the contact slides mostly.
    const Eigen::Vector3d q(-std::abs(normal(random)), 2 * normal(random), 2 * normal(random));
    const SmallLcpVector tableau = SolveByTableau(W, q, mu, directions);
    if (!(tableau[d + 1] > 1e-9)) continue;  // the tableau sticks: not a sliding problem
    ++sliding;
    double z[kMaxPyramidDirections + 2];
    const Eigen::Vector2d toward = -q.tail<2>();
    ASSERT_TRUE(SolvePyramidSliding(W, q, mu, toward, directions, z))
        << "trial " << trial << " d " << d;
    const Eigen::Vector3d r = PyramidContactImpulse(z, directions);
    const Eigen::Vector3d u = W * r + q;
    EXPECT_LE(PyramidNaturalResidual(z, u, mu, directions), 1e-12 * q.norm()) << "trial " << trial;
    for (int i = 0; i < d + 2; ++i) EXPECT_GE(z[i], 0.0) << "trial " << trial;
    // Weak coupling: one answer, the tableau's.
    EXPECT_LT((r - PyramidContactImpulse(tableau.data(), directions)).norm(), 1e-9 * (1 + r.norm()))
        << "trial " << trial;
  }
  EXPECT_GT(sliding, 1000);  // the sample is mostly sliding, not a handful
}

// Through the whole local solve: separation, sticking and sliding, certified each time.
TEST(PyramidContact, AnswersEveryRegimeComplementary) {
  std::mt19937 random(5);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 500; ++trial) {
    const PyramidDirections directions = MakePyramidDirections(4);
    const Eigen::Matrix3d W = RandomContactBlock(random);
    const LocalDelassus local = MakeLocalDelassus(W);
    const Eigen::Vector3d q(normal(random), normal(random), normal(random));
    double z[kMaxPyramidDirections + 2];
    ASSERT_TRUE(SolvePyramidContact(local, q, 0.5, directions, z));
    const Eigen::Vector3d r = PyramidContactImpulse(z, directions);
    EXPECT_LE(PyramidNaturalResidual(z, W * r + q, 0.5, directions), 1e-12 * (1 + q.norm()))
        << "trial " << trial;
  }
}

// A slip exactly along the bisector of two edges: the face's answer, both edges carrying half.
TEST(PyramidContact, SlidesOnAFaceWhenTheSlipBisectsTwoEdges) {
  const PyramidDirections directions = MakePyramidDirections(4);
  const Eigen::Matrix3d W = Eigen::Vector3d(2.0, 3.0, 3.0).asDiagonal();
  const Eigen::Vector3d q(-1.0, -4.0, -4.0);  // pushed in, slipping toward (−1, −1)
  double z[6];
  ASSERT_TRUE(SolvePyramidSliding(W, q, 0.5, -q.tail<2>(), directions, z));
  EXPECT_NEAR(z[0], 0.5, 1e-15);    // p_n = −q_n / W_nn: no coupling
  EXPECT_NEAR(z[1], 0.125, 1e-15);  // along D_0 = (1, 0)
  EXPECT_NEAR(z[2], 0.125, 1e-15);  // along D_1 = (0, 1)
  EXPECT_EQ(z[3], 0.0);
  EXPECT_EQ(z[4], 0.0);
  EXPECT_NEAR(z[5], 4.0 - 3.0 * 0.125, 1e-14);  // λ = −D_0ᵀ u_T
}

}  // namespace
}  // namespace coulomb
