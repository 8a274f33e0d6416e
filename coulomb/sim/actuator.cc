#include "coulomb/sim/actuator.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace coulomb::sim {

double Profile::Value(double t) const {
  switch (kind) {
    case Kind::kConstant:
      return value;
    case Kind::kRamp: {
      if (t <= start) return from;
      if (t >= end) return to;
      return from + (to - from) * (t - start) / (end - start);
    }
    case Kind::kSine:
      return offset + amplitude * std::sin(2 * std::numbers::pi * frequency * t + phase);
    case Kind::kWaypoints: {
      if (waypoints.empty()) return 0;
      if (t <= waypoints.front()[0]) return waypoints.front()[1];
      for (std::size_t k = 1; k < waypoints.size(); ++k) {
        if (t <= waypoints[k][0]) {
          const Eigen::Vector2d& a = waypoints[k - 1];
          const Eigen::Vector2d& b = waypoints[k];
          return a[1] + (b[1] - a[1]) * (t - a[0]) / (b[0] - a[0]);
        }
      }
      return waypoints.back()[1];
    }
  }
  return 0;
}

double Profile::Rate(double t) const {
  switch (kind) {
    case Kind::kConstant:
      return 0;
    case Kind::kRamp:
      return t > start && t < end ? (to - from) / (end - start) : 0.0;
    case Kind::kSine:
      return amplitude * 2 * std::numbers::pi * frequency *
             std::cos(2 * std::numbers::pi * frequency * t + phase);
    case Kind::kWaypoints:
      for (std::size_t k = 1; k < waypoints.size(); ++k) {
        if (t > waypoints[k - 1][0] && t < waypoints[k][0]) {
          return (waypoints[k][1] - waypoints[k - 1][1]) / (waypoints[k][0] - waypoints[k - 1][0]);
        }
      }
      return 0;
  }
  return 0;
}

void CalcActuation(const multibody::Model& model, const std::vector<Actuator>& actuators, double t,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& v, PdHandling pd,
                   Eigen::VectorXd& tau) {
  tau.setZero(model.nv);
  for (const Actuator& a : actuators) {
    if (a.kind == Actuator::Kind::kPd && pd == PdHandling::kImplicit) continue;
    const multibody::Body& body = model.bodies[a.body];
    double effort = 0;
    if (a.kind == Actuator::Kind::kTorque) {
      effort = a.target.Value(t);
    } else {
      effort = a.kp * (a.target.Value(t) - q[body.q_index]) +
               a.kd * (a.target.Rate(t) - v[body.v_index]);
    }
    const double limit = std::isfinite(body.effort_limit) ? body.effort_limit : INFINITY;
    tau[body.v_index] += std::clamp(effort, -limit, limit);
  }
}

void CalcDrives(const multibody::Model& model, const std::vector<Actuator>& actuators, double t,
                const Eigen::VectorXd& q, std::vector<contact::JointDrive>& drives) {
  drives.clear();
  for (const Actuator& a : actuators) {
    if (a.kind != Actuator::Kind::kPd) continue;
    const multibody::Body& body = model.bodies[a.body];
    drives.push_back({a.joint, body.v_index, q[body.q_index], a.target.Value(t), a.target.Rate(t),
                      a.kp, a.kd, body.effort_limit});
  }
}

}  // namespace coulomb::sim
