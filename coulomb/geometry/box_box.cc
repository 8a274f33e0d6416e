#include "coulomb/geometry/box_box.h"

#include <array>
#include <cmath>
#include <limits>

#include "coulomb/geometry/face_manifold.h"
#include "coulomb/geometry/segment.h"

namespace coulomb::geometry {
namespace {

// Half the box's extent along unit axis u (its support radius).
double Radius(const Box& box, const Eigen::Matrix3d& R, const Eigen::Vector3d& u) {
  return box.half_extents.x() * std::abs(R.col(0).dot(u)) +
         box.half_extents.y() * std::abs(R.col(1).dot(u)) +
         box.half_extents.z() * std::abs(R.col(2).dot(u));
}

}  // namespace

Face BoxFace(const Box& box, const Transform& X, const Eigen::Vector3d& direction) {
  Face face;
  int axis = 0;
  double best = -1;
  for (int k = 0; k < 3; ++k) {
    const double d = std::abs(X.R.col(k).dot(direction));
    if (d > best) {
      best = d;
      axis = k;
    }
  }
  const double sign = X.R.col(axis).dot(direction) >= 0 ? 1.0 : -1.0;
  face.normal = sign * X.R.col(axis);
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  const double su[4] = {1, -1, -1, 1}, sv[4] = {1, 1, -1, -1};
  for (int i = 0; i < 4; ++i) {
    Eigen::Vector3d local = Eigen::Vector3d::Zero();
    local[axis] = sign * box.half_extents[axis];
    local[u] = su[i] * box.half_extents[u];
    local[v] = sv[i] * box.half_extents[v];
    face.corners.push_back(X.Apply(local));
  }
  return face;
}

int CollideBoxes(const Box& a, const Transform& X_WA, const Box& b, const Transform& X_WB,
                 double margin, std::vector<ContactPoint>& out) {
  const Eigen::Vector3d d = X_WA.p - X_WB.p;  // from B to A
  // Candidate axes: 3 + 3 face normals, 9 edge cross products. Track the least separation
  // (most negative overlap first): the contact normal is the axis of least penetration.
  double best_separation = -std::numeric_limits<double>::infinity();
  Eigen::Vector3d best_axis = Eigen::Vector3d::UnitZ();
  int best_kind = -1;  // 0: face of A, 1: face of B, 2: edge–edge
  int best_i = 0, best_j = 0;
  const auto test = [&](Eigen::Vector3d axis, int kind, int i, int j) {
    const double length = axis.norm();
    if (length < 1e-9) return true;  // parallel edges: covered by the face axes
    axis /= length;
    if (axis.dot(d) < 0) axis = -axis;  // point from B to A
    const double separation = axis.dot(d) - Radius(a, X_WA.R, axis) - Radius(b, X_WB.R, axis);
    if (separation > margin) return false;  // a separating axis: no contact
    // Prefer face axes when nearly tied (edge axes give one point, faces a manifold).
    const double bias = kind == 2 ? 1e-6 * (1.0 + std::abs(separation)) : 0.0;
    if (separation - bias > best_separation) {
      best_separation = separation - bias;
      best_axis = axis;
      best_kind = kind;
      best_i = i;
      best_j = j;
    }
    return true;
  };
  for (int i = 0; i < 3; ++i) {
    if (!test(X_WA.R.col(i), 0, i, 0)) return 0;
    if (!test(X_WB.R.col(i), 1, i, 0)) return 0;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      if (!test(X_WA.R.col(i).cross(X_WB.R.col(j)), 2, i, j)) return 0;
    }
  }
  const Eigen::Vector3d n = best_axis;  // from B into A
  if (best_kind == 2) {
    // Edge–edge: the edges of A and B most extreme along ∓n, closest points between them.
    Eigen::Vector3d edge_a = X_WA.p, edge_b = X_WB.p;
    for (int k = 0; k < 3; ++k) {
      if (k != best_i)
        edge_a -= (X_WA.R.col(k).dot(n) > 0 ? 1 : -1) * a.half_extents[k] * X_WA.R.col(k);
      if (k != best_j)
        edge_b += (X_WB.R.col(k).dot(n) > 0 ? 1 : -1) * b.half_extents[k] * X_WB.R.col(k);
    }
    const Eigen::Vector3d da = X_WA.R.col(best_i) * 2 * a.half_extents[best_i];
    const Eigen::Vector3d db = X_WB.R.col(best_j) * 2 * b.half_extents[best_j];
    Eigen::Vector3d on_a, on_b;
    ClosestOnSegments(edge_a - 0.5 * da, da, edge_b - 0.5 * db, db, on_a, on_b);
    const double phi = n.dot(on_a - on_b);
    if (phi > margin) return 0;
    out.push_back({0.5 * (on_a + on_b), n, phi, on_a, on_b});
    return 1;
  }
  // Face contact: the reference face is the one whose normal is the axis; clip the other box's
  // most anti-parallel (incident) face against the reference face's side planes.
  const bool reference_is_b = best_kind == 1;
  const Box& ref = reference_is_b ? b : a;
  const Transform& X_ref = reference_is_b ? X_WB : X_WA;
  const Box& inc = reference_is_b ? a : b;
  const Transform& X_inc = reference_is_b ? X_WA : X_WB;
  const Eigen::Vector3d ref_out = reference_is_b ? n : Eigen::Vector3d(-n);  // toward the other box
  return ClipFaces(BoxFace(ref, X_ref, ref_out), BoxFace(inc, X_inc, -ref_out), reference_is_b,
                   margin, 16, out);
}

}  // namespace coulomb::geometry
