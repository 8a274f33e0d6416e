// Paper 1's acceleration-level LCP with an impact LCP for new contacts, as a registered
// formulation. It needs J̇v, which only the stepper can compute (a second contact detection).

#include "coulomb/formulations/formulation.h"

namespace coulomb {

extern const Formulation kTrinkleFormulation;
const Formulation kTrinkleFormulation = {
    .name = "trinkle",
    .summary = "paper 1's acceleration-level LCP with impacts; reports Painleve inconsistencies",
    .supports = {.restitution = true, .painleve_reports = true, .contact_velocity_rate = true},
    .solver_names = kLcpSolverNames,
    .select_solver =
        [](std::string_view name, FormulationSettings& settings) {
          return SelectLcpSolver(name, settings.trinkle.solver);
        },
    .solver_name = [](const FormulationSettings& settings) -> std::string {
      return std::string(ToString(settings.trinkle.solver));
    },
    .solve =
        [](const contact::ContactProblem& problem, const FormulationSettings& settings,
           const Eigen::VectorXd& warm_start, FormulationWorkspace& workspace,
           ContactSolution& solution) {
          SolveAccelerationStep(problem, settings.trinkle, warm_start, workspace.trinkle, solution);
        },
    .reserve =
        [](const contact::ContactCapacity& capacity, const FormulationSettings& settings,
           FormulationWorkspace& workspace) {
          ReserveAccelerationStep(capacity.contacts, settings.trinkle, workspace.trinkle);
          ReserveContacts(capacity, workspace.trinkle.local);
          ReserveContacts(capacity, workspace.trinkle.impact_local);
        },
};

}  // namespace coulomb
