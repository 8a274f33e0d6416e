#include "coulomb/complementarity/friction_contact_result.h"

#include <fmt/format.h>

#include <iterator>

namespace coulomb {

FrictionContactResult MakeBadFrictionContactResult(std::string solver, std::string reason) {
  FrictionContactResult result;
  result.solver = std::move(solver);
  result.status = LcpStatus::kBadInput;
  result.message = std::move(reason);
  return result;
}

void SetFrictionContactAnswer(const FrictionContactProblem& problem, const Eigen::VectorXd& r,
                              LcpStatus status, double tolerance, FrictionContactResult& result) {
  result.r = r;
  CertifyFrictionContact(problem, r, result.certificate);
  result.u = result.certificate.u;
  result.error = result.certificate.error;
  result.status = status;
  if (!std::isfinite(result.error)) {
    result.status = LcpStatus::kStalled;
    result.message = "the iterates are not finite (NaN/Inf)";
  } else if (status == LcpStatus::kTimeLimit && result.error <= tolerance) {
    result.status = LcpStatus::kSolved;  // out of time, but already there
  } else if (status == LcpStatus::kSolved && !(result.error <= tolerance)) {
    result.status = LcpStatus::kInaccurate;
    result.message.clear();  // kept storage: a Newton probe stopped short is routine
    fmt::format_to(std::back_inserter(result.message), "error {:.3g} exceeds the tolerance {:.3g}",
                   result.error, tolerance);
  }
}

}  // namespace coulomb
