#pragma once
// A step of rigid trees and FEM bodies together, as a formulation that supports deformable bodies
// takes it (Formulation::solve_coupled; SAP's is formulations/sap/deformable_coupling.h).

#include <Eigen/Dense>
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
};

struct CoupledSolution {
  ContactSolution rigid;               // v⁺ of the rigid model and its contact impulses
  std::vector<Eigen::VectorXd> v;      // v⁺ of each deformable body (3 n_vertices)
  Eigen::VectorXd impulses;            // per deformable contact (n, t, o), N s
  Eigen::VectorXd contact_velocities;  // per deformable contact after the step (n, t, o), m/s
  int participating_dofs = 0;          // deformable DoFs the formulation solved for
};

}  // namespace coulomb
