#pragma once
// A sparse matrix from (row, col, value) entries, summing duplicates, into the storage the matrix
// already has. Eigen's setFromTriplets builds a transposed temporary on the heap at every call;
// the step assembles J, W, M⁻¹Jᵀ and G this way every step, so once the matrices have reached
// their largest size this performs no allocation (issue 21: no heap allocation in a warm step).

#include <Eigen/Sparse>
#include <vector>

#include "coulomb/math/sparse_resize.h"
#include "coulomb/math/vector_growth.h"

namespace coulomb::math {

// The entries of a sparse matrix under assembly and the counting-sort scratch, kept between
// calls so their capacity is reused.
struct TripletBuffer {
  std::vector<Eigen::Triplet<double>> entries;
  std::vector<int> by_inner, order;  // entry indices sorted by inner, then by (outer, inner)
  std::vector<int> offset;           // counting-sort offsets

  void clear() { entries.clear(); }
  void add(int row, int col, double value) { entries.emplace_back(row, col, value); }
  // Room for `count` entries of a matrix whose larger dimension is `dimension`.
  void Reserve(std::size_t count, std::size_t dimension) {
    entries.reserve(count);
    by_inner.reserve(count);
    order.reserve(count);
    offset.reserve(dimension + 1);
  }
};

// out ← the rows × cols matrix of buffer.entries, compressed, without allocating once `out` and
// `buffer` have held as many entries before. Duplicates are summed in the order they were added,
// as Eigen's setFromTriplets sums them, so both give the same bits.
template <int Options>
void AssignFromTriplets(TripletBuffer& buffer, Eigen::Index rows, Eigen::Index cols,
                        Eigen::SparseMatrix<double, Options, int>& out) {
  constexpr bool kRowMajor = (Options & Eigen::RowMajor) != 0;
  const auto outer_of = [](const Eigen::Triplet<double>& t) {
    return kRowMajor ? t.row() : t.col();
  };
  const auto inner_of = [](const Eigen::Triplet<double>& t) {
    return kRowMajor ? t.col() : t.row();
  };
  const int outer_size = static_cast<int>(kRowMajor ? rows : cols);
  const int inner_size = static_cast<int>(kRowMajor ? cols : rows);
  const int n = static_cast<int>(buffer.entries.size());
  // Entries already in storage order without duplicates (one block's W, G or M⁻¹Jᵀ, as
  // MakeLocalContactProblem adds them) are copied straight in.
  bool in_order = true;
  for (int e = 1; e < n && in_order; ++e) {
    const Eigen::Triplet<double>& a = buffer.entries[e - 1];
    const Eigen::Triplet<double>& b = buffer.entries[e];
    in_order =
        outer_of(a) < outer_of(b) || (outer_of(a) == outer_of(b) && inner_of(a) < inner_of(b));
  }
  if (in_order) {
    ResizeKeepingStorage(out, rows, cols);
    ResizeNonZerosGrowing(out, n);
    int* outer = out.outerIndexPtr();
    int e = 0;
    for (int o = 0; o < outer_size; ++o) {
      outer[o] = e;
      for (; e < n && outer_of(buffer.entries[e]) == o; ++e) {
        out.innerIndexPtr()[e] = inner_of(buffer.entries[e]);
        out.valuePtr()[e] = buffer.entries[e].value();
      }
    }
    outer[outer_size] = n;
    return;
  }
  // Two stable counting sorts (by inner index, then by outer index) order the entries by
  // (outer, inner) and keep duplicates in the order they were added.
  const auto counting_sort = [&](const auto& key, int keys, const int* input, int* output) {
    ReserveGrowing(buffer.offset, static_cast<std::size_t>(keys) + 1);
    buffer.offset.assign(static_cast<std::size_t>(keys) + 1, 0);
    for (int i = 0; i < n; ++i) ++buffer.offset[key(buffer.entries[input ? input[i] : i]) + 1];
    for (int k = 0; k < keys; ++k) buffer.offset[k + 1] += buffer.offset[k];
    for (int i = 0; i < n; ++i) {
      const int e = input ? input[i] : i;
      output[buffer.offset[key(buffer.entries[e])]++] = e;
    }
  };
  buffer.by_inner.resize(static_cast<std::size_t>(n));
  buffer.order.resize(static_cast<std::size_t>(n));
  counting_sort(inner_of, inner_size, nullptr, buffer.by_inner.data());
  counting_sort(outer_of, outer_size, buffer.by_inner.data(), buffer.order.data());
  ResizeKeepingStorage(out, rows, cols);
  ResizeNonZerosGrowing(out, n);  // an upper bound; trimmed to the merged count below
  int* outer = out.outerIndexPtr();
  int* inner = out.innerIndexPtr();
  double* values = out.valuePtr();
  int stored = 0, at = 0;
  for (int o = 0; o < outer_size; ++o) {
    outer[o] = stored;
    for (; at < n && outer_of(buffer.entries[buffer.order[at]]) == o; ++at) {
      const Eigen::Triplet<double>& t = buffer.entries[buffer.order[at]];
      if (stored > outer[o] && inner[stored - 1] == inner_of(t)) {
        values[stored - 1] += t.value();
      } else {
        inner[stored] = inner_of(t);
        values[stored] = t.value();
        ++stored;
      }
    }
  }
  outer[outer_size] = stored;
  out.resizeNonZeros(stored);
}

}  // namespace coulomb::math
