#pragma once
// `coulomb bench trinkle`: paper 1's numerical study (§6, Tables 1–4) reproduced on generated
// problems, run once with the paper's settings and once with Coulomb's robust portfolio.

#include <cstdint>
#include <string>

namespace coulomb::app {

struct TrinkleStudyOptions {
  std::uint64_t seed = 1;
  bool json = false;
  bool quick = false;  // small sizes only (for tests): no 90+, no 300/600/1000
  // When set, every data set is also written there: the pyramid LCP and the velocity-level LCP
  // of the same state (Coulomb JSON) and the local frictional-contact problem (FCLib HDF5).
  std::string emit_dir;
};

int RunTrinkleStudy(const TrinkleStudyOptions& options);

}  // namespace coulomb::app
