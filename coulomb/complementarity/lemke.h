#pragma once
// Lemke's complementary pivoting algorithm, made robust for contact LCPs
// (docs/notes/complementarity.md §1; paper 1 §6 for the restarts).
//
//  * lexicographic ratio test with tolerance-aware tie detection and the rule "z0 leaves
//    first when it ties" (the path then ends at once);
//  * symmetric diagonal scaling before solving, certificate on the unscaled data;
//  * at termination the basis is re-solved from the original data (iterative refinement
//    against the original M and q, then a fresh LU if that is not enough, then an optional
//    Fischer–Burmeister polish);
//  * restarts with seeded random covering vectors, as paper 1 did after a secondary ray.
//
// The basis inverse is kept explicitly, but only its nontrivial columns: the column of B⁻¹ that
// belongs to a basic w_i is a unit vector and is never stored or updated. A pivot therefore
// costs O(n·k) for k nonbasic w's instead of the O(n²) of a full tableau.

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <vector>

#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/fischer_burmeister_newton.h"
#include "coulomb/complementarity/lcp_certificate.h"
#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"

namespace coulomb {

struct LemkeParams {
  // Pivot cap per run; 0 means max(1000, 20 n) (docs/notes/complementarity.md §1.1). Paper 1 used
  // 100.
  int max_pivots = 0;
  // Extra runs after a failed one (paper 1: 3). With `scale`, runs alternate scaled/unscaled;
  // covering vectors are e for the first run of each kind, then d_i ~ U(0.1, 1).
  int max_restarts = 9;
  std::uint64_t seed = 1;
  // Symmetric scaling D M D (docs/notes/complementarity.md §1.2). Off reproduces an unscaled
  // textbook Lemke.
  bool scale = true;
  // A row blocks the entering variable when its coefficient a_i > pivot_tolerance·max(1, ‖a‖∞).
  double pivot_tolerance = 1e-11;
  // Ratios within tie_tolerance·(1 + |r_min|) of the minimum are ties (0: exact ties only).
  double tie_tolerance = 1e-10;
  // Tolerance of the lexicographic comparison of the tied rows of B⁻¹.
  double lexico_tolerance = 1e-12;
  // The answer must pass CertifyLcp at this tolerance to be called solved.
  double acceptance_tolerance = kLcpCertifyTolerance;
  // Polish with Fischer–Burmeister Newton when the re-solved basis misses the certificate.
  bool polish = true;
  // A run that ends on a secondary ray or the pivot cap, or walks with z0 ≈ 0 still basic, is
  // often on a solution already: re-solve its final complementary basis and accept it if it
  // passes the certificate. Off reproduces a textbook Lemke: only z0 leaving ends a run.
  bool certify_failed_runs = true;
};

// What one Lemke solve works in, kept by callers that solve one LCP after another (the
// velocity-level formulations keep one per Data): while the problem size stays, a solve into a
// warm workspace allocates nothing. Speed only: a fresh workspace gives the same answer.
struct LemkeWorkspace {
  LcpProblem scaled;               // D M D, D q
  Eigen::VectorXd d, ones, cover;  // the scaling D, a unit scaling, the covering vector
  // The complementary path (lemke.cc's LemkePath): nontrivial columns of B⁻¹, their bookkeeping,
  // the basic values B⁻¹q, the entering column and the ratio test's scratch.
  Eigen::MatrixXd binv;
  std::vector<int> unit_row, stored, stored_pos, basic, row_of, ties;
  std::vector<double> lexico_values;
  Eigen::VectorXd qbar, column;
  // A refactorization of B from the data (drift or a suspected ray).
  math::DenseLu lu;
  Eigen::MatrixXd unit;  // the stored columns' unit vectors, solved for together
  // Reading z off the final basis with iterative refinement against the original data.
  Eigen::VectorXd x, z, w, residual, delta;
  Eigen::VectorXd path_z;                // the path's answer before a polish moves it (FinishPath)
  ComplementaryBasisWorkspace rounding;  // re-solving the final basis (FinishPath)
  FischerBurmeisterWorkspace polish;     // and polishing its answer
  LcpResult polished;
  // Messages: why the path ended, what finished it, every failed run's story.
  std::string path_message, note, failures;
};

// Room kept for one LCP result's message (the longest a solver formats is ~120 characters).
inline constexpr std::size_t kLcpMessageRoom = 256;

// Room in `workspace` for LCPs of up to n rows: a stepper whose LCP grows with its contacts (a box
// landing corner by corner) then meets no new size mid-run (sim::ReserveContacts).
void ReserveLemke(int n, LemkeWorkspace& workspace);

LcpResult SolveLemke(const LcpProblem& problem, const LemkeParams& params = {});
// The same into `result` (its storage reused), working in `workspace`.
void SolveLemke(const LcpProblem& problem, const LemkeParams& params, LemkeWorkspace& workspace,
                LcpResult& result);

}  // namespace coulomb
