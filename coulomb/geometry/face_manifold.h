#pragma once
// The contact manifold of two flat faces pressed together: the incident face clipped by the
// side planes of the reference face (Sutherland–Hodgman), each remaining corner a contact point
// with its depth below the reference face. Box–box, mesh–mesh and mesh–triangle contacts share
// it, so everything that rests on a face rests on its corners.

#include <Eigen/Dense>
#include <array>
#include <span>
#include <vector>

#include "coulomb/base/small_vector.h"
#include "coulomb/geometry/contact_point.h"
#include "coulomb/geometry/shape.h"

namespace coulomb::geometry {

// A face or a clipped polygon: a box face (4 corners) clipped by another's 4 side planes keeps at
// most 8 corners, and at most 16 while corners on a side plane are still doubled (coincident edges
// of equal boxes stacked exactly, removed after clipping), so box contacts stay off the heap.
using Polygon = SmallVector<Eigen::Vector3d, 16>;

struct Face {
  Polygon corners;         // world, in order around the face (either direction)
  Eigen::Vector3d normal;  // world, outward unit normal
};

// Indices of the points a patch keeps (ReducePatch).
using PatchIndices = SmallVector<std::size_t, 8>;

// A face of a fine mesh (the hull of a disc has a 100-gon) would give one contact per corner:
// more rows than the contact problem needs and a burden for pivoting solvers. At most
// `max_points` are kept: the deepest along −normal, then each time the one farthest from those
// kept, which spans the patch (what support needs) deterministically. Clipped faces and clouds
// of mesh vertices on a plane keep 4 (a yawed box on a box: four of its octagon's corners).
// Returns the indices of the points kept, in the order chosen.
PatchIndices ReducePatch(std::span<const Eigen::Vector3d> points, const Eigen::Vector3d& normal,
                         std::size_t max_points);

// `reference` belongs to B when `reference_is_b`, else to A; `incident` to the other body.
// Appends a contact per clipped corner within `margin` of the reference plane (at most 4, see
// ReducePatch), normal from B into A, features feature_base, feature_base + 1, … in the order of
// their nearest incident corner; returns how many.
// `skip_edge[i]`, when given, leaves out the side plane of reference edge i (corner i to i + 1):
// a triangle does not clip at a seam with a coplanar neighbour, so a box resting across the seam
// touches at its own corners only, not at extra points along the seam.
int ClipFaces(const Face& reference, const Face& incident, bool reference_is_b, double margin,
              int feature_base, std::vector<ContactPoint>& out,
              const std::array<bool, 3>* skip_edge = nullptr);

}  // namespace coulomb::geometry
