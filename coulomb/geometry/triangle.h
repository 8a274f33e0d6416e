#pragma once
// The closest point of a triangle to a point, with the feature it lies on (Ericson, Real-Time
// Collision Detection §5.1.5): the region tells a contact on a face from one on an edge or a
// corner, which the triangle-mesh narrow phase needs to reject normals that internal edges
// would otherwise produce.

#include <Eigen/Dense>

namespace coulomb::geometry {

enum class TriangleRegion { kFace, kEdge01, kEdge12, kEdge20, kVertex0, kVertex1, kVertex2 };

struct TrianglePoint {
  Eigen::Vector3d point;
  TriangleRegion region;
};

inline TrianglePoint ClosestOnTriangle(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                       const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return {a, TriangleRegion::kVertex0};
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return {b, TriangleRegion::kVertex1};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return {a + d1 / (d1 - d3) * ab, TriangleRegion::kEdge01};
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return {c, TriangleRegion::kVertex2};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return {a + d2 / (d2 - d6) * ac, TriangleRegion::kEdge20};
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    return {b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b), TriangleRegion::kEdge12};
  }
  const double denom = 1.0 / (va + vb + vc);
  return {a + ab * (vb * denom) + ac * (vc * denom), TriangleRegion::kFace};
}

}  // namespace coulomb::geometry
