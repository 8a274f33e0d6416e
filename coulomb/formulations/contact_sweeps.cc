// SolveContactSweeps (contact_sweeps.h): Gauss–Seidel on body velocities, island by island.

#include "coulomb/formulations/contact_sweeps.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <span>

#include "coulomb/complementarity/single_contact_solver.h"
#include "coulomb/formulations/pyramid_contact.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

using Side = ContactRows::Side;

// u_i = J_i v + b_i + D_i r_i.
Eigen::Vector3d ContactVelocity(const ContactRows& rows, int k, const Eigen::VectorXd& v,
                                const Eigen::Vector3d& r) {
  const ContactRows::Row& row = rows.contacts[k];
  Eigen::Vector3d u = ContactRowVelocity(rows, k, v) + row.bias;
  u[0] += row.compliance * r[0];
  return u;
}

// What every contact update needs besides the rows: the law and the iterates.
struct Sweeper {
  const ContactRows& rows;
  const ContactSweepParams& params;
  PyramidDirections directions;
  Eigen::VectorXd& r;
  Eigen::VectorXd& v;
  Eigen::VectorXd& z;  // pyramid unknowns, d + 2 per contact
  StickingScratch& sticking;
  SweepAcceleration& acceleration;
  SweepLevels& levels;
  SweepParts& parts;
  int sticking_steps = 0;
  int levelled_islands = 0, partitioned_islands = 0;
  // How the island being swept is ordered (set per island): in island order, level by level on
  // the workers (sweep_levels.h), or part by part (sweep_parts.h, whatever the thread count).
  enum class Schedule { kInOrder, kLevels, kParts } schedule = Schedule::kInOrder;
  // Its contacts' measures are computed on the workers (and summed here in island order).
  bool parallel_measure = false;
  // Its sweeps are mixed by Anderson's step (sweep_acceleration.h).
  bool mixing = false;
  bool many_threads() const { return params.workers != nullptr && params.workers->size() > 1; }
  bool pyramid() const { return params.law == ContactLaw::kPyramid; }
  int stride() const { return directions.count + 2; }
};

// One Gauss–Seidel update of contact k: the exact one-contact solve with the others fixed.
void UpdateContact(Sweeper& s, int k) {
  const ContactRows::Row& row = s.rows.contacts[k];
  const double mu = s.rows.mu[k];
  const Eigen::Vector3d ri = s.r.segment<3>(3 * k);
  const Eigen::Vector3d others = ContactVelocity(s.rows, k, s.v, ri) - row.W.W * ri;
  Eigen::Vector3d next;
  if (s.pyramid()) {
    double* z = s.z.data() + s.stride() * k;
    // Unsolved (z untouched): the last answer stays. Under Anderson's mixing r may have left
    // it, and is set back, so that the measure, which reads z, is that of the velocities the
    // sweep leaves.
    if (!SolvePyramidContact(row.W, others, mu, s.directions, z) && !s.mixing) return;
    next = PyramidContactImpulse(z, s.directions);
  } else {
    next = SolveSingleContact(row.W, others, mu, ri).r;
    const double omega = s.params.relaxation;
    if (omega != 1.0) next = ProjectOntoFrictionCone(ri + omega * (next - ri), mu);
  }
  const Eigen::Vector3d delta = next - ri;
  if (delta.squaredNorm() == 0) return;
  s.r.segment<3>(3 * k) = next;
  ApplyContactImpulse(s.rows, k, delta, s.v);
}

// Contact k's measure from the current velocities, squared: its share of ‖F‖² (cone) or its
// natural residual² (pyramid).
double ContactMeasure2(const Sweeper& s, int k) {
  const Eigen::Vector3d rk = s.r.segment<3>(3 * k);
  const Eigen::Vector3d u = ContactVelocity(s.rows, k, s.v, rk);
  if (!s.pyramid()) return AbhResidualSquared(rk, u, s.rows.mu[k]);
  const double residual =
      PyramidNaturalResidual(s.z.data() + s.stride() * k, u, s.rows.mu[k], s.directions);
  return residual * residual;
}

