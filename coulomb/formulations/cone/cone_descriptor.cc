// The exact Coulomb cone (De Saxcé's complementarity at the velocity level) as a registered
// formulation.

#include <fmt/format.h>

#include "coulomb/complementarity/cone_solvers.h"
#include "coulomb/formulations/formulation.h"

namespace coulomb {
namespace {

// Every name select_solver takes (a test checks each one against it).
constexpr std::string_view kConeSolverNames = "nsgs, nsn, ppa, ipm, portfolio";

}  // namespace

extern const Formulation kConeFormulation;
const Formulation kConeFormulation = {
    .name = "cone",
    .summary = "exact Coulomb cone at the velocity level (NSGS, semismooth Newton, PPA)",
    .supports = {.deformable_bodies = true, .folded_pd_drives = true, .restitution = true},
    .solver_names = kConeSolverNames,
    .select_solver = [](std::string_view name, FormulationSettings& settings) -> std::string {
      const auto kind = ParseConeSolverKind(name);
      if (!kind) return fmt::format("unknown cone solver '{}' ({})", name, kConeSolverNames);
      settings.cone.solver = *kind;
      return "";
    },
    .solver_name = [](const FormulationSettings& settings) -> std::string {
      return std::string(ToString(settings.cone.solver));
    },
    .solve =
        [](const contact::ContactProblem& problem, const FormulationSettings& settings,
           const Eigen::VectorXd& warm_start, FormulationWorkspace& workspace,
           ContactSolution& solution) {
          SolveConeComplementarity(problem, settings.cone, warm_start, workspace.local,
                                   workspace.friction, solution, &workspace.newton,
                                   &workspace.sweeps);
        },
    .reserve = [](const contact::ContactCapacity& capacity, const FormulationSettings&,
                  FormulationWorkspace& workspace) { ReserveContacts(capacity, workspace.sweeps); },
    // FEM bodies as blocks of one ContactProblem, solved like a rigid one (mixed_step.h).
};

}  // namespace coulomb
