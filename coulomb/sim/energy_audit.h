#pragma once
// The energy balance of one step (docs/energy-audit.md): a step may not create energy beyond a
// stated tolerance. Contact, friction, damping and the integrator only remove energy; what the
// actuators put in is counted as work; position correction may add a bounded amount. A gain
// beyond that marks the step as failed with the reason, so an explicit PD controller too stiff
// for δt (energy ×10¹³ per step) cannot end a run with "failed steps 0".

#include <Eigen/Core>
#include <string>
#include <vector>

#include "coulomb/multibody/model.h"
#include "coulomb/sim/actuator.h"

namespace coulomb::sim {

// What the audit needs of a step, all in SI units (J, s).
struct EnergyAuditInput {
  double time = 0, time_step = 0;
  double kinetic_before = 0, potential_before = 0;  // J, gravitational potential
  double kinetic_after = 0, potential_after = 0;
  bool has_contacts_or_constraints = false;  // position correction may act
};

// Kinetic + gravitational energy is balanced against the actuators: an explicit PD controller
// that is not saturated is a spring (its ½ kp (q − r(t))² is part of the energy, the rest of its
// force does work); a torque source or a saturated PD does work τ · (v₀ + v₁)/2 · δt.
// Returns "" when the step's gain is within the tolerance, otherwise the reason (with
// kp·δt²/M of each explicit PD controller when one is stiff enough to be the cause).
std::string AuditStepEnergy(const multibody::Model& model, multibody::Data& data,
                            const std::vector<Actuator>& actuators, const EnergyAuditInput& in,
                            const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                            const Eigen::VectorXd& q1, const Eigen::VectorXd& v1);

}  // namespace coulomb::sim
