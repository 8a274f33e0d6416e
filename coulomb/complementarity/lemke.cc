#include "coulomb/complementarity/lemke.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "coulomb/base/random.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/complementary_basis.h"
#include "coulomb/complementarity/fischer_burmeister_newton.h"
#include "coulomb/complementarity/lcp_scaling.h"
#include "coulomb/math/dense_resize.h"

namespace coulomb {
namespace {

// Refactorizations allowed per run when the right-hand side drifts negative.
constexpr int kMaxDriftRefactorizations = 5;

// How a path ended; why it failed, if it did, is in the workspace's path_message.
struct PathOutcome {
  LcpStatus status = LcpStatus::kIterationLimit;
  int pivots = 0;
};

// One complementary path of Lemke's method on  w − M z − d z0 = q  (already scaled).
// Variables are numbered w_0..w_{n−1}, z_0..z_{n−1} (offset n), z0 (index 2n).
class LemkePath {
 public:
  // The path's storage is the workspace's, swapped in for the path's life and back when it
  // ends (O(1) swaps): a path on a warm workspace allocates nothing, and its hot loops reach
  // their arrays directly rather than through references (measured: +7 % on a one-contact
  // sliding step through references).
  LemkePath(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& cover,
            const LemkeParams& params, LemkeWorkspace& ws)
      : M_(M), q_(q), cover_(cover), params_(params), n_(static_cast<int>(q.size())), ws_(ws) {
    SwapStorage();
  }
  ~LemkePath() { SwapStorage(); }
  LemkePath(const LemkePath&) = delete;
  LemkePath& operator=(const LemkePath&) = delete;

  PathOutcome Run(int max_pivots);

  // Values of z in the scaled problem read off the final basis after `steps` rounds of
  // iterative refinement against the *original* data (z = D ẑ), into the workspace's z; see
  // docs/notes/complementarity.md §1.3.
  const Eigen::VectorXd& RefinedSolution(const LcpProblem& original, const Eigen::VectorXd& d,
                                         int steps);
  // Indicator of the z variables in the final basis, into `in_basis`.
  const std::vector<char>& ZBasis(std::vector<char>& in_basis) const;

 private:
  int Z0() const { return 2 * n_; }
  bool IsW(int var) const { return var < n_; }
  int Complement(int var) const { return var < n_ ? var + n_ : var - n_; }
  // Appends the variable's name ("w[3]", "artificial z0") to `out`.
  void AppendVariableName(int var, std::string& out) const {
    if (var == Z0()) {
      out += "artificial z0";
    } else {
      fmt::format_to(std::back_inserter(out), "{}[{}]", IsW(var) ? 'w' : 'z',
                     IsW(var) ? var : var - n_);
    }
  }

  double BinvEntry(int row, int col) const {
    return unit_row_[col] >= 0 ? (unit_row_[col] == row ? 1.0 : 0.0) : binv_(row, col);
  }
  // out = B⁻¹ (sign · v), sign ±1 (the negation is exact, so no temporary −v is formed).
  void ApplyBinv(const Eigen::Ref<const Eigen::VectorXd>& v, double sign,
                 Eigen::VectorXd& out) const;
  void EnteringColumn(int var, Eigen::VectorXd& a) const;
  int RatioTest(const Eigen::VectorXd& a) const;
  int LexicographicMin(std::vector<int>& rows, const Eigen::VectorXd& divisor) const;
  void Pivot(int row, int var, const Eigen::VectorXd& a);
  void Refactorize();
  void StoreColumn(int col);
  void DropColumn(int col);
  // True when z0 is basic at (numerically) zero: every almost-complementary basic feasible point
  // with z0 = 0 solves the LCP, even if z0 has not formally left the basis.
  bool ArtificialIsZero() const {
    return params_.certify_failed_runs && row_of_[Z0()] >= 0 &&
           qbar_[row_of_[Z0()]] <= drift_tolerance_;
  }
  // Clamps tiny negative basic values; returns false when one is beyond the drift tolerance.
  bool CleanRightHandSide();

  const Eigen::MatrixXd& M_;
  const Eigen::VectorXd& q_;
  const Eigen::VectorXd& cover_;
  const LemkeParams& params_;
  int n_;
  LemkeWorkspace& ws_;

