#include "coulomb/geometry/broad_phase.h"

namespace coulomb::geometry {

namespace {

// The world box around a box given in the shape frame.
Aabb RotatedBox(const Eigen::AlignedBox3d& local, const math::Transform& X_WG, double margin) {
  const Eigen::Vector3d center = X_WG.Apply(local.center());
  const Eigen::Vector3d half =
      X_WG.R.cwiseAbs() * (0.5 * local.sizes()) + Eigen::Vector3d::Constant(margin);
  return {center - half, center + half};
}

}  // namespace

Aabb ComputeAabb(const Shape& shape, const math::Transform& X_WG, double margin) {
  Aabb box;
  Eigen::Vector3d half;  // world half extents
  const Eigen::Matrix3d absR = X_WG.R.cwiseAbs();
  if (std::holds_alternative<HalfSpace>(shape)) {
    return box;  // unbounded
  } else if (const auto* s = std::get_if<Sphere>(&shape)) {
    half = Eigen::Vector3d::Constant(s->radius);
  } else if (const auto* b = std::get_if<Box>(&shape)) {
    half = absR * b->half_extents;
  } else if (const auto* c = std::get_if<Capsule>(&shape)) {
    half = absR.col(2) * c->half_length + Eigen::Vector3d::Constant(c->radius);
  } else if (const auto* m = std::get_if<ConvexMesh>(&shape)) {
    return RotatedBox(m->data->bounds, X_WG, margin);
  } else if (const auto* t = std::get_if<TriangleMesh>(&shape)) {
    return RotatedBox(t->data->bounds, X_WG, margin);
  } else {
    const auto& cyl = std::get<Cylinder>(shape);
    // Disc of radius r perpendicular to the axis a spans r √(1 − a_k²) along world axis k.
    const Eigen::Vector3d a = X_WG.R.col(2);
    half = absR.col(2) * cyl.half_length +
           cyl.radius * (Eigen::Vector3d::Ones() - a.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
  }
  box.lower = X_WG.p - half - Eigen::Vector3d::Constant(margin);
  box.upper = X_WG.p + half + Eigen::Vector3d::Constant(margin);
  return box;
}

std::vector<std::pair<int, int>> FindCandidatePairs(const std::vector<Aabb>& boxes) {
  return FindCandidatePairs(boxes, [](int, int) { return true; });
}

}  // namespace coulomb::geometry
