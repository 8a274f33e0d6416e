#pragma once
// The worker threads of one run (a Data's): data-parallel loops over ranges, for the stages of a
// step that split into independent pieces (the contacts of one Gauss–Seidel level, their
// measures). Written here rather than taken from OpenMP or TBB because the step's promise is
// bit-identical results for any number of threads, so every loop splits its range into pieces
// that do not depend on each other and nothing here sums across them; what that needs is a pool
// that starts a loop in well under a microsecond (Gauss–Seidel levels are a few microseconds of
// work each), which a spinning pool of two dozen lines does and OpenMP's runtime on a busy
// 2-core machine did not (numerics_threads.h: its spinning workers cost the scheduler seconds).
//
// Workers spin a short while after each loop, then sleep until the next: loops in quick
// succession (one sweep's levels) pay no wake-up, a pool idle between steps costs no core.

#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

namespace coulomb {

class ThreadPool {
 public:
  // `threads` in all, the caller included (1: no worker, every loop runs inline).
  explicit ThreadPool(int threads = 1);
  // A copy has threads of its own, as many: a copied Data steps on its own.
  ThreadPool(const ThreadPool& other);
  ThreadPool& operator=(const ThreadPool& other);
  ThreadPool(ThreadPool&&) noexcept;
  ThreadPool& operator=(ThreadPool&&) noexcept;
  ~ThreadPool();

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls body(begin, end) on size() contiguous pieces of [0, n) (some possibly empty), one per
  // thread, the caller taking the first, and returns when all are done. The pieces depend only
  // on n and size(). `body` must not throw, and must not call ParallelFor on this pool.
  template <class Body>
  void ParallelFor(int n, Body&& body) {
    using Plain = std::remove_reference_t<Body>;
    Run(
        n, [](void* context, int begin, int end) { (*static_cast<Plain*>(context))(begin, end); },
        const_cast<void*>(static_cast<const void*>(&body)));
  }

  // Piece k of [0, n) split into `pieces`: [n k / pieces, n (k + 1) / pieces).
  static int PieceBegin(int n, int pieces, int k) {
    return static_cast<int>(static_cast<long long>(n) * k / pieces);
  }

 private:
  struct Shared;
  using Call = void (*)(void* context, int begin, int end);
  void Run(int n, Call call, void* context);
  static void WorkerLoop(Shared* shared, int index);
  void Start(int threads);
  void Stop();

  std::unique_ptr<Shared> shared_;
  std::vector<std::thread> workers_;
};

}  // namespace coulomb
