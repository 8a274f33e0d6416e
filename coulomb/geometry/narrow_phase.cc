#include "coulomb/geometry/narrow_phase.h"

#include <array>
#include <cmath>
#include <numbers>
#include <optional>

#include "coulomb/geometry/box_box.h"
#include "coulomb/geometry/convex_pair.h"
#include "coulomb/geometry/face_manifold.h"
#include "coulomb/geometry/segment.h"

namespace coulomb::geometry {
namespace {

ContactPoint Make(const Eigen::Vector3d& witness_a, const Eigen::Vector3d& witness_b,
                  const Eigen::Vector3d& normal, double phi) {
  return {0.5 * (witness_a + witness_b), normal, phi, witness_a, witness_b};
}

// A point of A (given as a sphere of radius r about `center`, r = 0 for a vertex) against the
// half-space B whose boundary passes through p_B with outward normal n.
void PointOnHalfSpace(const Eigen::Vector3d& center, double radius, const Eigen::Vector3d& n,
                      const Eigen::Vector3d& p_B, double margin, std::vector<ContactPoint>& out,
                      int& count, int feature = 0) {
  const double height = n.dot(center - p_B);
  const double phi = height - radius;
  if (phi > margin) return;
  out.push_back(Make(center - radius * n, center - height * n, n, phi));
  out.back().feature = feature;
  ++count;
}

int SphereHalfSpace(const Sphere& s, const Transform& X_WA, const Transform& X_WB, double margin,
                    std::vector<ContactPoint>& out) {
  int count = 0;
  PointOnHalfSpace(X_WA.p, s.radius, X_WB.R.col(2), X_WB.p, margin, out, count);
  return count;
}

int BoxHalfSpace(const Box& box, const Transform& X_WA, const Transform& X_WB, double margin,
                 std::vector<ContactPoint>& out) {
  // Every corner within the margin: a box resting flat gives its four bottom corners.
  int count = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const Eigen::Vector3d local((corner & 1 ? 1 : -1) * box.half_extents.x(),
                                (corner & 2 ? 1 : -1) * box.half_extents.y(),
                                (corner & 4 ? 1 : -1) * box.half_extents.z());
    PointOnHalfSpace(X_WA.Apply(local), 0.0, X_WB.R.col(2), X_WB.p, margin, out, count, corner);
  }
  return count;
}

int CapsuleHalfSpace(const Capsule& c, const Transform& X_WA, const Transform& X_WB, double margin,
                     std::vector<ContactPoint>& out) {
  int count = 0;
  for (const double end : {-c.half_length, c.half_length}) {
    PointOnHalfSpace(X_WA.Apply(Eigen::Vector3d(0, 0, end)), c.radius, X_WB.R.col(2), X_WB.p,
                     margin, out, count, end > 0 ? 1 : 0);
  }
  return count;
}

// The hull vertices within the margin, at most four of them spanning the patch: a mesh resting
// on a face gives that face's corners (face_manifold.h, ReducePatch).
int ConvexMeshHalfSpace(const ConvexMesh& m, const Transform& X_WA, const Transform& X_WB,
                        double margin, std::vector<ContactPoint>& out) {
  const Eigen::Vector3d n = X_WB.R.col(2);
  std::vector<Eigen::Vector3d> near;
  std::vector<int> index;
  const std::vector<Eigen::Vector3d>& vertices = m.data->vertices;
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const Eigen::Vector3d p = X_WA.Apply(vertices[v]);
    if (n.dot(p - X_WB.p) > margin) continue;
    near.push_back(p);
    index.push_back(static_cast<int>(v));
  }
  int count = 0;
  for (const std::size_t k : ReducePatch(near, n, 4)) {
    PointOnHalfSpace(near[k], 0.0, n, X_WB.p, margin, out, count, index[k]);
  }
  return count;
}

int CylinderHalfSpace(const Cylinder& c, const Transform& X_WA, const Transform& X_WB,
                      double margin, std::vector<ContactPoint>& out) {
  const Eigen::Vector3d n = X_WB.R.col(2);
  const Eigen::Vector3d axis = X_WA.R.col(2);
  const Eigen::Vector3d across = n - n.dot(axis) * axis;  // plane normal within the cap plane
  int count = 0;
  for (const double end : {-c.half_length, c.half_length}) {
    const Eigen::Vector3d center = X_WA.Apply(Eigen::Vector3d(0, 0, end));
    if (across.norm() < 1e-6) {
      // Cap (nearly) parallel to the plane: four rim points, so the cylinder stands stably.
      for (int k = 0; k < 4; ++k) {
        const Eigen::Vector3d local(c.radius * std::cos(k * std::numbers::pi / 2),
                                    c.radius * std::sin(k * std::numbers::pi / 2), end);
        PointOnHalfSpace(X_WA.Apply(local), 0.0, n, X_WB.p, margin, out, count,
                         (end > 0 ? 4 : 0) + k);
      }
    } else {  // the rim point deepest along −n
      PointOnHalfSpace(center - c.radius * across.normalized(), 0.0, n, X_WB.p, margin, out, count,
                       end > 0 ? 9 : 8);
    }
  }
  return count;
}

