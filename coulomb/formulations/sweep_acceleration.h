#pragma once
// Anderson acceleration of one island's Gauss–Seidel sweeps (contact_sweeps.h).
//
// A sweep is a fixed-point map r ← G(r) on the island's impulses; on a pile it contracts slowly
// (its rate near 1 grows with the pile's depth), so plain sweeps need a hundred or more per decade
// of the error. Anderson's method of depth m keeps the last m differences of the map's outputs
// g_k = G(x_k) and of its residuals f_k = g_k − x_k and takes as the next iterate
//   x_{k+1} = g_k − ΔG γ,   γ = argmin ‖f_k − ΔF γ‖   (Walker and Ni 2011, eq. 2.2 with β = 1),
// a multisecant step that costs O(m (3 n_c + n_v)) per sweep. Since v = v* + M⁻¹ Jᵀ r is affine in
// r, the island's velocities are mixed with the same γ and stay v(r) to rounding.
// Gauss–Seidel with exact one-contact solves is only piecewise smooth (contacts change between
// sticking, sliding and separating), so the history is cleared when the residual grows: the old
// secants then describe another piece. The certificate is always measured after a plain sweep,
// never on a mixed iterate, which may leave the cones (the next sweep's local solves return to
// them).

// The step is two passes over the island's packed (r, v), each in fixed pieces of
// kAccelerationPiece contacts or velocity ranges: the first packs the sweep's output and records
// the secant with its inner products, the second writes the mixed iterate back. Each piece's
// inner products are summed on their own and the pieces' sums in piece order, so the bits do not
// depend on how many threads ran the pieces. (Done as one Eigen expression per vector, the step
// read 11 vectors' worth of the island from memory and was a fifth of a 10 000-body pile's solve.)

#include <Eigen/Dense>
#include <array>
#include <span>
#include <vector>

namespace coulomb {

struct ContactRows;  // contact_sweeps.h
class ThreadPool;    // base/thread_pool.h

// Contacts (or velocity ranges) per piece: a piece's columns stay in the core's cache between
// packing and the inner products. Fixed, since the sums' order follows it.
inline constexpr int kAccelerationPiece = 256;

inline constexpr int kMaxAccelerationDepth = 16;
// Measured on the landing bin (NSGS at ABH 1e-4, mean sweeps a step): depth 3: 66, 5: 78, 8: 66,
// 12: 71, plain sweeps 200; on 500-body clutter 5 takes 23 against 43. Depth 2 since the step
// became memory-bound on large piles (each secant is two more vectors the size of the island read
// every sweep): on the 10 000-body clutter resumed at t = 0.9 s, two threads, solve ms/step
// (sweeps) at depth 0: 314 (58), 1: 285 (38), 2: 314 (38), 3: 345 (37), 5: 370 (36); on the
// 2 000-body clutter (two threads) depth 1: 62.9 ms/step, 10 capped steps; 2: 65.3, 1; 5: 69.5,
// 4; the 500-body one 7.1–7.3 at every depth; the bin at 1e-4 (one thread) 2.64 ms/step at 2
// against 3.06 at 1 and 3.20 at 5.
inline constexpr int kDefaultAccelerationDepth = 2;

struct SweepAcceleration {
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxAccelerationDepth,
                              kMaxAccelerationDepth>;
  using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxAccelerationDepth, 1>;
  int depth = 0;                         // m; 0: off
  std::vector<int> contacts;             // the island's contacts, in sweep order
  std::vector<std::array<int, 2>> dofs;  // the (start, size) ranges of v its contacts move
  std::vector<int> dof_at;               // where each range sits in the packed vector, and the end
  std::vector<char> block_seen;          // per mass block, while the ranges are gathered
  int nr = 0;                            // 3 × contacts: the length of the r part
  Eigen::VectorXd x;                     // the packed r the last sweep started from
  Eigen::VectorXd g, g_last;             // packed (r, v) after a sweep, and after the one before
  Eigen::VectorXd f, f_last;             // g's r part − x
  Eigen::MatrixXd dG, dF;                // columns: differences of g and of f, circular
  Small gram;                            // ΔFᵀ ΔF of the stored columns
  SmallVector rhs, gamma;
  std::vector<double> partial;  // per piece of contacts: ‖f‖², ΔFᵀ Δf_new, ΔFᵀ f
  double f_last_norm2 = 0;
  int stored = 0, next = 0;
  bool has_last = false;
  int restarts = 0;  // histories cleared since BeginSweepAcceleration
};

// Starts the island's history from its current impulses r.
void BeginSweepAcceleration(const ContactRows& rows, std::span<const int> island, int depth,
                            const Eigen::VectorXd& r, SweepAcceleration& a);

// After a sweep: records it and moves the island's r and v to the accelerated iterate, on
// `workers` when given (the same bits on any number of threads).
void AccelerateSweep(SweepAcceleration& a, Eigen::VectorXd& r, Eigen::VectorXd& v,
                     ThreadPool* workers = nullptr);

// Room for islands of up to `contacts` contacts on `blocks` mass blocks and `nv` velocities.
void ReserveSweepAcceleration(int contacts, int blocks, int nv, int depth, SweepAcceleration& a);

}  // namespace coulomb
