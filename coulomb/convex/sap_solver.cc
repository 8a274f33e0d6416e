#include "coulomb/convex/sap_solver.h"

#include <fmt/format.h>

#include <cmath>

#include "coulomb/base/name_table.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/convex/sap_model.h"
#include "coulomb/convex/sap_newton_direction.h"

namespace coulomb::convex {
namespace {

constexpr NameTable<SapStatus, 5> kStatusNames = {{
    {SapStatus::kConverged, "converged"},
    {SapStatus::kIterationLimit, "iteration_limit"},
    {SapStatus::kLineSearchFailed, "line_search_failed"},
    {SapStatus::kNotPositiveDefinite, "not_positive_definite"},
    {SapStatus::kBadInput, "bad_input"},
}};

constexpr NameTable<SapSolverParams::LineSearch, 2> kLineSearchNames = {{
    {SapSolverParams::LineSearch::kExact, "exact"},
    {SapSolverParams::LineSearch::kBacktracking, "backtracking"},
}};

constexpr NameTable<math::CholeskyMethod, 3> kCholeskyNames = {{
    {math::CholeskyMethod::kAuto, "auto"},
    {math::CholeskyMethod::kSupernodal, "supernodal"},
    {math::CholeskyMethod::kSimplicial, "simplicial"},
}};

constexpr NameTable<math::FillOrdering, 2> kOrderingNames = {{
    {math::FillOrdering::kAmd, "amd"},
    {math::FillOrdering::kMetis, "metis"},
}};

// ℓ, ∇ℓ and the impulses at one iterate.
struct Iterate {
  Eigen::VectorXd v, v_c;
  ConstraintsEvaluation constraints;
  double cost = 0;
  Eigen::VectorXd gradient;
};

Iterate Evaluate(const SapProblem& problem, const SapModel& model, Eigen::VectorXd v,
                 bool with_hessian) {
  Iterate it;
  it.v = std::move(v);
  it.v_c = model.J * it.v;
  it.constraints = EvaluateConstraints(problem, model, it.v_c, with_hessian);
  const Eigen::VectorXd dv = it.v - model.v_star;
  const Eigen::VectorXd momentum = model.A * dv;
  it.cost = 0.5 * dv.dot(momentum) + it.constraints.cost;
  it.gradient = momentum - model.J.transpose() * it.constraints.gamma;
  return it;
}

// The stopping test's two sides: ‖D^(−½) ∇ℓ‖ and abs + rel · max(‖D^(−½) A v‖, ‖D^(−½) Jᵀγ‖).
void MeasureResidual(const SapModel& model, const Iterate& it, const SapSolverParams& params,
                     SapResult& out) {
  const auto D = model.inverse_sqrt_diagonal.asDiagonal();
  const double scale = std::max((D * (model.A * it.v)).norm(),
                                (D * (model.J.transpose() * it.constraints.gamma)).norm());
  out.residual = (D * it.gradient).norm();
  out.residual_bound = params.abs_tolerance + params.rel_tolerance * scale;
}

// ℓ along v + α Δv in O(nv + rows) per sample (docs/notes/sap-and-deformables.md §1.5): the
// quadratic part from Δp = A Δv and Δvᵀ A Δv, the constraints re-evaluated at v_c + α Δv_c.
class LineOfDescent {
 public:
  LineOfDescent(const SapProblem& problem, const SapModel& model, const Iterate& it,
                const Eigen::VectorXd& dv)
      : problem_(problem), model_(model), it_(it), dv_c_(model.J * dv) {
    const Eigen::VectorXd dp = model.A * dv;
    quadratic0_ = 0.5 * (it.v - model.v_star).dot(model.A * (it.v - model.v_star));
    slope0_ = dp.dot(it.v - model.v_star);
    curvature_ = dv.dot(dp);
  }
  math::LineSample operator()(double alpha) const {
    const ConstraintsEvaluation e =
        EvaluateConstraints(problem_, model_, it_.v_c + alpha * dv_c_, true);
    math::LineSample s;
    s.cost = quadratic0_ + alpha * slope0_ + 0.5 * alpha * alpha * curvature_ + e.cost;
    s.slope = slope0_ + alpha * curvature_ - dv_c_.dot(e.gamma);
    s.curvature = curvature_;
    for (std::size_t i = 0; i < e.G.size(); ++i) {
      const int r = static_cast<int>(e.G[i].rows());
      const ConstraintVector d = dv_c_.segment(model_.row_offset[i], r);
      s.curvature += d.dot(e.G[i] * d);
    }
    return s;
  }

