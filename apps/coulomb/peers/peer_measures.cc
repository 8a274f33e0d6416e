#include "apps/coulomb/peers/peer_measures.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "coulomb/geometry/narrow_phase.h"

namespace coulomb::peers {
namespace {

math::Transform Pose(const PeerFrame& frame, std::size_t i) {
  return {frame.orientation[i].normalized().toRotationMatrix(), frame.position[i]};
}

double BoundingRadius(const geometry::Shape& shape) {
  if (const auto* box = std::get_if<geometry::Box>(&shape)) return box->half_extents.norm();
  return std::get<geometry::Sphere>(shape).radius;
}

// How deep body i reaches into the solid {n·x ≤ offset}: the lowest support point along n.
double PlaneDepth(const PeerBody& body, const math::Transform& X, const PeerPlane& plane) {
  double lowest = 0;
  if (const auto* box = std::get_if<geometry::Box>(&body.shape)) {
    // Support of a box along −n: the centre minus Σ |n·axis_k| h_k.
    const Eigen::Vector3d n_body = X.R.transpose() * plane.normal;
    lowest = plane.normal.dot(X.p) - n_body.cwiseAbs().dot(box->half_extents);
  } else {
    lowest = plane.normal.dot(X.p) - std::get<geometry::Sphere>(body.shape).radius;
  }
  return std::max(0.0, plane.offset - lowest);
}

double PairDepth(const PeerScene& scene, const PeerFrame& frame, std::size_t i, std::size_t j,
                 std::vector<geometry::ContactPoint>& scratch) {
  const double reach =
      BoundingRadius(scene.bodies[i].shape) + BoundingRadius(scene.bodies[j].shape);
  if ((frame.position[i] - frame.position[j]).squaredNorm() > reach * reach) return 0;
  scratch.clear();
  geometry::Collide(scene.bodies[i].shape, Pose(frame, i), scene.bodies[j].shape, Pose(frame, j),
                    0.0, scratch);
  double depth = 0;
  for (const geometry::ContactPoint& c : scratch) depth = std::max(depth, -c.phi);
  return depth;
}

// Outside the scene's solids at the end: a sphere whose centre is inside a plane's solid went
// through it.
int CountEscapes(const PeerScene& scene, const PeerFrame& frame) {
  int escaped = 0;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const bool inside_a_wall = std::any_of(
        scene.planes.begin(), scene.planes.end(),
        [&](const PeerPlane& plane) { return plane.normal.dot(frame.position[i]) < plane.offset; });
    escaped += inside_a_wall || !frame.position[i].allFinite() ? 1 : 0;
  }
  return escaped;
}

double Figure(const PeerScene& scene, const std::vector<PeerFrame>& frames) {
  const PeerFrame& first = frames.front();
  const PeerFrame& last = frames.back();
  switch (scene.figure) {
    case PeerFigure::kStackDrift: {
      double drift = 0;
      for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        drift = std::max(drift, (last.position[i] - first.position[i]).norm());
      }
      return drift;
    }
    case PeerFigure::kBinEscapes:
      return CountEscapes(scene, last);
    case PeerFigure::kSlideError:
    case PeerFigure::kRollError:
      return std::abs(last.position[0].x() - first.position[0].x() - scene.analytic);
    case PeerFigure::kHeavyTopSag:
      return first.position[1].z() - last.position[1].z();
    case PeerFigure::kJointGap: {
      double gap = 0;
      for (const PeerFrame& frame : frames) gap = std::max(gap, MaxJointGap(scene, frame));
      return gap;
    }
  }
  return NAN;
}

}  // namespace

std::string FigureName(PeerFigure figure) {
  switch (figure) {
    case PeerFigure::kStackDrift:
      return "max cube drift, m";
    case PeerFigure::kBinEscapes:
      return "spheres escaped";
    case PeerFigure::kSlideError:
      return "slide error, m";
    case PeerFigure::kRollError:
      return "travel error, m";
    case PeerFigure::kHeavyTopSag:
      return "heavy cube sag, m";
    case PeerFigure::kJointGap:
      return "max hinge gap, m";
  }
  return "?";
}

double MaxPenetration(const PeerScene& scene, const PeerFrame& frame) {
  double depth = 0;
  std::vector<geometry::ContactPoint> scratch;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const math::Transform X = Pose(frame, i);
    for (const PeerPlane& plane : scene.planes) {
      depth = std::max(depth, PlaneDepth(scene.bodies[i], X, plane));
    }
    if (!scene.bodies_collide) continue;
    for (std::size_t j = i + 1; j < scene.bodies.size(); ++j) {
      depth = std::max(depth, PairDepth(scene, frame, i, j, scratch));
    }
  }
  return depth;
}

double FrameEnergy(const PeerScene& scene, const PeerFrame& frame) {
  double energy = 0;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const PeerBody& body = scene.bodies[i];
    Eigen::Vector3d inertia;  // principal moments about the centre, body axes
    if (const auto* box = std::get_if<geometry::Box>(&body.shape)) {
      const Eigen::Vector3d s2 = (2 * box->half_extents).cwiseAbs2();
      inertia = body.mass / 12 * Eigen::Vector3d(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y());
    } else {
      const double r = std::get<geometry::Sphere>(body.shape).radius;
      inertia.setConstant(0.4 * body.mass * r * r);
    }
    const Eigen::Vector3d w_body = frame.orientation[i].inverse() * frame.angular_velocity[i];
    energy += 0.5 * body.mass * frame.velocity[i].squaredNorm() +
              0.5 * w_body.dot(inertia.cwiseProduct(w_body)) -
              body.mass * scene.gravity.dot(frame.position[i]);
  }
  return energy;
}

double MaxJointGap(const PeerScene& scene, const PeerFrame& frame) {
  // Each hinge's anchor in the child's (and parent's) initial body frame, carried forward.
  double gap = 0;
  for (const PeerHinge& h : scene.hinges) {
    const PeerBody& child = scene.bodies[h.child];
    const Eigen::Vector3d in_child = child.orientation.inverse() * (h.anchor - child.position);
    const Eigen::Vector3d by_child =
        frame.position[h.child] + frame.orientation[h.child] * in_child;
    Eigen::Vector3d by_parent = h.anchor;
    if (h.parent >= 0) {
      const PeerBody& parent = scene.bodies[h.parent];
      const Eigen::Vector3d in_parent = parent.orientation.inverse() * (h.anchor - parent.position);
      by_parent = frame.position[h.parent] + frame.orientation[h.parent] * in_parent;
    }
    gap = std::max(gap, (by_child - by_parent).norm());
  }
  return gap;
}

PeerMeasures MeasureRun(const PeerScene& scene, const std::vector<PeerFrame>& frames) {
  PeerMeasures m;
  m.figure_name = FigureName(scene.figure);
  if (frames.empty()) return m;
  bool finite = true;
  const double initial_energy = FrameEnergy(scene, frames.front());
  for (const PeerFrame& frame : frames) {
    m.max_penetration = std::max(m.max_penetration, MaxPenetration(scene, frame));
    m.max_energy_gain = std::max(m.max_energy_gain, FrameEnergy(scene, frame) - initial_energy);
    for (const Eigen::Vector3d& p : frame.position) finite = finite && p.allFinite();
  }
  m.figure = finite ? Figure(scene, frames) : NAN;
  m.passed = finite && m.figure <= scene.tolerance;
  return m;
}

}  // namespace coulomb::peers
