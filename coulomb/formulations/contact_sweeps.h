#pragma once
// Gauss–Seidel over contacts on the body velocities, never forming W = J M⁻¹ Jᵀ
// (docs/notes/contact-level-solvers.md). Per step and contact, once: its Jacobian rows on the
// DoFs of its (at most two) trees, their columns M⁻¹ J_iᵀ and its 3 × 3 block W_ii. A sweep then
// visits each contact once,
//   u_i = J_i v + b_i + D_i r_i,   r_i ← the exact one-contact solve of FC(W_ii, u_i − W_ii r_i,
//   μ_i) (or of its pyramid LCP), v  += M⁻¹ J_iᵀ Δr_i,
// which costs the DoFs of two trees per contact however full W would be. Contacts are solved
// island by island (connected through trees with velocities), from the ground up, and each island
// stops when its own measure meets the tolerance. Cone: with ‖F_I‖ ≤ ε ‖q_I‖ for every island I
// the whole step's ABH error ‖F‖ / ‖q‖ is ≤ ε too, the same certificate (friction_cone.h) every
// cone solver reports. Pyramid: the largest natural residual, a maximum over islands.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <array>
#include <string>
#include <vector>

#include "coulomb/base/thread_pool.h"
#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/complementarity/friction_contact_problem.h"
#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/complementarity/single_contact_solver.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/sticking_step.h"
#include "coulomb/formulations/sweep_acceleration.h"
#include "coulomb/formulations/sweep_levels.h"
#include "coulomb/formulations/sweep_parts.h"
#include "coulomb/math/sparse_assembly.h"

