#pragma once
// Paper 1's model as a time stepper (docs/notes/complementarity.md §4 "Impacts"): a step is
//   1. an impact LCP for touching contacts approaching faster than `impact_speed` and for
//      speculative ones (gap > `contact_distance`) whose gap closes within the step (Newton
//      restitution, the velocity-level LCP with v* = v, i.e. no forces act during the impact;
//      a speculative contact may approach by its gap, n·v⁺ ≥ −φ/h, so it arrives, not hovers);
//   2. the acceleration-level contact problem of Trinkle et al. for the persistent contacts
//      (gap within `contact_distance`, not separating): a = A c + b with A = J M⁻¹ Jᵀ and
//      b = J M⁻¹ f + J̇ v + drift correction, rolling contacts bounded by the paper's square
//      pyramid and sliding ones by eq. (12) (c_T = −μ c_n v_T/‖v_T‖), built by BuildContactLcp
//      (eqs. 37–39) and solved by Lemke — or, above `max_pivoting_rows` LCP rows and for
//      solver pgs, by contact sweeps on the body velocities (acceleration_sweeps.h) that never
//      form A;
//   3. v⁺ = v + h M⁻¹ (f + Jᵀ c).
// When Lemke cannot solve the acceleration LCP, a small one (≤ the portfolio's
// enumeration_max_size rows) is decided by enumerating its complementary bases. Proven to have
// no solution (Painlevé's paradox), the step is resolved impulsively at the velocity level —
// the model's answer then (paper 1 §1, Mason and Wang) — certified by that LCP and said in the
// solver switch. Any other failure is reported in the status and message instead of inventing
// forces; with `impulsive_fallback` the step is still resolved impulsively so the run can go
// on.

#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/trinkle/acceleration_sweeps.h"
#include "coulomb/formulations/trinkle/polygonal_friction_lcp.h"
#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"

namespace coulomb {

struct AccelerationStepParams {
  LcpSolverKind solver = LcpSolverKind::kLemke;
  // pgs: the contact sweeps' relative natural residual 1e-6 within 1 000 sweeps, as the velocity
  // LCP's (scene keys solver.tolerance and solver.max_sweeps); also the impact LCP's.
  LcpSolverSettings settings = DefaultVelocityLcpSettings();
  double impact_speed = 1e-3;  // m/s: approaching faster → impact LCP first
  // m: a contact farther apart than this is speculative (found early because its bodies move
  // fast): it takes part only as an impact, in the step in which its gap closes.
  double contact_distance = 1e-3;
  double separation_speed = 1e-3;   // m/s: separating faster → not in the acceleration LCP
  double slip_speed = 1e-4;         // m/s: sliding (eq. 12) above, rolling (pyramid) below
  double stabilization_steps = 10;  // drift correction time constant τ = this × h
  bool impulsive_fallback = true;
  // Lemke only: first re-solve the acceleration LCP's complementary basis that last step's contact
  // forces imply (GuessContactLcpBasis), taken if it certifies at kWarmBasisAccuracy of Lemke's
  // tolerance: a resting stack keeps its basis, and one factorization replaces ~500 pivots.
  bool warm_basis = true;
  // Above this many LCP rows the dense solvers give way to the contact sweeps, said in the step's
  // solver switch: dense Lemke took 536 ms per step on the 15-box pyramid's ~400-row acceleration
  // LCP (ipm 74 ms), and on examples/scenes/bin.yaml 0.2–10 s a step from 150 pressed contacts
  // (under 300 rows, where the re-classification of reversing slides grows the LCP past 300 and
  // the interior point method then missed its certificate). Where the sweeps do not certify, the
  // dense LCP runs: the pivoting solvers (lemke, enum, portfolio) up to twice this many rows,
  // the interior point method (ipm) above, and the others as asked.
  int max_pivoting_rows = 100;
  // Anderson acceleration of the contact sweeps (scene key solver.acceleration_depth).
  int acceleration_depth = kDefaultAccelerationDepth;
};

// What the stepper keeps from one step to the next (speed only): the local contact problems
// and LCP workspaces of the impact and acceleration stages.
struct AccelerationStepWorkspace {
  LocalContactProblem local;       // the step's W and M⁻¹Jᵀ
  contact::ContactProblem impact;  // the impact LCP's problem: v* = v, touching gaps zeroed
  LocalContactProblem impact_local;
  StewartTrinkleWorkspace impact_lcp;
  ContactSolution impact_solution;
  // The acceleration LCP of the active contacts: its data, layout, LCP and Lemke's workspace.
  std::vector<int> active;
  std::vector<char> rolling;
  Eigen::MatrixXd W, A;
  Eigen::VectorXd f, v, u, du, free_change, Minv_f, b, u_active, mu, bias, a, c_active, gamma;
  trinkle::ContactLcpLayout layout;
  std::vector<trinkle::FrictionGroup> spare_groups;  // see MakeLayout
  trinkle::ContactLcpScratch lcp_scratch;
  trinkle::ContactLcp lcp;
  LcpSolverWorkspace solver;
  LcpResult result;
  Eigen::VectorXd c;  // the answer's forces, 3 per active contact
  std::string solver_switch;
  // The warm start's forces (3 per active contact, empty without one), its basis re-solved, and
  // its forces as LCP unknowns.
  Eigen::VectorXd warm_forces, warm_z;
  ComplementaryBasisWorkspace warm;
  // The contact sweeps' rows, problem and answer (acceleration_sweeps.h).
  ContactRows rows;
  AccelerationSweepProblem sweep_problem;
  AccelerationSweepResult sweep_result;
};

// Room in `workspace` for steps of up to `contacts` contacts: Lemke's path and the warm basis on
// acceleration LCPs of up to min(5 contacts, 2 max_pivoting_rows) rows (a rolling contact's normal,
// two pair slacks and two facet multipliers), and the impact LCP's.
void ReserveAccelerationStep(int contacts, const AccelerationStepParams& params,
                             AccelerationStepWorkspace& workspace);

ContactSolution SolveAccelerationStep(const contact::ContactProblem& problem,
                                      const AccelerationStepParams& params = {});
// The same into `out` (storage reused), working in `workspace`; `warm_start` (3 n_c impulses in
// (n, t, o), last step's, or empty) gives Lemke its warm basis (`warm_basis`).
void SolveAccelerationStep(const contact::ContactProblem& problem,
                           const AccelerationStepParams& params, const Eigen::VectorXd& warm_start,
                           AccelerationStepWorkspace& workspace, ContactSolution& out);

}  // namespace coulomb
