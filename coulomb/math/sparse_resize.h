#pragma once
// Resizing a sparse matrix without giving back its outer index. Eigen's SparseMatrix::resize
// frees and mallocs the outer index whenever the outer size changes (and whenever it is 0), so a
// matrix whose size follows the contact count allocates on every step the count moves. Eigen
// keeps no capacity for that array, but the C library knows the usable size of every block it
// handed out: where it can say (glibc, and the allocators that replace it), a new outer size that
// fits the block reuses it.

#include <Eigen/Sparse>
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace coulomb::math {

namespace detail {
// Pointers to SparseMatrix's protected members, formed through a derived class: the language's
// one way to name them from outside without casting the matrix to a type it is not.
template <int Options>
struct SparseMatrixMembers : Eigen::SparseMatrix<double, Options, int> {
  using Matrix = Eigen::SparseMatrix<double, Options, int>;
  static constexpr int* Matrix::*kOuterIndex = &SparseMatrixMembers::m_outerIndex;
  static constexpr Eigen::Index Matrix::*kOuterSize = &SparseMatrixMembers::m_outerSize;
  static constexpr Eigen::Index Matrix::*kInnerSize = &SparseMatrixMembers::m_innerSize;
};
}  // namespace detail

// As m.resize(rows, cols) — an empty rows × cols matrix, compressed — but keeping the outer
// index's block when it is large enough, and doubling it when not. The value and inner-index arrays
// keep their capacity either way (Eigen's resize clears them without freeing).
template <int Options>
void ResizeKeepingStorage(Eigen::SparseMatrix<double, Options, int>& m, Eigen::Index rows,
                          Eigen::Index cols) {
#if defined(__GLIBC__)
  using Members = detail::SparseMatrixMembers<Options>;
  constexpr bool kRowMajor = (Options & Eigen::RowMajor) != 0;
  const Eigen::Index outer_size = kRowMajor ? rows : cols;
  int* outer = m.*Members::kOuterIndex;
  const std::size_t bytes = static_cast<std::size_t>(outer_size + 1) * sizeof(int);
  if (m.isCompressed()) {
    if (outer == nullptr || malloc_usable_size(outer) < bytes) {
      // A new block twice the old one (Eigen takes exactly the new size): a count that creeps up
      // while a pile lands finds room again. Eigen's own malloc and free pair with these.
      const std::size_t old_bytes = outer == nullptr ? 0 : malloc_usable_size(outer);
      void* block = std::malloc(std::max(bytes, 2 * old_bytes));
      if (block == nullptr) throw std::bad_alloc();
      std::free(outer);
      outer = static_cast<int*>(block);
      m.*Members::kOuterIndex = outer;
    }
    m.*Members::kOuterSize = outer_size;
    m.*Members::kInnerSize = kRowMajor ? cols : rows;
    m.data().clear();
    std::memset(outer, 0, bytes);
    return;
  }
#endif
  m.resize(rows, cols);
}

// m.resizeNonZeros(n), growing the value and inner-index arrays geometrically as std::vector
// does: Eigen grows them to exactly n, so a count that creeps up by a few entries per step would
// reallocate on every step that sets a new high.
template <int Options>
void ResizeNonZerosGrowing(Eigen::SparseMatrix<double, Options, int>& m, Eigen::Index n) {
  const Eigen::Index capacity = m.data().allocatedSize();
  if (n > capacity) m.data().reserve(std::max(n, 2 * capacity) - m.data().size());
  m.resizeNonZeros(n);
}

// dst = src (compressed), in dst's kept storage: its arrays grow geometrically rather than to
// exactly src's size, as Eigen's copy does.
template <int Options>
void AssignKeepingStorage(const Eigen::SparseMatrix<double, Options, int>& src,
                          Eigen::SparseMatrix<double, Options, int>& dst) {
  ResizeKeepingStorage(dst, src.rows(), src.cols());
  const Eigen::Index n = src.nonZeros();
  ResizeNonZerosGrowing(dst, n);
  const Eigen::Index outer = src.outerSize();
  if (src.isCompressed()) {
    std::copy(src.outerIndexPtr(), src.outerIndexPtr() + outer + 1, dst.outerIndexPtr());
    std::copy(src.innerIndexPtr(), src.innerIndexPtr() + n, dst.innerIndexPtr());
    std::copy(src.valuePtr(), src.valuePtr() + n, dst.valuePtr());
  } else {
    dst = src;
    dst.makeCompressed();
  }
}

// Makes room in m for `outer_size` outer vectors and `non_zeros` entries (a Data sized up front
// for a contact count, sim::ReserveContacts); m is left an empty compressed matrix of its old
// inner size.
template <int Options>
void ReserveSparse(Eigen::SparseMatrix<double, Options, int>& m, Eigen::Index outer_size,
                   Eigen::Index non_zeros) {
  constexpr bool kRowMajor = (Options & Eigen::RowMajor) != 0;
  const Eigen::Index inner_size = m.innerSize();
  if (kRowMajor) {
    ResizeKeepingStorage(m, outer_size, inner_size);
  } else {
    ResizeKeepingStorage(m, inner_size, outer_size);
  }
  ResizeNonZerosGrowing(m, non_zeros);
  m.resizeNonZeros(0);
  if (kRowMajor) {
    ResizeKeepingStorage(m, 0, inner_size);
  } else {
    ResizeKeepingStorage(m, inner_size, 0);
  }
}

}  // namespace coulomb::math
