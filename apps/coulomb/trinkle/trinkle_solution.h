#pragma once
// What solving one instance of paper 1's problem yields.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/complementarity/lcp_result.h"
#include "coulomb/formulations/trinkle/polygonal_friction_lcp.h"

namespace coulomb::trinkle {

enum class SlipState { kRolling, kSliding };

struct ContactState {
  SlipState translation = SlipState::kRolling;  // from ‖v_T‖ (eq. 7–8)
  bool spinning = false;                        // soft finger: relative rotation about n
  Eigen::Vector2d slip_direction = Eigen::Vector2d::Zero();  // v_T / ‖v_T‖ in (t, o)
};

// One violated condition of the model, as found by CheckTrinkleSolution.
struct Violation {
  std::string equation;  // "(9)", "(12)", "(17)", ... of paper 1
  int contact = -1;      // −1 for global equations (4)–(6)
  double amount = 0;     // normalized size of the violation
  std::string what;
};

struct ModelCheck {
  bool ok = true;
  double tolerance = 0;
  std::vector<Violation> violations;
  std::string Summary() const;  // "" when ok, else the violations one per line
};

struct TrinkleSolution {
  LcpStatus status = LcpStatus::kBadInput;
  std::string message;
  std::vector<ContactState> states;
  int num_sliding = 0, num_rolling = 0;
  ContactLcp lcp;  // the LCP that was solved (for studies and benchmarks)
  LcpResult lcp_result;
  Eigen::VectorXd forces;                // per contact (n, t, o[, τ]), see TrinkleSystem::offset
  Eigen::VectorXd contact_acceleration;  // a, same layout
  Eigen::VectorXd acceleration;          // u̇: object (linear, angular) accelerations, then θ̈
  Eigen::VectorXd joint_effort;          // τ, including the solved efforts of prescribed joints
  ModelCheck check;
  // Cone model: largest ‖c_T‖ / (μ c_n) over rolling contacts (≤ 1 + ε: inside the cone, so by
  // Proposition 1 also a solution of the cone model), and the refinement rounds used.
  double max_cone_ratio = 0;
  int refinements = 0;
};

}  // namespace coulomb::trinkle
