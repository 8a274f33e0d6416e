#include "coulomb/convex/sap_solver.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "coulomb/base/name_table.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/convex/sap_model.h"
#include "coulomb/convex/sap_newton_direction.h"
#include "coulomb/math/dense_resize.h"

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

// Every field of a kept result back to its start, storage kept.
void ResetResult(SapResult& out) {
  out.status = SapStatus::kBadInput;
  out.message.clear();
  out.iterations = out.factorizations = out.cg_iterations = out.line_search_iterations = 0;
  out.residual = out.residual_bound = out.cost = 0;
  out.participating_velocities = 0;
  out.seconds = out.factor_seconds = 0;
}

// Every vector of the workspace at its size for this model, in kept blocks: the participating
// velocities and the constraint rows come and go with contacts, and Eigen would reallocate each
// vector at each new size.
void SizeWorkspace(const SapModel& model, SapWorkspace& ws) {
  const Eigen::Index size = model.size, rows = model.rows();
  for (Eigen::VectorXd* v : {&ws.iterate.v, &ws.iterate.gradient, &ws.dv, &ws.momentum, &ws.product,
                             &ws.next_v, &ws.dp}) {
    math::ResizeKeepingStorage(*v, size);
  }
  for (Eigen::VectorXd* v : {&ws.iterate.v_c, &ws.iterate.constraints.gamma, &ws.dv_c, &ws.line_v_c,
                             &ws.line_constraints.gamma}) {
    math::ResizeKeepingStorage(*v, rows);
  }
}

// ℓ, ∇ℓ and the impulses at it.v (set by the caller), in place.
void Evaluate(const SapProblem& problem, SapWorkspace& ws, SapIterate& it) {
  const SapModel& model = ws.model;
  it.v_c.noalias() = model.J * it.v;
  EvaluateConstraints(problem, model, it.v_c, true, it.constraints);
  ws.dv = it.v - model.v_star;
  ws.momentum.noalias() = model.A * ws.dv;
  it.cost = 0.5 * ws.dv.dot(ws.momentum) + it.constraints.cost;
  // As Eigen evaluates momentum − Jᵀγ: the product subtracted into a copy of the momentum.
  it.gradient = ws.momentum;
  it.gradient.noalias() -= model.J.transpose() * it.constraints.gamma;
}

// The stopping test's two sides: ‖D^(−½) ∇ℓ‖ and abs + rel · max(‖D^(−½) A v‖, ‖D^(−½) Jᵀγ‖).
void MeasureResidual(SapWorkspace& ws, const SapSolverParams& params, SapResult& out) {
  const SapModel& model = ws.model;
  const SapIterate& it = ws.iterate;
  const auto D = model.inverse_sqrt_diagonal.asDiagonal();
  ws.product.noalias() = model.A * it.v;
  const double momentum = (D * ws.product).norm();
  ws.product.noalias() = model.J.transpose() * it.constraints.gamma;
  const double impulses = (D * ws.product).norm();
  const double scale = std::max(momentum, impulses);
  out.residual = (D * it.gradient).norm();
  out.residual_bound = params.abs_tolerance + params.rel_tolerance * scale;
}

// ℓ along v + α Δv in O(nv + rows) per sample (docs/notes/sap-and-deformables.md §1.5): the
// quadratic part from Δp = A Δv and Δvᵀ A Δv, the constraints re-evaluated at v_c + α Δv_c.
// Works in the workspace's line vectors.
class LineOfDescent {
 public:
  LineOfDescent(const SapProblem& problem, SapWorkspace& ws, const Eigen::VectorXd& dv)
      : problem_(problem), ws_(ws) {
    const SapModel& model = ws.model;
    const SapIterate& it = ws.iterate;
    ws.dv_c.noalias() = model.J * dv;
    ws.dp.noalias() = model.A * dv;
    ws.dv = it.v - model.v_star;
    ws.momentum.noalias() = model.A * ws.dv;
    quadratic0_ = 0.5 * ws.dv.dot(ws.momentum);
    slope0_ = ws.dp.dot(ws.dv);
    curvature_ = dv.dot(ws.dp);
  }
  math::LineSample operator()(double alpha) const {
    ws_.line_v_c = ws_.iterate.v_c + alpha * ws_.dv_c;
    const ConstraintsEvaluation& e = ws_.line_constraints;
    EvaluateConstraints(problem_, ws_.model, ws_.line_v_c, true, ws_.line_constraints);
    math::LineSample s;
    s.cost = quadratic0_ + alpha * slope0_ + 0.5 * alpha * alpha * curvature_ + e.cost;
    s.slope = slope0_ + alpha * curvature_ - ws_.dv_c.dot(e.gamma);
    s.curvature = curvature_;
    for (std::size_t i = 0; i < e.G.size(); ++i) {
      const int r = static_cast<int>(e.G[i].rows());
      const ConstraintVector d = ws_.dv_c.segment(ws_.model.row_offset[i], r);
      s.curvature += d.dot(e.G[i] * d);
    }
    return s;
  }

