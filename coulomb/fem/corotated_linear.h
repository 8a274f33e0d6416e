#pragma once
// The corotated linear material with R0 frozen from the previous step (paper 2 §IV;
// docs/notes/sap-and-deformables.md §2.1), on linear tetrahedra:
//   F = D_s D_m⁻¹,  ε = sym(R0ᵀ F) − I,  Ψ = μ ε:ε + (λ/2) (tr ε)²,  P = 2μ R0 ε + λ tr(ε) R0,
// with R0 the rotation of the polar decomposition of the previous step's F. Since ε is affine in
// the vertex positions, the elastic energy is a convex quadratic within a step: the stiffness is
// constant and positive semidefinite (no eigenvalue clamping), and free motion is one linear
// solve. Units: Pa, m, kg.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <functional>
#include <string>
#include <vector>

#include "coulomb/fem/tet_mesh.h"

namespace coulomb::fem {

struct LinearElasticity {
  double youngs_modulus = 1e5;  // E, Pa
  double poisson_ratio = 0.3;   // ν in (−1, 0.5)
  double Mu() const { return youngs_modulus / (2 * (1 + poisson_ratio)); }
  double Lambda() const {
    return youngs_modulus * poisson_ratio / ((1 + poisson_ratio) * (1 - 2 * poisson_ratio));
  }
};
// "" or why the parameters are unusable (E ≤ 0, ν outside (−1, 0.5), not finite).
std::string ValidateElasticity(const LinearElasticity& material);

// Rest-shape data of one element.
struct LinearTet {
  Eigen::Vector4i vertices;
  Eigen::Matrix3d Dm_inverse;  // inverse of [x1 − x0, x2 − x0, x3 − x0] at rest
  double volume = 0;           // rest volume, m³
};
std::vector<LinearTet> MakeLinearTets(const TetMesh& rest);

// ∂vec(F)/∂x_e (9 × 12, column-major vec): vec(F) = G x_e + const for the element's 4 vertex
// positions stacked.
Eigen::Matrix<double, 9, 12> GradientMap(const LinearTet& tet);

// Where each element's 12 × 12 stiffness block goes in the compressed K of a mesh: K's pattern,
// fixed by the elements' vertices, and per element the 144 value indices of its block, entry
// (3a + i, 3b + j) at 36 a + 9 b + 3 i + j. Assembling into it skips building and sorting 144
// triplets per element at every step (the arm's ball: 55 000 a step).
struct StiffnessLayout {
  Eigen::SparseMatrix<double> pattern;  // 3n × 3n, every value 0
  std::vector<int> slots;               // 144 per element
  // Made for these elements (their count and the vertex count; the caller keeps the vertices).
  bool Fits(const std::vector<LinearTet>& tets, int num_vertices) const {
    return slots.size() == 144 * tets.size() && pattern.rows() == 3 * num_vertices;
  }
};
StiffnessLayout MakeStiffnessLayout(const std::vector<LinearTet>& tets, int num_vertices);

// Element loops shared by every material: forces f = −Σ_e V_e Gᵀ vec(P_e) (3 × n, N) and the
// stiffness K = Σ_e V_e Gᵀ (∂P/∂F)_e G (3n × 3n, N/m), from per-element callbacks. With a
// `layout` that fits, K is summed into its pattern in element order, which gives the same bits
// as summing the triplets.
Eigen::Matrix3Xd AssembleForces(const std::vector<LinearTet>& tets, int num_vertices,
                                const std::function<Eigen::Matrix3d(int)>& stress);
Eigen::SparseMatrix<double> AssembleStiffness(
    const std::vector<LinearTet>& tets, int num_vertices,
    const std::function<Eigen::Matrix<double, 9, 9>(int)>& tangent,
    const StiffnessLayout* layout = nullptr);

// F of an element for vertex positions x (3 × n).
Eigen::Matrix3d DeformationGradient(const LinearTet& tet, const Eigen::Matrix3Xd& x);

// The rotation R of F = R S (S symmetric positive semidefinite), by SVD with the reflection fixed
// so det R = +1 even for inverted elements.
Eigen::Matrix3d PolarRotation(const Eigen::Matrix3d& F);

double CorotatedEnergyDensity(const Eigen::Matrix3d& F, const Eigen::Matrix3d& R0,
                              const LinearElasticity& material);  // J/m³
Eigen::Matrix3d CorotatedStress(const Eigen::Matrix3d& F, const Eigen::Matrix3d& R0,
                                const LinearElasticity& material);  // P, Pa
// ∂vec(P)/∂vec(F) (column-major vec), constant for a given R0.
Eigen::Matrix<double, 9, 9> CorotatedStressDerivative(const Eigen::Matrix3d& R0,
                                                      const LinearElasticity& material);

// Elastic forces (3 × n, N) and the stiffness K = −∂f/∂x (3n × 3n, N/m, PSD) of a mesh, with
// one R0 per element.
Eigen::Matrix3Xd ElasticForces(const std::vector<LinearTet>& tets, const Eigen::Matrix3Xd& x,
                               const std::vector<Eigen::Matrix3d>& R0,
                               const LinearElasticity& material);
Eigen::SparseMatrix<double> StiffnessMatrix(const std::vector<LinearTet>& tets, int num_vertices,
                                            const std::vector<Eigen::Matrix3d>& R0,
                                            const LinearElasticity& material,
                                            const StiffnessLayout* layout = nullptr);
double ElasticEnergy(const std::vector<LinearTet>& tets, const Eigen::Matrix3Xd& x,
                     const std::vector<Eigen::Matrix3d>& R0, const LinearElasticity& material);

// Mass per vertex (lumped: ρV/4 to each vertex of each element), kg; and the exact consistent
// mass of linear tetrahedra, ρV/20·(1 + δ_ab) per vertex pair and coordinate (3n × 3n). Not the
// one-point rule, whose mass matrix is rank one per element.
Eigen::VectorXd LumpedMass(const std::vector<LinearTet>& tets, int num_vertices, double density);
Eigen::SparseMatrix<double> ConsistentMass(const std::vector<LinearTet>& tets, int num_vertices,
                                           double density);

}  // namespace coulomb::fem
