#pragma once
// One contact point of a shape pair, as every narrow-phase routine reports it (narrow_phase.h
// gives the conventions: normal from B into A, φ the signed distance along it).

#include <Eigen/Dense>

#include "coulomb/math/spatial.h"

namespace coulomb::geometry {

using math::Transform;

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

}  // namespace coulomb::geometry
