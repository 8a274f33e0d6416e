// The settings table of scene_settings.h: one entry per setting, in the order they are applied
// and printed.

#include <fmt/format.h>

#include <type_traits>

#include "coulomb/formulations/formulation.h"
#include "coulomb/io/scene_settings.h"

namespace coulomb::io {
namespace {

using Type = SettingType;

// A target reading and writing one plain field: `field` is a generic lambda returning the field
// of a (const or not) Scene, so one accessor serves both directions. Numbers travel as double,
// flags as bool, vectors as Vector3d.
template <class Access>
SettingTarget FieldTarget(Access field, std::string_view formulation = "") {
  SettingTarget target{formulation, nullptr, nullptr};
  target.get = [field](const sim::Scene& s) -> std::optional<SettingValue> {
    using T = std::remove_cvref_t<decltype(field(s))>;
    if constexpr (std::is_same_v<T, bool>) {
      return SettingValue{field(s)};
    } else if constexpr (std::is_arithmetic_v<T>) {
      return SettingValue{static_cast<double>(field(s))};
    } else {
      return SettingValue{Eigen::Vector3d(field(s))};
    }
  };
  target.set = [field](sim::Scene& s, const SettingValue& value) -> std::string {
    using T = std::remove_cvref_t<decltype(field(s))>;
    if constexpr (std::is_same_v<T, bool>) {
      field(s) = std::get<bool>(value);
    } else if constexpr (std::is_arithmetic_v<T>) {
      field(s) = static_cast<T>(std::get<double>(value));
    } else {
      field(s) = std::get<Eigen::Vector3d>(value);
    }
    return "";
  };
  return target;
}

// An enum field read and written by name; the name was checked against the setting's choices
// before `set` runs, so `parse` succeeds.
template <class Access, class Parse, class Print>
SettingTarget ChoiceTarget(Access field, Parse parse, Print print, std::string_view formulation) {
  SettingTarget target{formulation, nullptr, nullptr};
  target.get = [field, print](const sim::Scene& s) -> std::optional<SettingValue> {
    return SettingValue{std::string(print(field(s)))};
  };
  target.set = [field, parse](sim::Scene& s, const SettingValue& value) -> std::string {
    field(s) = *parse(std::get<std::string>(value));
    return "";
  };
  return target;
}

constexpr double kMaxInt = 1 << 30;

// The scene's own settings: time, gravity, contact detection, recording, formulation.
void AddSceneSettings(std::vector<SceneSetting>& t) {
  SettingTarget gravity;
  gravity.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    return SettingValue{Eigen::Vector3d(s.model.gravity)};
  };
  gravity.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    s.model.gravity = std::get<Eigen::Vector3d>(value);
    for (fem::FemBody& body : s.deformables.bodies) body.gravity = s.model.gravity;
    return "";
  };
  t.push_back({"gravity",
               Type::kVector3,
               "m/s²",
               0,
               0,
               "",
               "gravity in the world frame (rigid and deformable bodies)",
               {gravity}});
  t.push_back({"time_step", Type::kReal, "s", 1e-9, 10, "", "time step δt", {FieldTarget([
               ](auto& s) -> auto& { return s.time_step; })}});
  t.push_back({"duration", Type::kReal, "s", 0, 1e7, "", "simulated time", {FieldTarget([
               ](auto& s) -> auto& { return s.duration; })}});
  // A sweep's μ without editing materials: every pair's combined μ is then this value (two equal
  // coefficients combine to that coefficient). Printed when every surface agrees.
  SettingTarget friction;
  friction.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    std::optional<double> common;
    const auto agree = [&common](double mu) {
      if (common && *common != mu) return false;
      common = mu;
      return true;
    };
    for (const geometry::CollisionGeometry& g : s.world.geometries) {
      if (!agree(g.friction)) return std::nullopt;
    }
    for (const fem::FemBody& body : s.deformables.bodies) {
      if (!agree(body.friction)) return std::nullopt;
    }
    if (!common) return std::nullopt;
    return SettingValue{*common};
  };
  friction.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    const double mu = std::get<double>(value);
    for (geometry::CollisionGeometry& g : s.world.geometries) g.friction = mu;
    for (fem::FemBody& body : s.deformables.bodies) body.friction = mu;
    return "";
  };
  t.push_back({"friction",
               Type::kReal,
               "",
               0,
               1e6,
               "",
               "Coulomb μ of every surface, rigid and deformable (replaces the materials' μ)",
               {friction}});
  t.push_back({"contact_margin",
               Type::kReal,
               "m",
               0,
               1,
               "",
               "contacts are reported up to this separation",
               {FieldTarget([](auto& s) -> auto& { return s.world.margin; })}});
  t.push_back({"speculative_contacts",
               Type::kBoolean,
               "",
               0,
               0,
               "",
               "widen each pair's margin by the distance its bodies can travel in one step",
               {FieldTarget([](auto& s) -> auto& { return s.world.speculative; })}});
  t.push_back({"record_every",
               Type::kInteger,
               "",
               1,
               1e6,
               "",
               "record a frame of the outputs every this many steps",
               {FieldTarget([](auto& s) -> auto& { return s.record_every; })}});
  SettingTarget formulation;
  formulation.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    return SettingValue{std::string(s.settings.formulation->name)};
  };
  formulation.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    const std::string& name = std::get<std::string>(value);
    const Formulation* found = FindFormulation(name);
    if (found == nullptr) {
      return fmt::format("unknown formulation '{}' ({})", name, FormulationNames());
    }
    s.settings.formulation = found;
    return "";
  };
  t.push_back({"formulation",
               Type::kChoice,
               "",
               0,
               0,
               "",
               "time-stepping formulation (default: velocity-lcp; sap for scenes with deformable "
               "bodies)",
               {formulation}});
}

