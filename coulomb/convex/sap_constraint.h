#pragma once
// One constraint of the SAP convex problem (Castro et al. 2022; docs/notes/sap-and-deformables.md
// §1): its Jacobian blocks on one or two cliques, the regularization R and bias v̂ frozen for the
// step, and the convex set its impulse lives in. Evaluating it at a constraint velocity
// v_c = J v gives the impulse γ, the cost ℓ_i (with ∂ℓ_i/∂v_c = −γ) and the Hessian block
// G = −∂γ/∂v_c ⪰ 0. Every type reduces to one of two projections, so a constraint is plain
// data and EvaluateConstraint is the only dispatch:
//   * kFrictionCone (3 rows, normal first: n, t, o) — frictional contact, §1.2;
//   * kBox (any rows) — each row clamped to [lower, upper]: holonomic constraints (±∞),
//     joint limits ([0, ∞)) and effort-limited implicit PD controllers (±δt·effort), §1.3.

#include <Eigen/Dense>
#include <string>

namespace coulomb::convex {

// Where a constraint acts: v_c = J_a v_a + J_b v_b over one or two cliques (a clique is one
// articulated tree, or one deformable body).
struct SapJacobian {
  std::string name;     // for messages, e.g. "contact 3 (box_2/ground)" or "limit of joint_4"
  int clique_a = -1;    // index into SapProblem::cliques
  int clique_b = -1;    // −1 when the constraint touches one clique only
  Eigen::MatrixXd J_a;  // rows × size of clique_a
  Eigen::MatrixXd J_b;  // rows × size of clique_b (empty when clique_b < 0)
  int rows() const { return static_cast<int>(J_a.rows()); }
};

struct SapConstraint {
  enum class Kind { kFrictionCone, kBox };
  Kind kind = Kind::kBox;
  SapJacobian jacobian;
  Eigen::VectorXd R;             // diagonal regularization: constraint velocity per unit impulse
  Eigen::VectorXd v_hat;         // bias velocity: the unconstrained impulse is R⁻¹ (v̂ − v_c)
  double mu = 0;                 // friction coefficient (kFrictionCone)
  Eigen::VectorXd lower, upper;  // impulse bounds per row (kBox), N s
  int rows() const { return static_cast<int>(R.size()); }
};

// A constraint has at most 6 rows (a weld); evaluations live on the stack, since the Newton
// loop and its line search evaluate every constraint many times per step.
inline constexpr int kMaxConstraintRows = 6;
using ConstraintVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxConstraintRows, 1>;
using ConstraintMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0,
                                       kMaxConstraintRows, kMaxConstraintRows>;

struct ConstraintEvaluation {
  ConstraintVector gamma;  // impulse, N s
  double cost = 0;         // ℓ_i, J
  ConstraintMatrix G;      // −∂γ/∂v_c, symmetric PSD
};

// γ, ℓ_i and G at constraint velocity v_c (size rows()).
ConstraintEvaluation EvaluateConstraint(const SapConstraint& constraint,
                                        const Eigen::Ref<const Eigen::VectorXd>& v_c);

// The projection of an unconstrained impulse y = (y_n, y_t, y_o) onto the friction cone
// ‖γ_t‖ ≤ μ γ_n in the norm of R = diag(R_n, R_t, R_t), and its Jacobian ∂γ/∂y (§1.2).
struct ConeProjection {
  enum class Region { kStiction, kSliding, kSeparation };
  Region region = Region::kStiction;
  Eigen::Vector3d gamma;
  Eigen::Matrix3d dgamma_dy;
};
ConeProjection ProjectOntoRegularizedCone(const Eigen::Vector3d& y, double mu, double R_n,
                                          double R_t);

}  // namespace coulomb::convex