  void SwapStorage() {
    binv_.swap(ws_.binv);
    unit_row_.swap(ws_.unit_row);
    stored_.swap(ws_.stored);
    stored_pos_.swap(ws_.stored_pos);
    basic_.swap(ws_.basic);
    row_of_.swap(ws_.row_of);
    qbar_.swap(ws_.qbar);
    ties_.swap(ws_.ties);
    lexico_values_.swap(ws_.lexico_values);
  }

  Eigen::MatrixXd binv_;         // nontrivial columns of B⁻¹ (those of nonbasic w's)
  std::vector<int> unit_row_;    // for w_i basic: its row (column i of B⁻¹ is e_row); else −1
  std::vector<int> stored_;      // columns held in binv_
  std::vector<int> stored_pos_;  // position of a column in stored_, −1 if absent
  std::vector<int> basic_;       // variable basic in each row
  std::vector<int> row_of_;      // row of each basic variable, −1 if nonbasic
  Eigen::VectorXd qbar_;         // B⁻¹ q: the values of the basic variables
  // The ratio test's scratch, kept across pivots so that a pivot allocates nothing.
  mutable std::vector<int> ties_;
  mutable std::vector<double> lexico_values_;
  double drift_tolerance_ = 0;
};

void LemkePath::ApplyBinv(const Eigen::Ref<const Eigen::VectorXd>& v, double sign,
                          Eigen::VectorXd& out) const {
  math::ResizeKeepingStorage(out, n_);
  out.setZero();
  for (int i = 0; i < n_; ++i) {
    const double c = sign * v[i];
    if (c == 0.0) continue;
    if (unit_row_[i] >= 0) {
      out[unit_row_[i]] += c;
    } else {
      out.noalias() += c * binv_.col(i);
    }
  }
}

void LemkePath::EnteringColumn(int var, Eigen::VectorXd& a) const {
  if (IsW(var)) {
    math::ResizeKeepingStorage(a, n_);
    a = binv_.col(var);  // w_var is nonbasic, so its column is stored
  } else if (var == Z0()) {
    ApplyBinv(cover_, -1.0, a);
  } else {
    ApplyBinv(M_.col(var - n_), -1.0, a);
  }
}

void LemkePath::StoreColumn(int col) {
  stored_pos_[col] = static_cast<int>(stored_.size());
  stored_.push_back(col);
}

void LemkePath::DropColumn(int col) {
  const int pos = stored_pos_[col];
  const int last = stored_.back();
  stored_[pos] = last;
  stored_pos_[last] = pos;
  stored_.pop_back();
  stored_pos_[col] = -1;
}

int LemkePath::LexicographicMin(std::vector<int>& rows, const Eigen::VectorXd& divisor) const {
  // Lexicographic minimum of the rows of B⁻¹ divided by the pivot column; B⁻¹ is nonsingular,
  // so in exact arithmetic exactly one row survives and no basis can repeat (no cycling).
  std::vector<double>& values = lexico_values_;
  values.resize(rows.size());
  for (int col = 0; col < n_ && rows.size() > 1; ++col) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t t = 0; t < rows.size(); ++t) {
      values[t] = BinvEntry(rows[t], col) / divisor[rows[t]];
      best = std::min(best, values[t]);
    }
    const double limit = best + params_.lexico_tolerance * (1.0 + std::abs(best));
    std::size_t kept = 0;
    for (std::size_t t = 0; t < rows.size(); ++t) {
      if (values[t] <= limit) {
        rows[kept] = rows[t];
        values[kept] = values[t];
        ++kept;
      }
    }
    rows.resize(kept);
  }
  // Indistinguishable within tolerance: prefer the largest pivot (Harris-style stability).
  return *std::max_element(rows.begin(), rows.end(), [&](int a, int b) {
    return std::abs(divisor[a]) < std::abs(divisor[b]);
  });
}

int LemkePath::RatioTest(const Eigen::VectorXd& a) const {
  const double threshold = params_.pivot_tolerance * std::max(1.0, a.cwiseAbs().maxCoeff());
  double r_min = std::numeric_limits<double>::infinity();
  for (int r = 0; r < n_; ++r) {
    if (a[r] > threshold) r_min = std::min(r_min, std::max(qbar_[r], 0.0) / a[r]);
  }
  if (!std::isfinite(r_min)) return -1;
  const double limit = r_min + params_.tie_tolerance * (1.0 + std::abs(r_min));
  std::vector<int>& ties = ties_;
  ties.clear();
  const int z0_row = row_of_[Z0()];
  for (int r = 0; r < n_; ++r) {
    if (a[r] > threshold && std::max(qbar_[r], 0.0) / a[r] <= limit) {
      // z0 leaving ends the path with a solution: always prefer it (CPS §4.4).
      if (r == z0_row) return r;
      ties.push_back(r);
    }
  }
  return ties.size() == 1 ? ties[0] : LexicographicMin(ties, a);
}