// Keys that several formulations read, each into its own parameters.
void AddSharedSolverSettings(std::vector<SceneSetting>& t) {
  t.push_back(
      {"solver.position_correction",
       Type::kReal,
       "",
       0,
       1,
       "",
       "κ: the fraction of a penetration the next step's normal velocity removes",
       {FieldTarget(
            [](auto& s) -> auto& { return s.settings.velocity_lcp.position_correction; },
            "velocity-lcp"),
        FieldTarget(
            [](auto& s) -> auto& { return s.settings.cone.position_correction; }, "cone")}});
  t.push_back({"solver.max_correction_speed",
               Type::kReal,
               "m/s",
               0,
               1e6,
               "",
               "the fastest a rigid overlap is pushed out; bounds the energy it adds to ½ m v²",
               {FieldTarget(
                    [](auto& s) -> auto& { return s.settings.velocity_lcp.max_correction_speed; },
                    "velocity-lcp"),
                FieldTarget(
                    [](auto& s) -> auto& { return s.settings.cone.max_correction_speed; }, "cone"),
                FieldTarget(
                    [](auto& s) -> auto& { return s.settings.sap.max_correction_speed; }, "sap")}});
  t.push_back(
      {"solver.tolerance",
       Type::kReal,
       "",
       1e-16,
       1,
       "",
       "cone: ABH error of each step's problem; velocity-lcp: the block Gauss–Seidel's acceptance "
       "of its LCP residual",
       {FieldTarget(
            [](auto& s) -> auto& {
              return s.settings.velocity_lcp.settings.pgs.acceptance_tolerance;
            },
            "velocity-lcp"),
        FieldTarget(
            [](auto& s) -> auto& { return s.settings.cone.settings.tolerance; }, "cone")}});
  t.push_back(
      {"solver.max_sweeps",
       Type::kInteger,
       "",
       1,
       1e6,
       "",
       "sweep cap of NSGS (cone) and of the block Gauss–Seidel (velocity-lcp)",
       {FieldTarget(
            [](auto& s) -> auto& { return s.settings.velocity_lcp.settings.pgs.max_sweeps; },
            "velocity-lcp"),
        FieldTarget(
            [](auto& s) -> auto& { return s.settings.cone.settings.nsgs.max_sweeps; }, "cone")}});
  t.push_back(
      {"solver.max_iterations",
       Type::kInteger,
       "",
       1,
       1e5,
       "",
       "Newton iteration cap of the cone's semismooth Newton and of SAP",
       {FieldTarget(
            [](auto& s) -> auto& { return s.settings.cone.settings.newton.max_iterations; },
            "cone"),
        FieldTarget(
            [](auto& s) -> auto& { return s.settings.sap.solver.max_iterations; }, "sap")}});
  t.push_back(
      {"solver.max_pivoting_rows",
       Type::kInteger,
       "",
       1,
       kMaxInt,
       "",
       "above this many LCP rows the pivoting solvers give way (velocity-lcp: to the block "
       "Gauss–Seidel, trinkle: to ipm), and the run says so",
       {FieldTarget(
            [](auto& s) -> auto& { return s.settings.velocity_lcp.max_pivoting_rows; },
            "velocity-lcp"),
        FieldTarget(
            [](auto& s) -> auto& { return s.settings.trinkle.max_pivoting_rows; }, "trinkle")}});
}

