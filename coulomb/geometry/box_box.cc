#include "coulomb/geometry/box_box.h"

#include <array>
#include <cmath>
#include <limits>

#include "coulomb/geometry/segment.h"

namespace coulomb::geometry {
namespace {

// Half the box's extent along unit axis u (its support radius).
double Radius(const Box& box, const Eigen::Matrix3d& R, const Eigen::Vector3d& u) {
  return box.half_extents.x() * std::abs(R.col(0).dot(u)) +
         box.half_extents.y() * std::abs(R.col(1).dot(u)) +
         box.half_extents.z() * std::abs(R.col(2).dot(u));
}

// Corners of the face of `box` whose outward normal is closest to `direction`, in world frame.
std::vector<Eigen::Vector3d> Face(const Box& box, const Transform& X,
                                  const Eigen::Vector3d& direction, Eigen::Vector3d* normal) {
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
  *normal = sign * X.R.col(axis);
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  std::vector<Eigen::Vector3d> corners;
  const double su[4] = {1, -1, -1, 1}, sv[4] = {1, 1, -1, -1};
  for (int i = 0; i < 4; ++i) {
    Eigen::Vector3d local = Eigen::Vector3d::Zero();
    local[axis] = sign * box.half_extents[axis];
    local[u] = su[i] * box.half_extents[u];
    local[v] = sv[i] * box.half_extents[v];
    corners.push_back(X.Apply(local));
  }
  return corners;
}

// Sutherland–Hodgman: keeps the part of the polygon with n·x ≤ offset.
std::vector<Eigen::Vector3d> Clip(const std::vector<Eigen::Vector3d>& polygon,
                                  const Eigen::Vector3d& n, double offset) {
  std::vector<Eigen::Vector3d> out;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Eigen::Vector3d& p = polygon[i];
    const Eigen::Vector3d& q = polygon[(i + 1) % polygon.size()];
    const double dp = n.dot(p) - offset, dq = n.dot(q) - offset;
    if (dp <= 0) out.push_back(p);
    if ((dp < 0) != (dq < 0) && dp != dq) out.push_back(p + (q - p) * (dp / (dp - dq)));
  }
  return out;
}

}  // namespace

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
  Eigen::Vector3d ref_normal, inc_normal;
  const std::vector<Eigen::Vector3d> ref_face = Face(ref, X_ref, ref_out, &ref_normal);
  std::vector<Eigen::Vector3d> polygon = Face(inc, X_inc, -ref_out, &inc_normal);
  const Eigen::Vector3d center = 0.25 * (ref_face[0] + ref_face[1] + ref_face[2] + ref_face[3]);
  for (std::size_t i = 0; i < ref_face.size() && !polygon.empty(); ++i) {
    const Eigen::Vector3d edge = ref_face[(i + 1) % 4] - ref_face[i];
    Eigen::Vector3d side = edge.cross(ref_normal).normalized();
    if (side.dot(ref_face[i] - center) < 0) side = -side;  // outward in the face plane
    polygon = Clip(polygon, side, side.dot(ref_face[i]));
  }
  // Coincident edges (equal boxes stacked exactly) make the clipper emit the same vertex twice;
  // duplicate contacts would only add degenerate rows to the contact problem.
  std::vector<Eigen::Vector3d> unique;
  const double tolerance = 1e-9 * (a.half_extents.maxCoeff() + b.half_extents.maxCoeff());
  for (const Eigen::Vector3d& p : polygon) {
    bool seen = false;
    for (const Eigen::Vector3d& u : unique) seen = seen || (u - p).norm() <= tolerance;
    if (!seen) unique.push_back(p);
  }
  const double ref_offset = ref_normal.dot(ref_face[0]);
  int count = 0;
  for (const Eigen::Vector3d& p : unique) {
    const double depth = ref_normal.dot(p) - ref_offset;  // < 0: below the reference face
    if (depth > margin) continue;
    const Eigen::Vector3d on_ref = p - depth * ref_normal;
    // Witness on A first: A is the incident box when the reference is B.
    const Eigen::Vector3d on_a = reference_is_b ? p : on_ref;
    const Eigen::Vector3d on_b = reference_is_b ? on_ref : p;
    out.push_back({0.5 * (on_a + on_b), n, depth, on_a, on_b, 16 + count});
    ++count;
  }
  return count;
}

}  // namespace coulomb::geometry
