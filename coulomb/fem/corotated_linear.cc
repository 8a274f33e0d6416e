#include "coulomb/fem/corotated_linear.h"

#include <fmt/format.h>

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <functional>

namespace coulomb::fem {
namespace {

// ∂vec(F)/∂x_e (9 × 12): F = Σ_k (x_{k+1} − x_0) ⊗ row k of D_m⁻¹, so vertex a ≥ 1 enters
// through row a − 1 of D_m⁻¹ and vertex 0 through minus their sum.
}  // namespace

std::string ValidateElasticity(const LinearElasticity& m) {
  if (!(m.youngs_modulus > 0) || !std::isfinite(m.youngs_modulus)) {
    return fmt::format("Young's modulus {} Pa must be positive and finite", m.youngs_modulus);
  }
  if (!(m.poisson_ratio > -1 && m.poisson_ratio < 0.5)) {
    return fmt::format("Poisson's ratio {} must lie in (-1, 0.5)", m.poisson_ratio);
  }
  return "";
}

Eigen::Matrix<double, 9, 12> GradientMap(const LinearTet& tet) {
  Eigen::Matrix<double, 9, 12> G = Eigen::Matrix<double, 9, 12>::Zero();
  Eigen::Matrix<double, 4, 3> shape;  // ∂F_ij/∂x_{a,i} = shape(a, j)
  shape.bottomRows<3>() = tet.Dm_inverse;
  shape.row(0) = -tet.Dm_inverse.colwise().sum();
  for (int a = 0; a < 4; ++a) {
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) G(i + 3 * j, 3 * a + i) = shape(a, j);
    }
  }
  return G;
}

std::vector<LinearTet> MakeLinearTets(const TetMesh& rest) {
  std::vector<LinearTet> tets(rest.num_tets());
  for (int e = 0; e < rest.num_tets(); ++e) {
    LinearTet& t = tets[e];
    t.vertices = rest.tets.col(e);
    Eigen::Matrix3d Dm;
    for (int k = 0; k < 3; ++k) {
      Dm.col(k) = rest.vertices.col(t.vertices[k + 1]) - rest.vertices.col(t.vertices[0]);
    }
    t.Dm_inverse = Dm.inverse();
    t.volume = std::abs(Dm.determinant()) / 6;
  }
  return tets;
}

Eigen::Matrix3d DeformationGradient(const LinearTet& tet, const Eigen::Matrix3Xd& x) {
  Eigen::Matrix3d Ds;
  for (int k = 0; k < 3; ++k) Ds.col(k) = x.col(tet.vertices[k + 1]) - x.col(tet.vertices[0]);
  return Ds * tet.Dm_inverse;
}

Eigen::Matrix3d PolarRotation(const Eigen::Matrix3d& F) {
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d U = svd.matrixU();
  const Eigen::Matrix3d& V = svd.matrixV();
  // A reflection (det U Vᵀ = −1, an inverted element) is turned into the nearest rotation by
  // flipping the direction of the smallest singular value.
  if ((U * V.transpose()).determinant() < 0) U.col(2) *= -1;
  return U * V.transpose();
}

double CorotatedEnergyDensity(const Eigen::Matrix3d& F, const Eigen::Matrix3d& R0,
                              const LinearElasticity& m) {
  const Eigen::Matrix3d RtF = R0.transpose() * F;
  const Eigen::Matrix3d eps = 0.5 * (RtF + RtF.transpose()) - Eigen::Matrix3d::Identity();
  const double trace = eps.trace();
  return m.Mu() * eps.squaredNorm() + 0.5 * m.Lambda() * trace * trace;
}

Eigen::Matrix3d CorotatedStress(const Eigen::Matrix3d& F, const Eigen::Matrix3d& R0,
                                const LinearElasticity& m) {
  const Eigen::Matrix3d RtF = R0.transpose() * F;
  const Eigen::Matrix3d eps = 0.5 * (RtF + RtF.transpose()) - Eigen::Matrix3d::Identity();
  return 2 * m.Mu() * R0 * eps + m.Lambda() * eps.trace() * R0;
}

Eigen::Matrix<double, 9, 9> CorotatedStressDerivative(const Eigen::Matrix3d& R0,
                                                      const LinearElasticity& m) {
  // dP = μ (dF + R0 dFᵀ R0) + λ (R0 : dF) R0, applied to each unit dF.
  Eigen::Matrix<double, 9, 9> H;
  for (int c = 0; c < 9; ++c) {
    Eigen::Matrix3d dF = Eigen::Matrix3d::Zero();
    dF(c % 3, c / 3) = 1;
    const Eigen::Matrix3d dP =
        m.Mu() * (dF + R0 * dF.transpose() * R0) + m.Lambda() * R0.cwiseProduct(dF).sum() * R0;
    H.col(c) = Eigen::Map<const Eigen::Matrix<double, 9, 1>>(dP.data());
  }
  return H;
}

Eigen::Matrix3Xd AssembleForces(const std::vector<LinearTet>& tets, int num_vertices,
                                const std::function<Eigen::Matrix3d(int)>& stress) {
  Eigen::Matrix3Xd f = Eigen::Matrix3Xd::Zero(3, num_vertices);
  for (std::size_t e = 0; e < tets.size(); ++e) {
    const Eigen::Matrix3d P = stress(static_cast<int>(e));
    const Eigen::Matrix<double, 12, 1> fe = -tets[e].volume * GradientMap(tets[e]).transpose() *
                                            Eigen::Map<const Eigen::Matrix<double, 9, 1>>(P.data());
    for (int a = 0; a < 4; ++a) f.col(tets[e].vertices[a]) += fe.segment<3>(3 * a);
  }
  return f;
}

