#include "coulomb/geometry/convex_pair.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <variant>

#include "coulomb/geometry/box_box.h"
#include "coulomb/geometry/broad_phase.h"
#include "coulomb/geometry/convex_mesh.h"
#include "coulomb/geometry/face_manifold.h"
#include "coulomb/geometry/gjk_epa.h"
#include "coulomb/geometry/triangle.h"

namespace coulomb::geometry {
namespace {

// A face is used for a manifold when the contact normal is within 2° of its normal.
const double kCosFaceAngle = std::cos(2.0 * M_PI / 180.0);

// The face of a polytope (box or convex mesh) most aligned with `direction`.
std::optional<Face> PolytopeFace(const Shape& shape, const Transform& X,
                                 const Eigen::Vector3d& direction) {
  if (const auto* box = std::get_if<Box>(&shape)) return BoxFace(*box, X, direction);
  const auto* mesh = std::get_if<ConvexMesh>(&shape);
  if (!mesh) return std::nullopt;
  const ConvexMeshData& m = *mesh->data;
  const Eigen::Vector3d local = X.R.transpose() * direction;
  std::size_t best = 0;
  for (std::size_t f = 1; f < m.faces.size(); ++f) {
    if (m.normals[f].dot(local) > m.normals[best].dot(local)) best = f;
  }
  Face face;
  face.normal = X.R * m.normals[best];
  for (const int v : m.faces[best]) face.corners.push_back(X.Apply(m.vertices[v]));
  return face;
}

// Face-to-face manifold when one face is within kFaceAngle of the normal; 0 when not.
int FaceContacts(const std::optional<Face>& face_a, const std::optional<Face>& face_b,
                 const Eigen::Vector3d& n, double margin, int feature_base,
                 std::vector<ContactPoint>& out, const std::array<bool, 3>* skip_b = nullptr) {
  if (!face_a || !face_b) return 0;
  const double align_a = -face_a->normal.dot(n), align_b = face_b->normal.dot(n);
  if (std::max(align_a, align_b) < kCosFaceAngle) return 0;
  // Near ties go to B: a triangle must stay the reference under a box resting flat on it, or
  // the box face would clip the triangle and add points along its seams.
  const bool reference_is_b = align_b >= align_a - 1e-9;
  return ClipFaces(reference_is_b ? *face_b : *face_a, reference_is_b ? *face_a : *face_b,
                   reference_is_b, margin, feature_base, out, reference_is_b ? skip_b : nullptr);
}

// The point of a convex solid farthest along `direction` (world).
Eigen::Vector3d SupportPoint(const Shape& shape, const Transform& X, const Eigen::Vector3d& d) {
  const Eigen::Vector3d local = X.R.transpose() * d;
  const auto sign = [](double x) { return x >= 0 ? 1.0 : -1.0; };
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
  if (const auto* s = std::get_if<Sphere>(&shape)) {
    p = s->radius *
        (local.norm() > 0 ? Eigen::Vector3d(local.normalized()) : Eigen::Vector3d::UnitZ());
  } else if (const auto* b = std::get_if<Box>(&shape)) {
    p = b->half_extents.cwiseProduct(
        Eigen::Vector3d(sign(local.x()), sign(local.y()), sign(local.z())));
  } else if (const auto* c = std::get_if<Capsule>(&shape)) {
    p = Eigen::Vector3d(0, 0, sign(local.z()) * c->half_length) +
        c->radius *
            (local.norm() > 0 ? Eigen::Vector3d(local.normalized()) : Eigen::Vector3d::UnitZ());
  } else if (const auto* c = std::get_if<Cylinder>(&shape)) {
    const Eigen::Vector2d radial(local.x(), local.y());
    const Eigen::Vector2d rim = radial.norm() > 1e-12
                                    ? Eigen::Vector2d(c->radius * radial.normalized())
                                    : Eigen::Vector2d::Zero();
    p = Eigen::Vector3d(rim.x(), rim.y(), sign(local.z()) * c->half_length);
  } else {
    const ConvexMeshData& m = *std::get<ConvexMesh>(shape).data;
    p = m.vertices[SupportVertex(m, local)];
  }
  return X.Apply(p);
}

SupportFunction ShapeSupport(const Shape& shape, const Transform& X) {
  return [&shape, X](const Eigen::Vector3d& d) { return SupportPoint(shape, X, d); };
}

}  // namespace

bool IsConvexSolid(const Shape& shape) {
  return !std::holds_alternative<HalfSpace>(shape) && !std::holds_alternative<TriangleMesh>(shape);
}

int CollideConvex(const Shape& a, const Transform& X_WA, const Shape& b, const Transform& X_WB,
                  double margin, std::vector<ContactPoint>& out) {
  const std::optional<ConvexDistance> d =
      SignedDistance(ShapeSupport(a, X_WA), ShapeSupport(b, X_WB), X_WA.p - X_WB.p);
  if (!d || d->phi > margin) return 0;
  const int count = FaceContacts(PolytopeFace(a, X_WA, -d->normal),
                                 PolytopeFace(b, X_WB, d->normal), d->normal, margin, 32, out);
  if (count > 0) return count;
  out.push_back({0.5 * (d->on_a + d->on_b), d->normal, d->phi, d->on_a, d->on_b, 0});
  return 1;
}

namespace {

// A triangle as a prism reaching one edge length behind its face: GJK/EPA need a solid, and the
// depth behind a thin triangle would be ambiguous.
SupportFunction TrianglePrism(const std::array<Eigen::Vector3d, 3>& v, const Eigen::Vector3d& n) {
  const double thickness =
      std::max({(v[1] - v[0]).norm(), (v[2] - v[1]).norm(), (v[0] - v[2]).norm()});
  return [v, back = Eigen::Vector3d(-thickness * n), n](const Eigen::Vector3d& d) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < 3; ++i) {
      if (v[i].dot(d) > v[best].dot(d)) best = i;
    }
    return d.dot(n) >= 0 ? v[best] : Eigen::Vector3d(v[best] + back);
  };
}

