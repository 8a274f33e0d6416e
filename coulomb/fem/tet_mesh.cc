#include "coulomb/fem/tet_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace coulomb::fem {

double SignedVolume(const TetMesh& mesh, int e) {
  const Eigen::Vector3d x0 = mesh.vertices.col(mesh.tets(0, e));
  return (mesh.vertices.col(mesh.tets(1, e)) - x0)
             .dot((mesh.vertices.col(mesh.tets(2, e)) - x0)
                      .cross(mesh.vertices.col(mesh.tets(3, e)) - x0)) /
         6.0;
}

double TotalVolume(const TetMesh& mesh) {
  double volume = 0;
  for (int e = 0; e < mesh.num_tets(); ++e) volume += SignedVolume(mesh, e);
  return volume;
}

std::string ValidateTetMesh(const TetMesh& mesh, double min_volume_ratio) {
  if (mesh.num_tets() == 0) return "the mesh has no tetrahedra";
  if (!mesh.vertices.allFinite()) return "a vertex coordinate is not finite";
  const int n = mesh.num_vertices();
  for (int e = 0; e < mesh.num_tets(); ++e) {
    for (int k = 0; k < 4; ++k) {
      if (mesh.tets(k, e) < 0 || mesh.tets(k, e) >= n) {
        return fmt::format("element {} refers to vertex {}, outside 0..{}", e, mesh.tets(k, e),
                           n - 1);
      }
    }
  }
  double mean = 0;
  for (int e = 0; e < mesh.num_tets(); ++e) mean += std::abs(SignedVolume(mesh, e));
  mean /= mesh.num_tets();
  for (int e = 0; e < mesh.num_tets(); ++e) {
    const double v = SignedVolume(mesh, e);
    if (v < 0) return fmt::format("element {} is inverted (volume {:.3g} m³)", e, v);
    if (v <= min_volume_ratio * mean) {
      return fmt::format("element {} is degenerate (volume {:.3g} m³, mean {:.3g} m³)", e, v, mean);
    }
  }
  return "";
}

int OrientPositively(TetMesh& mesh) {
  int flipped = 0;
  for (int e = 0; e < mesh.num_tets(); ++e) {
    if (SignedVolume(mesh, e) < 0) {
      std::swap(mesh.tets(2, e), mesh.tets(3, e));
      ++flipped;
    }
  }
  return flipped;
}

TetMesh RefineTetMesh(const TetMesh& mesh) {
  std::map<std::pair<int, int>, int> midpoint_of;  // sorted edge → new vertex
  std::vector<Eigen::Vector3d> added;
  const auto midpoint = [&](int a, int b) {
    const std::pair<int, int> key(std::min(a, b), std::max(a, b));
    const auto [at, inserted] =
        midpoint_of.emplace(key, mesh.num_vertices() + static_cast<int>(added.size()));
    if (inserted) added.push_back(0.5 * (mesh.vertices.col(a) + mesh.vertices.col(b)));
    return at->second;
  };
  std::vector<Eigen::Vector4i> tets;
  for (int e = 0; e < mesh.num_tets(); ++e) {
    const int a = mesh.tets(0, e), b = mesh.tets(1, e), c = mesh.tets(2, e), d = mesh.tets(3, e);
    const int ab = midpoint(a, b), ac = midpoint(a, c), ad = midpoint(a, d);
    const int bc = midpoint(b, c), bd = midpoint(b, d), cd = midpoint(c, d);
    tets.insert(tets.end(), {{a, ab, ac, ad}, {ab, b, bc, bd}, {ac, bc, c, cd}, {ad, bd, cd, d}});
    // The octahedron around the diagonal ac–bd: its other four vertices form a cycle.
    const int ring[4] = {ab, bc, cd, ad};
    for (int k = 0; k < 4; ++k) tets.push_back({ac, bd, ring[k], ring[(k + 1) % 4]});
  }
  TetMesh out;
  out.vertices.resize(3, mesh.num_vertices() + static_cast<int>(added.size()));
  out.vertices.leftCols(mesh.num_vertices()) = mesh.vertices;
  for (std::size_t k = 0; k < added.size(); ++k) {
    out.vertices.col(mesh.num_vertices() + static_cast<int>(k)) = added[k];
  }
  out.tets.resize(4, static_cast<int>(tets.size()));
  for (std::size_t e = 0; e < tets.size(); ++e) out.tets.col(static_cast<int>(e)) = tets[e];
  OrientPositively(out);
  return out;
}