// Ask the cache for what contact k's update will read: its row (PrefetchRow), then, once the row
// is there, its Jacobian and M⁻¹Jᵀ blocks, its sides' velocities and its impulse
// (PrefetchOperands). Hints only: nothing computed changes.
void PrefetchRow(const ContactRows& rows, int k) {
  const char* row = reinterpret_cast<const char*>(&rows.contacts[k]);
  for (std::size_t line = 0; line < sizeof(ContactRows::Row); line += 64) {
    __builtin_prefetch(row + line);
  }
}

void PrefetchOperands(const Sweeper& s, int k) {
  for (const ContactRows::Side& side : s.rows.contacts[k].sides) {
    if (side.size == 0) continue;
    const double* J = s.rows.J.data() + side.offset;
    const double* MinvJt = s.rows.MinvJt.data() + side.offset;
    for (int d = 0; d < 3 * side.size; d += 8) {  // 8 doubles a line
      __builtin_prefetch(J + d);
      if (side.free_body < 0) __builtin_prefetch(MinvJt + d);
    }
    if (side.free_body >= 0) {
      const double* inverse = s.rows.free_body_inverse.data() + side.free_body;
      __builtin_prefetch(inverse);
      __builtin_prefetch(inverse + 8);
    }
    __builtin_prefetch(s.v.data() + side.start);
  }
  __builtin_prefetch(s.r.data() + 3 * k);
}

// Before visiting position i of `order` (which ends at `to`): the row 16 visits ahead and its
// operands 8 ahead. On the 10 000-body clutter (rows, pools and velocities ~60 MB, in L3 but not
// L2) 8 and 4 left ContactVelocity waiting on its loads; 16 and 8 took a resumed step's solve
// from 669 to 592 ms on one thread and from 369 to 333 ms on two, and 32 and 16 gained nothing
// more. (The same hints in IslandResidual2's loop made the step slower, 624 → 721 ms on one
// thread: the check reads less per contact, and the hints then only crowd the cache.)
void PrefetchAhead(const Sweeper& s, const int* order, int i, int to) {
  constexpr int kRowAhead = 16, kOperandsAhead = 8;
  if (i + kRowAhead < to) PrefetchRow(s.rows, order[i + kRowAhead]);
  if (i + kOperandsAhead < to) PrefetchOperands(s, order[i + kOperandsAhead]);
}

// Levels with fewer contacts than this are swept inline: a loop on the workers costs about as
// much as updating this many contacts (measured on the 2 000-body clutter).
constexpr int kMinParallelLevel = 32;

// The island's measure, squared: Σ over its contacts (cone) or the largest (pyramid). With
// `stop_above`, as soon as it exceeds that: a lower bound of the measure then. An island swept in
// parallel has its contacts' measures computed on the workers and summed here, in island order:
// the same sum as one thread's.
double IslandResidual2(const Sweeper& s, int begin, int end,
                       double stop_above = std::numeric_limits<double>::infinity()) {
  const int* order = s.rows.order.data() + begin;
  const double* measure = nullptr;
  if (s.parallel_measure) {
    s.levels.measure.resize(static_cast<std::size_t>(end - begin));
    double* out = s.levels.measure.data();
    s.params.workers->ParallelFor(end - begin, [&](int from, int to) {
      for (int i = from; i < to; ++i) out[i] = ContactMeasure2(s, order[i]);
    });
    measure = out;
  }
  double total = 0;
  for (int i = 0; i < end - begin; ++i) {
    const double m = measure != nullptr ? measure[i] : ContactMeasure2(s, order[i]);
    total = s.pyramid() ? std::max(total, m) : total + m;
    if (total > stop_above) break;
  }
  return total;
}

// Contacts [from, to) of `order`, in order. The sweep order jumps through the rows (ground up, or
// slab by slab, against the problem's order), so every update used to wait on memory until the
// rows and operands ahead were asked for (perf on the 2 000-body clutter: 22 % of the time in
// ContactVelocity, 19 % on one compare of a row's side).
void UpdateInOrder(Sweeper& s, const int* order, int from, int to) {
  for (int i = from; i < to; ++i) {
    PrefetchAhead(s, order, i, to);
    UpdateContact(s, order[i]);
  }
}

