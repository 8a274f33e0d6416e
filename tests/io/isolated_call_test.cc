#include "coulomb/io/isolated_call.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

namespace coulomb::io {
namespace {

using std::chrono::milliseconds;

TEST(IsolatedCall, ReturnsTheChildsBytesExactly) {
  const std::string bytes("answer\0with\0zeros", 17);
  const auto got = RunIsolated([&] { return std::string(bytes); }, 1000, milliseconds(10000));
  ASSERT_TRUE(got.ok()) << got.error().reason;
  EXPECT_EQ(got.value(), bytes);
}

TEST(IsolatedCall, ACrashInTheChildIsAnErrorNotACrash) {
  const auto got = RunIsolated(
      [] {
        raise(SIGSEGV);
        return std::string("unreachable");
      },
      1000, milliseconds(10000));
  ASSERT_FALSE(got.ok());
  // Plain builds see the signal; under AddressSanitizer its handler reports and aborts instead.
  EXPECT_NE(got.error().reason.find("crashed ("), std::string::npos) << got.error().reason;
}

TEST(IsolatedCall, AHangIsCutAtTheTimeLimit) {
  const auto start = std::chrono::steady_clock::now();
  const auto got = RunIsolated(
      [] {
        std::this_thread::sleep_for(std::chrono::seconds(30));
        return std::string("late");
      },
      1000, milliseconds(200));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().reason, "did not finish within 0.2 s");
  EXPECT_LT(seconds, 10.0);  // killed, not waited for
}

TEST(IsolatedCall, AnAnswerAboveTheLimitIsRefused) {
  const auto got = RunIsolated([] { return std::string(1 << 20, 'x'); }, 1000, milliseconds(10000));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().reason, "answered more than 1000 bytes");
}

TEST(IsolatedCall, AnExitWithoutAnswerIsAnError) {
  const auto got = RunIsolated(
      [] {
        _exit(5);
        return std::string();
      },
      1000, milliseconds(10000));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().reason, "exited with status 5");
}

}  // namespace
}  // namespace coulomb::io
