#include "coulomb/complementarity/complementary_basis.h"

#include <algorithm>

#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

// Two steps of iterative refinement x += solve(rhs − B x), as `solve` (in place on its argument)
// does it.
template <typename Solve>
void Refine(const Eigen::Map<const Eigen::MatrixXd>& block, ComplementaryBasisWorkspace& ws,
            const Solve& solve) {
  for (int step = 0; step < 2; ++step) {
    ws.residual.noalias() = block * ws.x;  // then rhs − B x
    ws.residual = ws.rhs - ws.residual;
    solve(ws.residual, ws.correction);
    ws.x += ws.correction;
  }
}

}  // namespace

void ReserveComplementaryBasis(int n, ComplementaryBasisWorkspace& ws) {
  const auto size = static_cast<std::size_t>(n);
  ws.block.reserve(size * size);
  ws.alpha.reserve(size);
  ws.guess.reserve(size);
  math::ReserveLu(ws.lu, n);
  math::ReserveMinNorm(ws.min_norm, n);
  for (Eigen::VectorXd* v : {&ws.rhs, &ws.x, &ws.residual, &ws.correction, &ws.z, &ws.w}) {
    math::ReserveStorage(*v, n);
  }
}

bool SolveComplementaryBasis(const LcpProblem& problem, const std::vector<char>& in_alpha,
                             const Eigen::VectorXd* near, ComplementaryBasisWorkspace& ws) {
  const int n = problem.size();
  ws.alpha.clear();
  for (int i = 0; i < n; ++i) {
    if (in_alpha[i]) ws.alpha.push_back(i);
  }
  math::ResizeKeepingStorage(ws.z, n);
  ws.z.setZero();
  const int k = static_cast<int>(ws.alpha.size());
  if (k == 0) return true;
  // Room for the largest basis at once: the guessed bases of one problem differ in size.
  ReserveComplementaryBasis(n, ws);
  ws.block.resize(static_cast<std::size_t>(k) * static_cast<std::size_t>(k));
  Eigen::Map<Eigen::MatrixXd> block(ws.block.data(), k, k);
  for (Eigen::VectorXd* v : {&ws.rhs, &ws.x, &ws.residual, &ws.correction}) {
    math::ResizeKeepingStorage(*v, k);
  }
  for (int b = 0; b < k; ++b) {
    ws.rhs[b] = -problem.q[ws.alpha[b]];
    for (int a = 0; a < k; ++a) block(a, b) = problem.M(ws.alpha[a], ws.alpha[b]);
  }
  const Eigen::Map<const Eigen::MatrixXd> B(ws.block.data(), k, k);
  math::PrepareLu(ws.lu, k) = B;
  math::FactorLu(ws.lu);
  if (math::EstimateReciprocalCondition(ws.lu) > 1e-14) {
    ws.x = ws.rhs;
    math::SolveLuInPlace(ws.lu, ws.x);
    Refine(B, ws, [&](const Eigen::VectorXd& r, Eigen::VectorXd& d) {
      d = r;
      math::SolveLuInPlace(ws.lu, d);
    });
  } else {
    if (near == nullptr) return false;
    for (int a = 0; a < k; ++a) ws.x[a] = (*near)[ws.alpha[a]];
    math::PrepareMinNorm(ws.min_norm, k) = B;
    math::FactorMinNorm(ws.min_norm);
    Refine(B, ws, [&](const Eigen::VectorXd& r, Eigen::VectorXd& d) {
      math::SolveMinNorm(ws.min_norm, r, d);
    });
    ws.residual.noalias() = B * ws.x;
    const double scale = 1.0 + ws.rhs.lpNorm<Eigen::Infinity>() +
                         B.cwiseAbs().maxCoeff() * ws.x.lpNorm<Eigen::Infinity>();
    if (!((ws.rhs - ws.residual).lpNorm<Eigen::Infinity>() <= 1e-12 * scale)) return false;
  }
  if (!ws.x.allFinite()) return false;
  for (int a = 0; a < k; ++a) ws.z[ws.alpha[a]] = ws.x[a];
  return true;
}

const std::vector<char>& GuessBasis(const Eigen::VectorXd& z, const Eigen::VectorXd& w,
                                    ComplementaryBasisWorkspace& ws) {
  ws.guess.resize(static_cast<std::size_t>(z.size()));
  for (Eigen::Index i = 0; i < z.size(); ++i) ws.guess[i] = z[i] > w[i] ? 1 : 0;
  return ws.guess;
}

bool SolveWarmBasis(const LcpProblem& problem, const std::vector<char>& in_alpha,
                    const Eigen::VectorXd& near, ComplementaryBasisWorkspace& workspace) {
  const auto size = std::count(in_alpha.begin(), in_alpha.end(), 1);
  return SolveComplementaryBasis(problem, in_alpha, size <= kNearestWarmBasisSize ? &near : nullptr,
                                 workspace);
}

bool TakeWarmBasisAnswer(const LcpProblem& problem, const Eigen::VectorXd& z, double tolerance,
                         const char* solver, LcpResult& result) {
  // Certified before anything is written: a miss leaves `result` to the solver, with no message
  // formatted for an answer nobody will see.
  result.certificate = CertifyLcp(problem, z, &result.w);
  if (!result.certificate.Passes(tolerance)) return false;
  math::ResizeKeepingStorage(result.z, z.size());
  result.z = z;
  result.status = LcpStatus::kSolved;
  result.solver = solver;
  result.iterations = 0;
  result.restarts = 0;
  result.message = "last step's complementary basis, certified";
  return true;
}

}  // namespace coulomb