// One Gauss–Seidel sweep of the island: in order, level by level on the workers, or phase by
// phase with the groups of a phase on the workers.
void SweepOnce(Sweeper& s, int begin, int end) {
  switch (s.schedule) {
    case Sweeper::Schedule::kInOrder:
      UpdateInOrder(s, s.rows.order.data(), begin, end);
      return;
    case Sweeper::Schedule::kLevels: {
      const SweepLevels& levels = s.levels;
      for (int l = 0; l < levels.num_levels(); ++l) {
        const int* contacts = levels.order.data() + levels.start[l];
        const int n = levels.start[l + 1] - levels.start[l];
        if (n < kMinParallelLevel || !s.many_threads()) {
          UpdateInOrder(s, contacts, 0, n);
          continue;
        }
        s.params.workers->ParallelFor(
            n, [&](int from, int to) { UpdateInOrder(s, contacts, from, to); });
      }
      return;
    }
    case Sweeper::Schedule::kParts: {
      // The groups of a phase share no block: swept one after another or at once, the same bits.
      // Each thread takes the groups whose middle contact falls in its share of the phase's
      // contacts (parts differ in size; an even split of the groups left one thread idle).
      const SweepParts& parts = s.parts;
      const int* order = parts.order.data();
      const std::vector<int>& start = parts.group_start;
      for (int f = 0; f < parts.num_phases(); ++f) {
        const int g0 = parts.phase_start[f], g1 = parts.phase_start[f + 1];
        const int n = start[g1] - start[g0];
        if (g1 - g0 < 2 || n < kMinParallelLevel || !s.many_threads()) {
          UpdateInOrder(s, order, start[g0], start[g1]);
          continue;
        }
        const int threads = s.params.workers->size();
        s.params.workers->ParallelFor(threads, [&](int t0, int t1) {
          const int lo = ThreadPool::PieceBegin(n, threads, t0);
          const int hi = ThreadPool::PieceBegin(n, threads, t1);
          for (int g = g0; g < g1; ++g) {
            const int middle = (start[g] + start[g + 1]) / 2 - start[g0];
            if (middle >= lo && middle < hi) UpdateInOrder(s, order, start[g], start[g + 1]);
          }
        });
      }
      return;
    }
  }
}

enum class IslandEnd { kSolved, kStalled, kSweepCap };

// The sticking step on a stalled island (params.sticking_step), kept when the island's measure
// then meets `bound2`; into final2 if so.
bool SolveIslandBySticking(Sweeper& s, int begin, int end, double bound2, double& final2) {
  if (!s.params.sticking_step || s.pyramid()) return false;
  const std::span<const int> island(s.rows.order.data() + begin,
                                    static_cast<std::size_t>(end - begin));
  if (!ApplyStickingStep(s.rows, island, s.r, s.v, s.sticking)) return false;
  const double error2 = IslandResidual2(s, begin, end);
  if (error2 <= bound2) {
    final2 = error2;
    ++s.sticking_steps;
    return true;
  }
  UndoStickingStep(island, s.r, s.v, s.sticking);
  return false;
}

// Sweeps one island until its measure meets the tolerance, it stalls (if asked) or the cap.
// `final2` is its measure (IslandResidual2) on the velocities and impulses it ends with: the
// island's share of the step's certificate, since no other island moves its bodies.
// How island [begin, end) of rows.order is swept: in slabs when it is large enough (on any
// thread count), else level by level when there are workers and it is large enough for them,
// else in order; its schedule is laid out here.
void ChooseSchedule(Sweeper& s, int begin, int end) {
  const ContactSweepParams& params = s.params;
  const std::span<const int> island(s.rows.order.data() + begin,
                                    static_cast<std::size_t>(end - begin));
  s.schedule = Sweeper::Schedule::kInOrder;
  if (params.island_parts > 1 && end - begin >= params.partitioned_island_contacts) {
    s.schedule = Sweeper::Schedule::kParts;
    ScheduleParts(s.rows, island, params.island_parts, s.parts);
    ++s.partitioned_islands;
  } else if (s.many_threads() && end - begin >= params.levelled_island_contacts) {
    ScheduleLevels(s.rows, island, s.levels);
    // In order or level by level, the same bits (sweep_levels.h): only the time differs.
    if (end - begin >= params.levelled_mean_width * s.levels.num_levels()) {
      s.schedule = Sweeper::Schedule::kLevels;
      ++s.levelled_islands;
    }
  }
  s.parallel_measure = s.schedule != Sweeper::Schedule::kInOrder && s.many_threads();
}

