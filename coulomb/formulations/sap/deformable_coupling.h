#pragma once
// One SAP step of rigid trees and FEM bodies together (paper 2 §V;
// docs/notes/sap-and-deformables.md §2.3–2.4). Rigid trees are cliques as in sap_formulation.h.
// Each deformable body with contacts or attachments becomes one more clique over its participating
// DoFs only: its step matrix A is factored once with the other DoFs eliminated first, giving both
// v* and the Schur complement Â; SAP solves for all participating velocities, and the eliminated
// ones follow from the same factorization. Bodies without contact take their free motion.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/fem/deformable_contacts.h"
#include "coulomb/fem/deformable_model.h"
#include "coulomb/formulations/sap/sap_formulation.h"
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
  const std::vector<fem::DeformableContact>* contacts = nullptr;
};

struct CoupledSolution {
  ContactSolution rigid;               // v⁺ of the rigid model and its contact impulses
  std::vector<Eigen::VectorXd> v;      // v⁺ of each deformable body (3 n_vertices)
  Eigen::VectorXd impulses;            // per deformable contact (n, t, o), N s
  Eigen::VectorXd contact_velocities;  // per deformable contact after the step (n, t, o), m/s
  int participating_dofs = 0;          // deformable DoFs SAP solved for
};

CoupledSolution SolveCoupledSapStep(const CoupledStepInput& input, const SapParams& params,
                                    math::CholeskyFactor* factorization = nullptr);

}  // namespace coulomb
