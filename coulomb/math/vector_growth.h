#pragma once
// Growing a std::vector geometrically where the standard library grows it exactly. resize() and
// push_back() already double a full vector's capacity, but assign(n, x) and copy assignment take
// exactly n when n exceeds it: a buffer sized per contact, whose count creeps up while a pile
// lands, would then reallocate on every step that sets a new high.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace coulomb::math {

// Makes room for n elements, at least doubling the capacity when it must grow.
template <typename T, typename Allocator>
void ReserveGrowing(std::vector<T, Allocator>& v, std::size_t n) {
  if (n > v.capacity()) v.reserve(std::max(n, 2 * v.capacity()));
}

// dst = src, reusing dst's storage when it holds src and growing it geometrically otherwise.
template <typename T, typename Allocator>
void AssignGrowing(std::vector<T, Allocator>& dst, const std::vector<T, Allocator>& src) {
  ReserveGrowing(dst, src.size());
  dst = src;
}

}  // namespace coulomb::math
