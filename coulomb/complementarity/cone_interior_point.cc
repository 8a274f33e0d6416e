#include "coulomb/complementarity/cone_interior_point.h"

#include <fmt/format.h>

#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <vector>

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/friction_cone.h"
#include "coulomb/complementarity/second_order_cone.h"

namespace coulomb {
namespace {

// K = P M + blockdiag(W_i²), the Newton matrix of the scaled system (cone_interior_point.h), with
// P_i = [1 t_iᵀ; 0 I] adding the linearized s_i = μ_i ‖u_T,i‖ to contact i's normal row. K has
// M's block pattern, unsymmetric: dense partial-pivoting LU while small, Eigen's sparse LU
// (supernodal, COLAMD; the pattern is analysed once per solve) above.
class NewtonSystem {
 public:
  NewtonSystem(const Eigen::SparseMatrix<double>& M, bool dense) : M_(M), dense_(dense) {
    if (dense_) M_dense_ = Eigen::MatrixXd(M);
  }

  bool Factor(const std::vector<Eigen::Vector2d>& t, const std::vector<Eigen::Matrix3d>& W2) {
    const int nc = static_cast<int>(t.size());
    if (dense_) {
      K_dense_ = M_dense_;
      for (int i = 0; i < nc; ++i) {
        K_dense_.row(3 * i) +=
            t[i][0] * M_dense_.row(3 * i + 1) + t[i][1] * M_dense_.row(3 * i + 2);
        K_dense_.block<3, 3>(3 * i, 3 * i) += W2[i];
      }
      lu_dense_.compute(K_dense_);
      return std::isfinite(lu_dense_.rcond()) && lu_dense_.rcond() > 1e-300;
    }
    if (slots_.empty()) Pattern(nc);
    // K's values in place, in the order Pattern laid its entries out (no triplets per iteration:
    // building and sorting them was 7 % of the Capsules-i125 solve).
    double* values = K_.valuePtr();
    std::fill(values, values + K_.nonZeros(), 0.0);
    std::size_t k = 0;
    for (int col = 0; col < M_.outerSize(); ++col) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(M_, col); it; ++it) {
        const int row = static_cast<int>(it.row());
        values[slots_[k++]] += it.value();
        if (row % 3 != 0) values[slots_[k++]] += t[row / 3][row % 3 - 1] * it.value();
      }
    }
    for (int i = 0; i < nc; ++i) {
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) values[slots_[k++]] += W2[i](a, b);
      }
    }
    if (!analysed_) {
      lu_.analyzePattern(K_);
      analysed_ = true;
    }
    lu_.factorize(K_);
    return lu_.info() == Eigen::Success;
  }

  // K's pattern (M's entries, each tangential one also in its contact's normal row, and the
  // diagonal blocks), and where each of those contributions lands among K's values.
  void Pattern(int nc) {
    std::vector<Eigen::Triplet<double>> entries;
    for (int col = 0; col < M_.outerSize(); ++col) {
      for (Eigen::SparseMatrix<double>::InnerIterator it(M_, col); it; ++it) {
        const int row = static_cast<int>(it.row());
        entries.emplace_back(row, col, 0.0);
        if (row % 3 != 0) entries.emplace_back(row - row % 3, col, 0.0);
      }
    }
    for (int i = 0; i < nc; ++i) {
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) entries.emplace_back(3 * i + a, 3 * i + b, 0.0);
      }
    }
    K_.resize(M_.rows(), M_.cols());
    K_.setFromTriplets(entries.begin(), entries.end());
    K_.makeCompressed();
    slots_.clear();
    for (const Eigen::Triplet<double>& e : entries) {
      const int* begin = K_.innerIndexPtr() + K_.outerIndexPtr()[e.col()];
      const int* end = K_.innerIndexPtr() + K_.outerIndexPtr()[e.col() + 1];
      slots_.push_back(
          static_cast<int>(std::lower_bound(begin, end, e.row()) - K_.innerIndexPtr()));
    }
  }

  void Solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
    if (dense_) {
      x = lu_dense_.solve(b);
    } else {
      x = lu_.solve(b);
    }
  }

 private:
  const Eigen::SparseMatrix<double>& M_;
  bool dense_;
  Eigen::MatrixXd M_dense_, K_dense_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_dense_;
  std::vector<int> slots_;  // where each contribution to K lands in K_'s values
  Eigen::SparseMatrix<double> K_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;
  bool analysed_ = false;
};

// One iterate's data: the scaled point (x, y) ∈ int L × int L per contact, and what a step
// needs from it.
struct Iterate {
  Eigen::VectorXd x, y, residual;  // residual = y − S û (û: De Saxcé's velocity of r = S x)
  std::vector<soc::NtScaling> scaling;
  std::vector<Eigen::Matrix3d> W2;
  std::vector<Eigen::Vector2d> slip;  // u_T / ‖u_T‖ (zero when u_T = 0 or μ = 0)
};