// Sweeps between the island's checks once the first four are past, and the longest gap the
// error's rate may open (SweepIsland).
constexpr int kCheckEvery = 4;
constexpr int kLongestCheckGap = 12;
// ...on cone islands of more contacts than this. Checks on fewer cost little, and a gap past the
// sweep that meets the tolerance cost the 15-box pyramid (100 contacts) 74 → 108 µs/step. The
// pyramid law's measure, a maximum, falls too unevenly for its rate to say much.
constexpr int kWideCheckContacts = 256;

IslandEnd SweepIsland(Sweeper& s, int begin, int end, bool warm, int& sweeps,
                      double& warm_residual2, double& final2) {
  const ContactSweepParams& params = s.params;
  const ContactRows& rows = s.rows;
  ChooseSchedule(s, begin, end);
  double scale = 1;
  if (s.pyramid()) {
    scale = std::max(1.0, rows.q.lpNorm<Eigen::Infinity>());
    scale *= scale;
  } else {
    double q2 = 0;
    for (int i = begin; i < end; ++i) q2 += rows.q.segment<3>(3 * rows.order[i]).squaredNorm();
    scale = q2 > 1e-300 ? q2 : 1.0;
  }
  const double bound2 = params.tolerance * params.tolerance * scale;
  // A small island aims lower, where its sweeps cost next to nothing: stopped at the tolerance, a
  // box starting to slide kept its friction 2.5e-5 rad off the slip direction (the Newton stage
  // that used to solve such problems landed on it to rounding).
  const bool small = end - begin <= params.small_island_contacts;
  const double target2 =
      small ? bound2 * params.small_island_polish * params.small_island_polish : bound2;
  sweeps = 0;
  // A warm start that answers with room to spare (an island at rest) costs one check and no
  // sweep. Only with room: accepted at the tolerance itself, last step's impulses go stale step
  // after step while the error creeps up to the bound, and on a hyperstatic stack Gauss–Seidel
  // cannot bring it back down from there (measured on the 10-cube stack: every third step then
  // went to Newton).
  // (The pyramid's λ is not in a warm start: its islands always sweep.)
  warm = warm && !s.pyramid();
  // The warm start's measure only as far as it decides: a sliding box's first contact already
  // rejects it (its exact value, for Newton's starting point, is WarmStartError's).
  const double accept2 = 0.01 * target2;
  warm_residual2 = warm ? IslandResidual2(s, begin, end, accept2) : 0;
  final2 = warm_residual2;
  if (warm && warm_residual2 <= accept2) return IslandEnd::kSolved;
  // The error at the last check at least four sweeps back, for the contraction rate.
  double then2 = 0;
  int then_sweep = 0;
  double last2 = INFINITY;
  const bool accelerate =
      params.acceleration_depth > 0 && end - begin > params.accelerated_island_contacts;
  s.mixing = accelerate;
  if (accelerate) {
    BeginSweepAcceleration(
        rows,
        std::span<const int>(rows.order.data() + begin, static_cast<std::size_t>(end - begin)),
        params.acceleration_depth, s.r, s.acceleration);
  }
  int next_check = 1;
  const bool wide_checks = !s.pyramid() && end - begin > kWideCheckContacts;
  for (int sweep = 1; sweep <= params.max_sweeps; ++sweep) {
    if (accelerate && sweep > 1) {
      // On the workers only when the sweep runs on them too: an island swept on the caller alone
      // keeps its r and v in the caller's cache (500-body clutter on two threads: 8.9 ms/step
      // with the Anderson step on both, against 7.8 on one).
      AccelerateSweep(s.acceleration, s.r, s.v, s.parallel_measure ? params.workers : nullptr);
    }
    SweepOnce(s, begin, end);
    sweeps = sweep;
    if (sweep < next_check && sweep != params.max_sweeps) continue;
    // A check costs about half a sweep (the one-contact solves are not in it), so the first four
    // sweeps are checked, for the islands a warm start leaves a sweep or two from their answer,
    // and after that every fourth sweep, or further apart while the error's rate says the
    // tolerance is far (below).
    const double error2 = IslandResidual2(s, begin, end);
    last2 = final2 = error2;
    next_check = sweep < 4 ? sweep + 1 : sweep + kCheckEvery;
    if (error2 <= target2) return IslandEnd::kSolved;
    if (!std::isfinite(error2)) return IslandEnd::kStalled;
    if (sweep - then_sweep < params.stall_interval && then_sweep > 0) continue;
    if (then_sweep > 0) {
      // Linear convergence at the rate of the last interval would need this many more sweeps.
      const double rate = std::log(error2 / then2) / (sweep - then_sweep);  // per sweep, < 0
      const double needed = rate < 0 ? std::log(target2 / error2) / rate : INFINITY;
      // Half the sweeps the rate says are left, at most kLongestCheckGap: a pile landing takes
      // 100–300 sweeps, and checking it every fourth sweep cost a tenth of its time. Half, as
      // the rate is only the last interval's (Anderson's steps speed it up unevenly).
      if (sweep >= 4 && std::isfinite(needed) && wide_checks) {
        next_check =
            sweep + std::clamp(static_cast<int>(0.5 * needed), kCheckEvery, kLongestCheckGap);
      }
      if (sweep + needed > params.stall_sweeps) {
        if (error2 <= bound2) return IslandEnd::kSolved;  // a small island short of its aim
        if (SolveIslandBySticking(s, begin, end, bound2, final2)) return IslandEnd::kSolved;
        if (params.stop_on_stall) return IslandEnd::kStalled;
      }
    }
    then2 = error2;
    then_sweep = sweep;
  }
  if (sweeps == 0) final2 = last2 = IslandResidual2(s, begin, end);  // no sweep allowed
  return last2 <= bound2 ? IslandEnd::kSolved : IslandEnd::kSweepCap;
}

}  // namespace

