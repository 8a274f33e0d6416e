#pragma once
// The algebra of the three-dimensional second-order (Lorentz) cone L = {x : x₀ ≥ ‖(x₁, x₂)‖}
// that the cone interior-point method works in (cone_interior_point.h): the Jordan product, its
// inverse, the Nesterov–Todd scaling and the longest step that stays in the cone. References:
// Alizadeh and Goldfarb, "Second-order cone programming" (2003), §4–5 (Jordan algebra, NT
// direction); Vandenberghe, "The CVXOPT linear and quadratic cone program solvers" (2010), §4
// (the scaling point w̄ and η below).

#include <Eigen/Dense>
#include <cmath>
#include <limits>

namespace coulomb::soc {

// det x = x₀² − ‖x̄‖², as the product of the two eigenvalues x₀ ∓ ‖x̄‖ (no cancellation near
// the boundary, where the iterates of an interior-point method end).
inline double Det(const Eigen::Vector3d& x) {
  const double bar = x.tail<2>().norm();
  return (x[0] - bar) * (x[0] + bar);
}

inline bool Interior(const Eigen::Vector3d& x) {
  return x[0] > x.tail<2>().norm();
}

// Jordan product x ∘ y = (xᵀy, x₀ ȳ + y₀ x̄); e = (1, 0, 0) is its identity.
inline Eigen::Vector3d Product(const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
  Eigen::Vector3d p;
  p[0] = x.dot(y);
  p.tail<2>() = x[0] * y.tail<2>() + y[0] * x.tail<2>();
  return p;
}

// The z with λ ∘ z = d, for λ in the interior: z₀ = (λ₀ d₀ − λ̄ᵀd̄) / det λ, z̄ = (d̄ − z₀ λ̄) / λ₀.
inline Eigen::Vector3d Divide(const Eigen::Vector3d& lambda, const Eigen::Vector3d& d) {
  Eigen::Vector3d z;
  z[0] = (lambda[0] * d[0] - lambda.tail<2>().dot(d.tail<2>())) / Det(lambda);
  z.tail<2>() = (d.tail<2>() - z[0] * lambda.tail<2>()) / lambda[0];
  return z;
}

// The Nesterov–Todd scaling of an interior pair (x, y): the symmetric positive definite
// W = η H(w̄), H(w̄) = [w̄₀ w̄̄ᵀ; w̄̄ I + w̄̄ w̄̄ᵀ/(1 + w̄₀)], det w̄ = 1, with W x = W⁻¹ y (= λ, the scaled
// point) and W² x = y. W⁻¹ = H(J w̄) / η, J = diag(1, −1, −1).
struct NtScaling {
  Eigen::Matrix3d W, W_inverse;
  Eigen::Vector3d lambda;  // W x
};

inline NtScaling Scale(const Eigen::Vector3d& x, const Eigen::Vector3d& y) {
  const double det_x = Det(x), det_y = Det(y);
  const Eigen::Vector3d x_unit = x / std::sqrt(det_x), y_unit = y / std::sqrt(det_y);
  const double gamma = std::sqrt(0.5 * (1.0 + x_unit.dot(y_unit)));
  Eigen::Vector3d w;  // w̄ = (ȳ + J x̄) / 2γ in the normalized points
  w[0] = (y_unit[0] + x_unit[0]) / (2 * gamma);
  w.tail<2>() = (y_unit.tail<2>() - x_unit.tail<2>()) / (2 * gamma);
  const double eta = std::sqrt(std::sqrt(det_y / det_x));
  NtScaling s;
  Eigen::Matrix3d H;
  H(0, 0) = w[0];
  H.block<2, 2>(1, 1) =
      Eigen::Matrix2d::Identity() + w.tail<2>() * w.tail<2>().transpose() / (1 + w[0]);
  H.block<1, 2>(0, 1) = w.tail<2>().transpose();
  H.block<2, 1>(1, 0) = w.tail<2>();
  s.W = eta * H;
  H.block<1, 2>(0, 1) *= -1;
  H.block<2, 1>(1, 0) *= -1;
  s.W_inverse = H / eta;
  s.lambda = s.W * x;
  return s;
}

// The largest α ≥ 0 with x + α dx in the closed cone (+∞ if every α is), for x in the interior:
// the first positive root of det(x + α dx) = det(dx) α² + 2 ⟨x, J dx⟩ α + det(x) or of
// x₀ + α dx₀, whichever comes first.
inline double MaxStep(const Eigen::Vector3d& x, const Eigen::Vector3d& dx) {
  double step = std::numeric_limits<double>::infinity();
  if (dx[0] < 0) step = -x[0] / dx[0];
  const double a = Det(dx);
  const double b = x[0] * dx[0] - x.tail<2>().dot(dx.tail<2>());
  const double c = Det(x);
  if (a == 0) {
    if (b < 0) step = std::min(step, -c / (2 * b));
    return step;
  }
  const double discriminant = b * b - a * c;
  if (discriminant < 0) return step;
  // Roots (−b ∓ √disc) / a, the smaller-magnitude one as c / (−b ± √disc) (no cancellation).
  const double root = std::sqrt(discriminant);
  const double big = -b - std::copysign(root, b);
  for (const double t : {big / a, big != 0 ? c / big : std::numeric_limits<double>::infinity()}) {
    if (t > 0) step = std::min(step, t);
  }
  return step;
}

}  // namespace coulomb::soc
