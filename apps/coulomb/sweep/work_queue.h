#pragma once
// The two hand-offs of a sweep between threads: run indices to the worker threads, and finished
// rows back to the thread that records them (or ships them to rank 0).

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace coulomb::app {

// Run indices waiting for a worker. Pop blocks until an index arrives or the queue is closed
// and empty.
class WorkQueue {
 public:
  void Push(const std::vector<int>& indices) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      items_.insert(items_.end(), indices.begin(), indices.end());
    }
    ready_.notify_all();
  }
  void Close() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    ready_.notify_all();
  }
  // Drops what waits (an interrupted sweep hands out nothing more) and closes.
  void Clear() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      items_.clear();
      closed_ = true;
    }
    ready_.notify_all();
  }
  std::optional<int> Pop() {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return !items_.empty() || closed_; });
    return TakeLocked();
  }
  std::optional<int> TryPop() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return TakeLocked();
  }
  bool Empty() {
    const std::lock_guard<std::mutex> lock(mutex_);
    return items_.empty();
  }

 private:
  std::optional<int> TakeLocked() {
    if (items_.empty()) return std::nullopt;
    const int i = items_.front();
    items_.pop_front();
    return i;
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<int> items_;
  bool closed_ = false;
};

// Finished runs: a CSV row, or nothing for a run that was cancelled.
class Outbox {
 public:
  void Put(std::optional<std::string> row) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      entries_.push_back(std::move(row));
    }
    ready_.notify_all();
  }
  // Everything finished so far, waiting up to `timeout` for the first entry.
  std::vector<std::optional<std::string>> Take(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait_for(lock, timeout, [&] { return !entries_.empty(); });
    std::vector<std::optional<std::string>> out(entries_.begin(), entries_.end());
    entries_.clear();
    return out;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::optional<std::string>> entries_;
};

}  // namespace coulomb::app