namespace coulomb {

// The matrix-free problem of one step: the contacts' rows.
struct ContactRows {
  struct Side {  // the DoFs v[start, start + size) of mass block `block`; rows at `offset`
    int block = -1, start = 0, size = 0, offset = 0;
    // A lone centred free body's side (M⁻¹ = diag(s I, N), multibody/dynamics.cc): s and N
    // (column-major) at this offset in `free_body_inverse`, −1 for any other side. Its impulse
    // M⁻¹ J_sᵀ Δ = (s G ᵀΔ, N Hᵀ Δ), J_s = [G H], then reads J_s's 18 numbers and its body's 10,
    // shared with the body's other contacts, instead of M⁻¹ J_sᵀ's 18 of its own: a pile's
    // sweeps wait on memory, not on flops.
    int free_body = -1;
  };
  struct Row {
    LocalDelassus W;            // J_i M⁻¹ J_iᵀ + diag(D_i, 0, 0), with its inverse
    Eigen::Vector3d bias;       // b_i = (−required normal velocity, 0, 0), m/s
    double compliance = 0;      // D_i = c / h² on the normal row, m/(N s)
    std::array<Side, 2> sides;  // size 0: a side without velocities (the world, a fixed body)
  };
  std::vector<Row> contacts;
  std::vector<double> J;                  // per side: J_i's 3 × size columns, column-major
  std::vector<double> MinvJt;             // per side: M⁻¹ J_iᵀ, size × 3, column-major
  std::vector<double> free_body_inverse;  // per lone centred free body: s, N (Side::free_body)
  Eigen::VectorXd mu;                     // n_c
  Eigen::VectorXd v_star;                 // free-motion velocity
  Eigen::VectorXd q;                      // 3 n_c: the contact velocity at r = 0, J v* + b
  // Each contact's world point, m (empty when the problem has none): where sweep_parts.h cuts.
  std::vector<Eigen::Vector3d> points;
  std::vector<int> order;         // contacts island by island, ground up within one
  std::vector<int> island_start;  // island k is order[island_start[k], island_start[k + 1])
  struct Scratch {
    std::vector<int> block_offset;  // into Minv, −1 for a block no contact touches
    std::vector<int> free_body;     // into free_body_inverse, −1 for other blocks
    std::vector<double> Minv;       // the touched blocks' dense M⁻¹
    std::vector<int> parent, depth, island_of, queue;
    // Per block b, the contacts on it: touching[touching_start[b] .. touching_start[b + 1]), in
    // increasing order (flat, so that a block gaining contacts allocates nothing).
    std::vector<int> touching_start, touching;
    std::vector<std::array<int, 3>> keys;  // (island, depth, contact) to sort by
  } scratch;
  int num_contacts() const { return static_cast<int>(contacts.size()); }
  int num_islands() const { return static_cast<int>(island_start.size()) - 1; }
};

// Builds the rows of `problem` into `rows`, reusing its storage. `correction` as in
// MakeLocalContactProblem (the same bias b).
void MakeContactRows(const contact::ContactProblem& problem, const PositionCorrection& correction,
                     ContactRows& rows);

// J_i v for contact k (3: normal, two tangents), m/s. Inline: every sweep calls it per contact,
// from other files than the rows' (1 in 9 of a pile's sweep time went to the call).
inline Eigen::Vector3d ContactRowVelocity(const ContactRows& rows, int k,
                                          const Eigen::VectorXd& v) {
  Eigen::Vector3d u = Eigen::Vector3d::Zero();
  for (const ContactRows::Side& side : rows.contacts[k].sides) {
    if (side.size == 6) {
      u.noalias() += Eigen::Map<const Eigen::Matrix<double, 3, 6>>(rows.J.data() + side.offset) *
                     v.segment<6>(side.start);
    } else if (side.size > 0) {
      u.noalias() += Eigen::Map<const Eigen::Matrix3Xd>(rows.J.data() + side.offset, 3, side.size) *
                     v.segment(side.start, side.size);
    }
  }
  return u;
}

// v += M⁻¹ J_kᵀ Δ on contact k's sides.
void ApplyContactImpulse(const ContactRows& rows, int k, const Eigen::Vector3d& delta,
                         Eigen::VectorXd& v);

// v = v* + Σ_k M⁻¹ J_kᵀ r_k, contact by contact in order, into v's storage.
void VelocityAfterImpulses(const ContactRows& rows, const Eigen::VectorXd& r, Eigen::VectorXd& v);

// W = J M⁻¹ Jᵀ (+ the compliance on the normal diagonal) from the rows alone: block W_ij =
// Σ over the mass blocks contacts i and j share of J_i,b (M⁻¹ J_jᵀ)_b, the diagonal blocks the
// rows' own. For problems small enough for a dense factorization, where assembling it through
// G = J L⁻ᵀ and sparse products costs more than the Newton step that needs it.
void AssembleDelassusFromRows(const ContactRows& rows, math::TripletBuffer& entries,
                              Eigen::SparseMatrix<double>& W);

// The law each contact obeys: the exact Coulomb cone (De Saxcé) or the Stewart–Trinkle pyramid
// with `directions` edges (pyramid_contact.h), the velocity LCP's.
enum class ContactLaw { kCone, kPyramid };

struct ContactSweepParams {
  ContactLaw law = ContactLaw::kCone;
  int directions = 4;  // of the pyramid
  // Cone: on each island's ABH error ‖F_I‖ / ‖q_I‖. Pyramid: on the largest natural residual
  // |min(z, w)| of the contacts' LCPs, relative to max(1, ‖q‖∞) (the block Gauss–Seidel's
  // measure before it moved here).
  double tolerance = 1e-6;
  int max_sweeps = 1000;    // per island
  double relaxation = 1.0;  // ω in (0, 2) of each local update; 1 is plain Gauss–Seidel
  // An island stalls when, at the rate its error fell over the last `stall_interval` or more
  // sweeps, it would need more than `stall_sweeps` sweeps in all to meet the tolerance (or the
  // error did not fall): Gauss–Seidel's contraction near 1 (hyperstatic stacks, mass ratios, long
  // chains). With stop_on_stall it stops there and is reported unsolved, for Newton.
  int stall_sweeps = 100;
  // The fewest sweeps between the two checks a rate is measured over. Four smooth out
  // Gauss–Seidel's uneven first sweeps; one lets a problem that Newton takes cheaply leave as
  // soon as its error stops falling (on the 10⁶ : 1 mass ratio it plateaus by the third sweep).
  int stall_interval = 4;
  // Islands of at most this many contacts aim at tolerance × small_island_polish, and count as
  // solved at the tolerance if they stall short of it: a few contacts' extra sweeps are cheap,
  // and on them the exact answer (friction aligned with the slip to rounding) is what users see.
  int small_island_contacts = 16;
  double small_island_polish = 1e-3;
  bool stop_on_stall = false;
  // Cone: before a stalled island is reported, one sticking step (sticking_step.h) when all its
  // contacts stick, kept if the island's measure then meets the tolerance. The portfolio's
  // choice; NSGS as asked stays plain Gauss–Seidel.
  bool sticking_step = false;
  // Anderson acceleration (sweep_acceleration.h) of depth `acceleration_depth` on islands of
  // more than `accelerated_island_contacts` contacts; 0: plain sweeps.
  int acceleration_depth = 0;
  int accelerated_island_contacts = 64;
  // With `workers` of more than one thread, islands of at least `levelled_island_contacts`
  // contacts are swept level by level on them (sweep_levels.h), with the sequential sweep's
  // answer to the bit; smaller islands, and every island on one thread, in order on the caller's.
  ThreadPool* workers = nullptr;
  int levelled_island_contacts = 256;
  // ...and only when its levels hold at least this many contacts on average: each level ends in a
  // barrier, and narrower levels cost the threads more in waiting than they share (500-body
  // clutter, ~17 per level: 7.2 ms/step on one thread, 9.1 levelled on two).
  int levelled_mean_width = 64;
  // Islands of at least `partitioned_island_contacts` contacts are swept part by part
  // (sweep_parts.h) in `island_parts` parts, on any number of threads: a different order than
  // the ground-up one, with one barrier per phase instead of per level. island_parts ≤ 1: off.
  int island_parts = 1;
  int partitioned_island_contacts = 4096;
};

struct ContactSweepResult {
  LcpStatus status = LcpStatus::kBadInput;
  std::string message;
  Eigen::VectorXd r;  // 3 n_c impulses, N s
  // v⁺ = v* + M⁻¹ Jᵀ r as the sweeps summed it, contact update by contact update: the velocity
  // `error` is measured on (to rounding the same as v⁺ afresh from r).
  Eigen::VectorXd v;
  int sweeps = 0;  // the most any island took
  int islands = 0, unsolved_islands = 0;
  Eigen::VectorXd pyramid;  // pyramid: n_c (d + 2) LCP unknowns (p_n, β, λ) per contact
  double error = 0;         // the whole step's measure of r (the tolerance's)
  // A lower bound of the projected warm start's error (∞ without one): islands stop measuring it
  // once it is too large to accept; WarmStartError gives it exactly.
  double warm_error = 0;
  int sticking_steps = 0;          // islands a sticking step solved
  int levelled_islands = 0;        // islands swept level by level on the workers
  int partitioned_islands = 0;     // islands swept part by part (sweep_parts.h)
  StickingScratch sticking;        // storage only
  SweepAcceleration acceleration;  // storage only
  SweepLevels levels;              // storage only
  SweepParts parts;                // storage only
  bool solved() const { return status == LcpStatus::kSolved; }
};

// What the sweeps keep from step to step (storage only).
struct ContactSweepWorkspace {
  ContactRows rows;
  ContactSweepResult result;
  // A small stalled problem's FC(W, q, μ) built from the rows for Newton, and W's entries.
  FrictionContactProblem small;
  math::TripletBuffer small_entries;
  Eigen::VectorXd warm_v;  // WarmStartError's scratch
  // The run's worker threads (sim::Data::workers), set by the stepper before each step; null:
  // one thread.
  ThreadPool* workers = nullptr;
};

// Room for `capacity` in the rows and the sweeps' iterates: sweeps over up to that many contacts
// allocate nothing.
void ReserveContacts(const contact::ContactCapacity& capacity, ContactSweepWorkspace& workspace);

// Warm-started from `warm_start` (3 n_c, projected onto the cones; empty or non-finite: zero).
void SolveContactSweeps(const ContactRows& rows, const ContactSweepParams& params,
                        const Eigen::VectorXd& warm_start, ContactSweepResult& result);

// The error (the sweeps' cone measure) of the warm start projected onto the cones, as
// SolveContactSweeps would start from it; ∞ without one. `v` is scratch (v* + M⁻¹ Jᵀ r).
double WarmStartError(const ContactRows& rows, const Eigen::VectorXd& warm_start,
                      Eigen::VectorXd& v);

// The sweeps' answer as a formulation's step answer (status, message, sweeps, measure,
// impulses, v⁺); the time is the caller's.
void TakeSweepResult(const ContactSweepResult& sweeps, ContactSolution& out);

}  // namespace coulomb
