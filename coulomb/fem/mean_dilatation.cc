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

}  // namespace

VolumetricResponse CellVolumetricResponse(const TetMesh& rest, const Eigen::Matrix3Xd& x,
                                          double bulk_modulus) {
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
    Eigen::Matrix3Xd g = Eigen::Matrix3Xd::Zero(3, static_cast<Eigen::Index>(vertices.size()));
    for (const int e : tets) {
      const Eigen::Vector4i t = rest.tets.col(e);
      const Eigen::Vector3d a = x.col(t[1]) - x.col(t[0]), b = x.col(t[2]) - x.col(t[0]),
                            c = x.col(t[3]) - x.col(t[0]);
      volume += a.dot(b.cross(c)) / 6;
      const Eigen::Matrix<double, 3, 4> ge = VolumeGradient(x, t);
      for (int k = 0; k < 4; ++k) {
        const auto at = std::lower_bound(vertices.begin(), vertices.end(), t[k]);
        g.col(at - vertices.begin()) += ge.col(k);
      }
    }
    const double J = volume / rest_volume;
    out.energy += 0.5 * bulk_modulus * rest_volume * (J - 1) * (J - 1);
    const double pressure = bulk_modulus * (J - 1);  // ∂(energy)/∂v_c
    const double stiffness = bulk_modulus / rest_volume;
    for (std::size_t i = 0; i < vertices.size(); ++i) {
      out.forces.col(vertices[i]) -= pressure * g.col(static_cast<Eigen::Index>(i));
      for (std::size_t j = 0; j < vertices.size(); ++j) {
        const Eigen::Matrix3d block = stiffness * g.col(static_cast<Eigen::Index>(i)) *
                                      g.col(static_cast<Eigen::Index>(j)).transpose();
        for (int r = 0; r < 3; ++r) {
          for (int s = 0; s < 3; ++s) {
            triplets.emplace_back(3 * vertices[i] + r, 3 * vertices[j] + s, block(r, s));
          }
        }
      }
    }
  }
  out.K.resize(3 * n, 3 * n);
  out.K.setFromTriplets(triplets.begin(), triplets.end());
  out.finite = std::isfinite(out.energy) && out.forces.allFinite();
  return out;
}

}  // namespace coulomb::fem
