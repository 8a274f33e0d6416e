#include "coulomb/complementarity/portfolio.h"

#include <fmt/format.h>

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/lcp_solvers.h"

namespace coulomb {

LcpResult SolvePortfolio(const LcpProblem& problem, const PortfolioParams& params,
                         const LcpSolverSettings& members) {
  const Stopwatch clock;
  if (const std::string defect = ValidateLcp(problem); !defect.empty()) {
    return MakeBadInputResult("portfolio", defect);
  }
  std::vector<LcpSolverKind> order = params.order;
  if (params.enumeration_max_size > 0 && problem.size() <= params.enumeration_max_size) {
    order.push_back(LcpSolverKind::kEnumeration);
  }
  LcpResult best;
  best.certificate.finite = false;
  std::string attempts;
  int iterations = 0;
  for (const LcpSolverKind kind : order) {
    if (kind == LcpSolverKind::kPortfolio) continue;  // no recursion
    if ((kind == LcpSolverKind::kFeasibleInteriorPoint ||
         kind == LcpSolverKind::kFischerBurmeister) &&
        problem.size() > params.slow_member_max_size) {
      attempts += fmt::format("{}: skipped (n above slow_member_max_size); ", ToString(kind));
      continue;
    }
    LcpResult r = SolveLcp(problem, kind, members);
    iterations += r.iterations;
    if (r.solved()) {
      r.solver = fmt::format("portfolio/{}", ToString(kind));
      r.iterations = iterations;
      if (!attempts.empty()) r.message = "after " + attempts.substr(0, attempts.size() - 2);
      r.seconds = clock.Seconds();
      return r;
    }
    attempts += fmt::format("{}: {}{}; ", ToString(kind), ToString(r.status),
                            r.message.empty() ? "" : " (" + r.message + ")");
    // Keep the best uncertified answer; a proof of no solution overrides it.
    const bool better = r.certificate.Worst() < best.certificate.Worst() || best.z.size() == 0;
    if (r.status == LcpStatus::kNoSolution || (better && best.status != LcpStatus::kNoSolution)) {
      best = std::move(r);
    }
  }
  best.solver = "portfolio";
  best.iterations = iterations;
  best.message = attempts.empty() ? "no solver ran" : attempts.substr(0, attempts.size() - 2);
  best.seconds = clock.Seconds();
  return best;
}

}  // namespace coulomb
