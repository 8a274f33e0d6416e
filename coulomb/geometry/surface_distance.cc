#include "coulomb/geometry/surface_distance.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace coulomb::geometry {
namespace {

std::int64_t EdgeKey(int i, int j) {
  if (i > j) std::swap(i, j);
  return (static_cast<std::int64_t>(i) << 32) | static_cast<std::uint32_t>(j);
}

double AngleAt(const Eigen::Vector3d& p, const Eigen::Vector3d& q, const Eigen::Vector3d& r) {
  const Eigen::Vector3d u = (q - p).normalized(), w = (r - p).normalized();
  return std::acos(std::clamp(u.dot(w), -1.0, 1.0));
}

}  // namespace

Eigen::Vector3d ClosestPointWeights(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                    const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return {1, 0, 0};
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return {0, 1, 0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double t = d1 / (d1 - d3);
    return {1 - t, t, 0};
  }
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return {0, 0, 1};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double t = d2 / (d2 - d6);
    return {1 - t, 0, t};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - t, t};
  }
  const double denom = 1 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  return {1 - v - w, v, w};
}

SurfaceDistance::SurfaceDistance(const Eigen::Matrix3Xd& x, std::vector<Eigen::Vector3i> faces,
                                 double cell)
    : x_(x), faces_(std::move(faces)), cell_(cell) {
  vertex_normals_.assign(static_cast<std::size_t>(x.cols()), Eigen::Vector3d::Zero());
  face_normals_.reserve(faces_.size());
  for (std::size_t f = 0; f < faces_.size(); ++f) {
    const Eigen::Vector3i& t = faces_[f];
    const Eigen::Vector3d a = x.col(t[0]), b = x.col(t[1]), c = x.col(t[2]);
    const Eigen::Vector3d n = (b - a).cross(c - a).normalized();
    face_normals_.push_back(n);
    vertex_normals_[t[0]] += AngleAt(a, b, c) * n;
    vertex_normals_[t[1]] += AngleAt(b, c, a) * n;
    vertex_normals_[t[2]] += AngleAt(c, a, b) * n;
    for (int k = 0; k < 3; ++k) {
      // try_emplace with an explicit zero: a default Eigen vector is uninitialized.
      edge_normals_.try_emplace(EdgeKey(t[k], t[(k + 1) % 3]), Eigen::Vector3d::Zero())
          .first->second += n;
    }
    Eigen::Vector3d lo = a.cwiseMin(b).cwiseMin(c), hi = a.cwiseMax(b).cwiseMax(c);
    const Eigen::Vector3i c0 = CellOf(lo), c1 = CellOf(hi);
    for (int i = c0.x(); i <= c1.x(); ++i) {
      for (int j = c0.y(); j <= c1.y(); ++j) {
        for (int k = c0.z(); k <= c1.z(); ++k) {
          grid_[Key({i, j, k})].push_back(static_cast<int>(f));
        }
      }
    }
  }
}

std::int64_t SurfaceDistance::Key(const Eigen::Vector3i& c) const {
  // 21 bits per axis (±1 M cells) is far beyond any mesh this grid serves.
  constexpr std::int64_t kMask = (1 << 21) - 1;
  return ((c.x() & kMask) << 42) | ((c.y() & kMask) << 21) | (c.z() & kMask);
}

Eigen::Vector3i SurfaceDistance::CellOf(const Eigen::Vector3d& p) const {
  return (p / cell_).array().floor().cast<int>();
}

Eigen::Vector3d SurfaceDistance::PseudoNormal(int face, const Eigen::Vector3d& w) const {
  const Eigen::Vector3i& t = faces_[face];
  constexpr double kOn = 1e-12;  // a weight this small puts the point on the opposite feature
  int zeros = 0, free_vertex = -1;
  for (int k = 0; k < 3; ++k) {
    if (w[k] <= kOn) {
      ++zeros;
    } else {
      free_vertex = k;
    }
  }
  if (zeros == 2) return vertex_normals_[t[free_vertex]];
  if (zeros == 1) {
    for (int k = 0; k < 3; ++k) {
      if (w[k] <= kOn) {
        return edge_normals_.at(EdgeKey(t[(k + 1) % 3], t[(k + 2) % 3]));
      }
    }
  }
  return face_normals_[face];
}

std::optional<SurfaceHit> SurfaceDistance::Query(const Eigen::Vector3d& p, double radius) const {
  const Eigen::Vector3i c0 = CellOf(p.array() - radius), c1 = CellOf(p.array() + radius);
  double best = radius * radius;
  std::optional<SurfaceHit> hit;
  for (int i = c0.x(); i <= c1.x(); ++i) {
    for (int j = c0.y(); j <= c1.y(); ++j) {
      for (int k = c0.z(); k <= c1.z(); ++k) {
        const auto found = grid_.find(Key({i, j, k}));
        if (found == grid_.end()) continue;
        for (const int f : found->second) {
          const Eigen::Vector3i& t = faces_[f];
          const Eigen::Vector3d w =
              ClosestPointWeights(p, x_.col(t[0]), x_.col(t[1]), x_.col(t[2]));
          const Eigen::Vector3d q = w[0] * x_.col(t[0]) + w[1] * x_.col(t[1]) + w[2] * x_.col(t[2]);
          const double d2 = (p - q).squaredNorm();
          if (d2 > best) continue;
          best = d2;
          hit = SurfaceHit{0, q, Eigen::Vector3d::Zero(), f, w};
        }
      }
    }
  }
  if (!hit) return hit;
  const Eigen::Vector3d pseudo = PseudoNormal(hit->face, hit->weights);
  const Eigen::Vector3d d = p - hit->closest;
  const double sign = d.dot(pseudo) >= 0 ? 1.0 : -1.0;
  hit->phi = sign * d.norm();
  // The contact normal: along p − closest when they are apart (exact direction of the nearest
  // point), the pseudo-normal when p lies on the surface.
  hit->normal = d.norm() > 1e-12 ? Eigen::Vector3d(sign * d.normalized()) : pseudo.normalized();
  return hit;
}

}  // namespace coulomb::geometry
