#include "coulomb/base/thread_pool.h"

#include <gtest/gtest.h>

#include <numeric>
#include <thread>
#include <vector>

namespace coulomb {
namespace {

// Every index of every loop is visited exactly once, by pieces that depend only on n and the
// pool's size, over many loops in quick succession (the workers spinning) and after pauses long
// enough for them to fall asleep.
TEST(ThreadPool, EveryLoopVisitsEachIndexOnceInPiecesFixedByItsLength) {
  for (int threads : {1, 2, 3, 5}) {
    ThreadPool pool(threads);
    ASSERT_EQ(pool.size(), threads);
    for (int loop = 0; loop < 300; ++loop) {
      const int n = (loop * 37) % 101;  // 0 included, and n below the thread count
      std::vector<int> visits(static_cast<std::size_t>(n), 0);
      std::vector<std::pair<int, int>> pieces(static_cast<std::size_t>(threads), {-1, -1});
      pool.ParallelFor(n, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) ++visits[static_cast<std::size_t>(i)];
        for (int k = 0; k < threads; ++k) {
          if (ThreadPool::PieceBegin(n, threads, k) == begin) {
            pieces[static_cast<std::size_t>(k)] = {begin, end};
          }
        }
      });
      for (int i = 0; i < n; ++i) ASSERT_EQ(visits[static_cast<std::size_t>(i)], 1) << n;
      for (int k = 0; k < threads && n >= threads; ++k) {
        EXPECT_EQ(pieces[static_cast<std::size_t>(k)].second,
                  ThreadPool::PieceBegin(n, threads, k + 1));
      }
      if (loop % 100 == 99) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

// Work really runs on other threads (a loop with one piece per thread sees as many thread ids),
// and a copy is a pool of its own with as many threads.
TEST(ThreadPool, PiecesRunOnDistinctThreadsAndACopyHasItsOwn) {
  ThreadPool pool(3);
  std::vector<std::thread::id> ids(3);
  pool.ParallelFor(3, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) ids[static_cast<std::size_t>(i)] = std::this_thread::get_id();
  });
  EXPECT_NE(ids[0], ids[1]);
  EXPECT_NE(ids[1], ids[2]);
  EXPECT_NE(ids[0], ids[2]);
  EXPECT_EQ(ids[0], std::this_thread::get_id());  // the caller takes the first piece
  ThreadPool copy = pool;
  ASSERT_EQ(copy.size(), 3);
  std::vector<long> sums(3, 0);
  copy.ParallelFor(3000, [&](int begin, int end) {
    long sum = 0;
    for (int i = begin; i < end; ++i) sum += i;
    sums[static_cast<std::size_t>(begin / 1000)] = sum;
  });
  EXPECT_EQ(std::accumulate(sums.begin(), sums.end(), 0L), 2999L * 3000 / 2);
  ThreadPool moved = std::move(copy);
  EXPECT_EQ(moved.size(), 3);
  int calls = 0;
  moved.ParallelFor(1, [&](int begin, int end) { calls += end - begin; });
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace coulomb
