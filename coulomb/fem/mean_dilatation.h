#pragma once
// Mean dilatation for nearly incompressible materials on tetrahedra cut from hexahedral cells:
// the volumetric energy is charged on each cell's mean volume ratio J̄ = v_c / V_c (current over
// rest volume of its tets) instead of on every tet's own J. A linear tet has one volume
// constraint per element, more than the mesh has DoFs to satisfy them near incompressibility,
// so it locks (comes out too stiff); one constraint per cell is the classic Q1/P0 count.
// (Hughes, "The Finite Element Method", §4.5; Simo & Taylor 1991 for the large-strain form.)

#include <Eigen/Dense>
#include <Eigen/Sparse>

#include "coulomb/fem/tet_mesh.h"

namespace coulomb::fem {

struct VolumetricResponse {
  double energy = 0;              // Σ_c V_c κ/2 (J̄_c − 1)², J
  Eigen::Matrix3Xd forces;        // −∂energy/∂x, N
  Eigen::SparseMatrix<double> K;  // per cell, the PSD projection of the Hessian
                                  // κ/V_c g gᵀ + κ (J̄ − 1) ∂²v_c/∂x² (g = ∂v_c/∂x)
  bool finite = true;
};

// `rest` must carry `cells` (one per element). x: current positions (3 × n), m; κ: Pa. Without
// `with_stiffness` K is left empty (0 × 0): energy and forces cost a tenth of the Hessian's
// eigendecompositions.
VolumetricResponse CellVolumetricResponse(const TetMesh& rest, const Eigen::Matrix3Xd& x,
                                          double bulk_modulus, bool with_stiffness = true);

}  // namespace coulomb::fem
