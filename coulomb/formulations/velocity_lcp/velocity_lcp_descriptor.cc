// The velocity-level pyramid LCP (Stewart–Trinkle / Anitescu–Potra) as a registered formulation.

#include <algorithm>

#include "coulomb/formulations/formulation.h"

namespace coulomb {

const Formulation kVelocityLcpFormulation = {
    .name = "velocity-lcp",
    .summary = "Stewart-Trinkle / Anitescu-Potra friction-pyramid LCP at the velocity level",
    .supports = {.deformable_bodies = true, .folded_pd_drives = true, .restitution = true},
    .solver_names = kLcpSolverNames,
    .select_solver =
        [](std::string_view name, FormulationSettings& settings) {
          return SelectLcpSolver(name, settings.velocity_lcp.solver);
        },
    .solver_name = [](const FormulationSettings& settings) -> std::string {
      return std::string(ToString(settings.velocity_lcp.solver));
    },
    .solve =
        [](const contact::ContactProblem& problem, const FormulationSettings& settings,
           const Eigen::VectorXd& warm_start, FormulationWorkspace& workspace,
           ContactSolution& solution) {
          SolveVelocityLcp(problem, settings.velocity_lcp, warm_start, workspace.local, solution,
                           &workspace.sweeps, &workspace.stewart_trinkle);
        },
    .reserve =
        [](const contact::ContactCapacity& capacity, const FormulationSettings& settings,
           FormulationWorkspace& workspace) {
          const VelocityLcpParams& params = settings.velocity_lcp;
          ReserveContacts(capacity, workspace.sweeps);
          // n_c (d + 2) rows, as far as the pivoting solvers take them.
          ReservePivoting(
              std::min(capacity.contacts * (params.directions + 2), params.max_pivoting_rows),
              workspace.stewart_trinkle);
        },
    // FEM bodies as blocks of one ContactProblem, solved like a rigid one (mixed_step.h).
};

}  // namespace coulomb
