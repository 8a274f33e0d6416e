#include "coulomb/io/isolated_call.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

// Under AddressSanitizer (the sanitizer and fuzz builds) a crash the child's library makes is
// reported by the sanitizer, which then runs the process's death callback: libFuzzer's writes the
// input as a "crash" of the fuzz target although the parent handles it. The child clears it.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/common_interface_defs.h>
#define COULOMB_CLEAR_SANITIZER_DEATH_CALLBACK() __sanitizer_set_death_callback(nullptr)
#endif
#endif
#ifndef COULOMB_CLEAR_SANITIZER_DEATH_CALLBACK
#define COULOMB_CLEAR_SANITIZER_DEATH_CALLBACK()
#endif

namespace coulomb::io {
namespace {

enum class Received { kComplete, kTooLong, kTooSlow };

// Reads until the child closes the pipe, at most `max_bytes`, until `deadline`.
Received Receive(int fd, std::size_t max_bytes, std::chrono::steady_clock::time_point deadline,
                 std::string& answer) {
  char chunk[1 << 16];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return Received::kTooSlow;
    pollfd p{fd, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) return Received::kTooSlow;
    const ssize_t got = ready < 0 ? -1 : read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      return Received::kComplete;  // closed (a read error also ends the answer;
                                   // the child's exit status then tells)
    if (answer.size() + static_cast<std::size_t>(got) > max_bytes) return Received::kTooLong;
    answer.append(chunk, static_cast<std::size_t>(got));
  }
}

void WriteAll(int fd, const std::string& bytes) {
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + sent, bytes.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    sent += static_cast<std::size_t>(n);
  }
}

}  // namespace

Expected<std::string> RunIsolated(const std::function<std::string()>& work, std::size_t max_bytes,
                                  std::chrono::milliseconds time_limit) {
  const auto failure = [](const std::string& reason) { return InputError{"", 0, "", reason}; };
  int pipe_ends[2];
  if (pipe2(pipe_ends, O_CLOEXEC) != 0) {
    return failure(std::string("could not be started: ") + std::strerror(errno));
  }
  const auto deadline = std::chrono::steady_clock::now() + time_limit;
  const pid_t child = fork();
  if (child < 0) {
    const int error = errno;
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    return failure(std::string("could not be started: ") + std::strerror(error));
  }
  if (child == 0) {
    close(pipe_ends[0]);
    // A crash of the child kills it and nothing else: handlers the caller installed (a crash
    // reporter, a sanitizer's or fuzzer's report of a "crash" that is in fact handled here) do not
    // run. Ctrl-C ends the child at once; the parent decides what it means.
    for (const int crash : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGPIPE})
      signal(crash, SIG_DFL);
    COULOMB_CLEAR_SANITIZER_DEATH_CALLBACK();
    WriteAll(pipe_ends[1], work());
    _exit(0);
  }
  close(pipe_ends[1]);
  std::string answer;
  const Received received = Receive(pipe_ends[0], max_bytes, deadline, answer);
  close(pipe_ends[0]);
  if (received != Received::kComplete) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return failure(std::string("was lost: ") + std::strerror(errno));
  }
  if (received == Received::kTooSlow) {
    return failure(fmt::format("did not finish within {} s", time_limit.count() / 1000.0));
  }
  if (received == Received::kTooLong) {
    return failure(fmt::format("answered more than {} bytes", max_bytes));
  }
  if (WIFSIGNALED(status)) return failure(fmt::format("crashed ({})", strsignal(WTERMSIG(status))));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return failure(fmt::format("exited with status {}", WEXITSTATUS(status)));
  }
  return answer;
}

}  // namespace coulomb::io
