#pragma once
// `coulomb bench trinkle`: paper 1's numerical study (§6, Tables 1–4) reproduced on generated
// problems, run once with the paper's settings and once with Coulomb's robust portfolio.

#include <cstdint>

namespace coulomb::app {

struct TrinkleStudyOptions {
  std::uint64_t seed = 1;
  bool json = false;
  bool quick = false;  // small sizes only (for tests): no 90+, no 300/600/1000
};

int RunTrinkleStudy(const TrinkleStudyOptions& options);

}  // namespace coulomb::app