void LemkePath::Pivot(int row, int var, const Eigen::VectorXd& a) {
  const int leaving = basic_[row];
  if (IsW(leaving)) {
    // Its column of B⁻¹ was e_row; from now on it is nontrivial.
    binv_.col(leaving).setZero();
    binv_(row, leaving) = 1.0;
    unit_row_[leaving] = -1;
    StoreColumn(leaving);
  }
  // B⁻¹ ← E B⁻¹ with the eta matrix E = I − (a − e_row) e_rowᵀ / a_row. Unit columns of basic
  // w's have a zero in `row`, so they are unchanged.
  const double inv_pivot = 1.0 / a[row];
  for (int col : stored_) {
    const double f = binv_(row, col) * inv_pivot;
    if (f != 0.0) {
      binv_.col(col).noalias() -= f * a;
      binv_(row, col) = f;
    }
  }
  const double f = qbar_[row] * inv_pivot;
  qbar_.noalias() -= f * a;
  qbar_[row] = f;
  if (IsW(var)) {
    unit_row_[var] = row;  // E a = e_row
    DropColumn(var);
  }
  row_of_[leaving] = -1;
  row_of_[var] = row;
  basic_[row] = var;
}

void LemkePath::Refactorize() {
  Eigen::Map<Eigen::MatrixXd> B = math::PrepareLu(ws_.lu, n_);
  for (int r = 0; r < n_; ++r) {
    const int var = basic_[r];
    if (IsW(var)) {
      B.col(r) = Eigen::VectorXd::Unit(n_, var);
    } else if (var == Z0()) {
      B.col(r) = -cover_;
    } else {
      B.col(r) = -M_.col(var - n_);
    }
  }
  math::FactorLu(ws_.lu);
  // Only the stored (nontrivial) columns of B⁻¹ are needed: solve for those, not the inverse,
  // all at once (one blocked solve costs far less than a solve per column at these sizes).
  Eigen::MatrixXd& unit = ws_.unit;
  const auto stored = static_cast<Eigen::Index>(stored_.size());
  // Room for every column at once, so that the stored count's growth along a path allocates
  // nothing.
  if (math::StorageCapacity(unit) < static_cast<Eigen::Index>(n_) * n_) {
    math::ResizeKeepingStorage(unit, n_, n_);
  }
  math::ResizeKeepingStorage(unit, n_, stored);
  unit.setZero();
  for (Eigen::Index j = 0; j < stored; ++j) unit(stored_[static_cast<std::size_t>(j)], j) = 1.0;
  math::SolveLuColumnsInPlace(ws_.lu, unit);
  for (Eigen::Index j = 0; j < stored; ++j) {
    binv_.col(stored_[static_cast<std::size_t>(j)]) = unit.col(j);
  }
  math::ResizeKeepingStorage(qbar_, n_);
  qbar_ = q_;
  math::SolveLuInPlace(ws_.lu, qbar_);
}

bool LemkePath::CleanRightHandSide() {
  bool ok = true;
  for (int r = 0; r < n_; ++r) {
    if (qbar_[r] < 0.0) {
      if (qbar_[r] >= -drift_tolerance_) {
        qbar_[r] = 0.0;
      } else {
        ok = false;
      }
    }
  }
  return ok;
}

