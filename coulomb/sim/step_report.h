#pragma once
// What one step did: its contacts and impulses, the solver's status, iterations and residual,
// the accuracy measures of its answer and the time each stage took.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/contact/deformable_contacts.h"
#include "coulomb/geometry/contact_set.h"
#include "coulomb/sim/contact_metrics.h"

namespace coulomb::sim {

struct StepProfile {  // seconds per stage
  double collision = 0, assembly = 0, solve = 0, advance = 0;
  double Total() const { return collision + assembly + solve + advance; }
};

struct StepReport {
  int unsupported_pairs = 0;
  LcpStatus status = LcpStatus::kSolved;
  std::string message;
  std::string solver_switch;  // ContactSolution::solver_switch
  int iterations = 0;
  double residual = 0;
  double max_penetration = 0;     // m, max(0, −φ) over the contacts at the start of the step
  geometry::ContactSet contacts;  // the step's contacts and their impulses (n, t, o), N s
  Eigen::VectorXd impulses;
  // Per contact after the step (n, t, o): the relative velocity u = J v⁺ (m/s), whose tangential
  // part is the slip, and the predicted gap φ + h u_n (m). Forces are impulses / h.
  Eigen::VectorXd contact_velocities;
  Eigen::VectorXd gaps;
  // Under a formulation that takes joint limits as contacts: the normal impulse of each limit
  // contact of the step's problem (contact::ContactProblem::limit_contacts, in order), N m s or N
  // s.
  Eigen::VectorXd limit_impulses;
  ContactMetrics metrics;  // docs/notes/complementarity.md §7 accuracy measures of this step
  StepProfile profile;
  double factor_seconds = 0;  // part of profile.solve spent in sparse factorizations (SAP)
  int factorizations = 0;     // how many (SAP)
  // Deformable bodies' vertex contacts, their impulses (n, t, o) and the deformable DoFs SAP
  // solved for (the rest eliminated by the Schur complement).
  std::vector<contact::DeformableContact> deformable_contacts;
  Eigen::VectorXd deformable_impulses;
  int participating_dofs = 0;
  // With deformable bodies, the coupled solves of this step: 1, or more while a nonlinear body's
  // momentum balance at the answer misses its tolerance (each solve re-linearizes it there;
  // `iterations` and `factorizations` count all of them). 0 without deformable bodies.
  int linearizations = 0;
  // Back to a fresh report's values, keeping the vectors' storage for the next step.
  void Reset();
  int num_rigid_contacts() const { return static_cast<int>(contacts.contacts.size()); }
  int num_contacts() const {
    return num_rigid_contacts() + static_cast<int>(deformable_contacts.size());
  }
};

}  // namespace coulomb::sim
