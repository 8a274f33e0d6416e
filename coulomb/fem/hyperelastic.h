#pragma once
// Nonlinear hyperelastic materials for large deformation (issue 7; paper 2 §VI uses
// Mooney–Rivlin for the cylinder validation):
//  * stable Neo-Hookean (Smith, de Goes, Kim 2018): Ψ = μ'/2 (I_C − 3) + λ'/2 (J − α)²
//    − μ'/2 log(I_C + 1), with μ' = 4μ/3, λ' = λ + 5μ/6, α = 1 + μ'/λ' − μ'/(4λ'): stress-free
//    at rest, defined for inverted elements (no log J), and equal to linear elasticity with
//    (μ, λ) for small strain;
//  * rest-stable Mooney–Rivlin: Ψ = C1 (Ī1 − 3) + C2 (Ī2 − 3) + κ/2 (J − 1)² with the
//    isochoric invariants Ī1 = J^(−2/3) I1, Ī2 = J^(−4/3) I2; small-strain shear modulus
//    2 (C1 + C2) and bulk modulus κ. Undefined for J ≤ 0 (an inverted element is an error).
// Each gives Ψ, P = ∂Ψ/∂F and ∂vec(P)/∂vec(F) (column-major vec, by forward-mode automatic
// differentiation of P). The tangent is not PSD away from rest; Newton uses ProjectToPsd.

#include <Eigen/Dense>
#include <optional>
#include <string>
#include <string_view>

namespace coulomb::fem {

enum class MaterialModel {
  kCorotatedLinear,   // "corotated": linear with R0 from the previous step (paper 2, default)
  kStableNeoHookean,  // "neohookean"
  kMooneyRivlin,      // "mooney_rivlin"
};
std::string_view ToString(MaterialModel model);
std::optional<MaterialModel> ParseMaterialModel(std::string_view name);

struct MooneyRivlin {
  double c1 = 0, c2 = 0;    // Pa
  double bulk_modulus = 0;  // κ, Pa
};
// "" or why the parameters are unusable (C1, C2 ≥ 0 with C1 + C2 > 0, κ > 0, finite).
std::string ValidateMooneyRivlin(const MooneyRivlin& m);

struct MaterialPoint {
  double energy = 0;                            // Ψ, J/m³
  Eigen::Matrix3d P = Eigen::Matrix3d::Zero();  // first Piola–Kirchhoff stress, Pa
  Eigen::Matrix<double, 9, 9> dPdF = Eigen::Matrix<double, 9, 9>::Zero();
};

MaterialPoint EvaluateStableNeoHookean(const Eigen::Matrix3d& F, double mu, double lambda);
MaterialPoint EvaluateMooneyRivlin(const Eigen::Matrix3d& F, const MooneyRivlin& m);

// The nearest symmetric PSD matrix (eigenvalues clamped at 0).
Eigen::Matrix<double, 9, 9> ProjectToPsd(const Eigen::Matrix<double, 9, 9>& H);

}  // namespace coulomb::fem
