#include "coulomb/complementarity/complementary_basis.h"

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
  ws.block.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  math::ReserveLu(ws.lu, n);
  math::ReserveMinNorm(ws.min_norm, n);
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

}  // namespace coulomb
