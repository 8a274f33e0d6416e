// ContactBlockSystem against the dense matrices it stands for: its three factorizations
// (dense, sparse on W's pattern, augmented on W = G Gᵀ + diag(c)) must each solve
// L (W + shift I) + R to rounding.

#include "coulomb/complementarity/contact_block_system.h"

#include <gtest/gtest.h>

#include "coulomb/base/random.h"

namespace coulomb {
namespace {

// W = G Gᵀ + diag(c) for a chain of bodies, each contact touching two neighbours' 6 DoFs, or
// for a star: every contact touches body 0 (a pile's floor-less base), so W is full and G is not.
struct ChainDelassus {
  Eigen::SparseMatrix<double, Eigen::RowMajor> G;
  Eigen::VectorXd c;
  Eigen::SparseMatrix<double> W;
};

ChainDelassus MakeChain(int contacts, SplitMix64& random, bool star = false) {
  const int bodies = contacts + 1;
  ChainDelassus d;
  std::vector<Eigen::Triplet<double>> g;
  for (int k = 0; k < contacts; ++k) {
    for (int r = 0; r < 3; ++r) {
      for (int col = 0; col < 6; ++col) {
        g.emplace_back(3 * k + r, (star ? 0 : 6 * k) + col, random.Uniform(-1, 1));
        g.emplace_back(3 * k + r, 6 * (k + 1) + col, random.Uniform(-1, 1));
      }
    }
  }
  d.G.resize(3 * contacts, 6 * bodies);
  d.G.setFromTriplets(g.begin(), g.end());
  d.c = Eigen::VectorXd::Zero(3 * contacts);
  d.c[0] = 0.5;  // a compliant contact
  const Eigen::MatrixXd Gd(d.G);
  Eigen::MatrixXd W = Gd * Gd.transpose();
  W.diagonal() += d.c;
  d.W = W.sparseView();
  return d;
}

Eigen::MatrixXd Expected(const Eigen::MatrixXd& W, const std::vector<Eigen::Matrix3d>& left,
                         const std::vector<Eigen::Matrix3d>& right, double shift) {
  const int n = static_cast<int>(left.size());
  Eigen::MatrixXd A = W + shift * Eigen::MatrixXd::Identity(3 * n, 3 * n);
  for (int i = 0; i < n; ++i) {
    A.middleRows<3>(3 * i) = (left[i] * A.middleRows<3>(3 * i)).eval();
    A.block<3, 3>(3 * i, 3 * i) += right[i];
  }
  return A;
}

void ExpectSolves(int contacts, bool with_factor) {
  SplitMix64 random(7);
  const ChainDelassus d = MakeChain(contacts, random, with_factor);
  if (with_factor) {
    ASSERT_LT(d.G.nonZeros(), d.W.nonZeros());  // so the augmented path runs
  }
  ContactBlockSystem system(d.W, with_factor ? &d.G : nullptr, &d.c);
  std::vector<Eigen::Matrix3d> left(contacts), right(contacts);
  for (int round = 0; round < 3; ++round) {  // refactoring with the same pattern
    for (int i = 0; i < contacts; ++i) {
      left[i] = Eigen::Matrix3d::Random() + 3 * Eigen::Matrix3d::Identity();
      right[i] = 0.1 * Eigen::Matrix3d::Random();
    }
    const double shift = 0.01 * round;
    const Eigen::MatrixXd A = Expected(Eigen::MatrixXd(d.W), left, right, shift);
    ASSERT_TRUE(system.Factor(left, right, shift));
    EXPECT_LT((system.Dense() - A).norm(), 1e-12 * A.norm());
    const Eigen::VectorXd b = Eigen::VectorXd::Random(3 * contacts);
    const Eigen::VectorXd x = system.Solve(b);
    EXPECT_LT((A * x - b).norm(), 1e-9 * b.norm()) << contacts << " contacts, round " << round;
    EXPECT_NEAR(system.Residual(x, b), (A * x - b).norm(), 1e-12);
  }
  Eigen::VectorXd y;
  const Eigen::VectorXd x = Eigen::VectorXd::Random(3 * contacts);
  system.Multiply(x, 0.25, y);
  EXPECT_LT((Eigen::MatrixXd(d.W) * x + 0.25 * x - y).norm(), 1e-12 * y.norm());

  // New values on the same pattern (the next time step): Refresh must give the new matrix, with
  // the pattern, KLU's analysis and its last pivots kept.
  SplitMix64 other(11);
  const ChainDelassus next = MakeChain(contacts, other, with_factor);
  ASSERT_TRUE(system.SamePattern(next.W, with_factor ? &next.G : nullptr));
  system.Refresh(next.W, with_factor ? &next.G : nullptr, &next.c);
  ASSERT_TRUE(system.Factor(left, right, 0.0));
  const Eigen::MatrixXd A = Expected(Eigen::MatrixXd(next.W), left, right, 0.0);
  EXPECT_LT((system.Dense() - A).norm(), 1e-12 * A.norm());
  const Eigen::VectorXd b = Eigen::VectorXd::Random(3 * contacts);
  EXPECT_LT((A * system.Solve(b) - b).norm(), 1e-9 * b.norm()) << "after Refresh";
  // Another contact count is another pattern.
  const ChainDelassus larger = MakeChain(contacts + 1, other, with_factor);
  EXPECT_FALSE(system.SamePattern(larger.W, with_factor ? &larger.G : nullptr));
}

TEST(ContactBlockSystem, DenseSmallSystemsSolve) {
  ExpectSolves(5, false);
}

TEST(ContactBlockSystem, SparseLuOnThePatternOfWSolves) {
  ExpectSolves(40, false);
}

TEST(ContactBlockSystem, AugmentedSystemOfTheFactorSolves) {
  ExpectSolves(40, true);
}

TEST(ContactBlockSystem, DiagonalBlocksAreWs) {
  SplitMix64 random(3);
  const ChainDelassus d = MakeChain(20, random);
  const ContactBlockSystem system(d.W);
  const Eigen::MatrixXd W(d.W);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(system.DiagonalBlock(i), Eigen::Matrix3d(W.block<3, 3>(3 * i, 3 * i)));
  }
}

}  // namespace
}  // namespace coulomb
