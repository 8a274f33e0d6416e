#pragma once
// The output of collision detection for one step (docs/DESIGN.md step 1): contact points between
// bodies of a model, consumed by contact::BuildContactProblem.

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace coulomb::geometry {

struct Contact {
  int body_a = 0;                                     // the normal points into A
  int body_b = -1;                                    // −1: the world (ground, static geometry)
  Eigen::Vector3d point = Eigen::Vector3d::Zero();    // world, m
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // world, unit, from B into A
  double phi = 0;                                     // signed distance, m (negative: penetration)
  double mu = 0.5;  // combined friction coefficient (see CombineFriction)
  double restitution = 0;
  double compliance = 0;  // m/N, the sum of the two materials' (0: rigid)
  std::uint64_t id = 0;   // persistent identity across steps (for warm starts), 0 if unknown
  int geometry_a = -1, geometry_b = -1;  // indices in the CollisionWorld, −1 if not from one
};

struct ContactSet {
  std::vector<Contact> contacts;
};

// The friction of a pair of materials: the harmonic mean 2 μ_a μ_b / (μ_a + μ_b) (Drake's rule),
// so the less frictional surface dominates and a frictionless one stays frictionless.
double CombineFriction(double mu_a, double mu_b);

}  // namespace coulomb::geometry