PathOutcome LemkePath::Run(int max_pivots) {
  PathOutcome out;
  math::ResizeKeepingStorage(binv_, n_, n_);
  unit_row_.resize(n_);
  stored_pos_.assign(n_, -1);
  stored_.clear();
  stored_.reserve(static_cast<std::size_t>(n_));  // at most every column: none stored mid-path
  basic_.resize(n_);
  row_of_.assign(2 * n_ + 1, -1);
  for (int i = 0; i < n_; ++i) {
    unit_row_[i] = i;
    basic_[i] = i;
    row_of_[i] = i;
  }
  math::ResizeKeepingStorage(qbar_, n_);
  qbar_ = q_;
  drift_tolerance_ = 1e-12 * std::max(1.0, q_.lpNorm<Eigen::Infinity>());

  // Initial pivot: z0 enters at the level that makes every w_i ≥ 0; the row that leaves is
  // the lexicographic minimum of (q_i, e_iᵀ)/d_i (ties go to the largest index).
  Eigen::VectorXd& a = ws_.column;
  EnteringColumn(Z0(), a);
  double ratio_min = std::numeric_limits<double>::infinity();
  for (int r = 0; r < n_; ++r) ratio_min = std::min(ratio_min, q_[r] / cover_[r]);
  std::vector<int>& ties = ties_;
  ties.clear();
  const double limit = ratio_min + params_.tie_tolerance * (1.0 + std::abs(ratio_min));
  for (int r = 0; r < n_; ++r) {
    if (q_[r] / cover_[r] <= limit) ties.push_back(r);
  }
  const int first_row = ties.size() == 1 ? ties[0] : LexicographicMin(ties, cover_);
  int leaving = basic_[first_row];
  Pivot(first_row, Z0(), a);
  out.pivots = 1;
  CleanRightHandSide();

  int drift_refactorizations = 0;
  while (true) {
    if (out.pivots >= max_pivots) {
      out.status = LcpStatus::kIterationLimit;
      fmt::format_to(std::back_inserter(ws_.path_message), "pivot limit {} reached", max_pivots);
      return out;
    }
    const int entering = Complement(leaving);
    EnteringColumn(entering, a);
    int row = RatioTest(a);
    if (row < 0 && ArtificialIsZero()) {
      // Degenerate end: z0 sits at 0 in the basis, so the current almost-complementary point is
      // complementary already (the entering variable and its complement are both 0).
      out.status = LcpStatus::kSolved;
      return out;
    }
    if (row < 0) {
      // Before calling it a ray, make sure it is not an artefact of a drifted B⁻¹
      // (docs/notes/complementarity.md §1.3).
      Refactorize();
      CleanRightHandSide();
      EnteringColumn(entering, a);
      row = RatioTest(a);
      if (row < 0) {
        out.status = LcpStatus::kSecondaryRay;
        fmt::format_to(std::back_inserter(ws_.path_message), "secondary ray after {} pivots (",
                       out.pivots);
        AppendVariableName(entering, ws_.path_message);
        ws_.path_message += " unblocked)";
        return out;
      }
    }
    leaving = basic_[row];
    Pivot(row, entering, a);
    ++out.pivots;
    if (!CleanRightHandSide() && drift_refactorizations < kMaxDriftRefactorizations) {
      ++drift_refactorizations;
      Refactorize();
      CleanRightHandSide();
    }
    if (leaving == Z0() || ArtificialIsZero()) {
      out.status = LcpStatus::kSolved;
      return out;
    }
  }
}

const std::vector<char>& LemkePath::ZBasis(std::vector<char>& in_basis) const {
  in_basis.assign(static_cast<std::size_t>(n_), 0);
  for (int j = 0; j < n_; ++j) in_basis[j] = row_of_[n_ + j] >= 0 ? 1 : 0;
  return in_basis;
}

const Eigen::VectorXd& LemkePath::RefinedSolution(const LcpProblem& original,
                                                  const Eigen::VectorXd& d, int steps) {
  Eigen::VectorXd& x = ws_.x;
  math::ResizeKeepingStorage(x, n_);
  x = qbar_;
  Eigen::VectorXd& z = ws_.z;
  Eigen::VectorXd& residual = ws_.residual;
  Eigen::VectorXd& delta = ws_.delta;
  Eigen::VectorXd& w = ws_.w;
  math::ResizeKeepingStorage(z, n_);
  math::ResizeKeepingStorage(residual, n_);
  math::ResizeKeepingStorage(w, n_);
  const auto read_z = [&] {
    z.setZero();
    for (int j = 0; j < n_; ++j) {
      if (row_of_[n_ + j] >= 0) z[j] = d[j] * x[row_of_[n_ + j]];
    }
  };
  for (int step = 0; step < steps; ++step) {
    read_z();
    // Residual of B x = D q in terms of the original data: D (M z + q) − ŵ_basic.
    w.noalias() = original.M * z;  // then + q: the rounding of M z + q
    w += original.q;
    for (int i = 0; i < n_; ++i) {
      residual[i] = d[i] * w[i] - (row_of_[i] >= 0 ? x[row_of_[i]] : 0.0);
    }
    ApplyBinv(residual, 1.0, delta);
    x += delta;
  }
  read_z();
  return z;
}

