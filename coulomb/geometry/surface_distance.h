#pragma once
// Signed distance from points to a closed, outward-oriented triangle surface — a deformable
// body's boundary at its current vertex positions — for deformable–deformable contact (
// docs/notes/sap-and-deformables.md §2.4: the other body's vertices against this surface, Jacobian
// weights on the nearest triangle). Nearest triangles come from a uniform grid of the faces' boxes;
// the sign from the angle-weighted pseudo-normal of the nearest feature (Bærentzen & Aanæs 2005),
// which is exact for closed surfaces, unlike the face normal at edges and corners.

#include <Eigen/Dense>
#include <optional>
#include <unordered_map>
#include <vector>

namespace coulomb::geometry {

struct SurfaceHit {
  double phi = 0;                                     // m, negative inside
  Eigen::Vector3d closest = Eigen::Vector3d::Zero();  // nearest surface point
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();  // outward unit normal for the contact
  int face = -1;                                      // nearest triangle
  Eigen::Vector3d weights = Eigen::Vector3d::Zero();  // barycentric weights of `closest`
};

// The nearest point of triangle (a, b, c) to p, as barycentric weights (Ericson, Real-Time
// Collision Detection §5.1.5).
Eigen::Vector3d ClosestPointWeights(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                    const Eigen::Vector3d& b, const Eigen::Vector3d& c);

class SurfaceDistance {
 public:
  // `x`: vertex positions (3 × n); `faces`: outward triangles. `cell`: grid spacing, m (about
  // one edge length).
  SurfaceDistance(const Eigen::Matrix3Xd& x, std::vector<Eigen::Vector3i> faces, double cell);

  // The nearest surface point within `radius` of p, or none. Points deeper than `radius` inside
  // are not found: callers pick a radius of an element or two, deeper overlap is a failure.
  std::optional<SurfaceHit> Query(const Eigen::Vector3d& p, double radius) const;

 private:
  std::int64_t Key(const Eigen::Vector3i& cell) const;
  Eigen::Vector3i CellOf(const Eigen::Vector3d& p) const;
  Eigen::Vector3d PseudoNormal(int face, const Eigen::Vector3d& weights) const;

  const Eigen::Matrix3Xd& x_;
  std::vector<Eigen::Vector3i> faces_;
  double cell_;
  std::vector<Eigen::Vector3d> face_normals_, vertex_normals_;
  std::unordered_map<std::int64_t, Eigen::Vector3d> edge_normals_;  // by vertex pair key
  std::unordered_map<std::int64_t, std::vector<int>> grid_;
};

}  // namespace coulomb::geometry
