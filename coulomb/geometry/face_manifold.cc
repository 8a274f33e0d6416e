#include "coulomb/geometry/face_manifold.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace coulomb::geometry {
namespace {

// Sutherland–Hodgman: keeps the part of the polygon with n·x ≤ offset, into `out`.
void Clip(const Polygon& polygon, const Eigen::Vector3d& n, double offset, Polygon& out) {
  out.clear();
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Eigen::Vector3d& p = polygon[i];
    const Eigen::Vector3d& q = polygon[(i + 1) % polygon.size()];
    const double dp = n.dot(p) - offset, dq = n.dot(q) - offset;
    if (dp <= 0) out.push_back(p);
    if ((dp < 0) != (dq < 0) && dp != dq) out.push_back(p + (q - p) * (dp / (dp - dq)));
  }
}

double Size(const Face& face) {
  double size = 0;
  for (const Eigen::Vector3d& p : face.corners) size = std::max(size, (p - face.corners[0]).norm());
  return size;
}

}  // namespace

PatchIndices ReducePatch(std::span<const Eigen::Vector3d> points, const Eigen::Vector3d& normal,
                         std::size_t max_points) {
  PatchIndices kept;
  if (points.size() <= max_points) {
    for (std::size_t i = 0; i < points.size(); ++i) kept.push_back(i);
    return kept;
  }
  SmallVector<double, 16> gap;
  for (std::size_t i = 0; i < points.size(); ++i) gap.push_back(INFINITY);
  std::size_t next = 0;
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (normal.dot(points[i]) < normal.dot(points[next])) next = i;
  }
  while (kept.size() < max_points) {
    kept.push_back(next);
    std::size_t farthest = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
      gap[i] = std::min(gap[i], (points[i] - points[next]).norm());
      if (gap[i] > gap[farthest]) farthest = i;
    }
    next = farthest;
  }
  return kept;
}

int ClipFaces(const Face& reference, const Face& incident, bool reference_is_b, double margin,
              int feature_base, std::vector<ContactPoint>& out,
              const std::array<bool, 3>* skip_edge) {
  const Polygon& ref = reference.corners;
  Eigen::Vector3d center = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& p : ref) center += p;
  center /= static_cast<double>(ref.size());
  // Clipped back and forth between two buffers (a swap of two polygons copies their corners).
  Polygon buffers[2];
  const Polygon* polygon = &incident.corners;
  int next = 0;
  for (std::size_t i = 0; i < ref.size() && !polygon->empty(); ++i) {
    if (skip_edge && i < 3 && (*skip_edge)[i]) continue;
    const Eigen::Vector3d edge = ref[(i + 1) % ref.size()] - ref[i];
    Eigen::Vector3d side = edge.cross(reference.normal).normalized();
    if (side.dot(ref[i] - center) < 0) side = -side;  // outward in the face plane
    Clip(*polygon, side, side.dot(ref[i]), buffers[next]);
    polygon = &buffers[next];
    next = 1 - next;
  }
  // Coincident edges (equal boxes stacked exactly) make the clipper emit the same corner twice;
  // duplicate contacts would only add degenerate rows to the contact problem.
  Polygon unique;
  const double tolerance = 1e-9 * (Size(reference) + Size(incident));
  const double tolerance2 = tolerance * tolerance;  // squared: no root per pair of corners
  for (const Eigen::Vector3d& p : *polygon) {
    bool seen = false;
    for (const Eigen::Vector3d& u : unique) seen = seen || (u - p).squaredNorm() <= tolerance2;
    if (!seen) unique.push_back(p);
  }
  const Eigen::Vector3d n = reference_is_b ? reference.normal : Eigen::Vector3d(-reference.normal);
  const double offset = reference.normal.dot(ref[0]);
  Polygon within;
  for (const Eigen::Vector3d& p : unique) {
    if (reference.normal.dot(p) - offset <= margin) within.push_back(p);
  }
  // Four points span the patch (Box2D, Jolt and Bullet keep four too): an octagon's other four
  // only add redundant rows, which slow every solver and make the impulses indeterminate.
  const PatchIndices kept = ReducePatch(within, reference.normal, 4);
  // Features that persist from step to step while the patch does (warm starts are matched by
  // them): the kept points ranked by their nearest incident corner, not by the order the
  // reduction picked them, which follows the deepest point and so flips as a resting box rocks.
  SmallVector<std::pair<std::size_t, std::size_t>, 8> ranked;  // (nearest corner, index in within)
  for (const std::size_t k : kept) {
    std::size_t corner = 0;
    for (std::size_t c = 1; c < incident.corners.size(); ++c) {
      if ((within[k] - incident.corners[c]).squaredNorm() <
          (within[k] - incident.corners[corner]).squaredNorm()) {
        corner = c;
      }
    }
    ranked.push_back({corner, k});
  }
  std::sort(ranked.begin(), ranked.end());
  int count = 0;
  for (const auto& [corner, k] : ranked) {
    const Eigen::Vector3d& p = within[k];
    const double depth = reference.normal.dot(p) - offset;  // < 0: below the reference face
    const Eigen::Vector3d on_ref = p - depth * reference.normal;
    const Eigen::Vector3d on_a = reference_is_b ? p : on_ref;
    const Eigen::Vector3d on_b = reference_is_b ? on_ref : p;
    out.push_back({0.5 * (on_a + on_b), n, depth, on_a, on_b, feature_base + count});
    ++count;
  }
  return count;
}

}  // namespace coulomb::geometry
