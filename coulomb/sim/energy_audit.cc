#include "coulomb/sim/energy_audit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "coulomb/formulations/contact_solution.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::sim {
namespace {

// The unclamped PD effort at the step's start and whether the effort limit cuts it.
struct PdEffort {
  double spring = 0;  // kp (r − q₀)
  double total = 0;   // the effort applied (clamped)
  bool saturated = false;
};

PdEffort EvalPd(const multibody::Body& body, const Actuator& a, double t, double q, double v) {
  PdEffort e;
  e.spring = a.kp * (a.target.Value(t) - q);
  const double raw = e.spring + a.kd * (a.target.Rate(t) - v);
  const double limit = std::isfinite(body.effort_limit) ? body.effort_limit : INFINITY;
  e.total = std::clamp(raw, -limit, limit);
  e.saturated = e.total != raw;
  return e;
}

}  // namespace

std::string AuditStepEnergy(const multibody::Model& model, multibody::Data& data,
                            const std::vector<Actuator>& actuators, const EnergyAuditInput& in,
                            const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                            const Eigen::VectorXd& q1, const Eigen::VectorXd& v1) {
  const double h = in.time_step;
  double spring_before = 0, spring_after = 0, work = 0, work_scale = 0;
  for (const Actuator& a : actuators) {
    const multibody::Body& body = model.bodies[a.body];
    const double mean_rate = 0.5 * (v0[body.v_index] + v1[body.v_index]);
    double effort = 0;
    if (a.kind == Actuator::Kind::kTorque) {
      const double limit = std::isfinite(body.effort_limit) ? body.effort_limit : INFINITY;
      effort = std::clamp(a.target.Value(in.time), -limit, limit);
    } else {
      const PdEffort pd = EvalPd(body, a, in.time, q0[body.q_index], v0[body.v_index]);
      effort = pd.total;
      if (!pd.saturated) {
        // The spring part is conservative at a fixed reference r(t): its energy is counted.
        const double r = a.target.Value(in.time);
        spring_before += 0.5 * a.kp * std::pow(q0[body.q_index] - r, 2);
        spring_after += 0.5 * a.kp * std::pow(q1[body.q_index] - r, 2);
        effort -= pd.spring;
      }
    }
    work += effort * mean_rate * h;
    work_scale += std::abs(effort * mean_rate * h);
  }
  const double before = in.kinetic_before + in.potential_before + spring_before;
  const double after = in.kinetic_after + in.potential_after + spring_after;
  const double gain = after - before - work;
  // Tolerance: 1 mJ, half of the energy in motion (kinetic and spring energy at the start and the
  // actuators' work: a stable explicit step oscillates around the true energy by a fraction
  // of it), and what position correction may add — every moving body pushed out at the
  // correction speed cap, ½ M v² + M |g| v δt.
  double allowed = 1e-3 + 0.5 * (in.kinetic_before + spring_before + work_scale);
  if (in.has_contacts_or_constraints) {
    const double m = model.TotalMass(), vc = kMaxCorrectionSpeed;
    allowed += m * (0.5 * vc * vc + model.gravity.norm() * vc * h);
  }
  if (!(gain > allowed) && std::isfinite(after)) return "";
  std::string cause;
  bool mass_matrix = false;
  for (const Actuator& a : actuators) {
    if (a.kind != Actuator::Kind::kPd) continue;
    if (!mass_matrix) multibody::CalcMassMatrix(model, data, q0);
    mass_matrix = true;
    const int i = model.bodies[a.body].v_index;
    const double M = data.M(i, i);
    const double ratio = a.kp * h * h / M;
    // Explicit (symplectic Euler) PD is unstable above kp·δt²/M = 4 (ω δt = 2).
    if (ratio > 1) {
      cause += fmt::format(
          "; PD gains too stiff for δt at joint '{}': kp·δt²/M = {:.3g} (explicit PD needs < 4): "
          "lower kp, shorten time_step, or run formulation: sap (implicit PD drives)",
          a.joint, ratio);
    }
  }
  return fmt::format(
      "energy balance: the step created {:.4g} J ({:.6g} → {:.6g} J with actuator work {:.4g} J; "
      "allowed {:.3g} J){}",
      gain, before, after, work, allowed, cause);
}

}  // namespace coulomb::sim
