#pragma once
// Box–box contact by the separating axis test and face clipping (Gottschalk's 15 axes; the
// clipping of Box2D/ODE's dBoxBox, re-derived here): a box resting on another box gets up to
// eight points of its face polygon, so stacks stand on their corners instead of rocking on one.

#include <vector>

#include "coulomb/geometry/contact_point.h"
#include "coulomb/geometry/face_manifold.h"
#include "coulomb/geometry/shape.h"

namespace coulomb::geometry {

// Appends contacts with φ ≤ margin (normal from B into A); returns how many.
int CollideBoxes(const Box& a, const Transform& X_WA, const Box& b, const Transform& X_WB,
                 double margin, std::vector<ContactPoint>& out);

// The face of `box` (posed at X) whose outward normal is closest to `direction`.
Face BoxFace(const Box& box, const Transform& X, const Eigen::Vector3d& direction);

}  // namespace coulomb::geometry
