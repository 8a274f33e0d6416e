#include "coulomb/fem/mean_dilatation.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace coulomb::fem {
namespace {

// ∂v/∂x of a tet's signed volume v = (x1 − x0) · ((x2 − x0) × (x3 − x0)) / 6, one column per
// vertex: each is a face's area vector over 3, and they sum to zero (translation leaves v).
Eigen::Matrix<double, 3, 4> VolumeGradient(const Eigen::Matrix3Xd& x, const Eigen::Vector4i& t) {
  const Eigen::Vector3d a = x.col(t[1]) - x.col(t[0]), b = x.col(t[2]) - x.col(t[0]),
                        c = x.col(t[3]) - x.col(t[0]);
  Eigen::Matrix<double, 3, 4> g;
  g.col(1) = b.cross(c) / 6;
  g.col(2) = c.cross(a) / 6;
  g.col(3) = a.cross(b) / 6;
  g.col(0) = -(g.col(1) + g.col(2) + g.col(3));
  return g;
}

// ∂²v/∂x² of a tet's signed volume (12 × 12, vertex-major): v = a · (b × c) / 6 with
// a, b, c = x1 − x0, x2 − x0, x3 − x0 is trilinear, so its Hessian in (a, b, c) has zero diagonal
// blocks and ∂²v/∂a∂b = −[c]ₓ/6, ∂²v/∂a∂c = [b]ₓ/6, ∂²v/∂b∂c = −[a]ₓ/6; vertex 0 takes minus
// the sum of the others' rows and columns.
Eigen::Matrix<double, 12, 12> VolumeHessian(const Eigen::Matrix3Xd& x, const Eigen::Vector4i& t) {
  const auto cross = [](const Eigen::Vector3d& u) {
    Eigen::Matrix3d m;
    m << 0, -u.z(), u.y(), u.z(), 0, -u.x(), -u.y(), u.x(), 0;
    return m;
  };
  const Eigen::Vector3d a = x.col(t[1]) - x.col(t[0]), b = x.col(t[2]) - x.col(t[0]),
                        c = x.col(t[3]) - x.col(t[0]);
  Eigen::Matrix<double, 9, 9> h = Eigen::Matrix<double, 9, 9>::Zero();
  h.block<3, 3>(0, 3) = -cross(c) / 6;
  h.block<3, 3>(0, 6) = cross(b) / 6;
  h.block<3, 3>(3, 6) = -cross(a) / 6;
  h.block<3, 3>(3, 0) = h.block<3, 3>(0, 3).transpose();
  h.block<3, 3>(6, 0) = h.block<3, 3>(0, 6).transpose();
  h.block<3, 3>(6, 3) = h.block<3, 3>(3, 6).transpose();
  Eigen::Matrix<double, 9, 12> T = Eigen::Matrix<double, 9, 12>::Zero();  // (a, b, c) of x
  for (int k = 0; k < 3; ++k) {
    T.block<3, 3>(3 * k, 0) = -Eigen::Matrix3d::Identity();
    T.block<3, 3>(3 * k, 3 * (k + 1)) = Eigen::Matrix3d::Identity();
  }
  return T.transpose() * h * T;
}

}  // namespace

VolumetricResponse CellVolumetricResponse(const TetMesh& rest, const Eigen::Matrix3Xd& x,
                                          double bulk_modulus, bool with_stiffness) {
  const int n = rest.num_vertices();
  VolumetricResponse out;
  out.forces = Eigen::Matrix3Xd::Zero(3, n);
  const int num_cells =
      rest.cells.empty() ? 0 : *std::max_element(rest.cells.begin(), rest.cells.end()) + 1;
  std::vector<std::vector<int>> tets_of(num_cells);
  for (int e = 0; e < rest.num_tets(); ++e) tets_of[rest.cells[e]].push_back(e);
  std::vector<Eigen::Triplet<double>> triplets;
  std::vector<int> vertices;
  for (const std::vector<int>& tets : tets_of) {
    if (tets.empty()) continue;
    double rest_volume = 0, volume = 0;
    vertices.clear();
    for (const int e : tets) {
      rest_volume += SignedVolume(rest, e);
      for (int k = 0; k < 4; ++k) vertices.push_back(rest.tets(k, e));
    }
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
    const auto m = static_cast<Eigen::Index>(vertices.size());
    Eigen::Matrix3Xd g = Eigen::Matrix3Xd::Zero(3, m);
    Eigen::MatrixXd curvature;  // ∂²v_c/∂x²
    if (with_stiffness) curvature = Eigen::MatrixXd::Zero(3 * m, 3 * m);
    for (const int e : tets) {
      const Eigen::Vector4i t = rest.tets.col(e);
      const Eigen::Vector3d a = x.col(t[1]) - x.col(t[0]), b = x.col(t[2]) - x.col(t[0]),
                            c = x.col(t[3]) - x.col(t[0]);
      volume += a.dot(b.cross(c)) / 6;
      const Eigen::Matrix<double, 3, 4> ge = VolumeGradient(x, t);
      Eigen::Index local[4];
      for (int k = 0; k < 4; ++k) {
        local[k] = std::lower_bound(vertices.begin(), vertices.end(), t[k]) - vertices.begin();
        g.col(local[k]) += ge.col(k);
      }
      if (!with_stiffness) continue;
      const Eigen::Matrix<double, 12, 12> he = VolumeHessian(x, t);
      for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
          curvature.block<3, 3>(3 * local[i], 3 * local[j]) += he.block<3, 3>(3 * i, 3 * j);
        }
      }
    }
    const double J = volume / rest_volume;
    out.energy += 0.5 * bulk_modulus * rest_volume * (J - 1) * (J - 1);
    const double pressure = bulk_modulus * (J - 1);  // ∂(energy)/∂v_c
    for (Eigen::Index i = 0; i < m; ++i) out.forces.col(vertices[i]) -= pressure * g.col(i);
    if (!with_stiffness) continue;
    const Eigen::Map<const Eigen::VectorXd> g_flat(g.data(), 3 * m);
    // The Hessian κ/V_c g gᵀ + p ∂²v_c/∂x², projected to its PSD part: under the cylinder's
    // full load p is several times μ, and Gauss–Newton (the first term alone) made the coupled
    // step's Newton converge at 0.85 per iteration instead of quadratically.
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(
        bulk_modulus / rest_volume * g_flat * g_flat.transpose() + pressure * curvature);
    const Eigen::MatrixXd H = eig.eigenvectors() * eig.eigenvalues().cwiseMax(0).asDiagonal() *
                              eig.eigenvectors().transpose();
    for (Eigen::Index i = 0; i < m; ++i) {
      for (Eigen::Index j = 0; j < m; ++j) {
        for (int r = 0; r < 3; ++r) {
          for (int s = 0; s < 3; ++s) {
            triplets.emplace_back(3 * vertices[i] + r, 3 * vertices[j] + s,
                                  H(3 * i + r, 3 * j + s));
          }
        }
      }
    }
  }
  if (with_stiffness) {
    out.K.resize(3 * n, 3 * n);
    out.K.setFromTriplets(triplets.begin(), triplets.end());
  }
  out.finite = std::isfinite(out.energy) && out.forces.allFinite();
  return out;
}

}  // namespace coulomb::fem
