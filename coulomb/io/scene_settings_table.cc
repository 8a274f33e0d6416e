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

// Appends one setting to the table; the targets follow through Reads(), so every entry is a
// chain of calls (which keeps the table readable as one setting per paragraph).
class TableBuilder {
 public:
  explicit TableBuilder(std::vector<SceneSetting>& table) : table_(table) {}
  TableBuilder& Add(std::string_view key, SettingType type, std::string_view unit, double lo,
                    double hi, std::string_view help) {
    table_.push_back({key, type, unit, lo, hi, "", help, {}});
    return *this;
  }
  TableBuilder& Choices(std::string_view names) {
    table_.back().choices = names;
    return *this;
  }
  TableBuilder& Reads(SettingTarget target) {
    table_.back().targets.push_back(std::move(target));
    return *this;
  }

 private:
  std::vector<SceneSetting>& table_;
};

// Gravity reaches each deformable body too, whose FEM step keeps its own copy.
SettingTarget GravityTarget() {
  SettingTarget target;
  target.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    return SettingValue{Eigen::Vector3d(s.model.multibody.gravity)};
  };
  target.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    s.model.multibody.gravity = std::get<Eigen::Vector3d>(value);
    for (fem::FemBody& body : s.model.deformables.bodies) body.gravity = s.model.multibody.gravity;
    return "";
  };
  return target;
}

// A sweep's μ without editing materials: every pair's combined μ is then this value (two equal
// coefficients combine to that coefficient). Printed when every surface agrees.
SettingTarget FrictionTarget() {
  SettingTarget target;
  target.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    std::optional<double> common;
    const auto agree = [&common](double mu) {
      if (common && *common != mu) return false;
      common = mu;
      return true;
    };
    for (const geometry::CollisionGeometry& g : s.model.world.geometries) {
      if (!agree(g.friction)) return std::nullopt;
    }
    for (const fem::FemBody& body : s.model.deformables.bodies) {
      if (!agree(body.friction)) return std::nullopt;
    }
    if (!common) return std::nullopt;
    return SettingValue{*common};
  };
  target.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    const double mu = std::get<double>(value);
    for (geometry::CollisionGeometry& g : s.model.world.geometries) g.friction = mu;
    for (fem::FemBody& body : s.model.deformables.bodies) body.friction = mu;
    return "";
  };
  return target;
}

SettingTarget FormulationTarget() {
  SettingTarget target;
  target.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    return SettingValue{std::string(s.model.settings.formulation->name)};
  };
  target.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    const std::string& name = std::get<std::string>(value);
    const Formulation* found = FindFormulation(name);
    if (found == nullptr) {
      return fmt::format("unknown formulation '{}' ({})", name, FormulationNames());
    }
    s.model.settings.formulation = found;
    return "";
  };
  return target;
}

// SAP's τ_d is optional: unset means one time step.
SettingTarget DissipationTimeScaleTarget() {
  SettingTarget target{"sap", nullptr, nullptr};
  target.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    if (!s.model.settings.sap.dissipation_time_scale) return std::nullopt;
    return SettingValue{*s.model.settings.sap.dissipation_time_scale};
  };
  target.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    s.model.settings.sap.dissipation_time_scale = std::get<double>(value);
    return "";
  };
  return target;
}

// The formulation interprets the name (and may set what other keys set).
SettingTarget SolverNameTarget() {
  SettingTarget target;
  target.get = [](const sim::Scene& s) -> std::optional<SettingValue> {
    return SettingValue{s.model.settings.formulation->solver_name(s.model.settings)};
  };
  target.set = [](sim::Scene& s, const SettingValue& value) -> std::string {
    return s.model.settings.formulation->select_solver(std::get<std::string>(value),
                                                       s.model.settings);
  };
  return target;
}

