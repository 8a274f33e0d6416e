#pragma once
// What every LCP solver returns: status, the answer, its certificate, and the work it took.

#include <Eigen/Dense>
#include <string>
#include <string_view>

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

enum class LcpStatus {
  kSolved,                   // z passed the certificate at the solver's acceptance tolerance
  kSecondaryRay,             // Lemke: the complementary path ended on an unbounded ray
  kNoStrictlyFeasiblePoint,  // FIP Phase I: no (z, w) > 0 with w = Mz + q ("NFP" in paper 1)
  kIterationLimit,           // the iteration/pivot cap was reached first
  kStalled,                  // no further progress (line search failed, iterates diverged)
  kInaccurate,               // the method stopped but its answer failed the certificate
  kNoSolution,               // proven: enumeration of every complementary basis found none
  kNotApplicable,            // the solver's preconditions fail (e.g. PGS with M_ii <= 0)
  kBadInput,                 // malformed problem (non-square, NaN, ...)
  kTimeLimit,                // the wall-time budget ran out first; the best iterate is returned
};

// Stable snake_case names, used in JSON output and tests ("solved", "secondary_ray", ...).
std::string_view ToString(LcpStatus status);

struct LcpResult {
  std::string solver;  // e.g. "lemke", or "portfolio/ipm" for the portfolio's winner
  LcpStatus status = LcpStatus::kBadInput;
  Eigen::VectorXd z;           // best answer found (empty only for kBadInput)
  Eigen::VectorXd w;           // M z + q from the original data
  int iterations = 0;          // pivots / Newton or IPM iterations / sweeps, summed over restarts
  int restarts = 0;            // additional runs after the first (Lemke covering vectors)
  LcpCertificate certificate;  // on the original, unscaled data
  double seconds = 0;          // wall time of the whole call
  std::string message;         // why it failed, or notes (empty when nothing to say)

  bool solved() const { return status == LcpStatus::kSolved; }
};

// Result for a problem rejected by ValidateLcp (or by a size limit), with the reason.
LcpResult MakeBadInputResult(std::string solver, std::string reason);

// Certifies z on `problem`, stores z, w and the certificate in `result`. If `status` claims
// kSolved but the certificate fails at `tolerance`, the status becomes kInaccurate and the
// message says by how much: a solver can never report an uncertified answer as solved.
void SetAnswer(const LcpProblem& problem, const Eigen::VectorXd& z, LcpStatus status,
               double tolerance, LcpResult& result);

}  // namespace coulomb
