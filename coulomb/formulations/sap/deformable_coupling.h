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
#include "coulomb/contact/deformable_contacts.h"
#include "coulomb/fem/deformable_model.h"
#include "coulomb/formulations/coupled_step.h"
#include "coulomb/formulations/sap/sap_formulation.h"
#include "coulomb/multibody/model.h"

namespace coulomb {

// `eliminated_factors` (optional, resized to the bodies): each body's factor of its eliminated
// block, kept by the caller so later steps reuse its symbolic analysis.
CoupledSolution SolveCoupledSapStep(
    const CoupledStepInput& input, const SapParams& params,
    math::CholeskyFactor* factorization = nullptr,
    std::vector<math::CholeskyFactor>* eliminated_factors = nullptr);

}  // namespace coulomb