// The scene's own settings: time, gravity, friction, contact detection, recording, formulation.
void AddSceneSettings(TableBuilder& t) {
  t.Add("gravity", Type::kVector3, "m/s²", 0, 0,
        "gravity in the world frame (rigid and deformable bodies)")
      .Reads(GravityTarget());
  t.Add("time_step", Type::kReal, "s", 1e-9, 10, "time step δt of the integration")
      .Reads(FieldTarget([](auto& s) -> auto& { return s.model.time_step; }));
  t.Add("duration", Type::kReal, "s", 0, 1e7, "simulated time of a run, from the initial state")
      .Reads(FieldTarget([](auto& s) -> auto& { return s.duration; }));
  t.Add("friction", Type::kReal, "", 0, 1e6,
        "Coulomb μ of every surface, rigid and deformable (replaces the materials' μ)")
      .Reads(FrictionTarget());
  t.Add("contact_margin", Type::kReal, "m", 0, 1, "contacts are reported up to this separation")
      .Reads(FieldTarget([](auto& s) -> auto& { return s.model.world.margin; }));
  t.Add("speculative_contacts", Type::kBoolean, "", 0, 0,
        "widen each pair's margin by the distance its bodies can travel in one step (under "
        "sap, a point beyond the margin is kept only if the pair's relative speed can close it in "
        "the step)")
      .Reads(FieldTarget([](auto& s) -> auto& { return s.model.world.speculative; }));
  using Sampling = fem::RigidContactSampling;
  t.Add("deformable_contact", Type::kChoice, "", 0, 0,
        "where deformable bodies touch convex rigid shapes: at their surface vertices, or at the "
        "polygons of their surface triangles clipped to the shape grown by the search distance "
        "(contact/deformable_contacts.h)")
      .Choices("vertices, surface")
      .Reads(ChoiceTarget(
          [](auto& s) -> auto& { return s.model.deformables.rigid_contacts; },
          [](std::string_view name) -> std::optional<Sampling> {
            return name == "surface" ? Sampling::kSurfacePolygons : Sampling::kVertices;
          },
          [](Sampling kind) -> std::string_view {
            return kind == Sampling::kSurfacePolygons ? "surface" : "vertices";
          },
          ""));
  t.Add("surface_contact_stiffness", Type::kReal, "Pa/m", 0, 1e15,
        "deformable_contact: surface only: pressure per metre of overlap of a compliant contact "
        "surface (0: rigid contact, speculative over the search distance)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.deformables.surface_pressure_gradient; }));
  t.Add("record_every", Type::kInteger, "", 1, 1e6,
        "record a frame of the outputs every this many steps")
      .Reads(FieldTarget([](auto& s) -> auto& { return s.record_every; }));
  t.Add("formulation", Type::kChoice, "", 0, 0,
        "time-stepping formulation (default: velocity-lcp; sap for scenes with deformable "
        "bodies)")
      .Reads(FormulationTarget());
}

// Keys that several formulations read, each into its own parameters.
void AddSharedSolverSettings(TableBuilder& t) {
  t.Add("solver.position_correction", Type::kReal, "", 0, 1,
        "κ: the fraction of a penetration the next step's normal velocity removes")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.position_correction; },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.position_correction; }, "cone"));
  t.Add("solver.penetration_slop", Type::kReal, "m", 0, 1,
        "a rigid contact closer than this (either side of touching) counts as touching: "
        "its overlap is not pushed out, its gap not closed")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.penetration_slop; },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.penetration_slop; }, "cone"));
  t.Add("solver.max_correction_speed", Type::kReal, "m/s", 0, 1e6,
        "the fastest a rigid overlap is pushed out; bounds the energy it adds to ½ m v²")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.max_correction_speed; },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.max_correction_speed; }, "cone"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.max_correction_speed; }, "sap"));
  t.Add("solver.tolerance", Type::kReal, "", 1e-16, 1,
        "cone: ABH error of each step's problem; velocity-lcp and trinkle: the contact sweeps' "
        "acceptance of their relative LCP residual")
      .Reads(FieldTarget(
          [](auto& s) -> auto& {
            return s.model.settings.velocity_lcp.settings.pgs.acceptance_tolerance;
          },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& {
            return s.model.settings.trinkle.settings.pgs.acceptance_tolerance;
          },
          "trinkle"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.settings.tolerance; }, "cone"));
  t.Add("solver.max_sweeps", Type::kInteger, "", 1, 1e6,
        "sweep cap of NSGS (cone) and of the contact sweeps (velocity-lcp, trinkle)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.settings.pgs.max_sweeps; },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.settings.pgs.max_sweeps; },
          "trinkle"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.settings.nsgs.max_sweeps; }, "cone"));
  t.Add("solver.acceleration_depth", Type::kInteger, "", 0, kMaxAccelerationDepth,
        "cone, velocity-lcp and trinkle: Anderson acceleration of the contact sweeps on islands "
        "of more than 64 contacts, with this many secants (0: plain Gauss–Seidel)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.acceleration_depth; }, "cone"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.acceleration_depth; },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.acceleration_depth; }, "trinkle"));
  t.Add("solver.island_parts", Type::kInteger, "", 1, 64,
        "cone: islands of at least solver.partitioned_island_contacts contacts are swept in this "
        "many parts, their interiors at once on the threads, one barrier per phase (1: the "
        "ground-up order everywhere; the answer never depends on the thread count)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.island_parts; }, "cone"));
  t.Add("solver.partitioned_island_contacts", Type::kInteger, "", 1, 1e9,
        "cone: the fewest contacts of an island swept in solver.island_parts parts")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.partitioned_island_contacts; },
          "cone"));
  t.Add("solver.levelled_mean_width", Type::kInteger, "", 1, 1e9,
        "cone and velocity-lcp sweeps on several threads: an island is swept level by level (no "
        "two contacts of a level share a body) when its levels hold this many contacts on "
        "average, else in order on one thread; the same bits either way, only the time differs")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.levelled_mean_width; }, "cone"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.levelled_mean_width; },
          "velocity-lcp"));
  t.Add("solver.max_iterations", Type::kInteger, "", 1, 1e5,
        "Newton iteration cap of the cone's semismooth Newton and of SAP")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.cone.settings.newton.max_iterations; },
          "cone"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.max_iterations; }, "sap"));
  t.Add("solver.max_pivoting_rows", Type::kInteger, "", 1, kMaxInt,
        "above this many LCP rows the pivoting solvers give way (velocity-lcp: to the block "
        "Gauss–Seidel, trinkle: to the contact sweeps, then ipm), and the run says so")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.max_pivoting_rows; },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.max_pivoting_rows; }, "trinkle"));
}

