#include "coulomb/convex/sap_constraint_builders.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "coulomb/math/dense_resize.h"

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

// One kBox row R, v̂ and bounds [lower, upper], in the constraint's kept storage: a reused slot
// that held a 3-row contact keeps its blocks (Eigen's setConstant(1, ·) would reallocate).
void SetOneBoxRow(double R, double v_hat, double lower, double upper, SapConstraint& c) {
  c.kind = SapConstraint::Kind::kBox;
  for (Eigen::VectorXd* row : {&c.R, &c.v_hat, &c.lower, &c.upper}) {
    math::ResizeKeepingStorage(*row, 1);
  }
  c.R[0] = R;
  c.v_hat[0] = v_hat;
  c.lower[0] = lower;
  c.upper[0] = upper;
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
  math::ResizeKeepingStorage(c.R, 3);  // kept storage, as SetOneBoxRow
  c.R << R_n, R_t, R_t;
  // v̂_n = −φ0/(δt + τ_d) (docs/notes/sap-and-deformables.md §1.1) models a spring and damper
  // in the overlap. A rigid contact that does not touch yet (φ0 > 0, found early because its
  // bodies move fast) has no damper: v̂_n = −φ0/δt gives no impulse until the predicted gap
  // φ0 + δt v_n closes, so a falling body arrives instead of being braked in the air (halving
  // its height above the ground every step). The two agree at φ0 = 0. Deformable contacts keep
  // the damper at every gap (damped_gap = ∞), as paper 2 has it: undamped, paper 2's arch (μ = 1,
  // 20 GPa blocks at δt = 40 ms) crept apart and fell after 7 minutes (keystone drift 96 % of
  // the span against 0.16 %), and undamped only beyond the 1 mm margin it still drifted 80 %.
  const double relaxation = contact.phi0 > contact.damped_gap ? dt : dt + tau_d;
  double v_hat = -contact.phi0 / relaxation;
  if (std::isinf(contact.stiffness)) v_hat = std::min(v_hat, contact.max_correction_speed);
  math::ResizeKeepingStorage(c.v_hat, 3);
  c.v_hat << v_hat, 0, 0;
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
  const double w = W.norm();  // one row
  const RowRegularization row =
      RegularizeRow(kLimitStiffness, dt, dt, regularization.holonomic_beta, w);
  SetOneBoxRow(row.R, -g0 / (dt + row.tau), 0.0, INFINITY, c);
}

SapConstraint MakePdConstraint(SapJacobian jacobian, const PdParameters& pd, double dt) {
  SapConstraint c;
  c.jacobian = std::move(jacobian);
  SetPdConstraint(pd, dt, c);
  return c;
}

void SetJointFrictionConstraint(double friction, double w, double dt,
                                const SapRegularization& regularization, SapConstraint& c) {
  SetOneBoxRow(regularization.sigma * w, 0.0, -dt * friction, dt * friction, c);
}

void SetPdConstraint(const PdParameters& pd, double dt, SapConstraint& c) {
  // γ = δt [kp (q_ref − q0 − δt v) + kd (v_ref − v)] = R⁻¹ (v̂ − v) with
  // R⁻¹ = δt (δt kp + kd) and v̂ = (kp (q_ref − q0) + kd v_ref) / (δt kp + kd).
  const double gain = dt * pd.kp + pd.kd;
  SetOneBoxRow(1.0 / (dt * gain), (pd.kp * (pd.q_ref - pd.q0) + pd.kd * pd.v_ref) / gain,
               -dt * pd.effort, dt * pd.effort, c);
}

}  // namespace coulomb::convex
