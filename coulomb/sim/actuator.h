#pragma once
// Joint actuators of a scene: a torque (force) source or a PD controller on one joint degree of
// freedom, each following a target profile in time. Efforts are clamped to the joint's effort
// limit. Under SAP the PD law is an implicit drive constraint; the cone and the velocity LCP
// fold it into the step's mass, τ = kp (q_ref − q − h v⁺) + kd (v_ref − v⁺) at the step's end
// (contact::BuildContactProblemAtPoses); both are stable for any gains. Under paper 1's stepper
// it is explicit, τ = kp (q_ref − q) + kd (v_ref − v), so gains must respect the step's
// stability bound (kd h / I < 2, kp h² / I < 4 for joint inertia I; the energy audit says so).

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/multibody/model.h"

namespace coulomb::sim {

// A scalar function of time: constant, linear ramp, sine, or piecewise-linear waypoints.
struct Profile {
  enum class Kind { kConstant, kRamp, kSine, kWaypoints };
  Kind kind = Kind::kConstant;
  double value = 0;                             // constant
  double from = 0, to = 0, start = 0, end = 1;  // ramp: from → to over [start, end] s
  double offset = 0, amplitude = 0, frequency = 0, phase = 0;  // sine: Hz, rad
  std::vector<Eigen::Vector2d> waypoints;  // (t, value), t increasing; held beyond the ends

  double Value(double t) const;
  double Rate(double t) const;  // d/dt, the PD velocity reference
};

struct Actuator {
  enum class Kind { kTorque, kPd };
  Kind kind = Kind::kPd;
  std::string joint;      // the joint's name (for messages)
  int body = 0;           // the body whose joint is driven (1-DoF joints only)
  double kp = 0, kd = 0;  // N m/rad, N m s/rad (or N/m, N s/m)
  Profile target;         // effort (torque) or position reference (PD)
};

// τ (size nv) of the actuators at time t and state (q, v): all of them, or only the torque
// sources when the PD controllers are implicit drives of the formulation (SAP).
enum class PdHandling { kExplicit, kImplicit };
// Written into `tau` (resized to nv; its storage reused from step to step).
void CalcActuation(const multibody::Model& model, const std::vector<Actuator>& actuators, double t,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& v, PdHandling pd,
                   Eigen::VectorXd& tau);

// The PD controllers as implicit drives with their references at time t (the end of the step):
// τ = clamp(kp (q_ref − q) + kd (v_ref − v), ±effort limit) at the step's end state.
// Written into `drives` (cleared; its storage reused from step to step).
void CalcDrives(const multibody::Model& model, const std::vector<Actuator>& actuators, double t,
                const Eigen::VectorXd& q, std::vector<contact::JointDrive>& drives);

}  // namespace coulomb::sim
