#include "coulomb/base/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace coulomb {
namespace {

void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Pauses a worker spins for the next loop before it sleeps: ~0.1–0.5 ms, longer than the gap
// between two levels of one sweep and far shorter than a step's serial stages.
constexpr int kSpinsBeforeSleep = 1 << 12;
// Pauses the caller spins for the workers to finish before it yields its core.
constexpr int kSpinsBeforeYield = 1 << 8;

}  // namespace

struct ThreadPool::Shared {
  // Bumped once per loop; a worker runs a loop when it sees a value it has not run. seq_cst
  // throughout: a worker going to sleep and the caller deciding whether to wake it must not
  // miss each other (each reads what the other wrote last).
  std::atomic<std::uint64_t> generation{0};
  std::atomic<int> sleepers{0};
  std::atomic<int> pending{0};  // workers still inside the current loop
  std::atomic<bool> stop{false};
  // The current loop: written by the caller before it bumps `generation`.
  int n = 0, pieces = 1;
  Call call = nullptr;
  void* context = nullptr;
};

ThreadPool::ThreadPool(int threads) {
  Start(threads);
}

ThreadPool::ThreadPool(const ThreadPool& other) {
  Start(other.size());
}

ThreadPool& ThreadPool::operator=(const ThreadPool& other) {
  if (this != &other && other.size() != size()) {
    Stop();
    Start(other.size());
  }
  return *this;
}

ThreadPool::ThreadPool(ThreadPool&& other) noexcept
    : shared_(std::move(other.shared_)), workers_(std::move(other.workers_)) {
  other.workers_.clear();
}

ThreadPool& ThreadPool::operator=(ThreadPool&& other) noexcept {
  if (this != &other) {
    Stop();
    shared_ = std::move(other.shared_);
    workers_ = std::move(other.workers_);
    other.workers_.clear();
  }
  return *this;
}

ThreadPool::~ThreadPool() {
  Stop();
}

void ThreadPool::Start(int threads) {
  shared_ = std::make_unique<Shared>();
  const int count = std::max(1, threads) - 1;
  workers_.reserve(static_cast<std::size_t>(count));
  // The workers' pointer is to the heap Shared, which a move of the pool carries along.
  for (int k = 0; k < count; ++k) workers_.emplace_back(WorkerLoop, shared_.get(), k + 1);
}

void ThreadPool::Stop() {
  if (!shared_) return;
  shared_->stop.store(true);
  shared_->generation.fetch_add(1);
  shared_->generation.notify_all();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
  shared_.reset();
}

void ThreadPool::Run(int n, Call call, void* context) {
  if (n <= 0) return;
  if (workers_.empty()) {  // one thread (or a moved-from pool)
    call(context, 0, n);
    return;
  }
  Shared& s = *shared_;
  s.n = n;
  s.pieces = size();
  s.call = call;
  s.context = context;
  s.pending.store(static_cast<int>(workers_.size()));
  s.generation.fetch_add(1);
  if (s.sleepers.load() > 0) s.generation.notify_all();
  call(context, 0, PieceBegin(n, s.pieces, 1));
  // Spin, then yield: with more runnable threads than cores (two runs on a 2-core machine, or the
  // CI's parallel tests) a worker may be waiting for this very core, and a pure spin held a
  // 10 000-body step for 26 s instead of 0.2 s.
  for (int spins = 0; s.pending.load() != 0; ++spins) {
    if (spins < kSpinsBeforeYield) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

void ThreadPool::WorkerLoop(Shared* shared, int index) {
  Shared& s = *shared;
  std::uint64_t seen = 0;
  for (;;) {
    std::uint64_t now = s.generation.load();
    for (int spins = 0; now == seen; now = s.generation.load()) {
      if (++spins < kSpinsBeforeSleep) {
        // Yielding now and then lets a caller that shares this core run (oversubscription).
        if (spins % kSpinsBeforeYield == 0) {
          std::this_thread::yield();
        } else {
          CpuRelax();
        }
        continue;
      }
      s.sleepers.fetch_add(1);
      s.generation.wait(seen);  // returns at once if the caller bumped it meanwhile
      s.sleepers.fetch_sub(1);
      spins = 0;
    }
    seen = now;
    if (s.stop.load()) return;
    const int begin = ThreadPool::PieceBegin(s.n, s.pieces, index);
    const int end = ThreadPool::PieceBegin(s.n, s.pieces, index + 1);
    if (begin < end) s.call(s.context, begin, end);
    s.pending.fetch_sub(1);
  }
}

}  // namespace coulomb
