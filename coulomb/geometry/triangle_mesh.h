#pragma once
// A static triangle mesh: terrain, a table top, a bin — any surface, convex or not, fixed in the
// world. Moving bodies touch it triangle by triangle (narrow_phase), so it needs no volume, but
// it must be attached to the world: two triangle soups have no inside to push apart.
//
// Each edge shared by two triangles is marked convex or not. A contact whose nearest feature is
// a flat or concave edge takes the triangle's face normal: otherwise a box sliding over a flat
// floor made of many triangles would catch on the seams between them ("internal edges").

#include <Eigen/Dense>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "coulomb/base/error.h"

namespace coulomb::geometry {

struct TriangleMeshData {
  std::string source;
  std::vector<Eigen::Vector3d> vertices;         // shape frame G, m
  std::vector<std::array<int, 3>> triangles;     // counter-clockwise seen from the front
  std::vector<Eigen::Vector3d> normals;          // unit front normal per triangle
  std::vector<std::array<bool, 3>> convex_edge;  // edge k joins corners k and k+1
  std::vector<std::array<bool, 3>> flat_edge;    // the neighbour across it is coplanar
  Eigen::AlignedBox3d bounds;
  // Bounding-volume tree over the triangles: a node covers order[first, first + count) when it
  // is a leaf (left < 0), else its two children.
  struct Node {
    Eigen::AlignedBox3d box;
    int left = -1, right = -1, first = 0, count = 0;
  };
  std::vector<Node> nodes;
  std::vector<int> order;
};

struct TriangleMesh {
  std::shared_ptr<const TriangleMeshData> data;
};

// Triangles with zero area are dropped (they touch nothing). Fails, naming `source`, when a
// vertex is not finite, an index is out of range or no triangle with area is left.
Expected<TriangleMesh> MakeTriangleMesh(const std::vector<Eigen::Vector3d>& vertices,
                                        const std::vector<std::array<int, 3>>& triangles,
                                        const std::string& source);

// Indices of the triangles whose bounding boxes overlap `box` (G frame), appended to `out`.
void TrianglesNear(const TriangleMeshData& mesh, const Eigen::AlignedBox3d& box,
                   std::vector<int>& out);

}  // namespace coulomb::geometry
