#include "coulomb/geometry/convex_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace coulomb::geometry {
namespace {

struct Hull {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::vector<int>> faces;  // unordered vertex ids per (merged) facet
  std::vector<Eigen::Vector3d> normals;
  std::string error;
};

// Qhull with its default merging of coplanar facets ('C-0' in 3-d), so a box's face comes back
// as one quadrilateral. Qhull reports problems on a stream; we capture it into the error text.
Hull QhullHull(const std::vector<Eigen::Vector3d>& points) {
  Hull hull;
  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (const Eigen::Vector3d& p : points) coords.insert(coords.end(), {p.x(), p.y(), p.z()});
  char* message = nullptr;
  std::size_t message_size = 0;
  FILE* err = open_memstream(&message, &message_size);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, err);
  char options[] = "qhull";
  const int code = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False,
                                options, nullptr, err);
  if (code == 0) {
    std::vector<int> index(points.size(), -1);
    facetT* facet = nullptr;
    FORALLfacets {
      std::vector<int> face;
      vertexT* vertex = nullptr;
      vertexT** vertexp = nullptr;
      FOREACHvertex_(facet->vertices) {
        const int id = qh_pointid(qh, vertex->point);
        if (index[id] < 0) {
          index[id] = static_cast<int>(hull.vertices.size());
          hull.vertices.push_back(points[id]);
        }
        face.push_back(index[id]);
      }
      hull.faces.push_back(std::move(face));
      hull.normals.emplace_back(facet->normal[0], facet->normal[1], facet->normal[2]);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int still_long = 0, total_long = 0;
  qh_memfreeshort(qh, &still_long, &total_long);
  std::fclose(err);
  if (code != 0) {
    const std::string text = message ? std::string(message) : "";
    hull.error = text.substr(0, text.find('\n'));
    if (hull.error.empty()) hull.error = fmt::format("Qhull failed with code {}", code);
  }
  std::free(message);
  return hull;
}

// Orders a facet's vertices counter-clockwise about its outward normal.
void OrderFace(const std::vector<Eigen::Vector3d>& vertices, const Eigen::Vector3d& normal,
               std::vector<int>& face) {
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  for (const int i : face) center += vertices[i];
  center /= static_cast<double>(face.size());
  const Eigen::Vector3d u = (vertices[face[0]] - center).normalized();
  const Eigen::Vector3d v = normal.cross(u);
  const auto angle = [&](int i) {
    const Eigen::Vector3d d = vertices[i] - center;
    return std::atan2(d.dot(v), d.dot(u));
  };
  std::sort(face.begin(), face.end(), [&](int a, int b) { return angle(a) < angle(b); });
}

// Volume, centroid and inertia from tetrahedra fanned out of each face (the divergence theorem
// in discrete form): ∫ x xᵀ dV of a tetrahedron is V/20 (Σ pᵢpᵢᵀ + (Σ pᵢ)(Σ pᵢ)ᵀ).
void MassProperties(ConvexMeshData& m) {
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& p : m.vertices) origin += p;
  origin /= static_cast<double>(m.vertices.size());
  Eigen::Matrix3d second = Eigen::Matrix3d::Zero();  // about `origin`
  Eigen::Vector3d first = Eigen::Vector3d::Zero();
  for (const std::vector<int>& face : m.faces) {
    for (std::size_t k = 1; k + 1 < face.size(); ++k) {
      const Eigen::Vector3d a = m.vertices[face[0]] - origin, b = m.vertices[face[k]] - origin,
                            c = m.vertices[face[k + 1]] - origin;
      const double volume = a.dot(b.cross(c)) / 6.0;
      const Eigen::Vector3d sum = a + b + c;
      m.volume += volume;
      first += volume * sum / 4.0;
      second += volume / 20.0 *
                (a * a.transpose() + b * b.transpose() + c * c.transpose() + sum * sum.transpose());
    }
  }
  const Eigen::Vector3d c = first / m.volume;
  m.centroid = origin + c;
  const Eigen::Matrix3d central = second - m.volume * c * c.transpose();
  m.unit_inertia = (central.trace() * Eigen::Matrix3d::Identity() - central) / m.volume;
}

}  // namespace

Expected<ConvexMesh> MakeConvexMesh(const std::vector<Eigen::Vector3d>& points,
                                    const std::string& source) {
  const auto fail = [&](std::string reason) {
    return InputError{source, 0, "convex mesh", std::move(reason)};
  };
  if (points.size() < 4) {
    return fail(fmt::format("{} vertices: a convex mesh needs at least 4", points.size()));
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].allFinite()) return fail(fmt::format("vertex {} is not finite", i + 1));
  }
  Hull hull = QhullHull(points);
  if (!hull.error.empty()) {
    return fail("the vertices span no volume (flat or degenerate; Qhull: " + hull.error + ")");
  }
  auto data = std::make_shared<ConvexMeshData>();
  data->source = source;
  data->vertices = std::move(hull.vertices);
  data->faces = std::move(hull.faces);
  data->normals = std::move(hull.normals);
  for (std::size_t f = 0; f < data->faces.size(); ++f) {
    OrderFace(data->vertices, data->normals[f], data->faces[f]);
  }
  for (const Eigen::Vector3d& p : data->vertices) data->bounds.extend(p);
  MassProperties(*data);
  if (!(data->volume > 0)) return fail("the hull has no volume");
  return ConvexMesh{std::move(data)};
}

int SupportVertex(const ConvexMeshData& mesh, const Eigen::Vector3d& direction) {
  int best = 0;
  double best_dot = -INFINITY;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const double d = mesh.vertices[i].dot(direction);
    if (d > best_dot) {
      best_dot = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

}  // namespace coulomb::geometry
