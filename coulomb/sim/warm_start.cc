#include "coulomb/sim/warm_start.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "coulomb/math/contact_frame.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb::sim {
namespace {

// 20 bits per geometry and 24 for the feature (geometry/collision_world.cc).
constexpr int kFeatureBits = 24;

std::uint64_t PairOf(const geometry::Contact& c) {
  return c.id >> kFeatureBits;
}

// Geometry pairs take at most 40 bits (two 20-bit geometry numbers): bit 63 marks a limit.
std::uint64_t LimitKey(const contact::LimitContact& c) {
  return (std::uint64_t{1} << 63) | (static_cast<std::uint64_t>(c.dof) << 1) |
         (c.side > 0 ? 1U : 0U);
}

// A deformable contact's key: bits 63 and 62; the body (10 bits), whether its point is a surface
// triangle, the triangle or vertex (24 bits), whether the other side is a deformable body, and
// that body or the rigid geometry (20 bits). 0 when an index does not fit (no warm start).
std::uint64_t DeformableKey(const contact::DeformableContact& c) {
  const int point = c.triangle >= 0 ? c.triangle : c.vertices[0];
  const int other = c.other >= 0 ? c.other : c.geometry;
  if (c.deformable < 0 || c.deformable >= (1 << 10) || point < 0 || point >= (1 << 24) ||
      other < 0 || other >= (1 << 20)) {
    return 0;
  }
  return (std::uint64_t{3} << 62) | (static_cast<std::uint64_t>(c.deformable) << 46) |
         (static_cast<std::uint64_t>(c.triangle >= 0) << 45) |
         (static_cast<std::uint64_t>(point) << 21) |
         (static_cast<std::uint64_t>(c.other >= 0) << 20) | static_cast<std::uint64_t>(other);
}

// Rᵀ (p − X.p): half the flops of forming the inverse transform first. (Only matching reads it:
// both ends of the match compute it the same way.)
Eigen::Vector3d PointInA(const geometry::Contact& c, const std::vector<math::Transform>& X_world) {
  if (c.body_a < 0) return c.point;
  const math::Transform& X = X_world[c.body_a];
  return X.R.transpose() * (c.point - X.p);
}

}  // namespace

void RememberContacts(const geometry::ContactSet& contacts,
                      const std::vector<Eigen::Matrix3d>& frames,
                      const Eigen::Ref<const Eigen::VectorXd>& impulses,
                      const std::vector<math::Transform>& X_world,
                      std::vector<PersistentContact>& cache) {
  cache.clear();
  if (impulses.size() != 3 * static_cast<Eigen::Index>(contacts.contacts.size())) return;
  for (std::size_t k = 0; k < contacts.contacts.size(); ++k) {
    const geometry::Contact& c = contacts.contacts[k];
    if (c.id == 0) continue;
    const Eigen::Vector3d impulse =
        frames[k] * impulses.segment<3>(3 * static_cast<Eigen::Index>(k));
    cache.push_back({PairOf(c), PointInA(c, X_world), impulse, 0.0});
  }
  std::sort(cache.begin(), cache.end(), [](const PersistentContact& a, const PersistentContact& b) {
    if (a.pair != b.pair) return a.pair < b.pair;
    return std::lexicographical_compare(a.point_A.data(), a.point_A.data() + 3, b.point_A.data(),
                                        b.point_A.data() + 3);
  });
  // Each contact's reach: half the distance to its nearest sibling of the same pair (a lone
  // contact matches at any distance: its pair still touches).
  for (std::size_t first = 0; first < cache.size();) {
    std::size_t last = first;
    while (last < cache.size() && cache[last].pair == cache[first].pair) ++last;
    // Squared distances, one square root per contact (√ of the least square is the least
    // distance, bit for bit): the square roots' latency was most of this function.
    for (std::size_t i = first; i < last; ++i) {
      double nearest2 = std::numeric_limits<double>::infinity();
      for (std::size_t j = first; j < last; ++j) {
        if (j != i) {
          nearest2 = std::min(nearest2, (cache[i].point_A - cache[j].point_A).squaredNorm());
        }
      }
      cache[i].reach = 0.5 * std::sqrt(nearest2);
    }
    first = last;
  }
}

