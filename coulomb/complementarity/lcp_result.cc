#include "coulomb/complementarity/lcp_result.h"

#include <fmt/format.h>

#include <iterator>
#include <utility>

#include "coulomb/math/dense_resize.h"

namespace coulomb {

std::string_view ToString(LcpStatus status) {
  switch (status) {
    case LcpStatus::kSolved:
      return "solved";
    case LcpStatus::kSecondaryRay:
      return "secondary_ray";
    case LcpStatus::kNoStrictlyFeasiblePoint:
      return "no_strictly_feasible_point";
    case LcpStatus::kIterationLimit:
      return "iteration_limit";
    case LcpStatus::kStalled:
      return "stalled";
    case LcpStatus::kInaccurate:
      return "inaccurate";
    case LcpStatus::kNoSolution:
      return "no_solution";
    case LcpStatus::kNotApplicable:
      return "not_applicable";
    case LcpStatus::kBadInput:
      return "bad_input";
    case LcpStatus::kTimeLimit:
      return "time_limit";
  }
  return "unknown";
}

LcpResult MakeBadInputResult(std::string solver, std::string reason) {
  LcpResult r;
  r.solver = std::move(solver);
  r.status = LcpStatus::kBadInput;
  r.message = std::move(reason);
  r.certificate.finite = false;
  return r;
}

void SetAnswer(const LcpProblem& problem, const Eigen::VectorXd& z, LcpStatus status,
               double tolerance, LcpResult& result) {
  math::ResizeKeepingStorage(result.z, z.size());
  result.z = z;
  result.certificate = CertifyLcp(problem, z, &result.w);
  result.status = status;
  if (status == LcpStatus::kSolved && !result.certificate.Passes(tolerance)) {
    result.status = LcpStatus::kInaccurate;
    // Into the kept string: a caller that keeps its result allocates nothing here once warm.
    result.message.clear();
    if (result.certificate.finite) {
      fmt::format_to(std::back_inserter(result.message),
                     "answer misses the certificate: worst measure {:.3e} > {:.1e}",
                     result.certificate.Worst(), tolerance);
    } else {
      result.message = "answer has NaN or infinite entries";
    }
  }
}

}  // namespace coulomb
