// The complementarity solvers from Python: an LCP (M, q) or an FC3D problem (W, q, μ) as NumPy
// arrays (W also SciPy sparse) in, the answer, its status, iterations and certificate out. Bad
// input raises ValueError naming the defect (shapes, NaN, μ < 0), never a crash.

#include <fmt/format.h>
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <Eigen/Sparse>
#include <string>

#include "coulomb/complementarity/cone_solvers.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/io/friction_contact_file.h"
#include "coulomb/io/lcp_file.h"
#include "python/src/bindings.h"

namespace py = pybind11;

namespace coulomb::python {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

void CheckTolerance(double tolerance) {
  if (!(tolerance > 0 && tolerance < 1)) {
    throw py::value_error(fmt::format("tol = {} is not in (0, 1)", tolerance));
  }
}

py::dict LcpAnswer(const LcpResult& r) {
  py::dict certificate;
  certificate["natural_residual"] = r.certificate.natural_residual;
  certificate["z_infeasibility"] = r.certificate.z_infeasibility;
  certificate["w_infeasibility"] = r.certificate.w_infeasibility;
  certificate["complementarity"] = r.certificate.complementarity;
  certificate["worst"] = r.certificate.Worst();
  py::dict out;
  out["z"] = r.z;
  out["w"] = r.w;
  out["status"] = std::string(ToString(r.status));
  out["solver"] = r.solver;
  out["iterations"] = r.iterations;
  out["seconds"] = r.seconds;
  out["message"] = r.message;
  out["certificate"] = certificate;
  return out;
}

py::dict SolveLcpArrays(const RowMatrix& M, const Eigen::VectorXd& q, const std::string& solver,
                        double tolerance) {
  if (M.rows() != M.cols()) {
    throw py::value_error(fmt::format("M is {} × {}: it must be square", M.rows(), M.cols()));
  }
  if (M.rows() != q.size()) {
    throw py::value_error(fmt::format("M is {0} × {0} but q has {1} entries", M.rows(), q.size()));
  }
  CheckTolerance(tolerance);
  const auto kind = ParseLcpSolverKind(solver);
  if (!kind) {
    std::string names;
    for (const LcpSolverKind k : AllLcpSolverKinds()) {
      names += (names.empty() ? "" : ", ") + std::string(ToString(k));
    }
    throw py::value_error("unknown LCP solver '" + solver + "' (" + names + ")");
  }
  LcpProblem problem{Eigen::MatrixXd(M), q, "python"};
  if (std::string defect = ValidateLcp(problem); !defect.empty()) throw py::value_error(defect);
  LcpResult result;
  {
    py::gil_scoped_release release;
    result = SolveLcp(problem, *kind, LcpSettingsWithTolerance(tolerance));
  }
  return LcpAnswer(result);
}

py::dict SolveFc3dSparse(const Eigen::SparseMatrix<double>& W, const Eigen::VectorXd& q,
                         const Eigen::VectorXd& mu, const std::string& solver, double tolerance) {
  if (W.rows() != W.cols()) {
    throw py::value_error(fmt::format("W is {} × {}: it must be square", W.rows(), W.cols()));
  }
  if (q.size() != W.rows() || q.size() != 3 * mu.size()) {
    throw py::value_error(fmt::format(
        "W is {0} × {0}, q has {1} entries and mu {2}: they must be 3 n_c, 3 n_c and n_c", W.rows(),
        q.size(), mu.size()));
  }
  CheckTolerance(tolerance);
  const auto kind = ParseConeSolverKind(solver);
  if (!kind) {
    throw py::value_error("unknown FC3D solver '" + solver + "' (nsgs, nsn, ppa, ipm, portfolio)");
  }
  FrictionContactProblem problem;
  problem.W = W;
  problem.q = q;
  problem.mu = mu;
  problem.name = "python";
  if (std::string defect = ValidateFrictionContactProblem(problem); !defect.empty()) {
    throw py::value_error(defect);
  }
  ConeSolverSettings settings;
  settings.tolerance = tolerance;
  FrictionContactResult r;
  {
    py::gil_scoped_release release;
    r = SolveFrictionContact(problem, *kind, settings);
  }
  py::dict certificate;
  certificate["error"] = r.certificate.error;
  certificate["cone_violation"] = r.certificate.cone_violation;
  certificate["dual_violation"] = r.certificate.dual_violation;
  certificate["complementarity"] = r.certificate.complementarity;
  py::dict out;
  out["r"] = r.r;
  out["u"] = r.u;
  out["status"] = std::string(ToString(r.status));
  out["solver"] = r.solver;
  out["iterations"] = r.iterations;
  out["error"] = r.error;
  out["seconds"] = r.seconds;
  out["message"] = r.message;
  out["certificate"] = certificate;
  return out;
}

py::dict SolveFc3dDense(const RowMatrix& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu,
                        const std::string& solver, double tolerance) {
  return SolveFc3dSparse(Eigen::MatrixXd(W).sparseView(), q, mu, solver, tolerance);
}

py::dict ReadProblem(const std::string& path) {
  py::dict out;
  if (DetectProblemFileKind(path) == ProblemFileKind::kFrictionContact) {
    Expected<FrictionContactProblem> p = ReadFrictionContactFile(path);
    if (!p.ok())
      throw SceneFailure{p.error().ToString(), p.error().file, p.error().field, p.error().line};
    out["kind"] = "fc3d";
    out["W"] = p.value().W;
    out["q"] = p.value().q;
    out["mu"] = p.value().mu;
    out["name"] = p.value().name;
    return out;
  }
  Expected<LcpProblem> p = ReadLcpFile(path);
  if (!p.ok()) {
    throw SceneFailure{p.error().ToString(), p.error().file, p.error().field, p.error().line};
  }
  out["kind"] = "lcp";
  out["M"] = p.value().M;
  out["q"] = p.value().q;
  out["name"] = p.value().name;
  return out;
}

}  // namespace

void RegisterSolvers(py::module_& m) {
  m.def("_solve_lcp", &SolveLcpArrays, py::arg("M"), py::arg("q"), py::arg("solver"),
        py::arg("tol"));
  m.def("_solve_fc3d_dense", &SolveFc3dDense, py::arg("W"), py::arg("q"), py::arg("mu"),
        py::arg("solver"), py::arg("tol"));
  m.def("_solve_fc3d_sparse", &SolveFc3dSparse, py::arg("W"), py::arg("q"), py::arg("mu"),
        py::arg("solver"), py::arg("tol"));
  m.def("_read_problem", &ReadProblem, py::arg("path"));
}

}  // namespace coulomb::python