void ApplyContactImpulse(const ContactRows& rows, int k, const Eigen::Vector3d& delta,
                         Eigen::VectorXd& v) {
  for (const Side& side : rows.contacts[k].sides) {
    if (side.free_body >= 0) {
      const double* J = rows.J.data() + side.offset;
      const double* inverse = rows.free_body_inverse.data() + side.free_body;
      v.segment<3>(side.start).noalias() +=
          inverse[0] * (Eigen::Map<const Eigen::Matrix3d>(J).transpose() * delta);
      v.segment<3>(side.start + 3).noalias() +=
          Eigen::Map<const Eigen::Matrix3d>(inverse + 1) *
          (Eigen::Map<const Eigen::Matrix3d>(J + 9).transpose() * delta);
    } else if (side.size == 6) {
      v.segment<6>(side.start).noalias() +=
          Eigen::Map<const Eigen::Matrix<double, 6, 3>>(rows.MinvJt.data() + side.offset) * delta;
    } else if (side.size > 0) {
      v.segment(side.start, side.size).noalias() +=
          Eigen::Map<const Eigen::MatrixX3d>(rows.MinvJt.data() + side.offset, side.size, 3) *
          delta;
    }
  }
}

void SolveContactSweeps(const ContactRows& rows, const ContactSweepParams& params,
                        const Eigen::VectorXd& warm_start, ContactSweepResult& result) {
  const int nc = rows.num_contacts();
  result.message.clear();
  result.sweeps = 0;
  result.islands = rows.num_islands();
  result.unsolved_islands = 0;
  const bool pyramid = params.law == ContactLaw::kPyramid;
  if (!(params.relaxation > 0 && params.relaxation < 2)) {
    result.status = LcpStatus::kBadInput;
    result.message = fmt::format("relaxation = {} must lie in (0, 2)", params.relaxation);
    return;
  }
  if (pyramid && !(params.directions >= 3 && params.directions <= kMaxPyramidDirections)) {
    result.status = LcpStatus::kBadInput;
    result.message = fmt::format("directions = {} must lie in [3, {}]", params.directions,
                                 kMaxPyramidDirections);
    return;
  }
  // (The pyramid's directions cost a few sines and cosines: not for the cone.)
  Sweeper s{rows,
            params,
            pyramid ? MakePyramidDirections(params.directions) : PyramidDirections{},
            result.r,
            result.v,
            result.pyramid,
            result.sticking,
            result.acceleration,
            result.levels,
            result.parts};
  Eigen::VectorXd& r = result.r;
  Eigen::VectorXd& v = result.v;
  math::ResizeKeepingStorage(r, 3 * nc);
  r.setZero();
  math::ResizeKeepingStorage(result.pyramid, pyramid ? nc * s.stride() : 0);
  result.pyramid.setZero();
  const bool warm = warm_start.size() == 3 * nc && warm_start.allFinite() && !warm_start.isZero();
  v = rows.v_star;
  for (int k = 0; k < nc && warm; ++k) {
    Eigen::Vector3d rk = warm_start.segment<3>(3 * k);
    rk = pyramid ? Eigen::Vector3d(std::max(0.0, rk[0]), rk[1], rk[2])
                 : ProjectOntoFrictionCone(rk, rows.mu[k]);
    r.segment<3>(3 * k) = rk;
    ApplyContactImpulse(rows, k, rk, v);
  }
  bool stalled = false;
  double warm_residual2 = 0, final2 = 0;
  for (int island = 0; island < rows.num_islands(); ++island) {
    int sweeps = 0;
    double island_warm = 0, island_final = 0;
    const IslandEnd end = SweepIsland(s, rows.island_start[island], rows.island_start[island + 1],
                                      warm, sweeps, island_warm, island_final);
    warm_residual2 += island_warm;
    final2 = pyramid ? std::max(final2, island_final) : final2 + island_final;
    result.sweeps = std::max(result.sweeps, sweeps);
    if (end != IslandEnd::kSolved) ++result.unsolved_islands;
    stalled = stalled || end == IslandEnd::kStalled;
  }
  const double q_norm = rows.q.norm();
  result.sticking_steps = s.sticking_steps;
  result.levelled_islands = s.levelled_islands;
  result.partitioned_islands = s.partitioned_islands;
  result.warm_error = warm && !pyramid
                          ? std::sqrt(warm_residual2) / (q_norm > 1e-300 ? q_norm : 1.0)
                          : std::numeric_limits<double>::infinity();
  // The certificate: the cone's ABH error ‖F‖ / ‖q‖ (friction_cone.h) or the pyramid's largest
  // natural residual, on the v⁺ returned (the sweeps' running sum, which is what the step
  // advances with) and r, from the islands' last measures.
  result.error = pyramid ? std::sqrt(final2) / std::max(1.0, rows.q.lpNorm<Eigen::Infinity>())
                         : std::sqrt(final2) / (q_norm > 1e-300 ? q_norm : 1.0);
  if (!std::isfinite(result.error)) {
    result.status = LcpStatus::kStalled;
    result.message = "the iterates are not finite (NaN/Inf)";
  } else if (result.error <= params.tolerance) {
    result.status = LcpStatus::kSolved;
  } else {
    result.status = stalled ? LcpStatus::kStalled : LcpStatus::kIterationLimit;
    // Into the message's kept storage: a stalled island is handed to Newton every few steps.
    fmt::format_to(std::back_inserter(result.message),
                   "{} after {} sweeps: {} of {} islands not solved, error {:.3g} > {:.3g}",
                   stalled ? "Gauss-Seidel stalled" : "sweep limit reached", result.sweeps,
                   result.unsolved_islands, result.islands, result.error, params.tolerance);
  }
}

