#include "coulomb/complementarity/projected_gauss_seidel.h"

#include <fmt/format.h>

#include <algorithm>

#include "coulomb/base/stopwatch.h"

namespace coulomb {

LcpResult SolveProjectedGaussSeidel(const LcpProblem& problem,
                                    const ProjectedGaussSeidelParams& params,
                                    const Eigen::VectorXd* start) {
  const Stopwatch clock;
  if (const std::string defect = ValidateLcp(problem); !defect.empty()) {
    return MakeBadInputResult("pgs", defect);
  }
  if (!(params.omega > 0.0 && params.omega < 2.0)) {
    return MakeBadInputResult("pgs", fmt::format("omega = {} is outside (0, 2)", params.omega));
  }
  LcpResult result;
  result.solver = "pgs";
  const int n = problem.size();
  for (int i = 0; i < n; ++i) {
    if (!(problem.M(i, i) > 0.0)) {
      SetAnswer(problem, Eigen::VectorXd::Zero(n), LcpStatus::kNotApplicable,
                params.acceptance_tolerance, result);
      result.message = fmt::format(
          "M[{0}][{0}] = {1} is not positive: projected Gauss-Seidel "
          "needs a positive diagonal",
          i, problem.M(i, i));
      result.seconds = clock.Seconds();
      return result;
    }
  }
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  if (start != nullptr && start->size() == n && start->allFinite()) z = start->cwiseMax(0.0);
  // Row access in the sweep: a row-major copy keeps it contiguous.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = problem.M;
  LcpStatus status = LcpStatus::kIterationLimit;
  for (int sweep = 1; sweep <= params.max_sweeps; ++sweep) {
    for (int i = 0; i < n; ++i) {
      const double residual = problem.q[i] + rows.row(i).dot(z);
      z[i] = std::max(0.0, z[i] - params.omega * residual / rows(i, i));
    }
    result.iterations = sweep;
    if (sweep % params.check_every == 0 || sweep == params.max_sweeps) {
      if (CertifyLcp(problem, z).Passes(params.acceptance_tolerance)) {
        status = LcpStatus::kSolved;
        break;
      }
      if (!z.allFinite()) {
        status = LcpStatus::kStalled;
        result.message = fmt::format("iterates diverged at sweep {}", sweep);
        break;
      }
    }
  }
  if (status == LcpStatus::kIterationLimit) {
    result.message = fmt::format("sweep limit {} reached", params.max_sweeps);
  }
  const std::string message = result.message;
  SetAnswer(problem, z, status, params.acceptance_tolerance, result);
  if (!message.empty()) result.message = message;
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
