#include "coulomb/convex/sap_newton_direction.h"

#include <algorithm>
#include <utility>

#include "coulomb/base/stopwatch.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb::convex {
namespace {

// Fewer CG iterations than this cannot absorb even one changed contact block (rank 3) and
// would be wasted: small problems always factor.
constexpr int kMinCgBudget = 4;

// Preconditioned conjugate gradients on H x = b with the kept factor as preconditioner, from
// x = 0. Returns true once the scaled residual meets the tolerance within the iteration budget.
bool PreconditionedCg(const Eigen::SparseMatrix<double>& lower, const Eigen::VectorXd& b,
                      const Eigen::VectorXd& scale, double tolerance, int budget,
                      const math::CholeskyFactor& factor, Eigen::VectorXd& x, int& iterations,
                      NewtonDirectionWorkspace& ws) {
  const auto H = lower.selfadjointView<Eigen::Lower>();
  x.setZero();  // sized by the caller, as the workspace's vectors
  Eigen::VectorXd& r = ws.r;
  Eigen::VectorXd& z = ws.z;
  Eigen::VectorXd& p = ws.p;
  Eigen::VectorXd& Hp = ws.Hp;
  r = b;
  const double target = tolerance * scale.cwiseProduct(b).norm();
  factor.Solve(r, z);
  p = z;
  double rz = r.dot(z);
  for (int k = 0; k < budget; ++k) {
    ++iterations;
    Hp.noalias() = H * p;
    const double curvature = p.dot(Hp);
    if (!(curvature > 0) || !(rz > 0)) return false;  // round-off: let the factorization decide
    const double alpha = rz / curvature;
    x += alpha * p;
    r -= alpha * Hp;
    if (scale.cwiseProduct(r).norm() <= target) return true;
    factor.Solve(r, z);
    const double rz_next = r.dot(z);
    p = z + (rz_next / rz) * p;
    rz = rz_next;
  }
  return false;
}

}  // namespace

NewtonDirection SolveNewtonDirection(const Eigen::SparseMatrix<double>& lower,
                                     const Eigen::VectorXd& gradient, const Eigen::VectorXd& scale,
                                     const std::vector<int>& cliques, math::CholeskyMethod method,
                                     math::FillOrdering ordering,
                                     const LaggedFactorizationSettings& lagged,
                                     math::CholeskyFactor& factor) {
  NewtonDirectionWorkspace workspace;
  NewtonDirection out;
  SolveNewtonDirection(lower, gradient, scale, cliques, method, ordering, lagged, factor, workspace,
                       out);
  return out;
}

void SolveNewtonDirection(const Eigen::SparseMatrix<double>& lower, const Eigen::VectorXd& gradient,
                          const Eigen::VectorXd& scale, const std::vector<int>& cliques,
                          math::CholeskyMethod method, math::FillOrdering ordering,
                          const LaggedFactorizationSettings& lagged, math::CholeskyFactor& factor,
                          NewtonDirectionWorkspace& ws, NewtonDirection& out) {
  out.ok = out.factored = false;
  out.cg_iterations = 0;
  // In kept blocks: the participating velocities come and go with contacts, and Eigen's
  // assignments would reallocate each vector at each new size.
  for (Eigen::VectorXd* v : {&ws.b, &ws.r, &ws.z, &ws.p, &ws.Hp, &out.dv}) {
    math::ResizeKeepingStorage(*v, gradient.size());
  }
  out.factor_seconds = 0;
  Eigen::VectorXd& b = ws.b;
  b = -gradient;
  // The same cliques may bring different sizes (a deformable body's participating vertices).
  std::vector<int>& tag = ws.tag;
  tag.assign(cliques.begin(), cliques.end());
  tag.push_back(static_cast<int>(lower.rows()));
  // A CG iteration costs about one solve with the factor (the product with H is cheaper), so
  // reuse is tried only where the factorization is worth many solves, and never spends more
  // than max_factorization_share of a factorization's flops before falling back to one.
  const double affordable = lagged.max_factorization_share * factor.SolvesPerFactorization();
  const int budget = static_cast<int>(std::min<double>(lagged.max_cg_iterations, affordable));
  if (budget > 0 && affordable >= kMinCgBudget &&
      factor.FactorizationFlops() >= lagged.min_factorization_flops && factor.tag() == tag &&
      PreconditionedCg(lower, b, scale, lagged.cg_tolerance, budget, factor, out.dv,
                       out.cg_iterations, ws)) {
    out.ok = true;
    return;
  }
  const Stopwatch clock;
  out.ok = factor.Factor(lower, method, ordering);
  out.factor_seconds = clock.Seconds();
  out.factored = true;
  // A failed factor must never precondition: an empty tag matches no problem with cliques.
  if (out.ok) {
    factor.set_tag(tag);
    factor.Solve(b, out.dv);
  } else {
    factor.set_tag({});
  }
}

}  // namespace coulomb::convex
