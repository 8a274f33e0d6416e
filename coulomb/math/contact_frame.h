#pragma once
// The contact frame (n, t, o) of a unit normal, the one every layer uses (docs/DESIGN.md,
// Conventions): normal first, t a unit tangent chosen deterministically from n, o = n × t.
// Solvers, impulses and certificates all store contact vectors in this order.

#include <Eigen/Core>

namespace coulomb::math {

// A unit tangent of the unit normal n: the world x axis (or y, when n is within 26° of x)
// projected onto the plane ⟂ n. Continuous in n away from that switch, so a resting contact
// keeps its tangents from step to step (warm starts of the friction impulses stay valid).
Eigen::Vector3d ContactTangent(const Eigen::Vector3d& n);

// Columns (n, t, o) with t = ContactTangent(n) and o = n × t: a rotation when n is a unit vector.
Eigen::Matrix3d ContactFrame(const Eigen::Vector3d& n);

}  // namespace coulomb::math