 private:
  const SapProblem& problem_;
  SapWorkspace& ws_;
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
  SapWorkspace workspace;
  SapResult out;
  SolveSap(problem, params, v_guess, factorization, workspace, out);
  return out;
}

void SolveSap(const SapProblem& problem, const SapSolverParams& params,
              const Eigen::VectorXd& v_guess, math::CholeskyFactor* factorization, SapWorkspace& ws,
              SapResult& out) {
  const Stopwatch clock;
  ResetResult(out);
  out.message = ValidateSapProblem(problem);
  if (v_guess.size() != 0 && v_guess.size() != problem.nv()) {
    out.message =
        fmt::format("warm start has {} entries, expected {}", v_guess.size(), problem.nv());
  }
  if (!out.message.empty()) return;
  std::optional<math::CholeskyFactor> local_factorization;  // only when the caller keeps none
  if (factorization == nullptr) factorization = &local_factorization.emplace();
  math::CholeskyFactor& factor = *factorization;
  SapModel& model = ws.model;
  MakeSapModel(problem, model, ws.model_scratch);
  ws.hessian.Build(problem, model);
  SizeWorkspace(model, ws);
  out.participating_velocities = model.size;
  const bool warm = v_guess.size() == problem.nv() && v_guess.allFinite();
  SapIterate& it = ws.iterate;
  if (warm) {
    GatherParticipating(problem, model, v_guess, it.v);
  } else {
    it.v = model.v_star;
  }
  Evaluate(problem, ws, it);
  out.status = SapStatus::kIterationLimit;
  bool cost_stalled = false;
  for (;; ++out.iterations) {
    MeasureResidual(ws, params, out);
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
    NewtonDirection& direction = ws.direction;
    SolveNewtonDirection(ws.hessian.Assemble(it.constraints.G), it.gradient,
                         model.inverse_sqrt_diagonal, model.participating, params.linear_solver,
                         params.ordering, params.lagged, factor, ws.newton, direction);
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
    const LineOfDescent line(problem, ws, dv);
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
    ws.next_v = it.v + step.alpha * dv;
    std::swap(it.v, ws.next_v);
    Evaluate(problem, ws, it);
    cost_stalled = step.alpha > 0.5 && std::abs(it.cost - previous_cost) <
                                           params.cost_abs_tolerance +
                                               params.cost_rel_tolerance * 0.5 *
                                                   (std::abs(it.cost) + std::abs(previous_cost));
  }
  out.cost = it.cost;
  math::ResizeKeepingStorage(out.gamma, it.constraints.gamma.size());
  out.gamma = it.constraints.gamma;
  math::ResizeKeepingStorage(out.v, problem.v_star.size());
  out.v = problem.v_star;
  ScatterParticipating(problem, model, it.v, out.v);
  if (!out.v.allFinite() || !out.gamma.allFinite()) {
    out.status = SapStatus::kLineSearchFailed;
    out.message = "SAP: the iterate is not finite; check the inputs for huge or NaN values";
  }
  out.seconds = clock.Seconds();
}

void ReserveSapWorkspace(const SapSize& size, SapWorkspace& ws, SapResult& result) {
  const Eigen::Index rows = 3 * static_cast<Eigen::Index>(size.constraints);
  ReserveSapModel(size, ws.model, ws.model_scratch);
  ws.hessian.Reserve(size);
  for (Eigen::VectorXd* v : {&ws.iterate.v, &ws.iterate.gradient, &ws.dv, &ws.momentum, &ws.product,
                             &ws.next_v, &ws.dp, &ws.direction.dv, &result.v, &ws.newton.b,
                             &ws.newton.r, &ws.newton.z, &ws.newton.p, &ws.newton.Hp}) {
    math::ReserveStorage(*v, size.velocities);
  }
  for (Eigen::VectorXd* v : {&ws.iterate.v_c, &ws.dv_c, &ws.line_v_c, &result.gamma}) {
    math::ReserveStorage(*v, rows);
  }
  ReserveConstraintsEvaluation(size, ws.iterate.constraints);
  ReserveConstraintsEvaluation(size, ws.line_constraints);
  ws.newton.tag.reserve(static_cast<std::size_t>(size.cliques) + 1);
}

}  // namespace coulomb::convex
