#pragma once
// Building blocks for paper-1 problems from geometry: rigid boxes and rods with their mass
// properties, and contacts placed at their corners or ends. Used by the random study generator,
// the rod (Painlevé) analysis and the tests.

#include <Eigen/Dense>

#include "apps/coulomb/trinkle/trinkle_problem.h"

namespace coulomb::trinkle {

// A solid box (half extents h, density ρ) at `com`, rotated by R (world ← body), at rest,
// under gravity g (world vector, m/s²).
TrinkleObject MakeBox(const Eigen::Vector3d& half_extents, double density,
                      const Eigen::Vector3d& com, const Eigen::Matrix3d& rotation,
                      const Eigen::Vector3d& gravity);

// A thin uniform rod of mass m and half-length l whose axis is `axis` (unit); its axial inertia
// is set to 1e-6 m l² so the inertia stays positive definite without affecting bending motion.
TrinkleObject MakeRod(double mass, double half_length, const Eigen::Vector3d& com,
                      const Eigen::Vector3d& axis, const Eigen::Vector3d& gravity);

// A right-handed contact frame (n, t) with t the projection of `hint` on the tangent plane (or
// any tangent when `hint` is parallel to n).
Eigen::Vector3d TangentFor(const Eigen::Vector3d& normal, const Eigen::Vector3d& hint);

// The four corners of the box face whose outward normal is most opposite to `plane_normal`,
// each as a contact of object `object` (body A) with the ground (body B), normal `plane_normal`.
std::vector<TrinkleContact> BoxOnPlaneContacts(const TrinkleObject& box, int object,
                                               const Eigen::Vector3d& half_extents,
                                               const Eigen::Matrix3d& rotation,
                                               const Eigen::Vector3d& plane_normal, double mu);

}  // namespace coulomb::trinkle
