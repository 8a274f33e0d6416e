#pragma once
// Stable names of enumerations (solvers, formulations) as the CLI, scene files and reports spell
// them: one constexpr table per enum, and these lookups shared by all of them.

#include <array>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace coulomb {

template <class Kind, std::size_t N>
using NameTable = std::array<std::pair<Kind, std::string_view>, N>;

template <class Kind, std::size_t N>
std::string_view NameOf(const NameTable<Kind, N>& table, Kind kind) {
  for (const auto& [k, name] : table) {
    if (k == kind) return name;
  }
  return "unknown";
}

template <class Kind, std::size_t N>
std::optional<Kind> KindNamed(const NameTable<Kind, N>& table, std::string_view name) {
  for (const auto& [k, n] : table) {
    if (n == name) return k;
  }
  return std::nullopt;
}

// Every kind, in table order.
template <class Kind, std::size_t N>
std::vector<Kind> AllKinds(const NameTable<Kind, N>& table) {
  std::vector<Kind> kinds;
  kinds.reserve(N);
  for (const auto& entry : table) kinds.push_back(entry.first);
  return kinds;
}

}  // namespace coulomb
