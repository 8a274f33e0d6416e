#pragma once
// A program's last line of defence. The library reports bad input as values; an exception that
// still reaches main (memory ran out, a third-party library threw, a bug) becomes a message on
// stderr and exit code 1, never std::terminate's abort and core dump.

#include <cstdio>
#include <exception>

namespace coulomb {

template <class Body>
int GuardedMain(Body&& body) noexcept {
  try {
    return body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
  } catch (...) {
    std::fputs("error: unknown exception\n", stderr);
  }
  return 1;
}

}  // namespace coulomb