void WarmStartContacts(const geometry::ContactSet& contacts,
                       const std::vector<Eigen::Matrix3d>& frames,
                       const std::vector<math::Transform>& X_world,
                       const std::vector<PersistentContact>& cache, Eigen::VectorXd& warm) {
  math::ResizeKeepingStorage(warm, 3 * static_cast<Eigen::Index>(contacts.contacts.size()));
  warm.setZero();
  for (std::size_t k = 0; k < contacts.contacts.size(); ++k) {
    const geometry::Contact& c = contacts.contacts[k];
    if (c.id == 0) continue;
    const std::uint64_t pair = PairOf(c);
    auto it = std::lower_bound(
        cache.begin(), cache.end(), pair,
        [](const PersistentContact& p, std::uint64_t key) { return p.pair < key; });
    const Eigen::Vector3d point = PointInA(c, X_world);
    // The nearest remembered contact of the pair within its reach, on squared distances.
    const PersistentContact* best = nullptr;
    double best_distance2 = std::numeric_limits<double>::infinity();
    for (; it != cache.end() && it->pair == pair; ++it) {
      const double d2 = (it->point_A - point).squaredNorm();
      if (d2 < best_distance2 && d2 <= it->reach * it->reach) best = &*it, best_distance2 = d2;
    }
    if (best != nullptr) {
      warm.segment<3>(3 * static_cast<Eigen::Index>(k)) = frames[k].transpose() * best->impulse;
    }
  }
}

}  // namespace coulomb::sim

namespace coulomb::sim {

void RememberLimitContacts(const std::vector<contact::LimitContact>& limits,
                           const Eigen::Ref<const Eigen::VectorXd>& impulses,
                           std::vector<PersistentContact>& cache) {
  const std::size_t first = cache.size();
  for (std::size_t k = 0; k < limits.size(); ++k) {
    const Eigen::Vector3d impulse(impulses[3 * static_cast<Eigen::Index>(k)], 0, 0);
    cache.push_back({LimitKey(limits[k]), Eigen::Vector3d::Zero(), impulse, 0.0});
  }
  std::sort(cache.begin() + static_cast<std::ptrdiff_t>(first), cache.end(),
            [](const PersistentContact& a, const PersistentContact& b) { return a.pair < b.pair; });
}

void WarmStartLimitContacts(const std::vector<contact::LimitContact>& limits,
                            const std::vector<PersistentContact>& cache,
                            Eigen::Ref<Eigen::VectorXd> warm) {
  warm.setZero();
  for (std::size_t k = 0; k < limits.size(); ++k) {
    const std::uint64_t key = LimitKey(limits[k]);
    const auto it = std::lower_bound(
        cache.begin(), cache.end(), key,
        [](const PersistentContact& p, std::uint64_t key) { return p.pair < key; });
    if (it != cache.end() && it->pair == key) {
      warm[3 * static_cast<Eigen::Index>(k)] = it->impulse[0];
    }
  }
}

void RememberDeformableContacts(const std::vector<contact::DeformableContact>& contacts,
                                const Eigen::VectorXd& impulses,
                                std::vector<PersistentContact>& cache) {
  if (impulses.size() != 3 * static_cast<Eigen::Index>(contacts.size())) return;
  const std::size_t first = cache.size();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const std::uint64_t key = DeformableKey(contacts[k]);
    if (key == 0) continue;
    const Eigen::Vector3d impulse = math::ContactFrame(contacts[k].normal) *
                                    impulses.segment<3>(3 * static_cast<Eigen::Index>(k));
    cache.push_back({key, Eigen::Vector3d::Zero(), impulse, 0.0});
  }
  std::stable_sort(
      cache.begin() + static_cast<std::ptrdiff_t>(first), cache.end(),
      [](const PersistentContact& a, const PersistentContact& b) { return a.pair < b.pair; });
}

void WarmStartDeformableContacts(const std::vector<contact::DeformableContact>& contacts,
                                 const std::vector<PersistentContact>& cache,
                                 Eigen::Matrix3Xd& warm) {
  warm.setZero(3, static_cast<Eigen::Index>(contacts.size()));
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const std::uint64_t key = DeformableKey(contacts[k]);
    if (key == 0) continue;
    const auto it = std::lower_bound(
        cache.begin(), cache.end(), key,
        [](const PersistentContact& p, std::uint64_t key) { return p.pair < key; });
    if (it != cache.end() && it->pair == key) warm.col(static_cast<Eigen::Index>(k)) = it->impulse;
  }
}

}  // namespace coulomb::sim