namespace {

// Calls f(row, column, block row, block column) for each of an element's 144 stiffness entries,
// in the one order the layout's slots and the triplet sum share: vertex pairs (a, b), then
// components (i, j).
template <typename F>
void ForEachStiffnessEntry(const LinearTet& tet, F&& f) {
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          f(3 * tet.vertices[a] + i, 3 * tet.vertices[b] + j, 3 * a + i, 3 * b + j);
        }
      }
    }
  }
}

// Element e's stiffness block V_e Gᵀ (∂P/∂F)_e G.
Eigen::Matrix<double, 12, 12> ElementStiffness(
    const std::vector<LinearTet>& tets, std::size_t e,
    const std::function<Eigen::Matrix<double, 9, 9>(int)>& tangent) {
  const Eigen::Matrix<double, 9, 12> G = GradientMap(tets[e]);
  return tets[e].volume * G.transpose() * tangent(static_cast<int>(e)) * G;
}

}  // namespace

StiffnessLayout MakeStiffnessLayout(const std::vector<LinearTet>& tets, int num_vertices) {
  StiffnessLayout layout;
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(tets.size() * 144);
  for (const LinearTet& tet : tets) {
    ForEachStiffnessEntry(
        tet, [&](int row, int col, int, int) { triplets.emplace_back(row, col, 0.0); });
  }
  layout.pattern.resize(3 * num_vertices, 3 * num_vertices);
  layout.pattern.setFromTriplets(triplets.begin(), triplets.end());
  layout.pattern.makeCompressed();
  const int* outer = layout.pattern.outerIndexPtr();
  const int* inner = layout.pattern.innerIndexPtr();
  layout.slots.reserve(triplets.size());
  for (const Eigen::Triplet<double>& t : triplets) {
    const int* at = std::lower_bound(inner + outer[t.col()], inner + outer[t.col() + 1], t.row());
    layout.slots.push_back(static_cast<int>(at - inner));
  }
  return layout;
}

Eigen::SparseMatrix<double> AssembleStiffness(
    const std::vector<LinearTet>& tets, int num_vertices,
    const std::function<Eigen::Matrix<double, 9, 9>(int)>& tangent, const StiffnessLayout* layout) {
  if (layout != nullptr && layout->Fits(tets, num_vertices)) {
    Eigen::SparseMatrix<double> K = layout->pattern;
    double* values = K.valuePtr();
    const int* slot = layout->slots.data();
    for (std::size_t e = 0; e < tets.size(); ++e) {
      const Eigen::Matrix<double, 12, 12> Ke = ElementStiffness(tets, e, tangent);
      ForEachStiffnessEntry(tets[e], [&](int, int, int r, int c) { values[*slot++] += Ke(r, c); });
    }
    return K;
  }
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(tets.size() * 144);
  for (std::size_t e = 0; e < tets.size(); ++e) {
    const Eigen::Matrix<double, 12, 12> Ke = ElementStiffness(tets, e, tangent);
    ForEachStiffnessEntry(tets[e], [&](int row, int col, int r, int c) {
      triplets.emplace_back(row, col, Ke(r, c));
    });
  }
  Eigen::SparseMatrix<double> K(3 * num_vertices, 3 * num_vertices);
  K.setFromTriplets(triplets.begin(), triplets.end());
  return K;
}

Eigen::Matrix3Xd ElasticForces(const std::vector<LinearTet>& tets, const Eigen::Matrix3Xd& x,
                               const std::vector<Eigen::Matrix3d>& R0, const LinearElasticity& m) {
  return AssembleForces(tets, static_cast<int>(x.cols()), [&](int e) {
    return CorotatedStress(DeformationGradient(tets[e], x), R0[e], m);
  });
}

Eigen::SparseMatrix<double> StiffnessMatrix(const std::vector<LinearTet>& tets, int num_vertices,
                                            const std::vector<Eigen::Matrix3d>& R0,
                                            const LinearElasticity& m,
                                            const StiffnessLayout* layout) {
  return AssembleStiffness(
      tets, num_vertices, [&](int e) { return CorotatedStressDerivative(R0[e], m); }, layout);
}

double ElasticEnergy(const std::vector<LinearTet>& tets, const Eigen::Matrix3Xd& x,
                     const std::vector<Eigen::Matrix3d>& R0, const LinearElasticity& m) {
  double energy = 0;
  for (std::size_t e = 0; e < tets.size(); ++e) {
    energy += tets[e].volume * CorotatedEnergyDensity(DeformationGradient(tets[e], x), R0[e], m);
  }
  return energy;
}

Eigen::VectorXd LumpedMass(const std::vector<LinearTet>& tets, int num_vertices, double density) {
  Eigen::VectorXd mass = Eigen::VectorXd::Zero(num_vertices);
  for (const LinearTet& t : tets) {
    for (int a = 0; a < 4; ++a) mass[t.vertices[a]] += density * t.volume / 4;
  }
  return mass;
}

Eigen::SparseMatrix<double> ConsistentMass(const std::vector<LinearTet>& tets, int num_vertices,
                                           double density) {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(tets.size() * 48);
  for (const LinearTet& t : tets) {
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        const double m = density * t.volume / 20 * (a == b ? 2.0 : 1.0);
        for (int i = 0; i < 3; ++i) {
          triplets.emplace_back(3 * t.vertices[a] + i, 3 * t.vertices[b] + i, m);
        }
      }
    }
  }
  Eigen::SparseMatrix<double> M(3 * num_vertices, 3 * num_vertices);
  M.setFromTriplets(triplets.begin(), triplets.end());
  return M;
}

}  // namespace coulomb::fem
