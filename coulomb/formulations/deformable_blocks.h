#pragma once
// Each deformable body's share of a coupled step, whichever formulation solves it (paper 2 §V;
// docs/notes/sap-and-deformables.md §2.3): its θ-method step system A v = b, and, when contacts
// or attachments touch it, the Schur complement Â of A over the participating DoFs (the contact
// and attachment vertices). Â is the mass-like matrix of one more block of velocities: SAP makes
// it a clique, the velocity-level formulations a block of the mixed ContactProblem (mixed_step.h).
// The eliminated DoFs follow from the participating ones through the same factorization.

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "coulomb/fem/schur_complement.h"
#include "coulomb/formulations/coupled_step.h"
#include "coulomb/math/sparse_cholesky.h"

namespace coulomb {

struct DeformableBlock {
  fem::FemStepSystem system;
  std::vector<int> vertices;                    // participating, sorted
  std::unique_ptr<fem::SchurComplement> schur;  // null without participating vertices
  Eigen::VectorXd v_star;                       // 3n: the free motion
  std::vector<int> fixed_columns;  // block columns of single fixed components (fixed_dofs)
  // The column of vertex a's x velocity inside the block.
  int ColumnOf(int a) const {
    return 3 * static_cast<int>(std::lower_bound(vertices.begin(), vertices.end(), a) -
                                vertices.begin());
  }
  int size() const { return schur ? static_cast<int>(schur->reduced().rows()) : 0; }
  // The participating entries of a full 3n vector.
  Eigen::VectorXd Participating(const Eigen::VectorXd& full) const;
};

// Assembles and factors every body's step: with participating DoFs through the Schur complement
// (v* by block elimination), without through a plain sparse Cholesky. `unconverged` gets the
// first body whose free-motion Newton stopped short but stayed finite (the step is still solved
// with its last iterate, and cannot be certified). Returns "" or why the step cannot be taken.
// `factors` (optional, resized to the bodies) keeps each body's eliminated-block factor, so later
// steps reuse its symbolic analysis.
std::string FactorDeformableBodies(const CoupledStepInput& input,
                                   std::vector<DeformableBlock>& bodies, std::string& unconverged,
                                   std::vector<math::CholeskyFactor>* factors);

// The largest fem::LinearModelError of the bodies with contacts at their step velocities v.
double WorstLinearModelError(const CoupledStepInput& input,
                             const std::vector<DeformableBlock>& bodies,
                             const std::vector<Eigen::VectorXd>& v);

// The (vertex, weight) pairs of a contact's point on its deformable side A, and on its other
// side when that is a deformable body too.
std::vector<std::pair<int, double>> SideAVertices(const contact::DeformableContact& c);
std::vector<std::pair<int, double>> SideBVertices(const contact::DeformableContact& c);

// A step that could not be solved (`why`): every body keeps its velocity and no contact has an
// impulse, sized like a solved step's so reports and recordings can index them.
CoupledSolution UnsolvedCoupledStep(const CoupledStepInput& input, std::string why);

}  // namespace coulomb
