#pragma once
// Narrow phase: contact points between two posed shapes, with analytic routines that give
// manifolds (a box on a half-space touches at its four corners, so stacks rest on four points).
//
// Conventions (DESIGN.md): for the pair (A, B) the normal n points from B into A; φ is the
// signed distance along n (negative: penetration); the point is midway between the two witness
// points. Points are reported when φ ≤ margin.

#include <Eigen/Dense>
#include <vector>

#include "coulomb/geometry/shape.h"
#include "coulomb/multibody/spatial.h"

namespace coulomb::geometry {

using multibody::Transform;

struct ContactPoint {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();      // world, midway between the witnesses
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();    // world, from B into A
  double phi = 0;                                       // signed distance, m
  Eigen::Vector3d witness_a = Eigen::Vector3d::Zero();  // on A's surface
  Eigen::Vector3d witness_b = Eigen::Vector3d::Zero();  // on B's surface
  // Which feature of the pair produced the point (a box corner, a capsule end, …), stable while
  // the configuration changes little: with the geometry pair it identifies a contact across steps.
  int feature = 0;
};

// Appends the contacts of (A, B) with φ ≤ margin to `out`; returns how many. Analytic routines
// where they exist, else the general convex routine (convex_pair.h). Pairs no routine handles
// (two triangle meshes, a triangle mesh and a half-space: static geometry) return −1.
int Collide(const Shape& a, const Transform& X_WA, const Shape& b, const Transform& X_WB,
            double margin, std::vector<ContactPoint>& out);

}  // namespace coulomb::geometry