// The triangle edges a region touches: none inside the face, one on an edge, two at a corner
// (edge k joins corners k and k + 1).
std::vector<int> RegionEdges(TriangleRegion region) {
  switch (region) {
    case TriangleRegion::kFace:
      return {};
    case TriangleRegion::kEdge01:
      return {0};
    case TriangleRegion::kEdge12:
      return {1};
    case TriangleRegion::kEdge20:
      return {2};
    case TriangleRegion::kVertex0:
      return {0, 2};
    case TriangleRegion::kVertex1:
      return {0, 1};
    case TriangleRegion::kVertex2:
      return {1, 2};
  }
  return {};
}

// Whether the nearest feature of the triangle may push along a normal other than its face's:
// only convex edges (and corners on one) can.
bool MayUseEdgeNormal(TriangleRegion region, const std::array<bool, 3>& convex) {
  const std::vector<int> edges = RegionEdges(region);
  return std::any_of(edges.begin(), edges.end(), [&](int e) { return convex[e]; });
}

// Whether a point of the triangle's plane lies on the triangle or beyond flat seams only.
bool WithinFlatRegion(TriangleRegion region, const std::array<bool, 3>& flat) {
  const std::vector<int> edges = RegionEdges(region);
  return std::all_of(edges.begin(), edges.end(), [&](int e) { return flat[e]; });
}

// Inside a triangle or at a flat or concave edge the contact pushes along the triangle's normal,
// with depths measured over the triangle (and across flat seams) only: a body hanging over a
// convex edge must not be measured against the plane's extension beyond it.
int FaceModeContacts(const Shape& a, const Transform& X_WA, const Face& triangle,
                     const std::array<bool, 3>& flat, double margin, int feature_base,
                     std::vector<ContactPoint>& out) {
  const Eigen::Vector3d& n = triangle.normal;
  const auto& v = triangle.corners;
  // A polytope touches at its corners over the triangle, as on a half-space; this holds a
  // tilted face too (a coin rocking on its rim), which face clipping would reduce to one point.
  std::vector<Eigen::Vector3d> corners;
  const auto consider = [&](const Eigen::Vector3d& p) {
    const double phi = n.dot(p - v[0]);
    if (phi > margin) return;
    const Eigen::Vector3d on_plane = p - phi * n;
    if (WithinFlatRegion(ClosestOnTriangle(on_plane, v[0], v[1], v[2]).region, flat)) {
      corners.push_back(p);
    }
  };
  if (const auto* box = std::get_if<Box>(&a)) {
    for (int k = 0; k < 8; ++k) {
      consider(X_WA.Apply(box->half_extents.cwiseProduct(
          Eigen::Vector3d(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1))));
    }
  } else if (const auto* mesh = std::get_if<ConvexMesh>(&a)) {
    for (const Eigen::Vector3d& p : mesh->data->vertices) consider(X_WA.Apply(p));
  }
  int slot = 0;
  for (const std::size_t k : ReducePatch(corners, n, 4)) {
    const Eigen::Vector3d& p = corners[k];
    const double phi = n.dot(p - v[0]);
    out.push_back({p - 0.5 * phi * n, n, phi, p, p - phi * n, feature_base + slot++});
  }
  if (slot > 0) return slot;
  const int count =
      FaceContacts(PolytopeFace(a, X_WA, -n), triangle, n, margin, feature_base, out, &flat);
  if (count > 0) return count;
  const Eigen::Vector3d deepest = SupportPoint(a, X_WA, -n);
  const double phi = n.dot(deepest - triangle.corners[0]);
  const Eigen::Vector3d on_b = deepest - phi * n;
  if (phi > margin || !WithinFlatRegion(ClosestOnTriangle(on_b, v[0], v[1], v[2]).region, flat)) {
    return 0;
  }
  out.push_back({0.5 * (deepest + on_b), n, phi, deepest, on_b, feature_base});
  return 1;
}

