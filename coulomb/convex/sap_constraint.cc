#include "coulomb/convex/sap_constraint.h"

#include <algorithm>
#include <cmath>

namespace coulomb::convex {
namespace {

// The soft norm √(‖y_t‖² + ε²) keeps t̂ = y_t / y_r and its derivative finite at y_t = 0
// (docs/notes/sap-and-deformables.md §1.2). ε is an impulse, N s: far below any impulse a step
// resolves.
constexpr double kSoftNormEpsilon = 1e-7;

ConstraintEvaluation EvaluateCone(const SapConstraint& c,
                                  const Eigen::Ref<const Eigen::VectorXd>& v_c) {
  const double R_n = c.R[0];
  const double R_t = c.R[1];
  const Eigen::Vector3d y = (c.v_hat - v_c).cwiseQuotient(c.R);
  const ConeProjection p = ProjectOntoRegularizedCone(y, c.mu, R_n, R_t);
  ConstraintEvaluation e;
  e.gamma = p.gamma;
  // ℓ = ½ γᵀ R γ: by Moreau's decomposition in the R inner product its gradient is −γ.
  e.cost = 0.5 * p.gamma.dot(c.R.cwiseProduct(p.gamma));
  // G = (∂γ/∂y) R⁻¹, symmetric because R_t is shared by both tangent rows.
  const Eigen::Matrix3d G = p.dgamma_dy * c.R.cwiseInverse().asDiagonal();
  e.G = 0.5 * (G + G.transpose());  // remove round-off asymmetry
  return e;
}

ConstraintEvaluation EvaluateBox(const SapConstraint& c,
                                 const Eigen::Ref<const Eigen::VectorXd>& v_c) {
  const int r = c.rows();
  ConstraintEvaluation e;
  e.gamma.resize(r);
  e.G = ConstraintMatrix::Zero(r, r);
  for (int k = 0; k < r; ++k) {
    const double y = (c.v_hat[k] - v_c[k]) / c.R[k];
    if (y < c.lower[k] || y > c.upper[k]) {
      // Clamped at bound b: ℓ = −b (v_c − v̂) − ½ R b², the continuous continuation of ½ R y²
      // (Drake's −b v_c drops the constant and jumps at the bound;
      // docs/notes/sap-and-deformables.md §1).
      const double b = y < c.lower[k] ? c.lower[k] : c.upper[k];
      e.gamma[k] = b;
      e.cost += -b * (v_c[k] - c.v_hat[k]) - 0.5 * c.R[k] * b * b;
    } else {
      e.gamma[k] = y;
      e.cost += 0.5 * c.R[k] * y * y;
      e.G(k, k) = 1.0 / c.R[k];
    }
  }
  return e;
}

}  // namespace

ConeProjection ProjectOntoRegularizedCone(const Eigen::Vector3d& y, double mu, double R_n,
                                          double R_t) {
  ConeProjection p;
  const double y_n = y[0];
  const Eigen::Vector2d y_t = y.tail<2>();
  const double y_r = std::sqrt(y_t.squaredNorm() + kSoftNormEpsilon * kSoftNormEpsilon);
  const double mu_hat = mu * R_t / R_n;    // μ̂ = μ R_t / R_n
  const double mu_tilde_sq = mu * mu_hat;  // μ̃² = μ² R_t / R_n
  if (y_r <= mu * y_n) {                   // inside the cone: sticking
    p.region = ConeProjection::Region::kStiction;
    p.gamma = y;
    p.dgamma_dy.setIdentity();
    return p;
  }
  if (y_n <= -mu_hat * y_r) {  // inside the polar cone: separating
    p.region = ConeProjection::Region::kSeparation;
    p.gamma.setZero();
    p.dgamma_dy.setZero();
    return p;
  }
  // Sliding: the R-norm projection lands on the cone's boundary along t̂ = y_t / y_r.
  p.region = ConeProjection::Region::kSliding;
  const double f = 1.0 / (1.0 + mu_tilde_sq);
  const Eigen::Vector2d t_hat = y_t / y_r;
  const double gamma_n = (y_n + mu_hat * y_r) * f;
  p.gamma << gamma_n, mu * gamma_n * t_hat;
  const Eigen::Matrix2d P_t = t_hat * t_hat.transpose();
  const Eigen::Matrix2d P_perp = Eigen::Matrix2d::Identity() - P_t;
  p.dgamma_dy(0, 0) = f;
  p.dgamma_dy.block<1, 2>(0, 1) = mu_hat * f * t_hat.transpose();
  p.dgamma_dy.block<2, 1>(1, 0) = mu * f * t_hat;
  p.dgamma_dy.block<2, 2>(1, 1) = mu * (gamma_n / y_r * P_perp + mu_hat * f * P_t);
  return p;
}

ConstraintEvaluation EvaluateConstraint(const SapConstraint& constraint,
                                        const Eigen::Ref<const Eigen::VectorXd>& v_c) {
  return constraint.kind == SapConstraint::Kind::kFrictionCone ? EvaluateCone(constraint, v_c)
                                                               : EvaluateBox(constraint, v_c);
}

}  // namespace coulomb::convex
