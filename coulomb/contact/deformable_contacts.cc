#include "coulomb/contact/deformable_contacts.h"

#include <fmt/format.h>

#include <variant>

#include "coulomb/contact/deformable_polygon_contacts.h"
#include "coulomb/geometry/broad_phase.h"
#include "coulomb/geometry/point_query.h"
#include "coulomb/geometry/surface_distance.h"

namespace coulomb::contact {

using fem::DeformableModel;
using fem::FemBody;
using fem::FemState;
namespace {

geometry::Aabb SurfaceBox(const FemBody& body, const FemState& state, double margin) {
  geometry::Aabb box;
  box.lower = Eigen::Vector3d::Constant(INFINITY);
  box.upper = Eigen::Vector3d::Constant(-INFINITY);
  for (const int a : body.surface_vertices) {
    box.lower = box.lower.cwiseMin(state.x.col(a));
    box.upper = box.upper.cwiseMax(state.x.col(a));
  }
  box.lower.array() -= margin;
  box.upper.array() += margin;
  return box;
}

bool Contains(const geometry::Aabb& box, const Eigen::Vector3d& p) {
  return (p.array() >= box.lower.array()).all() && (p.array() <= box.upper.array()).all();
}

bool IsFixed(const FemBody& body, int vertex) {
  return std::find(body.fixed_vertices.begin(), body.fixed_vertices.end(), vertex) !=
         body.fixed_vertices.end();
}

// The mean surface edge length at rest: the grid cell and the depth down to which overlap with
// another deformable is found.
double MeanEdge(const FemBody& body) {
  double sum = 0;
  for (const Eigen::Vector3i& f : body.surface) {
    for (int k = 0; k < 3; ++k) {
      sum += (body.rest.vertices.col(f[k]) - body.rest.vertices.col(f[(k + 1) % 3])).norm();
    }
  }
  return body.surface.empty() ? 1.0 : sum / (3.0 * static_cast<double>(body.surface.size()));
}

// An upper bound of the speed of any point of geometry g: |v| + |ω| (|p_BG| + its half
// diagonal), from its body's spatial velocity; 0 for static geometry or without velocities.
double GeometrySpeed(const geometry::CollisionGeometry& geo,
                     const std::vector<math::Vector6d>& body_velocities) {
  if (geo.body < 0 || static_cast<std::size_t>(geo.body) >= body_velocities.size()) return 0;
  if (std::holds_alternative<geometry::HalfSpace>(geo.shape)) return 0;  // static only
  const geometry::Aabb own = geometry::ComputeAabb(geo.shape, math::Transform{}, 0);
  const double reach = geo.X_BG.p.norm() + 0.5 * (own.upper - own.lower).norm();
  const math::Vector6d& V = body_velocities[geo.body];
  return V.head<3>().norm() + V.tail<3>().norm() * reach;
}

DeformableContact VertexContact(int d, int vertex, const Eigen::Vector3d& p) {
  DeformableContact c;
  c.deformable = d;
  c.vertices[0] = vertex;
  c.vertex_weights[0] = 1;
  c.point = p;
  return c;
}

void AddRigidContacts(const DeformableModel& model, int d, const FemState& state,
                      const geometry::CollisionWorld& world,
                      const std::vector<math::Transform>& X_world, double margin, double dt,
                      const std::vector<math::Vector6d>& body_velocities,
                      std::vector<DeformableContact>& out) {
  const FemBody& body = model.bodies[d];
  const bool polygons = model.rigid_contacts == fem::RigidContactSampling::kSurfacePolygons;
  for (std::size_t g = 0; g < world.geometries.size(); ++g) {
    const geometry::CollisionGeometry& geo = world.geometries[g];
    if (geo.body >= 0 && fem::IsAttached(model, d, geo.body)) continue;
    const double reach = margin + dt * GeometrySpeed(geo, body_velocities);
    const geometry::Aabb box = SurfaceBox(body, state, reach);
    const math::Transform X_WG = geo.body >= 0 ? X_world[geo.body] * geo.X_BG : geo.X_BG;
    const geometry::Aabb shape_box = geometry::ComputeAabb(geo.shape, X_WG, reach);
    if (!shape_box.Overlaps(box)) continue;
    // Convex shapes touch the surface polygons; a triangle mesh (not convex) the vertices.
    const bool convex = !std::holds_alternative<geometry::TriangleMesh>(geo.shape);
    if (polygons && convex) {
      PolygonContactInput in;
      in.body = &body;
      in.deformable = d;
      in.state = &state;
      in.geometry = &geo;
      in.geometry_index = static_cast<int>(g);
      in.X_WG = X_WG;
      in.shape_box = shape_box;
      in.reach = reach;
      in.pressure_gradient = model.surface_pressure_gradient;
      AddPolygonContacts(in, out);
      continue;
    }
    const math::Transform X_GW = X_WG.Inverse();
    for (const int a : body.surface_vertices) {
      const Eigen::Vector3d p = state.x.col(a);
      // A fixed vertex still pushes a moving body (a support's edge); against static geometry
      // nothing can move.
      if (!Contains(shape_box, p) || (geo.body < 0 && IsFixed(body, a))) continue;
      const geometry::PointQuery q = geometry::QueryPoint(geo.shape, X_GW.Apply(p));
      if (q.phi > reach) continue;
      DeformableContact c = VertexContact(d, a, p);
      c.geometry = static_cast<int>(g);
      c.rigid_body = geo.body;
      c.normal = X_WG.R * q.normal;  // out of the rigid shape: into the deformable body
      c.phi = q.phi;
      c.mu = geometry::CombineFriction(body.friction, geo.friction);
      c.compliance = geo.compliance;
      out.push_back(c);
    }
  }
}

void AddDeformableContacts(const DeformableModel& model, const std::vector<FemState>& states, int d,
                           double margin, std::vector<DeformableContact>& out) {
  const FemBody& body = model.bodies[d];
  const geometry::Aabb box = SurfaceBox(body, states[d], margin);
  for (std::size_t e = 0; e < model.bodies.size(); ++e) {
    if (static_cast<int>(e) == d) continue;  // self-contact is not handled
    const FemBody& other = model.bodies[e];
    const geometry::Aabb other_box = SurfaceBox(other, states[e], margin);
    if (!other_box.Overlaps(box)) continue;
    const double edge = MeanEdge(other);
    const geometry::SurfaceDistance surface(states[e].x, other.surface, edge);
    for (const int a : body.surface_vertices) {
      const Eigen::Vector3d p = states[d].x.col(a);
      if (!Contains(other_box, p)) continue;
      const auto hit = surface.Query(p, margin + edge);
      if (!hit || hit->phi > margin) continue;
      // A fixed vertex (a support's edge) is a contact unless the face it touches is fixed too.
      const Eigen::Vector3i& face = other.surface[hit->face];
      if (IsFixed(body, a) && IsFixed(other, face[0]) && IsFixed(other, face[1]) &&
          IsFixed(other, face[2])) {
        continue;
      }
      DeformableContact c = VertexContact(d, a, p);
      c.other = static_cast<int>(e);
      c.face = other.surface[hit->face];
      c.weights = hit->weights;
      c.normal = hit->normal;
      c.phi = hit->phi;
      c.mu = geometry::CombineFriction(body.friction, other.friction);
      out.push_back(c);
    }
  }
}

}  // namespace

std::string DescribeDeformableSide(const DeformableModel& model, const DeformableContact& c) {
  const std::string& name = model.bodies[c.deformable].name;
  return c.triangle >= 0 ? fmt::format("surface triangle {} of '{}'", c.triangle, name)
                         : fmt::format("vertex {} of '{}'", c.vertices[0], name);
}

std::vector<DeformableContact> FindDeformableContacts(
    const DeformableModel& model, const std::vector<FemState>& states,
    const geometry::CollisionWorld& world, const std::vector<math::Transform>& X_world,
    double margin, double dt, const std::vector<math::Vector6d>& body_velocities) {
  std::vector<DeformableContact> out;
  for (std::size_t d = 0; d < model.bodies.size(); ++d) {
    const double reach = margin + dt * states[d].v.colwise().norm().maxCoeff();
    AddRigidContacts(model, static_cast<int>(d), states[d], world, X_world, reach, dt,
                     body_velocities, out);
    AddDeformableContacts(model, states, static_cast<int>(d), reach, out);
  }
  return out;
}

}  // namespace coulomb::contact
