#pragma once
// What every fuzz target shares: the input as text, and a way to say that a reader broke one of
// its promises (a crash the sanitizers would not see, such as a NaN returned as a valid value).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace coulomb::fuzz {

inline std::string AsText(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A reader accepted an input and returned a value that breaks its contract: stop the fuzzer
// here so the input is saved as a crash and becomes a regression test.
[[noreturn]] inline void Broken(const char* what) {
  std::fprintf(stderr, "reader contract broken: %s\n", what);
  std::abort();
}

template <typename Matrix>
void RequireFinite(const Matrix& m, const char* what) {
  if (!m.allFinite()) Broken(what);
}

}  // namespace coulomb::fuzz