// The Newton direction for the complementarity right-hand side d (λ_i ∘ (W_i Δx_i + W_i⁻¹ Δy_i)
// = d_i) and the linearized equality Δy − (M + ∂c/∂x) Δx = −residual.
void Direction(const Iterate& at, const NewtonSystem& system, const Eigen::VectorXd& d,
               Eigen::VectorXd& z, Eigen::VectorXd& rhs, Eigen::VectorXd& dx, Eigen::VectorXd& dy) {
  const int nc = static_cast<int>(at.scaling.size());
  for (int i = 0; i < nc; ++i) {
    z.segment<3>(3 * i) = at.scaling[i].W * soc::Divide(at.scaling[i].lambda, d.segment<3>(3 * i));
  }
  rhs = z + at.residual;
  system.Solve(rhs, dx);
  for (int i = 0; i < nc; ++i) {
    dy.segment<3>(3 * i) = z.segment<3>(3 * i) - at.W2[i] * dx.segment<3>(3 * i);
  }
}

// The longest step in [0, 1] that keeps both points in the cone, times `fraction`.
double StepLength(const Iterate& at, const Eigen::VectorXd& dx, const Eigen::VectorXd& dy,
                  double fraction) {
  double step = 1.0 / fraction;
  for (Eigen::Index i = 0; i < at.x.size(); i += 3) {
    step = std::min({step, soc::MaxStep(at.x.segment<3>(i), dx.segment<3>(i)),
                     soc::MaxStep(at.y.segment<3>(i), dy.segment<3>(i))});
  }
  return std::min(1.0, fraction * step);
}

// The vectors one Mehrotra step works in, kept across iterations.
struct StepScratch {
  Eigen::VectorXd d, z, rhs, dx, dy, dx_affine, dy_affine;
  explicit StepScratch(Eigen::Index m)
      : d(m), z(m), rhs(m), dx(m), dy(m), dx_affine(m), dy_affine(m) {}
};

// The start on the cones' axes, scaled so that x₀ y₀ is the size of q's work against W⁻¹.
Iterate InitialIterate(const FrictionContactProblem& problem) {
  const int nc = problem.num_contacts();
  const double q_max = problem.q.cwiseAbs().maxCoeff();
  const double w_max = problem.W.diagonal().cwiseAbs().maxCoeff();
  Iterate at;
  at.x = Eigen::VectorXd::Zero(3 * nc);
  at.y = Eigen::VectorXd::Zero(3 * nc);
  for (int i = 0; i < nc; ++i) {
    at.x[3 * i] = q_max > 0 && w_max > 0 ? q_max / w_max : 1.0;
    at.y[3 * i] = q_max > 0 ? q_max : 1.0;
  }
  at.residual.resize(3 * nc);
  at.scaling.resize(nc);
  at.W2.resize(nc);
  at.slip.resize(nc);
  return at;
}

// At velocities u = W S x + q: the equality residual, the NT scalings and the slip directions of
// every contact. False if a point has left the cones' interior (in floating point).
bool PrepareStep(const Eigen::VectorXd& S, const Eigen::VectorXd& u, const Eigen::VectorXd& mu,
                 Iterate& at) {
  for (int i = 0; i < static_cast<int>(at.scaling.size()); ++i) {
    const Eigen::Vector3d xi = at.x.segment<3>(3 * i), yi = at.y.segment<3>(3 * i);
    if (!soc::Interior(xi) || !soc::Interior(yi)) return false;
    at.residual.segment<3>(3 * i) =
        yi - S.segment<3>(3 * i).cwiseProduct(DeSaxceVelocity(u.segment<3>(3 * i), mu[i]));
    at.scaling[i] = soc::Scale(xi, yi);
    at.W2[i] = at.scaling[i].W * at.scaling[i].W;
    const double slip = u.segment<2>(3 * i + 1).norm();
    at.slip[i] = mu[i] > 0 && slip > 0 ? Eigen::Vector2d(u.segment<2>(3 * i + 1) / slip)
                                       : Eigen::Vector2d::Zero();
  }
  return true;
}