int CollideTriangle(const Shape& a, const Transform& X_WA, const TriangleMeshData& mesh, int t,
                    const Transform& X_WB, double margin, std::vector<ContactPoint>& out) {
  std::array<Eigen::Vector3d, 3> v;
  for (int k = 0; k < 3; ++k) v[k] = X_WB.Apply(mesh.vertices[mesh.triangles[t][k]]);
  const Face triangle{{v[0], v[1], v[2]}, X_WB.R * mesh.normals[t]};
  const Eigen::Vector3d& face_normal = triangle.normal;
  const std::optional<ConvexDistance> d = SignedDistance(
      ShapeSupport(a, X_WA), TrianglePrism(v, face_normal), X_WA.p - (v[0] + v[1] + v[2]) / 3.0);
  if (!d || d->phi > margin) return 0;
  // Which feature of the triangle the contact is at: the point on B moved a little along the
  // normal projects into the face for a face contact and beyond an edge for an edge contact.
  const double size = (v[1] - v[0]).norm() + (v[2] - v[1]).norm();
  const TriangleRegion region =
      ClosestOnTriangle(d->on_b + 1e-3 * size * d->normal, v[0], v[1], v[2]).region;
  const int feature_base = 8 * t;
  // Triangles are one-sided: a body met from behind meets the mesh elsewhere (the front faces of
  // a closed mesh) or not at all (the underside of terrain). And the prism is only a device: a
  // witness on B farther from the triangle than the depth met the extrusion behind it (the
  // prism of a hill's base reaches up through the hill), not the surface.
  if (d->normal.dot(face_normal) < 0) return 0;
  const double off_surface = (d->on_b - ClosestOnTriangle(d->on_b, v[0], v[1], v[2]).point).norm();
  if (off_surface > std::max(0.0, -d->phi) + 1e-6 * size) return 0;
  if (!MayUseEdgeNormal(region, mesh.convex_edge[t])) {
    const int count =
        FaceModeContacts(a, X_WA, triangle, mesh.flat_edge[t], margin, feature_base, out);
    if (count > 0) return count;
  }
  // At a convex edge or corner: the closest features' normal.
  const int count = FaceContacts(PolytopeFace(a, X_WA, -d->normal), triangle, d->normal, margin,
                                 feature_base, out, &mesh.flat_edge[t]);
  if (count > 0) return count;
  out.push_back({0.5 * (d->on_a + d->on_b), d->normal, d->phi, d->on_a, d->on_b, feature_base});
  return 1;
}

// Neighbouring triangles report the same corner (a box resting across a seam): keep the first.
int RemoveDuplicates(std::vector<ContactPoint>& out, std::size_t start, double tolerance) {
  std::size_t kept = start;
  for (std::size_t i = start; i < out.size(); ++i) {
    bool duplicate = false;
    for (std::size_t j = start; j < kept && !duplicate; ++j) {
      duplicate = (out[j].witness_a - out[i].witness_a).norm() <= tolerance &&
                  out[j].normal.dot(out[i].normal) > kCosFaceAngle;
    }
    if (!duplicate) out[kept++] = out[i];
  }
  out.resize(kept);
  return static_cast<int>(kept - start);
}

}  // namespace

int CollideTriangleMesh(const Shape& a, const Transform& X_WA, const TriangleMesh& b,
                        const Transform& X_WB, double margin, std::vector<ContactPoint>& out) {
  const TriangleMeshData& mesh = *b.data;
  const Transform X_BA = X_WB.Inverse() * X_WA;
  const Aabb box = ComputeAabb(a, X_BA, margin);
  std::vector<int> near;
  TrianglesNear(mesh, Eigen::AlignedBox3d(box.lower, box.upper), near);
  const std::size_t start = out.size();
  for (const int t : near) CollideTriangle(a, X_WA, mesh, t, X_WB, margin, out);
  return RemoveDuplicates(out, start, 1e-9 * (1.0 + (box.upper - box.lower).norm()));
}

}  // namespace coulomb::geometry