// Turns a terminated path into a certified answer in the workspace's z
// (docs/notes/complementarity.md §1.3 "certify, don't trust"). Newton polishing (O(n³) per step) is
// spent only on paths that ended properly.
const Eigen::VectorXd& FinishPath(const LcpProblem& problem, LemkePath& path,
                                  const Eigen::VectorXd& d, const LemkeParams& params,
                                  bool allow_polish, LemkeWorkspace& ws) {
  std::string& note = ws.note;
  Eigen::VectorXd& z = ws.z;
  path.RefinedSolution(problem, d, 2);
  if (CertifyLcp(problem, z, &ws.w).Passes(params.acceptance_tolerance)) return z;
  ComplementaryBasisWorkspace& basis = ws.rounding;
  if (SolveComplementaryBasis(problem, path.ZBasis(basis.guess), nullptr, basis)) {
    if (CertifyLcp(problem, basis.z, &basis.w).Worst() < CertifyLcp(problem, z, &ws.w).Worst()) {
      z = basis.z;
      note = "basis re-solved with a fresh LU";
    }
  }
  math::ResizeKeepingStorage(ws.path_z, z.size());
  ws.path_z = z;
  if (params.polish && allow_polish &&
      !CertifyLcp(problem, z, &ws.w).Passes(params.acceptance_tolerance)) {
    FischerBurmeisterParams polish;
    polish.max_iterations = 20;
    polish.acceptance_tolerance = params.acceptance_tolerance;
    LcpResult& polished = ws.polished;
    SolveFischerBurmeister(problem, polish, &z, ws.polish, polished);
    if (polished.certificate.Worst() < CertifyLcp(problem, z, &ws.w).Worst()) {
      z = polished.z;
      note = "polished by Fischer-Burmeister Newton";
    }
  }
  // A hyperstatic contact set (a finger on its joint stop and on the palm, both blocking one
  // motion) makes the final basis singular: its z is right to rounding, but the refinement's
  // inverse amplifies that rounding (the Ability hand missed the certificate by 1.3e-10 against
  // 1e-10). The support z > w, re-solved as the point of its affine solution set closest to z,
  // keeps z's signs and removes the rounding (3.9e-11 there). Last, since the polish usually
  // certifies first and this costs a dense decomposition of the support; from the path's z, which
  // the polish may have moved off that support.
  if (!CertifyLcp(problem, z, &ws.w).Passes(params.acceptance_tolerance)) {
    CertifyLcp(problem, ws.path_z, &ws.w);
    if (SolveComplementaryBasis(problem, GuessBasis(ws.path_z, ws.w, basis), &ws.path_z, basis)) {
      if (CertifyLcp(problem, basis.z, &basis.w).Worst() < CertifyLcp(problem, z, &ws.w).Worst()) {
        z = basis.z;
        note = "basis re-solved as the solution nearest the path's (a singular basis)";
      }
    }
  }
  return z;
}

// A line per run, each at most a path message long.
std::size_t FailureRoom(const LemkeParams& params) {
  return static_cast<std::size_t>(params.max_restarts + 1) * 160;
}

}  // namespace

void ReserveLemke(int n, LemkeWorkspace& ws) {
  const auto size = static_cast<std::size_t>(n);
  for (Eigen::MatrixXd* m : {&ws.scaled.M, &ws.binv, &ws.unit}) {
    if (math::StorageCapacity(*m) < static_cast<Eigen::Index>(n) * n) {
      math::ResizeKeepingStorage(*m, n, n);
    }
  }
  for (Eigen::VectorXd* v : {&ws.scaled.q, &ws.d, &ws.ones, &ws.cover, &ws.qbar, &ws.column, &ws.x,
                             &ws.z, &ws.w, &ws.residual, &ws.delta, &ws.path_z}) {
    math::ReserveStorage(*v, n);
  }
  for (std::vector<int>* v : {&ws.unit_row, &ws.stored, &ws.stored_pos, &ws.basic, &ws.ties}) {
    v->reserve(size);
  }
  ws.row_of.reserve(2 * size + 1);
  ws.lexico_values.reserve(size);
  math::ReserveLu(ws.lu, n);
  ReserveComplementaryBasis(n, ws.rounding);
  // The stories a path tells (a certificate's miss, a polish's outcome) are formatted into these.
  for (std::string* text : {&ws.path_message, &ws.note, &ws.polished.message}) {
    text->reserve(kLcpMessageRoom);
  }
  ws.failures.reserve(FailureRoom(LemkeParams{}));
}

