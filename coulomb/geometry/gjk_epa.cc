#include "coulomb/geometry/gjk_epa.h"

#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace coulomb::geometry {
namespace {

constexpr double kTolerance = 1e-12;  // m: witness accuracy
constexpr int kMaxGjkIterations = 128;
constexpr int kMaxEpaIterations = 128;

struct Vertex {
  Eigen::Vector3d w, a, b;  // w = a − b, a point of the Minkowski difference
};

Vertex Support(const SupportFunction& a, const SupportFunction& b, const Eigen::Vector3d& d) {
  Vertex v;
  v.a = a(d);
  v.b = b(-d);
  v.w = v.a - v.b;
  return v;
}

struct Closest {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  std::array<double, 4> lambda{};
  int mask = 0;
};

// Weights λ (Σ λ = 1) of the origin's projection onto the affine hull of k points, in closed
// form (Cramer's rule on the k − 1 edge vectors). False when the points are affinely dependent.
bool AffineWeights(const std::array<const Eigen::Vector3d*, 4>& p, int k,
                   std::array<double, 4>& lambda) {
  const Eigen::Vector3d& p0 = *p[0];
  lambda = {1, 0, 0, 0};
  if (k == 1) return true;
  const Eigen::Vector3d e1 = *p[1] - p0;
  if (k == 2) {
    const double g = e1.squaredNorm();
    if (!(g > 0)) return false;
    lambda[1] = -e1.dot(p0) / g;
    lambda[0] = 1 - lambda[1];
    return true;
  }
  const Eigen::Vector3d e2 = *p[2] - p0;
  if (k == 3) {
    const double g11 = e1.squaredNorm(), g12 = e1.dot(e2), g22 = e2.squaredNorm();
    const double det = g11 * g22 - g12 * g12;
    if (!(det > 1e-20 * g11 * g22)) return false;
    const double r1 = -e1.dot(p0), r2 = -e2.dot(p0);
    lambda[1] = (g22 * r1 - g12 * r2) / det;
    lambda[2] = (g11 * r2 - g12 * r1) / det;
    lambda[0] = 1 - lambda[1] - lambda[2];
    return true;
  }
  const Eigen::Vector3d e3 = *p[3] - p0;
  const double det = e1.dot(e2.cross(e3));
  if (!(std::abs(det) > 1e-10 * e1.norm() * e2.norm() * e3.norm())) return false;
  const Eigen::Vector3d r = -p0;
  lambda[1] = r.dot(e2.cross(e3)) / det;
  lambda[2] = e1.dot(r.cross(e3)) / det;
  lambda[3] = e1.dot(e2.cross(r)) / det;
  lambda[0] = 1 - lambda[1] - lambda[2] - lambda[3];
  return true;
}

// The point of the simplex's hull closest to the origin. It lies in the relative interior of one
// face, where it is the affine projection of the origin with non-negative weights, so the valid
// projection of least norm over the (at most 15) faces is the answer. Brute force, but exact
// and free of the case analysis where hand-written GJK sub-algorithms usually break.
Closest ClosestToOrigin(const std::array<Vertex, 4>& s, int n) {
  Closest best;
  double best_norm = std::numeric_limits<double>::infinity();
  for (int mask = 1; mask < (1 << n); ++mask) {
    std::array<int, 4> idx{};
    std::array<const Eigen::Vector3d*, 4> points{};
    int k = 0;
    for (int i = 0; i < n; ++i) {
      if (mask & (1 << i)) {
        idx[k] = i;
        points[k++] = &s[i].w;
      }
    }
    std::array<double, 4> lambda{};
    if (!AffineWeights(points, k, lambda)) continue;  // degenerate face
    bool valid = true;
    for (int j = 0; j < k; ++j) valid = valid && lambda[j] >= 0;
    if (!valid) continue;
    Eigen::Vector3d point = Eigen::Vector3d::Zero();
    for (int j = 0; j < k; ++j) point += lambda[j] * s[idx[j]].w;
    if (point.norm() < best_norm) {
      best_norm = point.norm();
      best.point = point;
      best.mask = mask;
      best.lambda = {};
      for (int j = 0; j < k; ++j) best.lambda[idx[j]] = lambda[j];
    }
  }
  return best;
}

// Keeps the vertices the closest point uses (with their weights).
int Reduce(std::array<Vertex, 4>& s, int n, Closest& c) {
  int m = 0;
  std::array<double, 4> lambda{};
  for (int i = 0; i < n; ++i) {
    if (c.mask & (1 << i)) {
      lambda[m] = c.lambda[i];
      s[m++] = s[i];
    }
  }
  c.lambda = lambda;
  return m;
}

struct EpaFace {
  std::array<int, 3> v;
  Eigen::Vector3d normal;
  double distance;
};

std::optional<EpaFace> MakeFace(const std::vector<Vertex>& vertices, int i, int j, int k,
                                const Eigen::Vector3d& inside) {
  const Eigen::Vector3d& a = vertices[i].w;
  Eigen::Vector3d n = (vertices[j].w - a).cross(vertices[k].w - a);
  if (n.norm() <= 1e-300) return std::nullopt;
  n.normalize();
  EpaFace f{{i, j, k}, n, n.dot(a)};
  if (n.dot(a - inside) < 0) {  // keep normals outward, winding to match
    f.v = {i, k, j};
    f.normal = -n;
    f.distance = -f.distance;
  }
  return f;
}

// Grows GJK's final simplex (which holds the origin, perhaps on its boundary) to a tetrahedron.
bool BlowUp(const SupportFunction& a, const SupportFunction& b, std::vector<Vertex>& s) {
  const auto add_if_new = [&](const Vertex& v, double min_gap) {
    for (const Vertex& u : s) {
      if ((u.w - v.w).norm() <= min_gap) return false;
    }
    s.push_back(v);
    return true;
  };
  const std::array<Eigen::Vector3d, 6> axes = {
      Eigen::Vector3d::UnitX(),  Eigen::Vector3d::UnitY(),  Eigen::Vector3d::UnitZ(),
      -Eigen::Vector3d::UnitX(), -Eigen::Vector3d::UnitY(), -Eigen::Vector3d::UnitZ()};
  for (std::size_t i = 0; s.size() == 1 && i < axes.size(); ++i) {
    add_if_new(Support(a, b, axes[i]), kTolerance);
  }
  if (s.size() == 2) {
    const Eigen::Vector3d edge = (s[1].w - s[0].w).normalized();
    Eigen::Vector3d d = edge.unitOrthogonal();
    for (int turn = 0; turn < 6 && s.size() == 2; ++turn) {
      const Vertex v = Support(a, b, d);
      if ((v.w - s[0].w).cross(edge).norm() > kTolerance) s.push_back(v);
      d = Eigen::AngleAxisd(M_PI / 3, edge) * d;
    }
  }
  if (s.size() == 3) {
    const Eigen::Vector3d n = (s[1].w - s[0].w).cross(s[2].w - s[0].w).normalized();
    for (const double sign : {1.0, -1.0}) {
      const Vertex v = Support(a, b, sign * n);
      if (s.size() == 3 && std::abs(n.dot(v.w - s[0].w)) > kTolerance) s.push_back(v);
    }
  }
  return s.size() == 4;
}

// Penetration depth: the face of the Minkowski difference nearest the origin.
std::optional<ConvexDistance> Epa(const SupportFunction& a, const SupportFunction& b,
                                  std::vector<Vertex> vertices, int iterations) {
  if (!BlowUp(a, b, vertices)) return std::nullopt;
  const Eigen::Vector3d inside =
      0.25 * (vertices[0].w + vertices[1].w + vertices[2].w + vertices[3].w);
  std::vector<EpaFace> faces;
  for (const auto& [i, j, k] : {std::array<int, 3>{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}) {
    if (auto f = MakeFace(vertices, i, j, k, inside)) faces.push_back(*f);
  }
  if (faces.size() != 4) return std::nullopt;
  std::size_t nearest = 0;
  for (int it = 0; it < kMaxEpaIterations; ++it, ++iterations) {
    nearest = 0;
    for (std::size_t f = 1; f < faces.size(); ++f) {
      if (faces[f].distance < faces[nearest].distance) nearest = f;
    }
    const EpaFace face = faces[nearest];
    const Vertex v = Support(a, b, face.normal);
    if (face.normal.dot(v.w) - face.distance <= kTolerance) break;
    const int index = static_cast<int>(vertices.size());
    vertices.push_back(v);
    // Remove every face the new vertex sees; the edges they do not share form the horizon.
    std::vector<std::pair<int, int>> edges;
    std::vector<EpaFace> kept;
    for (const EpaFace& f : faces) {
      if (f.normal.dot(v.w - vertices[f.v[0]].w) > 0) {
        for (int e = 0; e < 3; ++e) edges.emplace_back(f.v[e], f.v[(e + 1) % 3]);
      } else {
        kept.push_back(f);
      }
    }
    for (const auto& [i, j] : edges) {
      bool shared = false;
      for (const auto& [p, q] : edges) shared = shared || (p == j && q == i);
      if (shared) continue;
      if (auto f = MakeFace(vertices, i, j, index, inside)) kept.push_back(*f);
    }
    if (kept.size() < 4) break;  // numerically flat: keep the last good face
    faces = std::move(kept);
  }
  const EpaFace& f = faces[std::min(nearest, faces.size() - 1)];
  // Barycentric coordinates of the origin's projection d·n in the face.
  const Eigen::Vector3d p = f.distance * f.normal;
  const Eigen::Vector3d &w0 = vertices[f.v[0]].w, &w1 = vertices[f.v[1]].w,
                        &w2 = vertices[f.v[2]].w;
  const Eigen::Vector3d e0 = w1 - w0, e1 = w2 - w0, e2 = p - w0;
  const double d00 = e0.dot(e0), d01 = e0.dot(e1), d11 = e1.dot(e1), d20 = e2.dot(e0),
               d21 = e2.dot(e1), denom = d00 * d11 - d01 * d01;
  const double l1 = denom > 0 ? (d11 * d20 - d01 * d21) / denom : 0;
  const double l2 = denom > 0 ? (d00 * d21 - d01 * d20) / denom : 0;
  const double l0 = 1 - l1 - l2;
  ConvexDistance out;
  out.on_a = l0 * vertices[f.v[0]].a + l1 * vertices[f.v[1]].a + l2 * vertices[f.v[2]].a;
  out.on_b = l0 * vertices[f.v[0]].b + l1 * vertices[f.v[1]].b + l2 * vertices[f.v[2]].b;
  out.phi = -f.distance;
  out.normal = -f.normal;
  out.iterations = iterations;
  return out;
}

}  // namespace

std::optional<ConvexDistance> SignedDistance(const SupportFunction& a, const SupportFunction& b,
                                             const Eigen::Vector3d& guess) {
  const Eigen::Vector3d start = guess.norm() > 1e-12 ? guess : Eigen::Vector3d::UnitX();
  std::array<Vertex, 4> simplex;
  simplex[0] = Support(a, b, -start);
  int n = 1;
  Closest c;
  c.point = simplex[0].w;
  c.lambda = {1, 0, 0, 0};
  int it = 0;
  bool overlap = false;
  for (; it < kMaxGjkIterations; ++it) {
    const Eigen::Vector3d v = c.point;
    if (!v.allFinite()) return std::nullopt;
    if (v.norm() <= kTolerance || n == 4) {
      overlap = true;
      break;
    }
    const Vertex w = Support(a, b, -v);
    if (v.squaredNorm() - v.dot(w.w) <= kTolerance * v.norm()) break;  // no further progress
    bool repeated = false;
    for (int i = 0; i < n; ++i) repeated = repeated || (simplex[i].w - w.w).norm() <= 1e-15;
    if (repeated) break;
    simplex[n++] = w;
    c = ClosestToOrigin(simplex, n);
    n = Reduce(simplex, n, c);
  }
  if (overlap) {
    return Epa(a, b, std::vector<Vertex>(simplex.begin(), simplex.begin() + n), it);
  }
  ConvexDistance out;
  for (int i = 0; i < n; ++i) {
    out.on_a += c.lambda[i] * simplex[i].a;
    out.on_b += c.lambda[i] * simplex[i].b;
  }
  out.phi = c.point.norm();
  out.normal = c.point / out.phi;
  out.iterations = it;
  return out;
}

}  // namespace coulomb::geometry
