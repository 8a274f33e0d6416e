#pragma once
// The model checker: verifies an answer against the equations of paper 1 themselves, not
// against the LCP it came from, and names each violated condition.
//
// Checked: (4)–(6) equations of motion and contact kinematics; (7)–(8) the input velocities;
// (9), (11), (16) normal complementarity; (12) friction of sliding contacts; (17)–(18) and (20)
// for the pyramid at rolling contacts; with `cone_model`, (10) and (13) for the quadratic cone;
// the soft-finger bounds of §2.5; zero friction for the frictionless problem.
// Tolerances are relative: forces to 1 + ‖c‖∞, accelerations to 1 + ‖a‖∞.

#include "apps/coulomb/trinkle/trinkle_problem.h"
#include "apps/coulomb/trinkle/trinkle_solution.h"
#include "apps/coulomb/trinkle/trinkle_system.h"

namespace coulomb::trinkle {

struct CheckOptions {
  double tolerance = 1e-7;           // relative, see above
  double velocity_tolerance = 1e-8;  // m/s: |v_n| for eq. (7), ‖v_T‖ for rolling (eq. 8)
  bool cone_model = false;           // also require (10) and (13)
};

ModelCheck CheckTrinkleSolution(const TrinkleProblem& problem, const TrinkleSystem& system,
                                const TrinkleSolution& solution, const CheckOptions& options = {});

}  // namespace coulomb::trinkle
