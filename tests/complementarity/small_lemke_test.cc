// The stack-held Lemke of one contact's LCP (small_lemke.h), checked by complementarity itself
// (z ≥ 0, w = M z + q ≥ 0, zᵀ w = 0) and against the general Lemke solver on the same problems.

#include "coulomb/complementarity/small_lemke.h"

#include <gtest/gtest.h>

#include <random>

#include "coulomb/complementarity/lemke.h"
#include "coulomb/formulations/pyramid_contact.h"

namespace coulomb {
namespace {

void ExpectComplementary(const SmallLcpMatrix& M, const SmallLcpVector& q,
                         const SmallLcpVector& z) {
  const SmallLcpVector w = M * z + q;
  const double scale = 1 + q.cwiseAbs().maxCoeff();
  EXPECT_GE(z.minCoeff(), 0.0);
  EXPECT_GE(w.minCoeff(), -1e-10 * scale);
  EXPECT_LE(std::abs(z.dot(w)), 1e-10 * scale * (1 + z.norm()));
}

TEST(SmallLemke, SolvesRandomPositiveDefiniteProblemsLikeTheGeneralSolver) {
  std::mt19937 random(7);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + trial % kSmallLcpMaxSize;
    Eigen::MatrixXd A(n, n);
    for (int i = 0; i < n * n; ++i) A.data()[i] = normal(random);
    const Eigen::MatrixXd M = A * A.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    Eigen::VectorXd q(n);
    for (int i = 0; i < n; ++i) q[i] = normal(random);
    SmallLcpVector z;
    ASSERT_TRUE(SolveSmallLcp(M, q, z)) << "trial " << trial;
    ExpectComplementary(M, q, z);
    // A positive definite M has one solution: the general solver must find the same.
    LcpProblem lcp;
    lcp.M = M;
    lcp.q = q;
    const LcpResult general = SolveLemke(lcp);
    ASSERT_EQ(general.status, LcpStatus::kSolved) << general.message;
    EXPECT_LT((general.z - Eigen::VectorXd(z)).norm(), 1e-8 * (1 + z.norm())) << "trial " << trial;
  }
}

// The Stewart–Trinkle pyramid of one contact: the λ row has a zero diagonal and q_λ = 0, so the
// ratio test ties; every regime (separating, sticking, sliding) must come out complementary.
TEST(SmallLemke, SolvesOneContactsPyramidInEveryRegime) {
  Eigen::Matrix3d W;
  W << 2.0, 0.3, -0.1, 0.3, 3.5, 0.2, -0.1, 0.2, 3.1;
  const LocalDelassus local = MakeLocalDelassus(W);
  const PyramidDirections directions = MakePyramidDirections(4);
  const double mu = 0.5;
  for (const Eigen::Vector3d& q : {Eigen::Vector3d(0.2, 0.1, -0.3), Eigen::Vector3d(-1, 0.01, 0.02),
                                   Eigen::Vector3d(-1, 2.0, 0.5), Eigen::Vector3d(-1, -0.3, 4.0)}) {
    double z[6];
    ASSERT_TRUE(SolvePyramidContact(local, q, mu, directions, z));
    const Eigen::Vector3d r = PyramidContactImpulse(z, directions);
    const Eigen::Vector3d u = W * r + q;
    EXPECT_LE(PyramidNaturalResidual(z, u, mu, directions), 1e-10) << q.transpose();
    // The same LCP through the tableau alone (no closed-form regimes) gives the same impulse.
    SmallLcpMatrix M = SmallLcpMatrix::Zero(6, 6);
    Eigen::Matrix<double, 5, 3> G = Eigen::Matrix<double, 5, 3>::Zero();
    G(0, 0) = 1;
    for (int j = 0; j < 4; ++j) G.block<1, 2>(1 + j, 1) = directions.direction[j].transpose();
    M.topLeftCorner(5, 5) = G * W * G.transpose();
    for (int j = 0; j < 4; ++j) M(1 + j, 5) = 1, M(5, 1 + j) = -1;
    M(5, 0) = mu;
    SmallLcpVector lcp_q = SmallLcpVector::Zero(6);
    lcp_q.head(5) = G * q;
    SmallLcpVector tableau;
    ASSERT_TRUE(SolveSmallLcp(M, lcp_q, tableau));
    ExpectComplementary(M, lcp_q, tableau);
    EXPECT_LT((PyramidContactImpulse(tableau.data(), directions) - r).norm(), 1e-9)
        << q.transpose();
  }
}

// μ = 0 (a joint limit posed as a contact, whose tangent rows are zero, so W is singular): the
// closed form must be complementary and give the impulse of the tableau on the same LCP.
TEST(SmallLemke, SolvesAFrictionlessPyramidInClosedForm) {
  Eigen::Matrix3d W = Eigen::Matrix3d::Zero();
  W(0, 0) = 4e5;  // 1 / (2.5e-6 kg m²): a light finger's joint
  const LocalDelassus local = MakeLocalDelassus(W);
  const PyramidDirections directions = MakePyramidDirections(4);
  for (const Eigen::Vector3d& q : {Eigen::Vector3d(-0.3, 0, 0), Eigen::Vector3d(0.1, 0, 0)}) {
    double z[6];
    ASSERT_TRUE(SolvePyramidContact(local, q, 0.0, directions, z));
    const Eigen::Vector3d r = PyramidContactImpulse(z, directions);
    EXPECT_LE(PyramidNaturalResidual(z, W * r + q, 0.0, directions), 1e-12) << q.transpose();
    EXPECT_NEAR(r[0], std::max(0.0, -q[0] / W(0, 0)), 1e-18);
    SmallLcpMatrix M = SmallLcpMatrix::Zero(6, 6);
    M(0, 0) = W(0, 0);
    for (int j = 0; j < 4; ++j) M(1 + j, 5) = 1, M(5, 1 + j) = -1;
    SmallLcpVector lcp_q = SmallLcpVector::Zero(6);
    lcp_q[0] = q[0];
    SmallLcpVector tableau;
    ASSERT_TRUE(SolveSmallLcp(M, lcp_q, tableau));
    ExpectComplementary(M, lcp_q, tableau);
    EXPECT_NEAR(tableau[0], r[0], 1e-15) << q.transpose();
  }
}

TEST(SmallLemke, RefusesSizesItCannotHold) {
  SmallLcpVector z;
  EXPECT_FALSE(SolveSmallLcp(SmallLcpMatrix::Zero(0, 0), SmallLcpVector::Zero(0), z));
}

}  // namespace
}  // namespace coulomb
