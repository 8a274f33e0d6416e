#pragma once
// Shared assertions: a solver's answer is judged by the independent certificate, never by
// comparison with this code's own earlier output.

#include <gtest/gtest.h>

#include <string>

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_result.h"
#include "tests/support/build_paths.h"

namespace coulomb::testing {

// Solved and certified afresh here (not trusting result.certificate).
inline ::testing::AssertionResult IsCertifiedSolution(const LcpProblem& problem,
                                                      const LcpResult& result,
                                                      double tolerance = kLcpCertifyTolerance) {
  const LcpCertificate c = CertifyLcp(problem, result.z);
  if (result.solved() && c.Passes(tolerance)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << result.solver << " on " << problem.name << " (n=" << problem.size() << "): status "
         << ToString(result.status) << ", worst measure " << c.Worst()
         << ", message: " << result.message;
}

inline std::string DataFile(const std::string& relative) {
  // Appended in place: GCC 12 warns (-Warray-bounds, a false positive of its bug 105651) on
  // std::string(...) + "/" + ... once the tests' precompiled header is in.
  std::string path = coulomb::testing::DataDir();
  path.append("/").append(relative);
  return path;
}

}  // namespace coulomb::testing
