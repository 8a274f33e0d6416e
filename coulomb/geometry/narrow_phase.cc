#include "coulomb/geometry/narrow_phase.h"

#include <array>
#include <cmath>
#include <numbers>
#include <optional>

#include "coulomb/geometry/box_box.h"
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

int SphereBox(const Sphere& s, const Transform& X_WA, const Box& box, const Transform& X_WB,
              double margin, std::vector<ContactPoint>& out) {
  const Eigen::Vector3d c = X_WB.Inverse().Apply(X_WA.p);  // sphere centre in the box frame
  const Eigen::Vector3d h = box.half_extents;
  const Eigen::Vector3d closest = c.cwiseMax(-h).cwiseMin(h);
  Eigen::Vector3d n_B;
  double distance;
  Eigen::Vector3d surface = closest;
  if ((c - closest).norm() > 1e-12) {  // centre outside the box
    distance = (c - closest).norm();
    n_B = (c - closest) / distance;
  } else {  // inside: push out through the nearest face
    const Eigen::Vector3d depth = h - c.cwiseAbs();
    int axis = 0;
    depth.minCoeff(&axis);
    n_B = Eigen::Vector3d::Zero();
    n_B[axis] = c[axis] >= 0 ? 1.0 : -1.0;
    surface[axis] = n_B[axis] * h[axis];
    distance = -depth[axis];
  }
  const double phi = distance - s.radius;
  if (phi > margin) return 0;
  const Eigen::Vector3d n = X_WB.R * n_B;
  out.push_back(Make(X_WA.p - s.radius * n, X_WB.Apply(surface), n, phi));
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
  return -1;
}

}  // namespace coulomb::geometry
