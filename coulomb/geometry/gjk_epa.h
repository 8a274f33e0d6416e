#pragma once
// Signed distance between two convex solids given by support functions: GJK (Gilbert–Johnson–
// Keerthi) for separated shapes, EPA (the expanding polytope of van den Bergen) for overlapping
// ones, both on the Minkowski difference A − B.
//
// Why our own and not FCL's: FCL 0.7 as packaged aborts the process on an internal assertion in
// its libccd EPA when two faces rest flat on each other (a cylinder lying on a box), which is
// the most common configuration in a simulation, and its independent solver returns a wrong
// normal for the same pair. These ~250 lines give the witness points to 1e-12 m, report
// failure as a value, and never abort.

#include <Eigen/Dense>
#include <functional>
#include <optional>

namespace coulomb::geometry {

// The point of a convex set farthest along a direction (world frame; the direction need not be
// unit length).
using SupportFunction = std::function<Eigen::Vector3d(const Eigen::Vector3d& direction)>;

struct ConvexDistance {
  double phi = 0;                                     // signed distance, m (< 0: overlap)
  Eigen::Vector3d on_a = Eigen::Vector3d::Zero();     // witness on A (deepest in B if overlap)
  Eigen::Vector3d on_b = Eigen::Vector3d::Zero();     // witness on B
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // unit, from B into A
  int iterations = 0;                                 // GJK plus EPA
};

// `guess` is a rough direction from B to A (the centres' offset). Empty only when the
// iteration produced no finite answer (non-finite input).
std::optional<ConvexDistance> SignedDistance(const SupportFunction& a, const SupportFunction& b,
                                             const Eigen::Vector3d& guess);

}  // namespace coulomb::geometry
