#pragma once
// Replaces the C allocator of the program that includes this header (in exactly one of its
// translation units) with one that counts: malloc and its family, which both operator new and
// Eigen reach. The counters are per thread, plain increments. Counting is not free (a call and an
// increment around every malloc and free): time with the allocator as it is (bench/step_bench). SuiteSparse's allocations (CHOLMOD, KLU) go through their own hooks to a second
// counter, so the two are told apart. Not for sanitizer builds, which replace the allocator
// themselves.

#include <SuiteSparse_config.h>

#include <cerrno>
#include <cstddef>

// glibc's own allocator, which the replacements below forward to (glibc's names).
// NOLINTBEGIN(bugprone-reserved-identifier, readability-identifier-naming)
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* p);
}
// NOLINTEND(bugprone-reserved-identifier, readability-identifier-naming)

namespace coulomb::testing {

// The calling thread's allocations so far.
struct AllocationCounts {
  long long ours = 0;         // every allocation but SuiteSparse's
  long long suitesparse = 0;  // through SuiteSparse_config's hooks
};

inline thread_local long long g_counted_ours = 0;
inline thread_local long long g_counted_suitesparse = 0;

inline AllocationCounts CountedAllocations() {
  return {g_counted_ours, g_counted_suitesparse};
}

inline void* SuiteSparseMalloc(std::size_t size) {
  ++g_counted_suitesparse;
  return __libc_malloc(size);
}
inline void* SuiteSparseCalloc(std::size_t count, std::size_t size) {
  ++g_counted_suitesparse;
  return __libc_calloc(count, size);
}
inline void* SuiteSparseRealloc(void* p, std::size_t size) {
  ++g_counted_suitesparse;
  return __libc_realloc(p, size);
}

// Routes SuiteSparse's allocations to their own counter (call before its first use).
inline void CountSuiteSparseAllocationsApart() {
  SuiteSparse_config.malloc_func = SuiteSparseMalloc;
  SuiteSparse_config.calloc_func = SuiteSparseCalloc;
  SuiteSparse_config.realloc_func = SuiteSparseRealloc;
  SuiteSparse_config.free_func = __libc_free;
}

}  // namespace coulomb::testing

extern "C" {
void* malloc(std::size_t size) {
  ++coulomb::testing::g_counted_ours;
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  ++coulomb::testing::g_counted_ours;
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) {
  ++coulomb::testing::g_counted_ours;
  return __libc_realloc(p, size);
}
void* memalign(std::size_t alignment, std::size_t size) {
  ++coulomb::testing::g_counted_ours;
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) {
  ++coulomb::testing::g_counted_ours;
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  ++coulomb::testing::g_counted_ours;
  *out = __libc_memalign(alignment, size);
  return *out == nullptr ? ENOMEM : 0;
}
void free(void* p) {
  __libc_free(p);
}
}