int SphereSphere(const Sphere& a, const Transform& X_WA, const Sphere& b, const Transform& X_WB,
                 double margin, std::vector<ContactPoint>& out) {
  const Eigen::Vector3d d = X_WA.p - X_WB.p;
  const double distance = d.norm();
  const double phi = distance - a.radius - b.radius;
  if (phi > margin) return 0;
  const Eigen::Vector3d n =
      distance > 1e-12 ? Eigen::Vector3d(d / distance) : Eigen::Vector3d::UnitZ();
  out.push_back(Make(X_WA.p - a.radius * n, X_WB.p + b.radius * n, n, phi));
  return 1;
}

// A capsule as its segment, a sphere as a degenerate one: (start, direction, radius) in world.
struct RoundCore {
  Eigen::Vector3d start, direction;
  double radius;
};

std::optional<RoundCore> Core(const Shape& shape, const Transform& X) {
  if (const auto* s = std::get_if<Sphere>(&shape))
    return RoundCore{X.p, Eigen::Vector3d::Zero(), s->radius};
  if (const auto* c = std::get_if<Capsule>(&shape)) {
    const Eigen::Vector3d axis = X.R.col(2) * c->half_length;
    return RoundCore{X.p - axis, 2 * axis, c->radius};
  }
  return std::nullopt;
}

// Two round shapes: closest points of their cores, pushed out by the radii.
int RoundRound(const RoundCore& a, const RoundCore& b, double margin,
               std::vector<ContactPoint>& out) {
  Eigen::Vector3d on_a, on_b;
  ClosestOnSegments(a.start, a.direction, b.start, b.direction, on_a, on_b);
  const Eigen::Vector3d d = on_a - on_b;
  const double distance = d.norm();
  const double phi = distance - a.radius - b.radius;
  if (phi > margin) return 0;
  // Coincident cores have no preferred direction; any unit normal is a valid answer.
  const Eigen::Vector3d n =
      distance > 1e-12 ? Eigen::Vector3d(d / distance) : Eigen::Vector3d::UnitZ();
  out.push_back(Make(on_a - a.radius * n, on_b + b.radius * n, n, phi));
  return 1;
}

// Signed distance from x (world) to a posed box, its outward gradient and the closest surface
// point.
struct BoxDistance {
  double sdf;
  Eigen::Vector3d normal;   // world, outward
  Eigen::Vector3d surface;  // world
};

BoxDistance DistanceToBox(const Box& box, const Transform& X_WB, const Eigen::Vector3d& x) {
  const Eigen::Vector3d local = X_WB.R.transpose() * (x - X_WB.p);
  const Eigen::Vector3d h = box.half_extents;
  const Eigen::Vector3d q = local.cwiseAbs() - h;
  const Eigen::Vector3d outside = q.cwiseMax(0.0);
  BoxDistance d;
  Eigen::Vector3d n, surface;
  if (outside.norm() > 0) {
    d.sdf = outside.norm();
    surface = local.cwiseMax(-h).cwiseMin(h);
    n = (local - surface) / d.sdf;
  } else {
    int axis = 0;
    d.sdf = q.maxCoeff(&axis);  // ≤ 0: depth below the nearest face
    n = Eigen::Vector3d::Zero();
    n[axis] = local[axis] >= 0 ? 1.0 : -1.0;
    surface = local;
    surface[axis] = n[axis] * h[axis];
  }
  d.normal = X_WB.R * n;
  d.surface = X_WB.Apply(surface);
  return d;
}

int SphereBox(const Sphere& s, const Transform& X_WA, const Box& box, const Transform& X_WB,
              double margin, std::vector<ContactPoint>& out) {
  const BoxDistance d = DistanceToBox(box, X_WB, X_WA.p);
  const double phi = d.sdf - s.radius;
  if (phi > margin) return 0;
  out.push_back(Make(X_WA.p - s.radius * d.normal, d.surface, d.normal, phi));
  return 1;
}

