#pragma once
// Closest points between segments and points: the core of every "round" shape pair (spheres are
// points, capsules are segments, both inflated by their radius).

#include <Eigen/Dense>
#include <algorithm>

namespace coulomb::geometry {

// Closest point to x on the segment p + s d, s ∈ [0, 1].
inline Eigen::Vector3d ClosestOnSegment(const Eigen::Vector3d& p, const Eigen::Vector3d& d,
                                        const Eigen::Vector3d& x) {
  const double dd = d.squaredNorm();
  const double s = dd > 0 ? std::clamp(d.dot(x - p) / dd, 0.0, 1.0) : 0.0;
  return p + s * d;
}

// Closest points of the segments p + s d1 and q + t d2, s, t ∈ [0, 1] (Ericson, §5.1.9).
inline void ClosestOnSegments(const Eigen::Vector3d& p, const Eigen::Vector3d& d1,
                              const Eigen::Vector3d& q, const Eigen::Vector3d& d2,
                              Eigen::Vector3d& on1, Eigen::Vector3d& on2) {
  const Eigen::Vector3d r = p - q;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0, t = 0;
  if (a <= 1e-300 && e <= 1e-300) {
    // both degenerate: two points
  } else if (a <= 1e-300) {
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= 1e-300) {
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), denom = a * e - b * b;
      s = denom > 1e-15 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  on1 = p + s * d1;
  on2 = q + t * d2;
}

}  // namespace coulomb::geometry
