#pragma once
// One SAP step of a deformable body against a fixed half-space (paper 2 §V, first slice): the
// body's free motion from one sparse factorization, contacts at its boundary vertices, the
// Schur complement over the contact vertices' DoFs as SAP's clique, and the eliminated
// velocities recovered after the solve. Rigid–deformable and deformable–deformable contact
// through the scene come next; this pins down the coupling on the simplest geometry.

#include <Eigen/Dense>

#include "coulomb/convex/sap_solver.h"
#include "coulomb/fem/fem_model.h"
#include "coulomb/formulations/sap/sap_formulation.h"

namespace coulomb {

struct HalfSpace {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, pointing out of the solid
  double offset = 0;                                  // plane: normal · x = offset
  double friction = 0.5;
};

struct DeformableStepReport {
  convex::SapStatus status = convex::SapStatus::kConverged;
  std::string message;
  int contacts = 0;
  int participating_dofs = 0;
  int iterations = 0;
  Eigen::Vector3d total_impulse = Eigen::Vector3d::Zero();  // on the body, world frame, N s
  double max_penetration = 0;                               // m, at the start of the step
};

DeformableStepReport StepDeformableOnHalfSpace(const fem::FemBody& body, fem::FemState& state,
                                               const HalfSpace& ground, double dt,
                                               double margin = 1e-3, const SapParams& params = {});

}  // namespace coulomb