// The velocity LCP's and paper 1's acceleration-level stepper's own keys.
void AddLcpSettings(std::vector<SceneSetting>& t) {
  t.push_back(
      {"solver.directions",
       Type::kInteger,
       "",
       3,
       64,
       "",
       "friction directions per contact of the polygonal (pyramid) cone",
       {FieldTarget(
           [](auto& s) -> auto& { return s.settings.velocity_lcp.directions; }, "velocity-lcp")}});
  t.push_back({"solver.impact_speed",
               Type::kReal,
               "m/s",
               0,
               1e3,
               "",
               "a contact approaching faster than this gets an impact LCP first",
               {FieldTarget(
                   [](auto& s) -> auto& { return s.settings.trinkle.impact_speed; }, "trinkle")}});
  t.push_back(
      {"solver.separation_speed",
       Type::kReal,
       "m/s",
       0,
       1e3,
       "",
       "a contact separating faster than this leaves the acceleration LCP",
       {FieldTarget(
           [](auto& s) -> auto& { return s.settings.trinkle.separation_speed; }, "trinkle")}});
  t.push_back({"solver.slip_speed",
               Type::kReal,
               "m/s",
               0,
               1e3,
               "",
               "sliding friction (eq. 12) above this tangential speed, rolling (pyramid) below",
               {FieldTarget(
                   [](auto& s) -> auto& { return s.settings.trinkle.slip_speed; }, "trinkle")}});
  t.push_back(
      {"solver.contact_distance",
       Type::kReal,
       "m",
       0,
       1,
       "",
       "a contact farther apart than this is speculative: it takes part only as an impact",
       {FieldTarget(
           [](auto& s) -> auto& { return s.settings.trinkle.contact_distance; }, "trinkle")}});
  t.push_back(
      {"solver.stabilization_steps",
       Type::kReal,
       "",
       0,
       1e6,
       "",
       "drift-correction time constant τ in time steps (τ = this × δt)",
       {FieldTarget(
           [](auto& s) -> auto& { return s.settings.trinkle.stabilization_steps; }, "trinkle")}});
  t.push_back(
      {"solver.impulsive_fallback",
       Type::kBoolean,
       "",
       0,
       0,
       "",
       "when the acceleration LCP fails, solve the step at the velocity level",
       {FieldTarget(
           [](auto& s) -> auto& { return s.settings.trinkle.impulsive_fallback; }, "trinkle")}});
}

