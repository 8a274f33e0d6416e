#pragma once
// FNV-1a, 64 bit: the hash of state_hash (determinism checks) and of checkpoint files' checksum.
// Not cryptographic; it detects truncation, corruption and any change of the bytes, which is all
// these uses need, and it is the same on every platform for the same bytes.

#include <cstddef>
#include <cstdint>

namespace coulomb {

inline constexpr std::uint64_t kFnvOffsetBasis = 1469598103934665603ull;

// Continues `hash` over `size` bytes at `data`.
inline std::uint64_t Fnv1a(std::uint64_t hash, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

}  // namespace coulomb
