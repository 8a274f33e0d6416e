#include "coulomb/convex/sap_constraint_builders.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace coulomb::convex {
namespace {

constexpr double kLimitStiffness = 1e12;  // N/m or N m/rad: rigid for any practical load

// β²/(4π²)·w: the regularization whose oscillator with Delassus mass 1/w has period β·δt.
double NearRigidR(double beta, double w) {
  return beta * beta / (4 * std::numbers::pi * std::numbers::pi) * w;
}

// R and v̂ of a row of stiffness k and relaxation τ: R⁻¹ = δt (δt + τ) k, clamped below by the
// near-rigid value; a clamped row gets τ = δt.
struct RowRegularization {
  double R, tau;
};
RowRegularization RegularizeRow(double k, double tau, double dt, double beta, double w) {
  const double compliant = 1.0 / (dt * (dt + tau) * k);  // 0 for k = +∞
  const double near_rigid = NearRigidR(beta, w);
  if (compliant >= near_rigid) return {compliant, tau};
  return {near_rigid, dt};
}

}  // namespace

SapConstraint MakeContactConstraint(SapJacobian jacobian, const ContactParameters& contact,
                                    const Eigen::MatrixXd& W, double dt,
                                    const SapRegularization& regularization) {
  SapConstraint c;
  c.jacobian = std::move(jacobian);
  SetContactConstraint(contact, ConstraintMatrix(W), dt, regularization, c);
  return c;
}

void SetContactConstraint(const ContactParameters& contact, const ConstraintMatrix& W, double dt,
                          const SapRegularization& regularization, SapConstraint& c) {
  c.kind = SapConstraint::Kind::kFrictionCone;
  c.mu = contact.mu;
  // Spec §1.1: w_n and w_t from the diagonal, floored by the RMS of the block so a contact
  // whose normal row is weakly coupled is not regularized to nothing.
  const double w_rms = W.norm() / 3.0;
  const double w_n = std::max(W(0, 0), w_rms);
  const double w_t = std::max(0.5 * (W(1, 1) + W(2, 2)), w_rms);
  const double tau_d = contact.dissipation_time_scale;
  const double R_n =
      std::max(NearRigidR(regularization.beta, w_n), 1.0 / (dt * contact.stiffness * (dt + tau_d)));
  const double R_t = regularization.sigma * w_t;
  c.R = Eigen::Vector3d(R_n, R_t, R_t);
  // v̂_n = −φ0/(δt + τ_d) (docs/notes/sap-and-deformables.md §1.1) models a spring and damper
  // in the overlap. A contact that does not touch yet (φ0 > 0, found early because its bodies
  // move fast) has no damper: v̂_n = −φ0/δt gives no impulse until the predicted gap φ0 + δt v_n
  // closes, so a falling body arrives instead of being braked in the air (halving its height
  // above the ground every step). The two agree at φ0 = 0.
  const double relaxation = contact.phi0 > 0 ? dt : dt + tau_d;
  double v_hat = -contact.phi0 / relaxation;
  if (std::isinf(contact.stiffness)) v_hat = std::min(v_hat, contact.max_correction_speed);
  c.v_hat = Eigen::Vector3d(v_hat, 0, 0);
}

SapConstraint MakeHolonomicConstraint(SapJacobian jacobian, const HolonomicParameters& holonomic,
                                      const Eigen::MatrixXd& W, double dt,
                                      const SapRegularization& regularization) {
  SapConstraint c;
  c.kind = SapConstraint::Kind::kBox;
  c.jacobian = std::move(jacobian);
  const int r = c.jacobian.rows();
  const double w = W.norm() / r;
  c.R.resize(r);
  c.v_hat.resize(r);
  for (int k = 0; k < r; ++k) {
    const RowRegularization row = RegularizeRow(holonomic.stiffness, holonomic.relaxation_time, dt,
                                                regularization.holonomic_beta, w);
    c.R[k] = row.R;
    const double bias = holonomic.bias.size() == r ? holonomic.bias[k] : 0.0;
    c.v_hat[k] = -holonomic.g0[k] / (dt + row.tau) - bias;
  }
  c.lower = holonomic.lower.size() == r ? holonomic.lower : Eigen::VectorXd::Constant(r, -INFINITY);
  c.upper = holonomic.upper.size() == r ? holonomic.upper : Eigen::VectorXd::Constant(r, INFINITY);
  return c;
}

SapConstraint MakeLimitConstraint(SapJacobian jacobian, const Eigen::VectorXd& g0,
                                  const Eigen::MatrixXd& W, double dt,
                                  const SapRegularization& regularization) {
  HolonomicParameters limit;
  limit.g0 = g0;
  limit.stiffness = kLimitStiffness;
  limit.relaxation_time = dt;
  limit.lower = Eigen::VectorXd::Zero(g0.size());
  return MakeHolonomicConstraint(std::move(jacobian), limit, W, dt, regularization);
}

void SetLimitConstraint(double g0, const ConstraintMatrix& W, double dt,
                        const SapRegularization& regularization, SapConstraint& c) {
  // MakeLimitConstraint's rows for one row, without its parameter vectors.
  c.kind = SapConstraint::Kind::kBox;
  const double w = W.norm();  // one row
  const RowRegularization row =
      RegularizeRow(kLimitStiffness, dt, dt, regularization.holonomic_beta, w);
  c.R.setConstant(1, row.R);
  c.v_hat.setConstant(1, -g0 / (dt + row.tau));
  c.lower.setConstant(1, 0.0);
  c.upper.setConstant(1, INFINITY);
}

SapConstraint MakePdConstraint(SapJacobian jacobian, const PdParameters& pd, double dt) {
  SapConstraint c;
  c.jacobian = std::move(jacobian);
  SetPdConstraint(pd, dt, c);
  return c;
}

void SetJointFrictionConstraint(double friction, double w, double dt,
                                const SapRegularization& regularization, SapConstraint& c) {
  c.kind = SapConstraint::Kind::kBox;
  c.R.setConstant(1, regularization.sigma * w);
  c.v_hat.setZero(1);
  c.lower.setConstant(1, -dt * friction);
  c.upper.setConstant(1, dt * friction);
}

void SetPdConstraint(const PdParameters& pd, double dt, SapConstraint& c) {
  // γ = δt [kp (q_ref − q0 − δt v) + kd (v_ref − v)] = R⁻¹ (v̂ − v) with
  // R⁻¹ = δt (δt kp + kd) and v̂ = (kp (q_ref − q0) + kd v_ref) / (δt kp + kd).
  c.kind = SapConstraint::Kind::kBox;
  const double gain = dt * pd.kp + pd.kd;
  c.R.setConstant(1, 1.0 / (dt * gain));
  c.v_hat.setConstant(1, (pd.kp * (pd.q_ref - pd.q0) + pd.kd * pd.v_ref) / gain);
  c.lower.setConstant(1, -dt * pd.effort);
  c.upper.setConstant(1, dt * pd.effort);
}

}  // namespace coulomb::convex
