#pragma once
// The regularization R and bias v̂ of each constraint type (docs/notes/sap-and-deformables.md
// §1.1 and §1.3), frozen for the step. W is the constraint's Delassus estimate
// (EstimateDelassusBlock). The near-rigid clamp R ≥ β²/(4π²)·w softens a constraint only as far
// as needed for its oscillation period to be β·δt: stiffer than that, an implicit step cannot
// resolve it anyway, and the Hessian stays well conditioned.

#include <Eigen/Dense>

#include "coulomb/convex/sap_constraint.h"

namespace coulomb::convex {

// β for contacts: Drake's default is 1 and its documentation calls that conservative (it softens
// contact) and suggests smaller values. At β = 1 a 10-box stack at δt = 5 ms sinks 1.2 mm in
// 10 s (steady overlap γ_n R_n (δt + τ_d) per contact); at β = 0.1 it sinks 0.02 mm, with the
// same Newton iteration counts on every example scene.
struct SapRegularization {
  double beta = 0.1;            // near-rigid threshold for contacts
  double sigma = 1e-3;          // friction regularization: stiction slip ≈ σ·δt·g
  double holonomic_beta = 0.1;  // near-rigid threshold for holonomic constraints and limits
};

// Point contact: gap φ0 (m, negative when overlapping) at the start of the step, normal
// stiffness k (N/m; +∞ for rigid contact) and dissipation time scale τ_d (s, damping d = τ_d k).
// The normal impulse models γ_n/δt = (−k φ − d v_n)_+ with φ = φ0 + δt v_n.
struct ContactParameters {
  double phi0 = 0;
  double mu = 0;
  double stiffness = INFINITY;
  double dissipation_time_scale = 0;
  // m/s: the largest separation speed the bias v̂_n may ask of a rigid (k = ∞) overlap
  // (formulations/contact_solution.h says why).
  double max_correction_speed = INFINITY;
  // m: the gap up to which the contact keeps its damper (see SetContactConstraint): 0 for rigid
  // contacts, ∞ for deformable ones.
  double damped_gap = 0;
};
SapConstraint MakeContactConstraint(SapJacobian jacobian, const ContactParameters& contact,
                                    const Eigen::MatrixXd& W, double dt,
                                    const SapRegularization& regularization);
// The same into `c`, whose jacobian is set already (its vectors' storage reused). W is a plain
// small matrix, not a Ref: its norm then sums in the same order as a MatrixXd's.
void SetContactConstraint(const ContactParameters& contact, const ConstraintMatrix& W, double dt,
                          const SapRegularization& regularization, SapConstraint& c);

// Holonomic g(q, t) = 0 with g = g0 at the start of the step and ∂g/∂t = bias: welds, couplers,
// distance constraints, attachments. k = +∞ (default) is a rigid constraint; a finite k with
// relaxation time τ is a spring–damper. Impulses are bounded by [lower, upper] (±∞ default).
// When the near-rigid clamp is active, τ is reset to δt (critical damping,
// docs/notes/sap-and-deformables.md §1.3).
struct HolonomicParameters {
  Eigen::VectorXd g0, bias;
  double stiffness = INFINITY;
  double relaxation_time = 0;
  Eigen::VectorXd lower, upper;  // empty: unbounded
};
SapConstraint MakeHolonomicConstraint(SapJacobian jacobian, const HolonomicParameters& holonomic,
                                      const Eigen::MatrixXd& W, double dt,
                                      const SapRegularization& regularization);

// A one-sided limit row g ≥ 0 (g = q − q_lower or q_upper − q): stiffness 1e12, τ = δt,
// impulses in [0, ∞).
SapConstraint MakeLimitConstraint(SapJacobian jacobian, const Eigen::VectorXd& g0,
                                  const Eigen::MatrixXd& W, double dt,
                                  const SapRegularization& regularization);
// A one-row limit into `c`, whose jacobian is set already.
void SetLimitConstraint(double g0, const ConstraintMatrix& W, double dt,
                        const SapRegularization& regularization, SapConstraint& c);

// Coulomb friction of a joint, |τ| ≤ friction (N m or N), on its one velocity row: a box
// [−δt·friction, δt·friction] around v̂ = 0 with R = σ·w, the regularization SAP gives contact
// friction (§1.2), so a joint below its friction creeps at most ≈ σ·δt times what it would
// gain in a step, and one above slides with exactly friction opposing it.
void SetJointFrictionConstraint(double friction, double w, double dt,
                                const SapRegularization& regularization, SapConstraint& c);

// An implicit PD controller on one dof: τ = clamp(kp (q_ref − q) + kd (v_ref − v), ±effort)
// evaluated at the end of the step (q = q0 + δt v), so any gains are stable.
struct PdParameters {
  double q0 = 0, q_ref = 0, v_ref = 0;
  double kp = 0, kd = 0;     // N m/rad, N m s/rad (or N/m, N s/m)
  double effort = INFINITY;  // N m (or N)
};
SapConstraint MakePdConstraint(SapJacobian jacobian, const PdParameters& pd, double dt);
// The same into `c`, whose jacobian is set already.
void SetPdConstraint(const PdParameters& pd, double dt, SapConstraint& c);

}  // namespace coulomb::convex
