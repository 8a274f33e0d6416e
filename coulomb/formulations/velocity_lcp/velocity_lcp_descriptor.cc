// The velocity-level pyramid LCP (Stewart–Trinkle / Anitescu–Potra) as a registered formulation.

#include <fmt/format.h>

#include "coulomb/complementarity/lcp_solver_kind.h"
#include "coulomb/formulations/formulation.h"

namespace coulomb {
namespace {

// Every name select_solver takes (a test checks each one against it).
constexpr std::string_view kLcpSolverNames = "lemke, fip, ipm, newton, pgs, enum, portfolio";

}  // namespace

const Formulation kVelocityLcpFormulation = {
    .name = "velocity-lcp",
    .summary = "Stewart-Trinkle / Anitescu-Potra friction-pyramid LCP at the velocity level",
    .supports = {.restitution = true},
    .solver_names = kLcpSolverNames,
    .select_solver = [](std::string_view name, FormulationSettings& settings) -> std::string {
      const auto kind = ParseLcpSolverKind(name);
      if (!kind) return fmt::format("unknown LCP solver '{}' ({})", name, kLcpSolverNames);
      settings.velocity_lcp.solver = *kind;
      return "";
    },
    .solver_name = [](const FormulationSettings& settings) -> std::string {
      return std::string(ToString(settings.velocity_lcp.solver));
    },
    .solve =
        [](const contact::ContactProblem& problem, const FormulationSettings& settings,
           const Eigen::VectorXd& warm_start, FormulationWorkspace&) {
          return SolveVelocityLcp(problem, settings.velocity_lcp, warm_start);
        },
};

}  // namespace coulomb
