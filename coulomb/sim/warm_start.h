#pragma once
// Warm starts across steps: each contact of this step gets the impulse of last step's contact
// of the same geometry pair nearest to it, when that one is nearer than half the distance to its
// own nearest sibling (so a four-corner patch maps corner to corner). Matched by position, not by
// feature number: a box resting on a box swaps its reference face as it rocks, which renumbers
// the clipped corners, and a warm start by number then hands each corner another's impulse
// (ABH error 0.15 of the warm start on the pyramid, against 1e-6 of the answer).
// Impulses are kept as world vectors and re-expressed in the new contact frames.

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/contact/deformable_contacts.h"
#include "coulomb/geometry/contact_set.h"
#include "coulomb/math/spatial.h"

namespace coulomb::sim {

struct PersistentContact {
  std::uint64_t pair = 0;   // the contact id without its feature bits: one geometry pair
  Eigen::Vector3d point_A;  // in body A's frame (world frame when A is the world), m
  Eigen::Vector3d impulse;  // world frame, N s
  double reach = 0;         // match radius: half the distance to the nearest sibling, m
};

// Replaces `cache` by this step's contacts and impulses (3 n_c, (n, t, o) per contact, in the
// frames `frames[k]` = math::ContactFrame(normal), which the step's contact problem holds).
// Poses are those the contacts were detected at.
void RememberContacts(const geometry::ContactSet& contacts,
                      const std::vector<Eigen::Matrix3d>& frames,
                      const Eigen::Ref<const Eigen::VectorXd>& impulses,
                      const std::vector<math::Transform>& X_world,
                      std::vector<PersistentContact>& cache);

// The warm start (3 n_c, (n, t, o) per contact, in `frames` as above) of `contacts` from
// `cache`; zero where nothing matches.
void WarmStartContacts(const geometry::ContactSet& contacts,
                       const std::vector<Eigen::Matrix3d>& frames,
                       const std::vector<math::Transform>& X_world,
                       const std::vector<PersistentContact>& cache, Eigen::VectorXd& warm);

// Joint limits posed as contacts (contact::LimitContact) persist in the same cache, under keys
// no geometry pair takes (bit 63, the DoF and the side), so checkpoints carry them too: a finger
// resting on its stop keeps its impulse from step to step as a foot on the floor does.
// Appends this step's limit contacts and their impulses (3 each, normal first) to `cache`.
void RememberLimitContacts(const std::vector<contact::LimitContact>& limits,
                           const Eigen::Ref<const Eigen::VectorXd>& impulses,
                           std::vector<PersistentContact>& cache);
// Their warm start into `warm` (3 per limit contact), zero where the cache has none.
void WarmStartLimitContacts(const std::vector<contact::LimitContact>& limits,
                            const std::vector<PersistentContact>& cache,
                            Eigen::Ref<Eigen::VectorXd> warm);

// Deformable contacts (contact/deformable_contacts.h) persist in the same cache after the limit
// contacts, under keys above theirs (bits 63 and 62, the body, its material point and what it
// touches), with their impulses in world coordinates: checkpoints carry them, so a resumed run
// warm-starts the contact-level solvers exactly as the run that never stopped.
void RememberDeformableContacts(const std::vector<contact::DeformableContact>& contacts,
                                const Eigen::VectorXd& impulses,
                                std::vector<PersistentContact>& cache);
// Each deformable contact's last impulse, world frame (a column per contact; zero where nothing
// matches).
void WarmStartDeformableContacts(const std::vector<contact::DeformableContact>& contacts,
                                 const std::vector<PersistentContact>& cache,
                                 Eigen::Matrix3Xd& warm);

}  // namespace coulomb::sim
