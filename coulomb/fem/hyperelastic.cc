#include "coulomb/fem/hyperelastic.h"

#include <fmt/format.h>

#include <cmath>
#include <unsupported/Eigen/AutoDiff>

#include "coulomb/base/name_table.h"

namespace coulomb::fem {
namespace {

constexpr NameTable<MaterialModel, 3> kMaterialNames = {{
    {MaterialModel::kCorotatedLinear, "corotated"},
    {MaterialModel::kStableNeoHookean, "neohookean"},
    {MaterialModel::kMooneyRivlin, "mooney_rivlin"},
}};

// Forward-mode derivatives along the 9 entries of F (column-major).
using Dual = Eigen::AutoDiffScalar<Eigen::Matrix<double, 9, 1>>;
template <class T>
using Mat3 = Eigen::Matrix<T, 3, 3>;

// cof(F) = ∂J/∂F = J F^(−T), by cross products of the columns: no inverse, valid at J = 0.
template <class T>
Mat3<T> Cofactor(const Mat3<T>& F) {
  Mat3<T> C;
  C.col(0) = F.col(1).cross(F.col(2));
  C.col(1) = F.col(2).cross(F.col(0));
  C.col(2) = F.col(0).cross(F.col(1));
  return C;
}

template <class T>
Mat3<T> NeoHookeanStress(const Mat3<T>& F, double mu, double lambda) {
  const double mu_s = 4.0 * mu / 3.0, lambda_s = lambda + 5.0 * mu / 6.0;
  const double alpha = 1 + mu_s / lambda_s - mu_s / (4 * lambda_s);
  const T Ic = F.squaredNorm();
  const T J = F.col(0).dot(F.col(1).cross(F.col(2)));
  return F * T(mu_s * (1 - 1 / (Ic + 1))) + Cofactor(F) * T(lambda_s * (J - alpha));
}

template <class T>
Mat3<T> MooneyRivlinStress(const Mat3<T>& F, const MooneyRivlin& m) {
  using std::pow;
  const Mat3<T> C = F.transpose() * F;
  const T I1 = C.trace();
  const T I2 = T(0.5) * (I1 * I1 - C.squaredNorm());
  const T J = F.col(0).dot(F.col(1).cross(F.col(2)));
  const Mat3<T> FinvT = Cofactor(F) / J;
  const T J23 = pow(J, -2.0 / 3.0), J43 = pow(J, -4.0 / 3.0);
  const Mat3<T> dI1 = J23 * (T(2) * F - T(2.0 / 3.0) * I1 * FinvT);
  const Mat3<T> dI2 = J43 * (T(2) * I1 * F - T(2) * F * C - T(4.0 / 3.0) * I2 * FinvT);
  return T(m.c1) * dI1 + T(m.c2) * dI2 + Cofactor(F) * T(m.bulk_modulus * (J - 1));
}

// P and its derivative from the templated stress.
template <class Stress>
void Differentiate(const Eigen::Matrix3d& F, Stress&& stress, MaterialPoint& out) {
  Mat3<Dual> Fd;
  for (int k = 0; k < 9; ++k) {
    Fd(k % 3, k / 3) = Dual(F(k % 3, k / 3), 9, k);
  }
  const Mat3<Dual> P = stress(Fd);
  for (int k = 0; k < 9; ++k) {
    out.P(k % 3, k / 3) = P(k % 3, k / 3).value();
    out.dPdF.row(k) = P(k % 3, k / 3).derivatives().transpose();
  }
}

}  // namespace

std::string_view ToString(MaterialModel model) {
  return NameOf(kMaterialNames, model);
}

std::optional<MaterialModel> ParseMaterialModel(std::string_view name) {
  return KindNamed(kMaterialNames, name);
}

std::string ValidateMooneyRivlin(const MooneyRivlin& m) {
  if (!(m.c1 >= 0 && m.c2 >= 0 && m.c1 + m.c2 > 0) || !std::isfinite(m.c1 + m.c2)) {
    return fmt::format("Mooney-Rivlin C1 = {} Pa and C2 = {} Pa must be >= 0, not both zero", m.c1,
                       m.c2);
  }
  if (!(m.bulk_modulus > 0) || !std::isfinite(m.bulk_modulus)) {
    return fmt::format("Mooney-Rivlin bulk modulus {} Pa must be positive", m.bulk_modulus);
  }
  return "";
}

MaterialPoint EvaluateStableNeoHookean(const Eigen::Matrix3d& F, double mu, double lambda) {
  MaterialPoint out;
  const double mu_s = 4.0 * mu / 3.0, lambda_s = lambda + 5.0 * mu / 6.0;
  const double alpha = 1 + mu_s / lambda_s - mu_s / (4 * lambda_s);
  const double Ic = F.squaredNorm(), J = F.determinant();
  out.energy = 0.5 * mu_s * (Ic - 3) + 0.5 * lambda_s * (J - alpha) * (J - alpha) -
               0.5 * mu_s * std::log(Ic + 1);
  // The constant makes Ψ(I) = 0 (it does not change P).
  out.energy -= 0.5 * lambda_s * (1 - alpha) * (1 - alpha) - 0.5 * mu_s * std::log(4.0);
  Differentiate(
      F, [&](const Mat3<Dual>& Fd) { return NeoHookeanStress(Fd, mu, lambda); }, out);
  return out;
}

MaterialPoint EvaluateMooneyRivlin(const Eigen::Matrix3d& F, const MooneyRivlin& m) {
  MaterialPoint out;
  const double J = F.determinant();
  const Eigen::Matrix3d C = F.transpose() * F;
  const double I1 = C.trace(), I2 = 0.5 * (I1 * I1 - C.squaredNorm());
  out.energy = m.c1 * (std::pow(J, -2.0 / 3.0) * I1 - 3) +
               m.c2 * (std::pow(J, -4.0 / 3.0) * I2 - 3) + 0.5 * m.bulk_modulus * (J - 1) * (J - 1);
  Differentiate(
      F, [&](const Mat3<Dual>& Fd) { return MooneyRivlinStress(Fd, m); }, out);
  return out;
}

Eigen::Matrix<double, 9, 9> ProjectToPsd(const Eigen::Matrix<double, 9, 9>& H) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>> eig(0.5 * (H + H.transpose()));
  return eig.eigenvectors() * eig.eigenvalues().cwiseMax(0).asDiagonal() *
         eig.eigenvectors().transpose();
}

}  // namespace coulomb::fem
