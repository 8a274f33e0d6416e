#include "coulomb/math/dense_resize.h"

#include <algorithm>
#include <cstddef>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace coulomb::math {
namespace {

using VectorStorage = Eigen::DenseStorage<double, Eigen::Dynamic, Eigen::Dynamic, 1, 0>;

// Eigen keeps a vector's pointer and size private in its storage class. An explicit
// instantiation may name private members ([temp.spec.general]/6), so the one below hands out
// pointers to them; it must appear once in the program, hence this .cc file.
template <typename Tag, typename Tag::Type kMember>
struct MemberPointer {
  friend typename Tag::Type Get(Tag /*tag*/) { return kMember; }
};
struct DataTag {
  using Type = double* VectorStorage::*;
  friend Type Get(DataTag);
};
struct RowsTag {
  using Type = Eigen::Index VectorStorage::*;
  friend Type Get(RowsTag);
};
template struct MemberPointer<DataTag, &VectorStorage::m_data>;
template struct MemberPointer<RowsTag, &VectorStorage::m_rows>;

// The storage member is protected: named through a derived class, as sparse_resize.h does.
struct VectorMembers : Eigen::VectorXd {
  static constexpr VectorStorage Eigen::PlainObjectBase<Eigen::VectorXd>::*kStorage =
      &VectorMembers::m_storage;
};

// Eigen hands out glibc's blocks as they are only when malloc already aligns them (otherwise it
// offsets the pointer, which the C library would not recognise).
constexpr bool kPlainBlocks = EIGEN_MALLOC_ALREADY_ALIGNED != 0;

}  // namespace

Eigen::Index StorageCapacity(const Eigen::VectorXd& v) {
#if defined(__GLIBC__)
  if (kPlainBlocks && v.data() != nullptr) {
    return static_cast<Eigen::Index>(malloc_usable_size(const_cast<double*>(v.data())) /
                                     sizeof(double));
  }
#endif
  return v.size();
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

}  // namespace coulomb::math
