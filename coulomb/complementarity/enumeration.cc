#include "coulomb/complementarity/enumeration.h"

#include <fmt/format.h>

#include "coulomb/base/stopwatch.h"

namespace coulomb {
namespace {

bool IsNew(const std::vector<Eigen::VectorXd>& found, const Eigen::VectorXd& z) {
  for (const Eigen::VectorXd& other : found) {
    if ((other - z).lpNorm<Eigen::Infinity>() <= 1e-8 * (1.0 + z.lpNorm<Eigen::Infinity>())) {
      return false;
    }
  }
  return true;
}

}  // namespace

LcpEnumeration EnumerateLcpSolutions(const LcpProblem& problem, const EnumerationParams& params) {
  const Stopwatch clock;
  LcpEnumeration out;
  if (const std::string defect = ValidateLcp(problem); !defect.empty()) {
    out.message = defect;
    return out;
  }
  const int n = problem.size();
  if (n > params.max_size) {
    out.message =
        fmt::format("n = {} exceeds the enumeration limit of {} (2^n bases)", n, params.max_size);
    return out;
  }
  const double tol = params.feasibility_tolerance * (1.0 + problem.q.lpNorm<Eigen::Infinity>());
  std::vector<int> alpha;
  Eigen::VectorXd z(n);
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << n); ++mask) {
    ++out.bases_checked;
    alpha.clear();
    for (int i = 0; i < n; ++i) {
      if (mask & (std::uint64_t{1} << i)) alpha.push_back(i);
    }
    const int k = static_cast<int>(alpha.size());
    Eigen::MatrixXd block(k, k);
    Eigen::VectorXd rhs(k);
    for (int a = 0; a < k; ++a) {
      rhs[a] = -problem.q[alpha[a]];
      for (int b = 0; b < k; ++b) block(a, b) = problem.M(alpha[a], alpha[b]);
    }
    Eigen::VectorXd x;
    bool singular = false;
    if (k > 0) {
      const Eigen::FullPivLU<Eigen::MatrixXd> lu(block);
      if (lu.isInvertible()) {
        x = lu.solve(rhs);
      } else {
        singular = true;
        x = block.completeOrthogonalDecomposition().solve(rhs);
        if ((block * x - rhs).lpNorm<Eigen::Infinity>() > tol) continue;  // inconsistent
      }
    }
    z.setZero();
    for (int a = 0; a < k; ++a) z[alpha[a]] = x[a];
    const Eigen::VectorXd w = problem.M * z + problem.q;
    const bool feasible = (k == 0 || x.minCoeff() >= -tol) && w.minCoeff() >= -tol;
    if (!feasible) {
      if (singular) ++out.undecided_blocks;
      continue;
    }
    if (singular) out.has_continuum = true;
    if (IsNew(out.solutions, z)) out.solutions.push_back(z);
  }
  out.exhaustive = out.undecided_blocks == 0;
  if (!out.solutions.empty()) {
    out.status = LcpStatus::kSolved;
  } else if (out.exhaustive) {
    out.status = LcpStatus::kNoSolution;
    out.message = fmt::format("no solution: all {} complementary bases checked", out.bases_checked);
  } else {
    out.status = LcpStatus::kStalled;
    out.message = fmt::format(
        "undecided: {} singular blocks have solution sets whose minimum-norm "
        "point is infeasible",
        out.undecided_blocks);
  }
  out.seconds = clock.Seconds();
  return out;
}

LcpResult SolveEnumeration(const LcpProblem& problem, const EnumerationParams& params) {
  const Stopwatch clock;
  const LcpEnumeration all = EnumerateLcpSolutions(problem, params);
  if (all.status == LcpStatus::kBadInput) return MakeBadInputResult("enum", all.message);
  LcpResult result;
  result.solver = "enum";
  result.iterations = static_cast<int>(all.bases_checked);
  const int n = problem.size();
  if (all.solutions.empty()) {
    SetAnswer(problem, Eigen::VectorXd::Zero(n), all.status, params.acceptance_tolerance, result);
    result.message = all.message;
  } else {
    const Eigen::VectorXd* best = &all.solutions.front();
    for (const Eigen::VectorXd& s : all.solutions) {
      if (CertifyLcp(problem, s).Worst() < CertifyLcp(problem, *best).Worst()) best = &s;
    }
    SetAnswer(problem, *best, LcpStatus::kSolved, params.acceptance_tolerance, result);
    if (result.solved()) {
      result.message = fmt::format("{} distinct solution{}{}", all.solutions.size(),
                                   all.solutions.size() == 1 ? "" : "s",
                                   all.has_continuum ? " (some part of a continuum)" : "");
    }
  }
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