double WarmStartError(const ContactRows& rows, const Eigen::VectorXd& warm_start,
                      Eigen::VectorXd& v) {
  const int nc = rows.num_contacts();
  if (warm_start.size() != 3 * nc || !warm_start.allFinite() || warm_start.isZero()) {
    return std::numeric_limits<double>::infinity();
  }
  math::ResizeKeepingStorage(v, rows.v_star.size());
  v = rows.v_star;
  for (int k = 0; k < nc; ++k) {
    ApplyContactImpulse(rows, k, ProjectOntoFrictionCone(warm_start.segment<3>(3 * k), rows.mu[k]),
                        v);
  }
  double residual2 = 0;
  for (int k = 0; k < nc; ++k) {
    const Eigen::Vector3d rk = ProjectOntoFrictionCone(warm_start.segment<3>(3 * k), rows.mu[k]);
    residual2 += AbhResidualSquared(rk, ContactVelocity(rows, k, v, rk), rows.mu[k]);
  }
  const double q_norm = rows.q.norm();
  return std::sqrt(residual2) / (q_norm > 1e-300 ? q_norm : 1.0);
}

void VelocityAfterImpulses(const ContactRows& rows, const Eigen::VectorXd& r, Eigen::VectorXd& v) {
  math::ResizeKeepingStorage(v, rows.v_star.size());
  v = rows.v_star;
  for (int k = 0; k < rows.num_contacts(); ++k)
    ApplyContactImpulse(rows, k, r.segment<3>(3 * k), v);
}

