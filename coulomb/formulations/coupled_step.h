#pragma once
// A step of rigid trees and FEM bodies together, as every formulation that supports deformable
// bodies takes it: one mixed ContactProblem (mixed_step.h).

#include <Eigen/Dense>
#include <array>
#include <optional>
#include <vector>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/contact/deformable_contacts.h"
#include "coulomb/fem/deformable_model.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/multibody/model.h"

namespace coulomb {

// The rigid part (the ContactProblem, with Model and Data after forward kinematics for point
// Jacobians) and the deformable part of a step.
struct CoupledStepInput {
  const contact::ContactProblem* rigid = nullptr;
  const multibody::Model* model = nullptr;
  const multibody::Data* data = nullptr;
  const fem::DeformableModel* deformables = nullptr;
  const std::vector<fem::FemState>* states = nullptr;
  const std::vector<contact::DeformableContact>* contacts = nullptr;
  // The rigid contacts' warm start (3 per contact of `rigid`, limit contacts included), or null:
  // zero. SAP warm-starts from velocities instead and ignores it, and the next one.
  const Eigen::VectorXd* warm_start = nullptr;
  // Each deformable contact's last impulse in world coordinates (a column per contact of
  // `contacts`, sim/warm_start.h), or null: zero.
  const Eigen::Matrix3Xd* deformable_warm_start = nullptr;
  // Where each deformable body's linear model is taken (fem::AssembleFemStepAt), or null: at its
  // free motion. Only bodies with contacts or attachments use it; the others' free motion is
  // their exact step.
  const std::vector<Eigen::VectorXd>* linearize_at = nullptr;
  // Per deformable body, fem::CalcStepStart of this step, filled on first use, so the step's
  // linearizations and their error checks share it (sized to the bodies), or null: computed
  // wherever needed.
  std::vector<std::optional<fem::StepStart>>* step_starts = nullptr;
};

// What a coupled step solved as one ContactProblem (mixed_step.h) keeps from step to step: the
// problem, rebuilt in place (speed only).
struct MixedStepWorkspace {
  contact::ContactProblem problem;
};

struct CoupledSolution {
  ContactSolution rigid;               // v⁺ of the rigid model and its contact impulses
  std::vector<Eigen::VectorXd> v;      // v⁺ of each deformable body (3 n_vertices)
  Eigen::VectorXd impulses;            // per deformable contact (n, t, o), N s
  Eigen::VectorXd contact_velocities;  // per deformable contact after the step (n, t, o), m/s
  int participating_dofs = 0;          // deformable DoFs the formulation solved for
  // The worst body's fem::LinearModelError at `v`: at most 1 when every nonlinear body's linear
  // model is exact there (0 for corotated bodies, whose step is linear).
  double linear_model_error = 0;
  // The one ContactProblem of every contact that was solved (mixed_step.h; kept in the
  // workspace), its impulses and velocities, so the step's accuracy measures cover the deformable
  // contacts too. Null when the step could not be posed.
  const contact::ContactProblem* whole = nullptr;
  Eigen::VectorXd whole_impulses, whole_v;
};

}  // namespace coulomb
