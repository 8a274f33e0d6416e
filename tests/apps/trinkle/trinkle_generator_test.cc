#include "apps/coulomb/trinkle/trinkle_generator.h"

#include <gtest/gtest.h>

#include "apps/coulomb/trinkle/trinkle_solver.h"
#include "apps/coulomb/trinkle/trinkle_system.h"
#include "coulomb/complementarity/lemke.h"
#include "tests/support/lcp_assertions.h"

namespace coulomb::trinkle {
namespace {

TEST(TrinkleGenerator, MeetsRequestedSizesWithConsistentVelocities) {
  const std::pair<int, int> shapes[] = {{2, 0}, {0, 2}, {5, 1}, {6, 4}, {5, 5}, {5, 10}, {20, 30}};
  for (const auto& [ns, nr] : shapes) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      GeneratorRequest request;
      request.num_sliding = ns;
      request.num_rolling = nr;
      const auto g = GenerateTrinkleProblem(request, seed, 400);
      ASSERT_TRUE(g.has_value()) << ns << "/" << nr << " seed " << seed;
      EXPECT_EQ(g->num_sliding, ns);
      EXPECT_EQ(g->num_rolling, nr);
      EXPECT_EQ(ValidateTrinkleProblem(g->problem), "");
      // Eq. (7)–(8): zero normal velocity everywhere, zero slip at rolling contacts, and the
      // LCP has the paper's size n_S + 5 n_R.
      const TrinkleSystem s = BuildTrinkleSystem(g->problem);
      const auto states = ClassifyContacts(g->problem, s, 1e-8);
      int sliding = 0;
      for (std::size_t j = 0; j < states.size(); ++j) {
        EXPECT_LT(std::abs(s.contact_velocity[s.offset[j]]), 1e-12);
        sliding += states[j].translation == SlipState::kSliding;
      }
      EXPECT_EQ(sliding, ns);
      EXPECT_EQ(BuildTrinkleLcp(g->problem).lcp.size(), ns + 5 * nr);
    }
  }
}

TEST(TrinkleGenerator, DeterministicBySeed) {
  GeneratorRequest request;
  request.num_sliding = 5;
  request.num_rolling = 5;
  const auto a = GenerateTrinkleProblem(request, 42);
  const auto b = GenerateTrinkleProblem(request, 42);
  ASSERT_TRUE(a && b);
  const LcpProblem la = BuildTrinkleLcp(a->problem).lcp, lb = BuildTrinkleLcp(b->problem).lcp;
  EXPECT_EQ(la.M, lb.M);
  EXPECT_EQ(la.q, lb.q);
}

TEST(TrinkleGenerator, ContactJacobianIsRankDeficientOnPurpose) {
  GeneratorRequest request;
  request.num_sliding = 0;
  request.num_rolling = 8;
  request.num_bodies = 1;
  request.allow_arm = false;
  request.allow_wall = false;
  const auto g = GenerateTrinkleProblem(request, 3);
  ASSERT_TRUE(g.has_value());
  EXPECT_LT(g->jacobian_rank, 3 * 8);  // 24 force components on 6 dofs
  EXPECT_LE(g->jacobian_rank, 6);
}

TEST(TrinkleGenerator, VelocityLevelLcpOfTheSameStateIsLemkeSolvable) {
  // Anitescu–Potra: Stewart–Trinkle LCPs are Lemke-processable for every μ.
  GeneratorRequest request;
  request.num_sliding = 10;
  request.num_rolling = 8;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto g = GenerateTrinkleProblem(request, seed);
    ASSERT_TRUE(g.has_value());
    for (double mu : {0.1, 0.5, 1.0}) {
      const LcpProblem lcp = MakeVelocityLevelLcp(WithFriction(g->problem, mu), 1e-3, 4);
      EXPECT_EQ(lcp.size(), 18 * 6);
      EXPECT_TRUE(testing::IsCertifiedSolution(lcp, SolveLemke(lcp))) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace coulomb::trinkle
