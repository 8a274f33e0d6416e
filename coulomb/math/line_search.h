#pragma once
// Line searches on a convex cost ℓ(α) along a descent direction whose slope and curvature are
// cheap (SAP's Newton direction, docs/notes/sap-and-deformables.md §1.5): ℓ' is monotone, so the
// exact search is a bracketed 1-D root find. For merits that give only their value, the Armijo
// backtracking of math/backtracking.h is the one line search; BacktrackingLineSearch below runs
// it and then goes on while the cost still falls.

#include <string>
#include <type_traits>

namespace coulomb::math {

struct LineSample {
  double cost = 0;       // ℓ(α), J
  double slope = 0;      // dℓ/dα
  double curvature = 0;  // d²ℓ/dα²
};
// ℓ along the line, by reference to the caller's callable: unlike std::function it never copies
// that object to the heap (SAP's line object is larger than std::function's inline buffer, and a
// warm step must not allocate). Valid while the callable lives: pass it, never keep it.
class LineFunction {
 public:
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, LineFunction> &&
           std::is_invocable_r_v<LineSample, const F&, double>)
      LineFunction(const F& f)  // NOLINT(google-explicit-constructor): a callable is a line
      : object_(&f), call_([](const void* object, double alpha) -> LineSample {
          return (*static_cast<const F*>(object))(alpha);
        }) {}
  LineSample operator()(double alpha) const { return call_(object_, alpha); }

 private:
  const void* object_;
  LineSample (*call_)(const void* object, double alpha);
};

struct LineSearchSettings {
  // Exact search: take the full Newton step α = 1 whenever it meets Armijo's condition, and
  // search for the minimizer only when it does not. The minimizer along the line often sits
  // just past the first contact that changes mode, so the next iterate lands on a mode
  // boundary and the next Newton step can move only a few contacts further; the full step
  // moves every contact to the mode its linearization predicts (the semismooth Newton step)
  // and, with Armijo's sufficient decrease, keeps ℓ falling. Measured on the 500-body pile of
  // bench/clutter_bench while it lands (steps 300-450, factor every iteration): 26.5 → 21.8
  // Newton iterations per step.
  bool try_full_step = true;
  double alpha_max = 1.5;   // exact search: longest step considered
  double tolerance = 1e-8;  // on ℓ'(α)/|ℓ'(0)|, and on α relative to the first guess
  int max_iterations = 100;
  double cost_tolerance = 1e-30;  // J: a slope below this means "nothing left to gain"
  double backtracking_rho = 0.8;  // backtracking: α_r = ρ^r / ρ
  double armijo = 1e-4;
  int backtracking_max_iterations = 40;
};

struct LineSearchResult {
  double alpha = 0;
  int iterations = 0;
  bool ok = true;
  std::string message;  // why it failed
};

// α = 1 if settings.try_full_step and it meets Armijo's condition; otherwise the minimizer of ℓ
// on [0, α_max] by Newton's method safeguarded by bisection.
LineSearchResult ExactLineSearch(const LineFunction& line, const LineSample& at_zero,
                                 const LineSearchSettings& settings);

// Armijo backtracking from α = 1/ρ, keeping the better of the last two trials once the cost
// rises again.
LineSearchResult BacktrackingLineSearch(const LineFunction& line, const LineSample& at_zero,
                                        const LineSearchSettings& settings);

}  // namespace coulomb::math
