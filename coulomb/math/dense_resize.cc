#include "coulomb/math/dense_resize.h"

#include <algorithm>
#include <cstddef>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace coulomb::math {
namespace {

using VectorStorage = Eigen::DenseStorage<double, Eigen::Dynamic, Eigen::Dynamic, 1, 0>;
using MatrixStorage =
    Eigen::DenseStorage<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::Dynamic, 0>;

// Eigen keeps a vector's pointer and size private in its storage class. An explicit
// instantiation may name private members ([temp.spec.general]/6), so the one below hands out
// pointers to them; it must appear once in the program, hence this .cc file.
template <typename Tag, typename Tag::Type kMember>
struct MemberPointer {
  friend typename Tag::Type Get(Tag /*tag*/) { return kMember; }
};
// One tag per member: which storage, the member's type, and a number telling same-typed apart.
// Each tag's Get is meant to be a plain function (MemberPointer defines it), which GCC warns of.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-template-friend"
#endif
template <typename Storage, typename Member, int kWhich>
struct MemberTag {
  using Type = Member Storage::*;
  friend Type Get(MemberTag);
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
using DataTag = MemberTag<VectorStorage, double*, 0>;
using RowsTag = MemberTag<VectorStorage, Eigen::Index, 1>;
using MatrixDataTag = MemberTag<MatrixStorage, double*, 0>;
using MatrixRowsTag = MemberTag<MatrixStorage, Eigen::Index, 1>;
using MatrixColsTag = MemberTag<MatrixStorage, Eigen::Index, 2>;
template struct MemberPointer<DataTag, &VectorStorage::m_data>;
template struct MemberPointer<RowsTag, &VectorStorage::m_rows>;
template struct MemberPointer<MatrixDataTag, &MatrixStorage::m_data>;
template struct MemberPointer<MatrixRowsTag, &MatrixStorage::m_rows>;
template struct MemberPointer<MatrixColsTag, &MatrixStorage::m_cols>;

// The storage member is protected: named through a derived class, as sparse_resize.h does.
struct VectorMembers : Eigen::VectorXd {
  static constexpr VectorStorage Eigen::PlainObjectBase<Eigen::VectorXd>::*kStorage =
      &VectorMembers::m_storage;
};

struct MatrixMembers : Eigen::MatrixXd {
  static constexpr MatrixStorage Eigen::PlainObjectBase<Eigen::MatrixXd>::*kStorage =
      &MatrixMembers::m_storage;
};

// Eigen hands out glibc's blocks as they are only when malloc already aligns them (otherwise it
// offsets the pointer, which the C library would not recognise).
constexpr bool kPlainBlocks = EIGEN_MALLOC_ALREADY_ALIGNED != 0;

}  // namespace

namespace {

// How many doubles the block at `data` holds (`size` where the allocator cannot say).
Eigen::Index BlockCapacity(const double* data, Eigen::Index size) {
#if defined(__GLIBC__)
  if (kPlainBlocks && data != nullptr) {
    return static_cast<Eigen::Index>(malloc_usable_size(const_cast<double*>(data)) /
                                     sizeof(double));
  }
#endif
  return size;
}

}  // namespace

Eigen::Index StorageCapacity(const Eigen::VectorXd& v) {
  return BlockCapacity(v.data(), v.size());
}

Eigen::Index StorageCapacity(const Eigen::MatrixXd& m) {
  return BlockCapacity(m.data(), m.size());
}

void ResizeKeepingStorage(Eigen::VectorXd& v, Eigen::Index n) {
  if (n == v.size()) return;
#if defined(__GLIBC__)
  if (kPlainBlocks) {
    VectorStorage& storage = v.*VectorMembers::kStorage;
    double*& data = storage.*Get(DataTag{});
    Eigen::Index& rows = storage.*Get(RowsTag{});
    const Eigen::Index capacity = StorageCapacity(v);
    if (n > capacity) {
      const Eigen::Index grown = std::max(n, 2 * capacity);
      double* block = Eigen::internal::conditional_aligned_new_auto<double, true>(grown);
      if (data != nullptr) std::copy(data, data + std::min(rows, n), block);
      Eigen::internal::conditional_aligned_delete_auto<double, true>(data, rows);
      data = block;
    }
    rows = n;
    return;
  }
#endif
  v.conservativeResize(n);
}

void ReserveStorage(Eigen::VectorXd& v, Eigen::Index n) {
  if (n <= StorageCapacity(v)) return;
  const Eigen::Index size = v.size();
  ResizeKeepingStorage(v, n);
  ResizeKeepingStorage(v, size);
}

void ResizeKeepingStorage(Eigen::MatrixXd& m, Eigen::Index rows, Eigen::Index cols) {
  if (rows == m.rows() && cols == m.cols()) return;
#if defined(__GLIBC__)
  if (kPlainBlocks) {
    MatrixStorage& storage = m.*MatrixMembers::kStorage;
    double*& data = storage.*Get(MatrixDataTag{});
    const Eigen::Index n = rows * cols;
    const Eigen::Index capacity = StorageCapacity(m);
    if (n > capacity) {
      const Eigen::Index grown = std::max(n, 2 * capacity);
      double* block = Eigen::internal::conditional_aligned_new_auto<double, true>(grown);
      Eigen::internal::conditional_aligned_delete_auto<double, true>(data, m.size());
      data = block;
    }
    storage.*Get(MatrixRowsTag{}) = rows;
    storage.*Get(MatrixColsTag{}) = cols;
    return;
  }
#endif
  m.resize(rows, cols);
}

}  // namespace coulomb::math
