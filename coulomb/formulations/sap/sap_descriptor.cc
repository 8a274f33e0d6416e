// The convex SAP formulation (Castro et al. 2022; paper 2) as a registered formulation: the one
// that enforces joint limits and holonomic constraints, and the default of deformable scenes.

#include <fmt/format.h>

#include "coulomb/convex/sap_solver.h"
#include "coulomb/formulations/formulation.h"

namespace coulomb {

extern const Formulation kSapFormulation;
const Formulation kSapFormulation = {
    .name = "sap",
    .summary = "convex SAP: Newton on the regularized cone, rigid and FEM bodies, joint limits",
    .supports = {.deformable_bodies = true,
                 .preferred_for_deformables = true,
                 .joint_limits = true,
                 .implicit_pd_drives = true,
                 .relative_speculative_contacts = true},
    .solver_names = "exact, backtracking",
    .select_solver = [](std::string_view name, FormulationSettings& settings) -> std::string {
      // Also the name solver_name prints ("newton/exact"), so printed settings read back.
      if (name.starts_with("newton/")) name.remove_prefix(7);
      const auto kind = convex::ParseLineSearch(name);
      if (!kind) return fmt::format("unknown SAP line search '{}' (exact, backtracking)", name);
      settings.sap.solver.line_search = *kind;
      return "";
    },
    .solver_name = [](const FormulationSettings& settings) -> std::string {
      return fmt::format("newton/{}", convex::ToString(settings.sap.solver.line_search));
    },
    .solve =
        [](const contact::ContactProblem& problem, const FormulationSettings& settings,
           const Eigen::VectorXd&, FormulationWorkspace& workspace, ContactSolution& solution) {
          SolveSapStep(problem, settings.sap, &workspace.sap_factorization, workspace.sap,
                       solution);
        },
    .reserve =
        [](const contact::ContactCapacity& capacity, const FormulationSettings&,
           FormulationWorkspace& workspace) {
          ReserveContacts(capacity, workspace.sap, workspace.sap_factorization);
        },
    .save_carry =
        [](const FormulationWorkspace& workspace) {
          return FormulationCarry{workspace.sap_factorization.source()};
        },
    .restore_carry =
        [](const FormulationCarry& carry, FormulationWorkspace& workspace) {
          workspace.sap_factorization.Restore(carry.factor);
        },
};

}  // namespace coulomb
