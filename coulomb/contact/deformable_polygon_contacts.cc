#include "coulomb/contact/deformable_polygon_contacts.h"

#include <algorithm>
#include <variant>

#include "coulomb/geometry/point_query.h"
#include "coulomb/geometry/shape_surface.h"
#include "coulomb/geometry/surface_distance.h"

namespace coulomb::contact {
namespace {

bool IsFixed(const fem::FemBody& body, int vertex) {
  return std::find(body.fixed_vertices.begin(), body.fixed_vertices.end(), vertex) !=
         body.fixed_vertices.end();
}

geometry::Aabb TriangleBox(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                           const Eigen::Vector3d& c) {
  geometry::Aabb box;
  box.lower = a.cwiseMin(b).cwiseMin(c);
  box.upper = a.cwiseMax(b).cwiseMax(c);
  return box;
}

// The largest n·x over a round shape (n unit, shape frame): the facet plane with normal n moved
// out to touch the shape, so the faceted shape holds the round one and no vertex inside the round
// shape is outside every polygon.
double RoundSupport(const geometry::Shape& shape, const Eigen::Vector3d& n) {
  if (const auto* s = std::get_if<geometry::Sphere>(&shape)) return s->radius;
  if (const auto* c = std::get_if<geometry::Capsule>(&shape)) {
    return c->radius + c->half_length * std::abs(n.z());
  }
  const auto& c = std::get<geometry::Cylinder>(shape);
  return c.radius * n.head<2>().norm() + c.half_length * std::abs(n.z());
}

}  // namespace

std::vector<Plane> ShapePlanes(const geometry::Shape& shape, const math::Transform& X_WG,
                               double reach) {
  std::vector<Plane> out;
  if (std::holds_alternative<geometry::TriangleMesh>(shape)) return out;
  if (std::holds_alternative<geometry::HalfSpace>(shape)) {
    const Eigen::Vector3d n = X_WG.R.col(2);
    out.push_back({n, n.dot(X_WG.p) + reach});
    return out;
  }
  const bool round = std::holds_alternative<geometry::Sphere>(shape) ||
                     std::holds_alternative<geometry::Capsule>(shape) ||
                     std::holds_alternative<geometry::Cylinder>(shape);
  for (const geometry::SurfacePolygon& p : geometry::ShapeSurfacePolygons(shape)) {
    const double d = round ? RoundSupport(shape, p.normal) : p.normal.dot(p.corners[0]);
    const Eigen::Vector3d n = X_WG.R * p.normal;
    out.push_back({n, d + n.dot(X_WG.p) + reach});
  }
  return out;
}

void AddPolygonContacts(const PolygonContactInput& in, std::vector<DeformableContact>& out) {
  // A compliant surface has contacts only where it overlaps the shape; a rigid one also within
  // reach, as speculative contacts.
  const bool compliant = in.pressure_gradient > 0;
  const std::vector<Plane> planes =
      ShapePlanes(in.geometry->shape, in.X_WG, compliant ? 0.0 : in.reach);
  if (planes.empty()) return;
  const fem::FemBody& body = *in.body;
  const Eigen::Matrix3Xd& x = in.state->x;
  const math::Transform X_GW = in.X_WG.Inverse();
  const bool static_side = in.geometry->body < 0;
  const std::size_t first = out.size();
  for (std::size_t f = 0; f < body.surface.size(); ++f) {
    const Eigen::Vector3i& face = body.surface[f];
    const Eigen::Vector3d a = x.col(face[0]), b = x.col(face[1]), c = x.col(face[2]);
    if (!TriangleBox(a, b, c).Overlaps(in.shape_box)) continue;
    // Against static geometry a triangle of fixed vertices cannot move: nothing to solve.
    if (static_side && IsFixed(body, face[0]) && IsFixed(body, face[1]) && IsFixed(body, face[2])) {
      continue;
    }
    std::vector<Eigen::Vector3d> polygon{a, b, c};
    for (const Plane& plane : planes) {
      polygon = geometry::ClipPolygon(polygon, plane.n, plane.d);
      if (polygon.size() < 3) break;
    }
    const geometry::PolygonArea patch = geometry::AreaOf(polygon);
    // Areas below this are round-off of a triangle grazing the shape.
    if (patch.area <= 1e-12 * (b - a).squaredNorm()) continue;
    // One quadrature point, the centroid: gap and normal are the shape's there, the Jacobian the
    // triangle's there (ARCHITECTURE.md, "Deformable bodies", for the variants measured).
    const geometry::PointQuery q =
        geometry::QueryPoint(in.geometry->shape, X_GW.Apply(patch.centroid));
    if (q.phi > in.reach) continue;  // in a facet's corner of the grown shape, still too far
    const Eigen::Vector3d w = geometry::ClosestPointWeights(patch.centroid, a, b, c);
    DeformableContact contact;
    contact.deformable = in.deformable;
    for (int k = 0; k < 3; ++k) {
      contact.vertices[k] = face[k];
      contact.vertex_weights[k] = w[k];
    }
    contact.triangle = static_cast<int>(f);
    contact.area = patch.area;
    contact.geometry = in.geometry_index;
    contact.rigid_body = in.geometry->body;
    contact.point = patch.centroid;
    contact.normal = in.X_WG.R * q.normal;  // out of the rigid shape: into the deformable body
    contact.phi = q.phi;
    contact.mu = geometry::CombineFriction(body.friction, in.geometry->friction);
    contact.compliance = in.geometry->compliance;
    out.push_back(contact);
  }
  // A compliant rigid material's compliance is that of the whole patch: each polygon takes a
  // share of the stiffness in proportion to its area, so the patch's stiffness does not grow
  // with the number of triangles it covers.
  double total = 0;
  for (std::size_t k = first; k < out.size(); ++k) total += out[k].area;
  for (std::size_t k = first; k < out.size(); ++k) {
    out[k].compliance *= total / out[k].area;
    // Pressure g·(−φ) over the polygon: its force is A g (−φ) at the centroid, exact for the
    // linear φ of a flat face. In series with the rigid material's share.
    if (compliant) out[k].compliance += 1 / (out[k].area * in.pressure_gradient);
  }
}

}  // namespace coulomb::contact