// The velocity LCP's and paper 1's acceleration-level stepper's own keys.
void AddLcpSettings(TableBuilder& t) {
  t.Add("solver.directions", Type::kInteger, "", 3, 64,
        "friction directions per contact of the polygonal (pyramid) cone")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.directions; },
          "velocity-lcp"));
  t.Add("solver.warm_basis", Type::kBoolean, "", 0, 0,
        "Lemke first re-solves the complementary basis last step's impulses (or forces) imply, "
        "and keeps its answer if it certifies at 1e-3 of Lemke's tolerance")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.velocity_lcp.warm_basis; },
          "velocity-lcp"))
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.warm_basis; }, "trinkle"));
  t.Add("solver.impact_speed", Type::kReal, "m/s", 0, 1e3,
        "a contact approaching faster than this gets an impact LCP first")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.impact_speed; }, "trinkle"));
  t.Add("solver.separation_speed", Type::kReal, "m/s", 0, 1e3,
        "a contact separating faster than this leaves the acceleration LCP")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.separation_speed; }, "trinkle"));
  t.Add("solver.slip_speed", Type::kReal, "m/s", 0, 1e3,
        "sliding friction (eq. 12) above this tangential speed, rolling (pyramid) below")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.slip_speed; }, "trinkle"));
  t.Add("solver.contact_distance", Type::kReal, "m", 0, 1,
        "a contact farther apart than this is speculative: it takes part only as an impact")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.contact_distance; }, "trinkle"));
  t.Add("solver.stabilization_steps", Type::kReal, "", 0, 1e6,
        "drift-correction time constant τ in time steps (τ = this × δt)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.stabilization_steps; },
          "trinkle"));
  t.Add("solver.impulsive_fallback", Type::kBoolean, "", 0, 0,
        "when the acceleration LCP fails, solve the step at the velocity level")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.trinkle.impulsive_fallback; }, "trinkle"));
}