// One Mehrotra predictor–corrector step from `at` (its system factored), gap = xᵀy / n_c; the
// step length taken (0 or NaN: none could keep the iterates interior, and `at` is unchanged).
double MehrotraStep(const NewtonSystem& system, double gap, Iterate& at, StepScratch& w) {
  const int nc = static_cast<int>(at.scaling.size());
  // Predictor (affine scaling): d = −λ ∘ λ.
  for (int i = 0; i < nc; ++i) {
    const Eigen::Vector3d& lambda = at.scaling[i].lambda;
    w.d.segment<3>(3 * i) = -soc::Product(lambda, lambda);
  }
  Direction(at, system, w.d, w.z, w.rhs, w.dx_affine, w.dy_affine);
  const double affine_step = StepLength(at, w.dx_affine, w.dy_affine, 1.0);
  const double affine_gap =
      (at.x + affine_step * w.dx_affine).dot(at.y + affine_step * w.dy_affine) / nc;
  const double centring = std::pow(std::clamp(affine_gap / gap, 0.0, 1.0), 3);
  // Corrector: Mehrotra's second-order term and the centring target σ μ e.
  for (int i = 0; i < nc; ++i) {
    const soc::NtScaling& s = at.scaling[i];
    w.d.segment<3>(3 * i) -= soc::Product(s.W_inverse * w.dy_affine.segment<3>(3 * i),
                                          s.W * w.dx_affine.segment<3>(3 * i));
    w.d[3 * i] += centring * gap;
  }
  Direction(at, system, w.d, w.z, w.rhs, w.dx, w.dy);
  const double step = StepLength(at, w.dx, w.dy, 0.99);
  if (step > 0) {
    at.x += step * w.dx;
    at.y += step * w.dy;
  }
  return step;
}

}  // namespace

FrictionContactResult SolveConeInteriorPoint(const FrictionContactProblem& problem,
                                             const ConeInteriorPointParams& params,
                                             NonsmoothNewtonWorkspace* workspace) {
  const Stopwatch clock;
  if (std::string defect = ValidateFrictionContactProblem(problem); !defect.empty()) {
    return MakeBadFrictionContactResult("ipm", defect);
  }
  const int nc = problem.num_contacts();
  const Eigen::Index m = 3 * nc;
  FrictionContactResult result;
  result.solver = "ipm";
  const double q_norm = problem.q.norm();
  Eigen::VectorXd S = Eigen::VectorXd::Ones(m);
  for (int i = 0; i < nc; ++i) S.segment<2>(3 * i + 1).setConstant(problem.mu[i]);
  const Eigen::SparseMatrix<double> M = S.asDiagonal() * problem.W * S.asDiagonal();
  NewtonSystem system(M, m <= params.max_dense_rows);
  Iterate at = InitialIterate(problem);
  StepScratch scratch(m);
  Eigen::VectorXd r(m), u(m), best_r = Eigen::VectorXd::Zero(m);
  double best_error = INFINITY;
  LcpStatus status = LcpStatus::kIterationLimit;
  const char* stop = "iteration limit";
  int iteration = 0;
  for (;; ++iteration) {
    r = S.cwiseProduct(at.x);
    u.noalias() = problem.W * r;
    u += problem.q;
    const double error = AbhErrorOfVelocities(r, u, problem.mu, q_norm);
    if (error < best_error) best_error = error, best_r = r;
    if (error <= params.tolerance) {
      status = LcpStatus::kSolved;
      break;
    }
    if (iteration == params.max_iterations) break;
    if (params.deadline.Passed()) {
      status = LcpStatus::kTimeLimit, stop = "time limit";
      break;
    }
    const double gap = at.x.dot(at.y) / nc;
    if (!(gap > 0 && std::isfinite(gap)) || !PrepareStep(S, u, problem.mu, at) ||
        !system.Factor(at.slip, at.W2)) {
      status = LcpStatus::kStalled, stop = "the iterates reached the cones' boundary";
      break;
    }
    if (!(MehrotraStep(system, gap, at, scratch) > 0)) {
      status = LcpStatus::kStalled, stop = "no step keeps the iterates interior";
      break;
    }
  }
  result.iterations = iteration;
  result.message = fmt::format("interior point: {} iterations ({}), error {:.3g}", iteration,
                               status == LcpStatus::kSolved ? "solved" : stop, best_error);
  if (status != LcpStatus::kSolved && params.polish_iterations > 0 && !params.deadline.Passed()) {
    NonsmoothNewtonParams newton;
    newton.tolerance = params.tolerance;
    newton.max_iterations = params.polish_iterations;
    newton.deadline = params.deadline;
    FrictionContactResult polish = SolveNonsmoothNewton(problem, newton, best_r, workspace);
    result.iterations += polish.iterations;
    result.message += fmt::format("; Newton polish: {} iterations, error {:.3g}", polish.iterations,
                                  polish.error);
    if (polish.solved() || polish.error < best_error) {
      best_r = polish.r;
      status = polish.status;
    }
  }
  std::string message = std::move(result.message);
  SetFrictionContactAnswer(problem, best_r, status, params.tolerance, result);
  result.message = result.message.empty() ? std::move(message) : message + "; " + result.message;
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