void AssembleDelassusFromRows(const ContactRows& rows, math::TripletBuffer& entries,
                              Eigen::SparseMatrix<double>& W) {
  const int nc = rows.num_contacts();
  entries.clear();
  // Column by column, rows increasing: the order AssignFromTriplets copies straight in.
  for (int j = 0; j < nc; ++j) {
    const ContactRows::Row& cj = rows.contacts[j];
    for (int c = 0; c < 3; ++c) {
      for (int i = 0; i < nc; ++i) {
        Eigen::Vector3d column = Eigen::Vector3d::Zero();
        bool shared = i == j;
        if (i == j) {
          column = cj.W.W.col(c);
        } else {
          for (const Side& a : rows.contacts[i].sides) {
            for (const Side& b : cj.sides) {
              if (a.size == 0 || a.block != b.block) continue;
              shared = true;
              // J_i,b (3 × n) times column c of M⁻¹ J_jᵀ (n × 3, column-major).
              column.noalias() +=
                  Eigen::Map<const Eigen::Matrix3Xd>(rows.J.data() + a.offset, 3, a.size) *
                  Eigen::Map<const Eigen::VectorXd>(rows.MinvJt.data() + b.offset + b.size * c,
                                                    b.size);
            }
          }
        }
        if (!shared) continue;
        for (int r = 0; r < 3; ++r) entries.add(3 * i + r, 3 * j + c, column[r]);
      }
    }
  }
  math::AssignFromTriplets(entries, 3 * nc, 3 * nc, W);
}

void TakeSweepResult(const ContactSweepResult& sweeps, ContactSolution& out) {
  out.status = sweeps.status;
  out.message = sweeps.message;
  out.iterations = sweeps.sweeps;
  out.residual = sweeps.error;
  math::ResizeKeepingStorage(out.impulses, sweeps.r.size());
  out.impulses = sweeps.r;
  out.v_next = sweeps.v;
}

void ReserveContacts(const contact::ContactCapacity& capacity, ContactSweepWorkspace& workspace) {
  const auto n = static_cast<std::size_t>(capacity.contacts);
  const auto blocks = static_cast<std::size_t>(capacity.blocks);
  ContactRows& rows = workspace.rows;
  rows.contacts.reserve(n);
  rows.points.reserve(n);
  rows.J.reserve(3 * n * static_cast<std::size_t>(capacity.columns));
  rows.MinvJt.reserve(rows.J.capacity());
  rows.free_body_inverse.reserve(10 * blocks);
  math::ReserveStorage(rows.mu, capacity.contacts);
  math::ReserveStorage(rows.q, 3 * static_cast<Eigen::Index>(n));
  rows.order.reserve(n);
  rows.island_start.reserve(n + 1);
  ContactRows::Scratch& s = rows.scratch;
  for (std::vector<int>* per_block :
       {&s.block_offset, &s.free_body, &s.parent, &s.depth, &s.island_of, &s.queue}) {
    per_block->reserve(blocks);
  }
  s.touching_start.reserve(blocks + 1);
  s.touching.reserve(2 * n);  // a contact touches at most two blocks
  s.Minv.reserve(static_cast<std::size_t>(capacity.block_values));
  s.keys.reserve(n);
  ContactSweepResult& result = workspace.result;
  math::ReserveStorage(result.r, 3 * static_cast<Eigen::Index>(n));
  ReserveStickingStep(capacity.blocks, result.sticking);
  ReserveSweepAcceleration(capacity.contacts, capacity.blocks, capacity.nv,
                           kDefaultAccelerationDepth, result.acceleration);
  ReserveSweepLevels(capacity.contacts, capacity.blocks, result.levels);
  ReserveSweepParts(capacity.contacts, capacity.blocks, result.parts);
  math::ReserveStorage(workspace.warm_v, capacity.nv);
}

}  // namespace coulomb
