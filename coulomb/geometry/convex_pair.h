#pragma once
// The general narrow phase, for the pairs the analytic routines do not cover: convex meshes
// against anything convex, cylinders against boxes, spheres, capsules and each other, and every
// such shape against a static triangle mesh.
//
// GJK/EPA (gjk_epa.h) gives the signed distance and the two witness points, hence the normal. When
// both shapes are polytopes (boxes, convex meshes, triangles) and the normal is within kFaceAngle
// of a face normal, the faces facing each other are clipped (face_manifold), so a mesh at rest
// stands on all its corners; otherwise the pair touches at the one point GJK found, which is exact
// for curved shapes.

#include <vector>

#include "coulomb/geometry/contact_point.h"
#include "coulomb/geometry/shape.h"
#include "coulomb/geometry/triangle_mesh.h"

namespace coulomb::geometry {

// True for the shapes with a support function (all but the half-space and the triangle mesh).
bool IsConvexSolid(const Shape& shape);

// Both shapes convex solids. Appends contacts with φ ≤ margin; returns how many.
int CollideConvex(const Shape& a, const Transform& X_WA, const Shape& b, const Transform& X_WB,
                  double margin, std::vector<ContactPoint>& out);

// A convex solid (A) against a static triangle mesh (B), triangle by triangle. Near a flat or
// concave edge, or inside a triangle, the normal is the triangle's (see triangle_mesh.h).
int CollideTriangleMesh(const Shape& a, const Transform& X_WA, const TriangleMesh& b,
                        const Transform& X_WB, double margin, std::vector<ContactPoint>& out);

}  // namespace coulomb::geometry