// Capsule (A) against a box (B). The box's signed distance is convex, so along the capsule's
// segment it has one minimum, found by golden-section search. A capsule lying flat on a face
// touches along a line: its two end points are reported instead (a two-point manifold).
int CapsuleBox(const Capsule& c, const Transform& X_WA, const Box& box, const Transform& X_WB,
               double margin, std::vector<ContactPoint>& out) {
  const Eigen::Vector3d axis = X_WA.R.col(2) * c.half_length;
  const Eigen::Vector3d start = X_WA.p - axis, direction = 2 * axis;
  const auto sdf = [&](double s) { return DistanceToBox(box, X_WB, start + s * direction).sdf; };
  double lo = 0, hi = 1;
  const double ratio = 0.5 * (std::sqrt(5.0) - 1.0);
  double m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo);
  double f1 = sdf(m1), f2 = sdf(m2);
  for (int k = 0; k < 80; ++k) {
    if (f1 <= f2) {
      hi = m2;
      m2 = m1;
      f2 = f1;
      m1 = hi - ratio * (hi - lo);
      f1 = sdf(m1);
    } else {
      lo = m1;
      m1 = m2;
      f1 = f2;
      m2 = lo + ratio * (hi - lo);
      f2 = sdf(m2);
    }
  }
  const double best = 0.5 * (lo + hi);
  const double flat = 1e-9 * (1.0 + c.half_length);
  const bool lying_flat =
      std::abs(sdf(0) - sdf(best)) <= flat && std::abs(sdf(1) - sdf(best)) <= flat;
  int count = 0;
  const auto report = [&](double s, int feature) {
    const Eigen::Vector3d x = start + s * direction;
    const BoxDistance d = DistanceToBox(box, X_WB, x);
    const double phi = d.sdf - c.radius;
    if (phi > margin) return;
    out.push_back(Make(x - c.radius * d.normal, d.surface, d.normal, phi));
    out.back().feature = feature;
    ++count;
  };
  if (lying_flat) {
    report(0.0, 0);
    report(1.0, 1);
  } else {
    report(best, 2);
  }
  return count;
}

// The same routine with the roles exchanged: flip normals and witnesses of what it added.
template <class F>
int Swapped(std::vector<ContactPoint>& out, F&& collide_b_a) {
  const std::size_t start = out.size();
  const int count = collide_b_a();
  for (std::size_t i = start; i < out.size(); ++i) {
    ContactPoint& c = out[i];
    c.normal = -c.normal;
    std::swap(c.witness_a, c.witness_b);
  }
  return count;
}

}  // namespace

int Collide(const Shape& a, const Transform& X_WA, const Shape& b, const Transform& X_WB,
            double margin, std::vector<ContactPoint>& out) {
  if (const auto* mesh = std::get_if<TriangleMesh>(&b); mesh && IsConvexSolid(a)) {
    return CollideTriangleMesh(a, X_WA, *mesh, X_WB, margin, out);
  }
  if (std::holds_alternative<TriangleMesh>(a) && IsConvexSolid(b)) {
    return Swapped(out, [&] { return Collide(b, X_WB, a, X_WA, margin, out); });
  }
  const bool b_half = std::holds_alternative<HalfSpace>(b);
  const bool a_half = std::holds_alternative<HalfSpace>(a);
  if (b_half && !a_half) {
    if (const auto* s = std::get_if<Sphere>(&a))
      return SphereHalfSpace(*s, X_WA, X_WB, margin, out);
    if (const auto* x = std::get_if<Box>(&a)) return BoxHalfSpace(*x, X_WA, X_WB, margin, out);
    if (const auto* c = std::get_if<Capsule>(&a))
      return CapsuleHalfSpace(*c, X_WA, X_WB, margin, out);
    if (const auto* c = std::get_if<Cylinder>(&a))
      return CylinderHalfSpace(*c, X_WA, X_WB, margin, out);
    if (const auto* m = std::get_if<ConvexMesh>(&a))
      return ConvexMeshHalfSpace(*m, X_WA, X_WB, margin, out);
  }
  if (a_half && !b_half) {
    return Swapped(out, [&] { return Collide(b, X_WB, a, X_WA, margin, out); });
  }
  if (const auto* ba = std::get_if<Box>(&a)) {
    if (const auto* bb = std::get_if<Box>(&b))
      return CollideBoxes(*ba, X_WA, *bb, X_WB, margin, out);
  }
  const auto* sa = std::get_if<Sphere>(&a);
  const auto* sb = std::get_if<Sphere>(&b);
  if (sa && sb) return SphereSphere(*sa, X_WA, *sb, X_WB, margin, out);
  if (const auto* ca = std::get_if<Capsule>(&a)) {
    if (const auto* box = std::get_if<Box>(&b))
      return CapsuleBox(*ca, X_WA, *box, X_WB, margin, out);
  }
  if (std::holds_alternative<Box>(a) && std::holds_alternative<Capsule>(b)) {
    return Swapped(out, [&] { return Collide(b, X_WB, a, X_WA, margin, out); });
  }
  const auto core_a = Core(a, X_WA), core_b = Core(b, X_WB);
  if (core_a && core_b) return RoundRound(*core_a, *core_b, margin, out);  // capsule–capsule/sphere
  if (sa) {
    if (const auto* box = std::get_if<Box>(&b))
      return SphereBox(*sa, X_WA, *box, X_WB, margin, out);
  }
  if (sb) {
    if (std::holds_alternative<Box>(a)) {
      return Swapped(out, [&] { return Collide(b, X_WB, a, X_WA, margin, out); });
    }
  }
  // Everything else convex (meshes, cylinders against other solids): GJK/EPA.
  if (IsConvexSolid(a) && IsConvexSolid(b)) return CollideConvex(a, X_WA, b, X_WB, margin, out);
  return -1;
}

}  // namespace coulomb::geometry
