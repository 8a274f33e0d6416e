#include "coulomb/geometry/triangle_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace coulomb::geometry {
namespace {

constexpr int kLeafSize = 4;

Eigen::AlignedBox3d TriangleBox(const TriangleMeshData& m, int t) {
  Eigen::AlignedBox3d box;
  for (const int v : m.triangles[t]) box.extend(m.vertices[v]);
  return box;
}

// A median-split tree over triangle centroids. FCL's BVHModel answers penetration queries, but
// the narrow phase needs the triangles *near* a shape (within the contact margin) to run its
// own per-triangle routine with face/edge information, so a small tree of our own does that.
int BuildNode(TriangleMeshData& m, int first, int count) {
  const int index = static_cast<int>(m.nodes.size());
  m.nodes.emplace_back();
  Eigen::AlignedBox3d box, centers;
  for (int i = first; i < first + count; ++i) {
    const Eigen::AlignedBox3d t = TriangleBox(m, m.order[i]);
    box.extend(t);
    centers.extend(t.center());
  }
  m.nodes[index].box = box;
  m.nodes[index].first = first;
  m.nodes[index].count = count;
  if (count <= kLeafSize) return index;
  Eigen::Index axis = 0;
  centers.sizes().maxCoeff(&axis);
  const auto middle = m.order.begin() + first + count / 2;
  std::nth_element(m.order.begin() + first, middle, m.order.begin() + first + count,
                   [&](int a, int b) {
                     return TriangleBox(m, a).center()[axis] < TriangleBox(m, b).center()[axis];
                   });
  const int left = BuildNode(m, first, count / 2);
  const int right = BuildNode(m, first + count / 2, count - count / 2);
  m.nodes[index].left = left;
  m.nodes[index].right = right;
  return index;
}

// An edge is convex when the neighbour across it bends away from the front (its far corner lies
// behind this triangle's plane); boundary and non-manifold edges count as convex, since a body
// can meet them from the side.
void MarkConvexEdges(TriangleMeshData& m) {
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> edges;  // → (triangle, edge)
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const int a = m.triangles[t][k], b = m.triangles[t][(k + 1) % 3];
      edges[{std::min(a, b), std::max(a, b)}].emplace_back(static_cast<int>(t), k);
    }
  }
  m.convex_edge.assign(m.triangles.size(), {true, true, true});
  m.flat_edge.assign(m.triangles.size(), {false, false, false});
  const double tolerance = 1e-9 * m.bounds.diagonal().norm();
  for (const auto& [edge, users] : edges) {
    if (users.size() != 2) continue;
    for (int side = 0; side < 2; ++side) {
      const auto [t, k] = users[side];
      const auto [other, other_k] = users[1 - side];
      const int far = m.triangles[other][(other_k + 2) % 3];
      const double height = m.normals[t].dot(m.vertices[far] - m.vertices[edge.first]);
      m.convex_edge[t][k] = height < -tolerance;
      m.flat_edge[t][k] = std::abs(height) <= tolerance;
    }
  }
}

}  // namespace

Expected<TriangleMesh> MakeTriangleMesh(const std::vector<Eigen::Vector3d>& vertices,
                                        const std::vector<std::array<int, 3>>& triangles,
                                        const std::string& source) {
  const auto fail = [&](std::string reason) {
    return InputError{source, 0, "triangle mesh", std::move(reason)};
  };
  auto m = std::make_shared<TriangleMeshData>();
  m->source = source;
  m->vertices = vertices;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    if (!vertices[i].allFinite()) return fail(fmt::format("vertex {} is not finite", i + 1));
    m->bounds.extend(vertices[i]);
  }
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    for (const int v : triangles[t]) {
      if (v < 0 || v >= static_cast<int>(vertices.size())) {
        return fail(fmt::format("triangle {} uses vertex {}, but there are {} vertices", t + 1,
                                v + 1, vertices.size()));
      }
    }
    const Eigen::Vector3d& a = vertices[triangles[t][0]];
    const Eigen::Vector3d normal =
        (vertices[triangles[t][1]] - a).cross(vertices[triangles[t][2]] - a);
    if (normal.norm() <= 1e-14 * m->bounds.diagonal().squaredNorm()) continue;  // no area
    m->triangles.push_back(triangles[t]);
    m->normals.push_back(normal.normalized());
  }
  if (m->triangles.empty()) return fail("no triangle with a nonzero area");
  MarkConvexEdges(*m);
  m->order.resize(m->triangles.size());
  for (std::size_t t = 0; t < m->order.size(); ++t) m->order[t] = static_cast<int>(t);
  BuildNode(*m, 0, static_cast<int>(m->triangles.size()));
  return TriangleMesh{std::move(m)};
}

void TrianglesNear(const TriangleMeshData& mesh, const Eigen::AlignedBox3d& box,
                   std::vector<int>& out) {
  std::vector<int> stack = {0};
  while (!stack.empty()) {
    const TriangleMeshData::Node& node = mesh.nodes[stack.back()];
    stack.pop_back();
    if (!node.box.intersects(box)) continue;
    if (node.left < 0) {
      for (int i = node.first; i < node.first + node.count; ++i) {
        if (TriangleBox(mesh, mesh.order[i]).intersects(box)) out.push_back(mesh.order[i]);
      }
    } else {
      stack.push_back(node.left);
      stack.push_back(node.right);
    }
  }
}

}  // namespace coulomb::geometry
