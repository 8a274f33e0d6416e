#include "coulomb/io/scene_solver.h"

#include <string>

namespace coulomb::io {
namespace {

void ReadSapSettings(const Field& f, SapParams& sap) {
  if (f.Has("near_rigid_beta")) sap.regularization.beta = f["near_rigid_beta"].DoubleIn(0, 100);
  if (f.Has("sigma")) sap.regularization.sigma = f["sigma"].DoubleIn(1e-12, 1);
  if (f.Has("dissipation_time_scale")) {
    sap.dissipation_time_scale = f["dissipation_time_scale"].DoubleIn(0, 1e6);
  }
  if (f.Has("rel_tolerance")) sap.solver.rel_tolerance = f["rel_tolerance"].DoubleIn(0, 1);
  if (f.Has("abs_tolerance")) sap.solver.abs_tolerance = f["abs_tolerance"].DoubleIn(0, 1);
  if (f.Has("joint_limits")) sap.joint_limits = f["joint_limits"].Bool();
  if (f.Has("try_full_step")) {
    sap.solver.line_search_settings.try_full_step = f["try_full_step"].Bool();
  }
  if (f.Has("deformable_delassus")) {
    const std::string name = f["deformable_delassus"].String();
    if (name != "diagonal" && name != "exact") {
      f["deformable_delassus"].Fail("'" + name + "' is not diagonal or exact");
    }
    sap.deformable_delassus = name == "exact" ? SapParams::DeformableDelassus::kExact
                                              : SapParams::DeformableDelassus::kDiagonal;
  }
  if (f.Has("ordering")) {
    const std::string name = f["ordering"].String();
    const auto kind = convex::ParseFillOrdering(name);
    if (!kind) f["ordering"].Fail("unknown ordering '" + name + "' (amd, metis)");
    sap.solver.ordering = *kind;
  }
  if (f.Has("hessian_reuse_cg_iterations")) {
    sap.solver.lagged.max_cg_iterations = f["hessian_reuse_cg_iterations"].Int(0, 10000);
  }
  if (f.Has("hessian_reuse_cg_tolerance")) {
    sap.solver.lagged.cg_tolerance = f["hessian_reuse_cg_tolerance"].DoubleIn(1e-16, 0.5);
  }
  if (f.Has("linear_solver")) {
    const std::string name = f["linear_solver"].String();
    const auto kind = convex::ParseSparseCholesky(name);
    if (!kind) {
      f["linear_solver"].Fail("unknown linear solver '" + name +
                              "' (auto, supernodal, simplicial)");
    }
    sap.solver.linear_solver = *kind;
  }
  if (f.Has("line_search")) {
    const std::string name = f["line_search"].String();
    const auto kind = convex::ParseLineSearch(name);
    if (!kind) f["line_search"].Fail("unknown line search '" + name + "' (exact, backtracking)");
    sap.solver.line_search = *kind;
  }
}

}  // namespace

void ReadSolverSettings(const Field& f, FormulationSettings& s) {
  f.CheckKeys({"name",
               "directions",
               "position_correction",
               "tolerance",
               "max_sweeps",
               "max_iterations",
               "near_rigid_beta",
               "sigma",
               "dissipation_time_scale",
               "rel_tolerance",
               "abs_tolerance",
               "line_search",
               "joint_limits",
               "linear_solver",
               "ordering",
               "deformable_delassus",
               "hessian_reuse_cg_iterations",
               "hessian_reuse_cg_tolerance",
               "try_full_step",
               "max_correction_speed",
               "max_pivoting_rows"});
  const double kappa = OptionalDouble(f, "position_correction", 1.0);
  if (!(kappa >= 0 && kappa <= 1)) f["position_correction"].Fail("must lie in [0, 1]");
  s.velocity_lcp.position_correction = s.cone.position_correction = kappa;
  if (f.Has("directions")) s.velocity_lcp.directions = f["directions"].Int(3, 64);
  if (f.Has("max_pivoting_rows")) {
    s.velocity_lcp.max_pivoting_rows = s.trinkle.max_pivoting_rows =
        f["max_pivoting_rows"].Int(1, 1 << 30);
  }
  if (f.Has("max_correction_speed")) {
    s.velocity_lcp.max_correction_speed = s.cone.max_correction_speed = s.sap.max_correction_speed =
        f["max_correction_speed"].DoubleIn(0, 1e6);
  }
  if (f.Has("tolerance")) {
    s.cone.settings.tolerance = f["tolerance"].DoubleIn(1e-16, 1);
    s.velocity_lcp.settings.pgs.acceptance_tolerance = s.cone.settings.tolerance;
  }
  if (f.Has("max_sweeps")) {
    s.cone.settings.nsgs.max_sweeps = f["max_sweeps"].Int(1, 1000000);
    s.velocity_lcp.settings.pgs.max_sweeps = s.cone.settings.nsgs.max_sweeps;
  }
  if (f.Has("max_iterations")) {
    s.cone.settings.newton.max_iterations = f["max_iterations"].Int(1, 100000);
    s.sap.solver.max_iterations = s.cone.settings.newton.max_iterations;
  }
  ReadSapSettings(f, s.sap);
  if (!f.Has("name")) return;
  const std::string name = f["name"].String();
  const std::string error = s.formulation->select_solver(name, s);
  if (!error.empty()) f["name"].Fail(error);
}

}  // namespace coulomb::io