// SAP's regularization and tolerances (formulations/sap/sap_formulation.h).
void AddSapModelSettings(TableBuilder& t) {
  t.Add("solver.near_rigid_beta", Type::kReal, "", 0, 100,
        "β: near-rigid threshold of contact regularization "
        "(docs/notes/sap-and-deformables.md §1.1)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.regularization.beta; }, "sap"));
  t.Add("solver.sigma", Type::kReal, "", 1e-12, 1,
        "σ: friction regularization (stiction slip ≈ σ δt g)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.regularization.sigma; }, "sap"));
  t.Add("solver.dissipation_time_scale", Type::kReal, "s", 0, 1e6,
        "τ_d of every contact (unset: one time step, critically damped)")
      .Reads(DissipationTimeScaleTarget());
  t.Add("solver.rel_tolerance", Type::kReal, "", 0, 1,
        "SAP: momentum residual relative to the momenta in play")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.rel_tolerance; }, "sap"));
  t.Add("solver.abs_tolerance", Type::kReal, "", 0, 1, "SAP: absolute momentum residual, √J")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.abs_tolerance; }, "sap"));
  t.Add("solver.joint_limits", Type::kBoolean, "", 0, 0,
        "enforce the finite limits of 1-DoF joints")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.joint_limits; }, "sap"));
}

// SAP's Newton solver: line search, linear algebra, Hessian reuse (convex/sap_solver.h).
void AddSapSolverSettings(TableBuilder& t) {
  using DeformableDelassus = SapParams::DeformableDelassus;
  t.Add("solver.try_full_step", Type::kBoolean, "", 0, 0,
        "exact search: take the full Newton step when it meets Armijo's condition")
      .Reads(FieldTarget(
          [](auto& s) -> auto& {
            return s.model.settings.sap.solver.line_search_settings.try_full_step;
          },
          "sap"));
  t.Add("solver.deformable_delassus", Type::kChoice, "", 0, 0,
        "how a deformable clique estimates its Delassus diagonal (sap_formulation.h)")
      .Choices("diagonal, exact")
      .Reads(ChoiceTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.deformable_delassus; },
          [](std::string_view name) -> std::optional<DeformableDelassus> {
            return name == "exact" ? DeformableDelassus::kExact : DeformableDelassus::kDiagonal;
          },
          [](DeformableDelassus kind) -> std::string_view {
            return kind == DeformableDelassus::kExact ? "exact" : "diagonal";
          },
          "sap"));
  t.Add("solver.ordering", Type::kChoice, "", 0, 0,
        "fill-reducing ordering of SAP's sparse Cholesky (metis for large piles)")
      .Choices("amd, metis")
      .Reads(ChoiceTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.ordering; },
          convex::ParseFillOrdering, [](math::FillOrdering kind) { return convex::ToString(kind); },
          "sap"));
  t.Add("solver.linear_solver", Type::kChoice, "", 0, 0,
        "CHOLMOD factorization of SAP's Newton Hessian")
      .Choices("auto, supernodal, simplicial")
      .Reads(ChoiceTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.linear_solver; },
          convex::ParseSparseCholesky,
          [](math::CholeskyMethod kind) { return convex::ToString(kind); }, "sap"));
  t.Add("solver.line_search", Type::kChoice, "", 0, 0, "SAP's line search (also its solver.name)")
      .Choices("exact, backtracking")
      .Reads(ChoiceTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.line_search; },
          convex::ParseLineSearch,
          [](convex::SapSolverParams::LineSearch kind) { return convex::ToString(kind); }, "sap"));
  t.Add("solver.hessian_reuse_cg_iterations", Type::kInteger, "", 0, 1e4,
        "CG iterations on an earlier Newton factorization before factoring afresh (0: factor "
        "every iteration; used on piles only)")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.lagged.max_cg_iterations; },
          "sap"));
  t.Add("solver.hessian_reuse_cg_tolerance", Type::kReal, "", 1e-16, 0.5,
        "relative linear residual at which that CG stops")
      .Reads(FieldTarget(
          [](auto& s) -> auto& { return s.model.settings.sap.solver.lagged.cg_tolerance; }, "sap"));
}

std::vector<SceneSetting> MakeTable() {
  std::vector<SceneSetting> table;
  TableBuilder t(table);
  AddSceneSettings(t);
  AddSharedSolverSettings(t);
  AddLcpSettings(t);
  AddSapModelSettings(t);
  AddSapSolverSettings(t);
  // Last: the formulation interprets the name, and a name may set what keys above set.
  t.Add("solver.name", Type::kChoice, "", 0, 0,
        "the formulation's solver (coulomb run --formulation F --help lists them)")
      .Reads(SolverNameTarget());
  return table;
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
