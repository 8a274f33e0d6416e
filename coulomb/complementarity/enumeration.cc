#include "coulomb/complementarity/enumeration.h"

#include <fmt/format.h>

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/margin_lp.h"

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

struct BlockDecision {
  bool feasible = false;
  bool undecided = false;
  Eigen::VectorXd z;
};

// Points x = x₀ + N y of a singular block's solution set (x₀ its minimum-norm point, N a basis
// of the block's null space) with x ≥ 0 and w_ᾱ = M_ᾱα x + q_ᾱ ≥ 0, by the margin LP over y.
BlockDecision DecideSingularBlock(const LcpProblem& problem, const std::vector<int>& alpha,
                                  const Eigen::MatrixXd& block, const Eigen::VectorXd& x0,
                                  double tol) {
  BlockDecision out;
  const int n = problem.size();
  const auto k = static_cast<Eigen::Index>(alpha.size());
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(block, Eigen::ComputeFullV);
  svd.setThreshold(1e-10);
  const Eigen::Index rank = svd.rank();
  const Eigen::MatrixXd N = svd.matrixV().rightCols(k - rank);
  std::vector<int> others;
  std::vector<char> in_alpha(n, 0);
  for (const int i : alpha) in_alpha[i] = 1;
  for (int i = 0; i < n; ++i) {
    if (!in_alpha[i]) others.push_back(i);
  }
  const auto m = static_cast<Eigen::Index>(others.size());
  Eigen::MatrixXd G(k + m, N.cols());
  Eigen::VectorXd g(k + m);
  G.topRows(k) = N;
  g.head(k) = x0;
  for (Eigen::Index r = 0; r < m; ++r) {
    Eigen::RowVectorXd row(k);
    for (Eigen::Index a = 0; a < k; ++a) row[a] = problem.M(others[r], alpha[a]);
    G.row(k + r) = row * N;
    g[k + r] = row.dot(x0) + problem.q[others[r]];
  }
  const MarginLpResult lp = MaximizeMargin(G, g, /*nonnegative=*/false);
  if (lp.pivot_limit) {
    out.undecided = true;
    return out;
  }
  if (lp.margin < -tol) return out;  // proven: no point of this block is feasible
  const Eigen::VectorXd x = x0 + N * lp.y;
  out.z.setZero(n);
  for (Eigen::Index a = 0; a < k; ++a) out.z[alpha[a]] = std::max(x[a], 0.0);
  out.feasible = true;
  return out;
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
    Eigen::VectorXd w = problem.M * z + problem.q;
    bool feasible = (k == 0 || x.minCoeff() >= -tol) && w.minCoeff() >= -tol;
    if (!feasible && singular) {
      // The solution set of the block is affine; its minimum-norm point is only one of them.
      // Whether any point of it is feasible is a linear program: decided, it either gives one
      // or proves the block holds none.
      const BlockDecision decision = DecideSingularBlock(problem, alpha, block, x, tol);
      if (decision.undecided) ++out.undecided_blocks;
      if (!decision.feasible) continue;
      z = decision.z;
      w = problem.M * z + problem.q;
      feasible = w.minCoeff() >= -tol;
    }
    if (!feasible) continue;
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