 private:
  const SapProblem& problem_;
  const SapModel& model_;
  const Iterate& it_;
  Eigen::VectorXd dv_c_;
  double quadratic0_ = 0, slope0_ = 0, curvature_ = 0;
};

}  // namespace

std::string_view ToString(SapStatus status) {
  return NameOf(kStatusNames, status);
}

std::string_view ToString(SapSolverParams::LineSearch kind) {
  return NameOf(kLineSearchNames, kind);
}

std::optional<SapSolverParams::LineSearch> ParseLineSearch(std::string_view name) {
  return KindNamed(kLineSearchNames, name);
}

std::string_view ToString(math::CholeskyMethod kind) {
  return NameOf(kCholeskyNames, kind);
}

std::optional<math::CholeskyMethod> ParseSparseCholesky(std::string_view name) {
  return KindNamed(kCholeskyNames, name);
}

std::string_view ToString(math::FillOrdering kind) {
  return NameOf(kOrderingNames, kind);
}

std::optional<math::FillOrdering> ParseFillOrdering(std::string_view name) {
  return KindNamed(kOrderingNames, name);
}

SapResult SolveSap(const SapProblem& problem, const SapSolverParams& params,
                   const Eigen::VectorXd& v_guess, math::CholeskyFactor* factorization) {
  const Stopwatch clock;
  SapResult out;
  out.message = ValidateSapProblem(problem);
  if (v_guess.size() != 0 && v_guess.size() != problem.nv()) {
    out.message =
        fmt::format("warm start has {} entries, expected {}", v_guess.size(), problem.nv());
  }
  if (!out.message.empty()) return out;
  math::CholeskyFactor local_factorization;
  math::CholeskyFactor& factor = factorization ? *factorization : local_factorization;
  const SapModel model = MakeSapModel(problem);
  SapHessian hessian(problem, model);
  out.participating_velocities = model.size;
  const bool warm = v_guess.size() == problem.nv() && v_guess.allFinite();
  Iterate it = Evaluate(problem, model,
                        warm ? GatherParticipating(problem, model, v_guess) : model.v_star, true);
  out.status = SapStatus::kIterationLimit;
  bool cost_stalled = false;
  for (;; ++out.iterations) {
    MeasureResidual(model, it, params, out);
    if (out.residual <= out.residual_bound || cost_stalled) {
      out.status = SapStatus::kConverged;
      break;
    }
    if (out.iterations >= params.max_iterations) {
      out.message = fmt::format(
          "SAP: no convergence in {} Newton iterations (residual {:.3g} > {:.3g}); raise "
          "max_iterations or rel_tolerance, or reduce the time step",
          params.max_iterations, out.residual, out.residual_bound);
      break;
    }
    const NewtonDirection direction = SolveNewtonDirection(
        hessian.Assemble(it.constraints.G), it.gradient, model.inverse_sqrt_diagonal,
        model.participating, params.linear_solver, params.ordering, params.lagged, factor);
    out.factor_seconds += direction.factor_seconds;
    out.factorizations += direction.factored ? 1 : 0;
    out.cg_iterations += direction.cg_iterations;
    if (!direction.ok) {
      out.status = SapStatus::kNotPositiveDefinite;
      out.message =
          "SAP: the Newton Hessian A + JᵀGJ is not positive definite; check the "
          "masses and inertias (A must be SPD)";
      break;
    }
    const Eigen::VectorXd& dv = direction.dv;
    const LineOfDescent line(problem, model, it, dv);
    math::LineSample at_zero;
    at_zero.cost = it.cost;
    at_zero.slope = it.gradient.dot(dv);
    const math::LineSearchResult step =
        params.line_search == SapSolverParams::LineSearch::kExact
            ? math::ExactLineSearch(line, at_zero, params.line_search_settings)
            : math::BacktrackingLineSearch(line, at_zero, params.line_search_settings);
    out.line_search_iterations += step.iterations;
    if (!step.ok) {
      out.status = SapStatus::kLineSearchFailed;
      out.message = "SAP: " + step.message +
                    "; the problem is likely ill-conditioned: raise near_rigid_beta or sigma";
      break;
    }
    const double previous_cost = it.cost;
    it = Evaluate(problem, model, it.v + step.alpha * dv, true);
    cost_stalled = step.alpha > 0.5 && std::abs(it.cost - previous_cost) <
                                           params.cost_abs_tolerance +
                                               params.cost_rel_tolerance * 0.5 *
                                                   (std::abs(it.cost) + std::abs(previous_cost));
  }
  out.cost = it.cost;
  out.gamma = it.constraints.gamma;
  out.v = problem.v_star;
  ScatterParticipating(problem, model, it.v, out.v);
  if (!out.v.allFinite() || !out.gamma.allFinite()) {
    out.status = SapStatus::kLineSearchFailed;
    out.message = "SAP: the iterate is not finite; check the inputs for huge or NaN values";
  }
  out.seconds = clock.Seconds();
  return out;
}

}  // namespace coulomb::convex