std::vector<Eigen::Vector3i> BoundaryFaces(const TetMesh& mesh) {
  // Faces of a positively oriented tet (a, b, c, d), each counter-clockwise from outside.
  constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  std::map<std::array<int, 3>, std::pair<int, Eigen::Vector3i>> seen;  // sorted key → count, face
  for (int e = 0; e < mesh.num_tets(); ++e) {
    for (const auto& f : kFaces) {
      const Eigen::Vector3i face(mesh.tets(f[0], e), mesh.tets(f[1], e), mesh.tets(f[2], e));
      std::array<int, 3> key = {face[0], face[1], face[2]};
      std::sort(key.begin(), key.end());
      auto [it, inserted] = seen.try_emplace(key, 0, face);
      ++it->second.first;
    }
  }
  std::vector<Eigen::Vector3i> boundary;
  for (const auto& [key, entry] : seen) {
    if (entry.first == 1) boundary.push_back(entry.second);
  }
  return boundary;
}

TetMesh MakeBoxMesh(const Eigen::Vector3d& half, const Eigen::Vector3i& cells) {
  TetMesh mesh;
  const Eigen::Vector3i points = cells.array() + 1;
  mesh.vertices.resize(3, points.prod());
  const auto index = [&](int i, int j, int k) { return i + points.x() * (j + points.y() * k); };
  for (int k = 0; k < points.z(); ++k) {
    for (int j = 0; j < points.y(); ++j) {
      for (int i = 0; i < points.x(); ++i) {
        const Eigen::Vector3d t(static_cast<double>(i) / cells.x(),
                                static_cast<double>(j) / cells.y(),
                                static_cast<double>(k) / cells.z());
        mesh.vertices.col(index(i, j, k)) = -half + 2 * t.cwiseProduct(half);
      }
    }
  }
  // The six tetrahedra around the diagonal from corner 0 to corner 7 of each cell (Kuhn
  // triangulation): identical in every cell, so faces match across cells.
  constexpr int kKuhn[6][4] = {{0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7},
                               {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7}};
  mesh.tets.resize(4, 6 * cells.prod());
  int e = 0;
  for (int k = 0; k < cells.z(); ++k) {
    for (int j = 0; j < cells.y(); ++j) {
      for (int i = 0; i < cells.x(); ++i) {
        int corner[8];
        for (int c = 0; c < 8; ++c)
          corner[c] = index(i + (c & 1), j + ((c >> 1) & 1), k + (c >> 2));
        for (const auto& t : kKuhn) {
          mesh.tets.col(e++) << corner[t[0]], corner[t[1]], corner[t[2]], corner[t[3]];
          mesh.cells.push_back(i + cells.x() * (j + cells.y() * k));
        }
      }
    }
  }
  OrientPositively(mesh);
  return mesh;
}

namespace {

// p (with ‖p‖∞ = r in the chosen axes) moved to Euclidean length r along its own direction.
Eigen::Vector3d RoundAxes(const Eigen::Vector3d& p, int axes) {
  const Eigen::VectorXd head = p.head(axes);
  const double infinity_norm = head.cwiseAbs().maxCoeff();
  const double euclidean = head.norm();
  Eigen::Vector3d q = p;
  if (euclidean > 0) q.head(axes) = head * (infinity_norm / euclidean);
  return q;
}

}  // namespace

TetMesh MakeBallMesh(double radius, int n) {
  TetMesh mesh = MakeBoxMesh(Eigen::Vector3d::Constant(radius), Eigen::Vector3i::Constant(2 * n));
  for (int a = 0; a < mesh.num_vertices(); ++a) {
    mesh.vertices.col(a) = RoundAxes(mesh.vertices.col(a), 3);
  }
  return mesh;
}

TetMesh MakeCylinderMesh(double radius, double length, int n_radial, int n_axial) {
  TetMesh mesh = MakeBoxMesh(Eigen::Vector3d(radius, radius, 0.5 * length),
                             Eigen::Vector3i(2 * n_radial, 2 * n_radial, n_axial));
  for (int a = 0; a < mesh.num_vertices(); ++a) {
    mesh.vertices.col(a) = RoundAxes(mesh.vertices.col(a), 2);
  }
  return mesh;
}

}  // namespace coulomb::fem