LcpResult SolveLemke(const LcpProblem& problem, const LemkeParams& params) {
  LemkeWorkspace workspace;
  LcpResult result;
  SolveLemke(problem, params, workspace, result);
  return result;
}

void SolveLemke(const LcpProblem& problem, const LemkeParams& params, LemkeWorkspace& ws,
                LcpResult& result) {
  const Stopwatch clock;
  if (std::string defect = ValidateLcp(problem); !defect.empty()) {
    result = MakeBadInputResult("lemke", std::move(defect));
    return;
  }
  result.solver = "lemke";
  result.status = LcpStatus::kBadInput;
  result.iterations = 0;
  result.restarts = 0;
  result.message.clear();
  const int n = problem.size();
  if (n == 0 || problem.q.minCoeff() >= 0.0) {  // z = 0 solves it (also the n = 0 case)
    math::ResizeKeepingStorage(ws.z, n);
    ws.z.setZero();
    SetAnswer(problem, ws.z, LcpStatus::kSolved, params.acceptance_tolerance, result);
    result.seconds = clock.Seconds();
    return;
  }
  if (params.scale) {
    ComputeLcpScaling(problem.M, ws.d);
  } else {
    math::ResizeKeepingStorage(ws.d, n);
    ws.d.setOnes();
  }
  ScaleLcp(problem, ws.d, ws.scaled);
  math::ResizeKeepingStorage(ws.ones, n);
  ws.ones.setOnes();
  const int max_pivots = params.max_pivots > 0 ? params.max_pivots : std::max(1000, 20 * n);
  SplitMix64 rng(params.seed);
  Eigen::VectorXd& cover = ws.cover;
  math::ResizeKeepingStorage(cover, n);
  cover.setOnes();
  std::string& failures = ws.failures;
  failures.clear();
  // A line per run, each at most a path message long: room for all of them once, not a new
  // block whenever a longer failure story is told.
  failures.reserve(FailureRoom(params));
  for (int run = 0; run <= params.max_restarts; ++run) {
    // Each run follows a different complementary path: with scaling enabled, odd runs drop it
    // (a different D changes the path as much as a covering vector does); from the third run
    // on, covering vectors are random (paper 1 §6).
    const bool use_scaling = params.scale && run % 2 == 0;
    if (run >= (params.scale ? 2 : 1)) {
      for (int i = 0; i < n; ++i) cover[i] = rng.Uniform(0.1, 1.0);
    }
    if (run > 0) result.restarts = run;
    const LcpProblem& system = use_scaling ? ws.scaled : problem;
    const Eigen::VectorXd& d = use_scaling ? ws.d : ws.ones;
    LemkePath path(system.M, system.q, cover, params, ws);
    const PathOutcome outcome = path.Run(max_pivots);
    result.iterations += outcome.pivots;
    // Certify, don't trust (docs/notes/complementarity.md §1.3), in both directions: a "solved"
    // path may have drifted, and a "ray" or a pivot cap often ends with z0 already ≈ 0, i.e. on a
    // solution that the re-solve of the final complementary basis recovers exactly.
    ws.note.clear();
    ws.path_message.clear();
    const bool ended = outcome.status == LcpStatus::kSolved;
    if (!ended && !params.certify_failed_runs) {
      SetAnswer(problem, path.RefinedSolution(problem, d, 0), outcome.status,
                params.acceptance_tolerance, result);
      fmt::format_to(std::back_inserter(failures), "run {}: {}; ", run + 1, ws.path_message);
      continue;
    }
    const Eigen::VectorXd& z = FinishPath(problem, path, d, params, ended, ws);
    SetAnswer(problem, z, LcpStatus::kSolved, params.acceptance_tolerance, result);
    if (result.solved()) {
      if (outcome.status == LcpStatus::kSolved) {
        result.message = ws.note;
      } else {
        result.message.clear();
        fmt::format_to(std::back_inserter(result.message),
                       "{} with z0 near 0: final basis certified", ws.path_message);
      }
      break;
    }
    fmt::format_to(std::back_inserter(failures), "run {}: {}; ", run + 1,
                   outcome.status == LcpStatus::kSolved ? result.message : ws.path_message);
    if (outcome.status != LcpStatus::kSolved) result.status = outcome.status;
  }
  if (!result.solved()) {
    result.message.assign(failures, 0, failures.size() >= 2 ? failures.size() - 2 : 0);
  }
  result.seconds = clock.Seconds();
}

}  // namespace coulomb