// SAP's keys (convex/sap_solver.h, formulations/sap/sap_formulation.h).
void AddSapSettings(std::vector<SceneSetting>& t) {
  using DeformableDelassus = SapParams::DeformableDelassus;
  t.push_back({"solver.near_rigid_beta",
               Type::kReal,
               "",
               0,
               100,
               "",
               "β: near-rigid threshold of contact regularization "
               "(docs/notes/sap-and-deformables.md §1.1)",
               {FieldTarget(
                   [](auto& s) -> auto& { return s.settings.sap.regularization.beta; }, "sap")}});
  t.push_back({"solver.sigma",
               Type::kReal,
               "",
               1e-12,
               1,
               "",
               "σ: friction regularization (stiction slip ≈ σ δt g)",
               {FieldTarget(
                   [](auto& s) -> auto& { return s.settings.sap.regularization.sigma; }, "sap")}});
  SettingTarget dissipation{"sap", nullptr, nullptr};
  dissipation.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    if (!s.settings.sap.dissipation_time_scale) return std::nullopt;
    return SettingValue{*s.settings.sap.dissipation_time_scale};
  };
  dissipation.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    s.settings.sap.dissipation_time_scale = std::get<double>(value);
    return "";
  };
  t.push_back({"solver.dissipation_time_scale",
               Type::kReal,
               "s",
               0,
               1e6,
               "",
               "τ_d of every contact (unset: one time step, critically damped)",
               {dissipation}});
  t.push_back({"solver.rel_tolerance",
               Type::kReal,
               "",
               0,
               1,
               "",
               "SAP: momentum residual relative to the momenta in play",
               {FieldTarget(
                   [](auto& s) -> auto& { return s.settings.sap.solver.rel_tolerance; }, "sap")}});
  t.push_back({"solver.abs_tolerance",
               Type::kReal,
               "",
               0,
               1,
               "",
               "SAP: absolute momentum residual, √J",
               {FieldTarget(
                   [](auto& s) -> auto& { return s.settings.sap.solver.abs_tolerance; }, "sap")}});
  t.push_back({"solver.joint_limits",
               Type::kBoolean,
               "",
               0,
               0,
               "",
               "enforce the finite limits of 1-DoF joints",
               {FieldTarget(
                   [](auto& s) -> auto& { return s.settings.sap.joint_limits; }, "sap")}});
  t.push_back({"solver.try_full_step",
               Type::kBoolean,
               "",
               0,
               0,
               "",
               "exact search: take the full Newton step when it meets Armijo's condition",
               {FieldTarget(
                   [](auto& s) -> auto& {
                     return s.settings.sap.solver.line_search_settings.try_full_step;
                   },
                   "sap")}});
  t.push_back({"solver.deformable_delassus",
               Type::kChoice,
               "",
               0,
               0,
               "diagonal, exact",
               "how a deformable clique estimates its Delassus diagonal (sap_formulation.h)",
               {ChoiceTarget(
                   [](auto& s) -> auto& { return s.settings.sap.deformable_delassus; },
                   [](std::string_view name) -> std::optional<DeformableDelassus> {
                     return name == "exact" ? DeformableDelassus::kExact
                                            : DeformableDelassus::kDiagonal;
                   },
                   [](DeformableDelassus kind) -> std::string_view {
                     return kind == DeformableDelassus::kExact ? "exact" : "diagonal";
                   },
                   "sap")}});
  t.push_back({"solver.ordering",
               Type::kChoice,
               "",
               0,
               0,
               "amd, metis",
               "fill-reducing ordering of SAP's sparse Cholesky (metis for large piles)",
               {ChoiceTarget(
                   [](auto& s) -> auto& { return s.settings.sap.solver.ordering; },
                   convex::ParseFillOrdering,
                   [](math::FillOrdering kind) { return convex::ToString(kind); }, "sap")}});
  t.push_back({"solver.linear_solver",
               Type::kChoice,
               "",
               0,
               0,
               "auto, supernodal, simplicial",
               "CHOLMOD factorization of SAP's Newton Hessian",
               {ChoiceTarget(
                   [](auto& s) -> auto& { return s.settings.sap.solver.linear_solver; },
                   convex::ParseSparseCholesky,
                   [](math::CholeskyMethod kind) { return convex::ToString(kind); }, "sap")}});
  t.push_back({"solver.line_search",
               Type::kChoice,
               "",
               0,
               0,
               "exact, backtracking",
               "SAP's line search (also its solver.name)",
               {ChoiceTarget(
                   [](auto& s) -> auto& { return s.settings.sap.solver.line_search; },
                   convex::ParseLineSearch,
                   [](convex::SapSolverParams::LineSearch kind) { return convex::ToString(kind); },
                   "sap")}});
  t.push_back(
      {"solver.hessian_reuse_cg_iterations",
       Type::kInteger,
       "",
       0,
       1e4,
       "",
       "CG iterations on an earlier Newton factorization before factoring afresh (0: factor "
       "every iteration; used on piles only)",
       {FieldTarget(
           [](auto& s) -> auto& { return s.settings.sap.solver.lagged.max_cg_iterations; },
           "sap")}});
  t.push_back(
      {"solver.hessian_reuse_cg_tolerance",
       Type::kReal,
       "",
       1e-16,
       0.5,
       "",
       "relative linear residual at which that CG stops",
       {FieldTarget(
           [](auto& s) -> auto& { return s.settings.sap.solver.lagged.cg_tolerance; }, "sap")}});
}

std::vector<SceneSetting> MakeTable() {
  std::vector<SceneSetting> t;
  AddSceneSettings(t);
  AddSharedSolverSettings(t);
  AddLcpSettings(t);
  AddSapSettings(t);
  // Last: the formulation interprets the name, and a name may set what keys above set.
  SettingTarget name;
  name.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    return SettingValue{s.settings.formulation->solver_name(s.settings)};
  };
  name.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    return s.settings.formulation->select_solver(std::get<std::string>(value), s.settings);
  };
  t.push_back({"solver.name",
               Type::kChoice,
               "",
               0,
               0,
               "",
               "the formulation's solver (coulomb run --formulation F --help lists them)",
               {name}});
  return t;
}

}  // namespace

std::span<const SceneSetting> SceneSettings() {
  static const std::vector<SceneSetting> table = MakeTable();  // immutable once built
  return table;
}

const SceneSetting* FindSceneSetting(std::string_view key) {
  for (const SceneSetting& s : SceneSettings()) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

}  // namespace coulomb::io
