#pragma once
// One time step of a rigid-body model with contact, the stages of DESIGN.md read top to bottom:
//   1. geometry::FindContacts   → ContactSet
//   2. contact::BuildContactProblem → ContactProblem
//   3. the formulation (here the velocity-level LCP) → ContactSolution
//   4. advance: v ← v⁺, q ← q ⊕ h v⁺ (semi-implicit Euler)
// Later issues add the other formulations, the recorder and the profile; the shape stays.

#include <Eigen/Dense>

#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"
#include "coulomb/geometry/collision_world.h"
#include "coulomb/multibody/model.h"

namespace coulomb::sim {

struct StepReport {
  int contacts = 0;
  int unsupported_pairs = 0;
  LcpStatus status = LcpStatus::kSolved;
  int iterations = 0;
  double residual = 0;
  double max_penetration = 0;  // m, max(0, −φ) over the contacts at the start of the step
};

StepReport StepVelocityLcp(const multibody::Model& model, multibody::Data& data,
                           const geometry::CollisionWorld& world, Eigen::VectorXd& q,
                           Eigen::VectorXd& v, const Eigen::VectorXd& tau, double time_step,
                           const VelocityLcpParams& params = {});

}  // namespace coulomb::sim
