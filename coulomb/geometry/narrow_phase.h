#pragma once
// Narrow phase: contact points between two posed shapes, with analytic routines that give
// manifolds (a box on a half-space touches at its four corners, so stacks rest on four points).
//
// Conventions (docs/DESIGN.md): for the pair (A, B) the normal n points from B into A; φ is the
// signed distance along n (negative: penetration); the point is midway between the two witness
// points. Points are reported when φ ≤ margin.

#include <vector>

#include "coulomb/geometry/contact_point.h"
#include "coulomb/geometry/shape.h"

namespace coulomb::geometry {

// Appends the contacts of (A, B) with φ ≤ margin to `out`; returns how many. Analytic routines
// where they exist, else the general convex routine (convex_pair.h). Pairs no routine handles
// (two triangle meshes, a triangle mesh and a half-space: static geometry) return −1.
int Collide(const Shape& a, const Transform& X_WA, const Shape& b, const Transform& X_WB,
            double margin, std::vector<ContactPoint>& out);

}  // namespace coulomb::geometry
