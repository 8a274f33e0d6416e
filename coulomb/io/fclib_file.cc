#include "coulomb/io/fclib_file.h"

#include <fmt/format.h>
#include <hdf5.h>

#include <Eigen/SparseCholesky>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "coulomb/io/friction_contact_file.h"

extern "C" {  // fclib.h declares C functions without a C++ guard
#include <fclib.h>
}

namespace coulomb {
namespace {

// Dense copy of an fclib matrix in any of its three storages; false if indices are invalid.
bool ToDense(const fclib_matrix& m, Eigen::MatrixXd& out) {
  out = Eigen::MatrixXd::Zero(m.m, m.n);
  const auto put = [&](int row, int col, double value) {
    if (row < 0 || row >= m.m || col < 0 || col >= m.n) return false;
    out(row, col) += value;
    return true;
  };
  if (m.nz == -1) {  // compressed columns
    for (int c = 0; c < m.n; ++c) {
      for (int k = m.p[c]; k < m.p[c + 1]; ++k) {
        if (!put(m.i[k], c, m.x[k])) return false;
      }
    }
  } else if (m.nz == -2) {  // compressed rows
    for (int r = 0; r < m.m; ++r) {
      for (int k = m.p[r]; k < m.p[r + 1]; ++k) {
        if (!put(r, m.i[k], m.x[k])) return false;
      }
    }
  } else {  // triplets: i = row, p = column (CSparse convention, see data/README.md)
    for (int k = 0; k < m.nz; ++k) {
      if (!put(m.i[k], m.p[k], m.x[k])) return false;
    }
  }
  return true;
}

// The local problem of a global one with no equality constraints (FCLib's GM3DFC, G absent):
// M v = H r + f and u = Hᵀ v + w give u = W r + q with W = Hᵀ M⁻¹ H and q = Hᵀ M⁻¹ f + w.
// M is factored once (sparse LDLᵀ); W is dense in the contacts, as the local solvers expect.
std::optional<InputError> CondenseGlobal(const fclib_global& g, const std::string& path,
                                         FrictionContactProblem& p) {
  if (g.spacedim != 3) {
    return InputError{path, 0, "spacedim",
                      fmt::format("{} (only 3D problems are supported)", g.spacedim)};
  }
  if (g.G != nullptr && g.G->n > 0) {
    return InputError{path, 0, "G", "global problems with equality constraints are not supported"};
  }
  if (g.M == nullptr || g.H == nullptr || g.M->m != g.M->n || g.H->m != g.M->m || g.H->n % 3 != 0) {
    return InputError{path, 0, "M/H", "missing, or sizes that do not match (M n × n, H n × 3 n_c)"};
  }
  Eigen::MatrixXd M, H;
  if (!ToDense(*g.M, M) || !ToDense(*g.H, H)) {
    return InputError{path, 0, "M/H", "index out of range"};
  }
  const Eigen::SparseMatrix<double> M_sparse = M.sparseView();
  const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(M_sparse);
  if (ldlt.info() != Eigen::Success || (ldlt.vectorD().array() <= 0).any()) {
    return InputError{path, 0, "M",
                      "not symmetric positive definite: the problem cannot be condensed"};
  }
  const int n = g.M->n, m = g.H->n;
  const Eigen::MatrixXd MinvH = ldlt.solve(H);
  const Eigen::VectorXd Minvf = ldlt.solve(Eigen::Map<const Eigen::VectorXd>(g.f, n));
  p.W = (H.transpose() * MinvH).sparseView();
  p.q = H.transpose() * Minvf + Eigen::Map<const Eigen::VectorXd>(g.w, m);
  p.mu = Eigen::Map<const Eigen::VectorXd>(g.mu, m / 3);
  return std::nullopt;
}

// Whether the HDF5 file has a top-level group of this name (false if it cannot be opened).
bool HasGroup(const std::string& path, const char* group) {
  H5E_auto2_t handler = nullptr;
  void* data = nullptr;
  H5Eget_auto2(H5E_DEFAULT, &handler, &data);
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // no HDF5 error stack on stderr
  bool found = false;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file >= 0) {
    found = H5Lexists(file, group, H5P_DEFAULT) > 0;
    H5Fclose(file);
  }
  H5Eset_auto2(H5E_DEFAULT, handler, data);
  return found;
}

// A readable HDF5 file with the FCLib group of this kind ("local" or "global"), or why not.
std::optional<InputError> CheckFclibFile(const std::string& path, const std::string& kind) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return InputError{path, 0, "", "no such file"};
  if (!IsHdf5File(path)) return InputError{path, 0, "", "not an HDF5 file (bad signature)"};
  const std::string group = "/fclib_" + kind;
  if (!HasGroup(path, group.c_str())) {
    return InputError{path, 0, group, "not an FCLib " + kind + " problem (group missing)"};
  }
  return std::nullopt;
}

}  // namespace

Expected<FrictionContactProblem> ReadFclibFile(const std::string& path) {
  if (IsHdf5File(path) && !HasGroup(path, "/fclib_local") && HasGroup(path, "/fclib_global")) {
    return ReadFclibGlobal(path);
  }
  return ReadFclibLocal(path);
}

Expected<FrictionContactProblem> ReadFclibGlobal(const std::string& path) {
  if (std::optional<InputError> defect = CheckFclibFile(path, "global")) return *defect;
  fclib_global* global = fclib_read_global(path.c_str());
  if (global == nullptr) {
    return InputError{path, 0, "/fclib_global", "not an FCLib global problem (group missing?)"};
  }
  FrictionContactProblem p;
  std::optional<InputError> error = CondenseGlobal(*global, path, p);
  if (!error) {
    const std::string file = std::filesystem::path(path).filename().string();
    p.name = (global->info && global->info->title ? global->info->title : file) +
             fmt::format(" (global, {} DoF, condensed)", global->M->n);
    if (const std::string defect = ValidateFrictionContactProblem(p); !defect.empty()) {
      error = InputError{path, 0, "", defect};
    }
  }
  fclib_delete_global(global);
  std::free(global);
  if (error) return *error;
  return p;
}

Expected<FrictionContactProblem> ReadFclibLocal(const std::string& path) {
  if (std::optional<InputError> defect = CheckFclibFile(path, "local")) return *defect;
  fclib_local* local = fclib_read_local(path.c_str());
  if (local == nullptr) {
    return InputError{path, 0, "/fclib_local", "not an FCLib local problem (group missing?)"};
  }
  FrictionContactProblem p;
  std::optional<InputError> error;
  if (local->spacedim != 3) {
    error = InputError{path, 0, "spacedim",
                       fmt::format("{} (only 3D problems are supported)", local->spacedim)};
  } else if (local->V != nullptr || local->R != nullptr) {
    error =
        InputError{path, 0, "V/R", "mixed problems with equality constraints are not supported"};
  } else if (local->W == nullptr || local->W->m != local->W->n || local->W->m % 3 != 0) {
    error = InputError{path, 0, "W", "missing, not square, or not 3 n_c rows"};
  } else if (Eigen::MatrixXd W; !ToDense(*local->W, W)) {
    error = InputError{path, 0, "W", "index out of range"};
  } else {
    p.W = W.sparseView();
    const int m = local->W->m;
    p.q = Eigen::Map<const Eigen::VectorXd>(local->q, m);
    p.mu = Eigen::Map<const Eigen::VectorXd>(local->mu, m / 3);
    p.name = local->info && local->info->title ? local->info->title
                                               : std::filesystem::path(path).filename().string();
    if (const std::string defect = ValidateFrictionContactProblem(p); !defect.empty()) {
      error = InputError{path, 0, "", defect};
    }
  }
  fclib_delete_local(local);
  std::free(local);
  if (error) return *error;
  return p;
}

std::optional<InputError> WriteFclibLocal(const FrictionContactProblem& problem,
                                          const std::string& path, bool overwrite) {
  if (const std::string defect = ValidateFrictionContactProblem(problem); !defect.empty()) {
    return InputError{path, 0, "", defect};
  }
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) {
    if (!overwrite) return InputError{path, 0, "", "already exists; refusing to overwrite it"};
    std::filesystem::remove(path, ec);
  }
  const int m = static_cast<int>(problem.W.rows());
  // W in compressed columns, every nonzero kept.
  std::vector<int> col_ptr{0}, row_index;
  std::vector<double> values;
  for (int c = 0; c < m; ++c) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(problem.W, c); it; ++it) {
      if (it.value() != 0.0) {
        row_index.push_back(static_cast<int>(it.row()));
        values.push_back(it.value());
      }
    }
    col_ptr.push_back(static_cast<int>(row_index.size()));
  }
  fclib_matrix W{};
  W.nzmax = static_cast<int>(values.size());
  W.m = W.n = m;
  W.p = col_ptr.data();
  W.i = row_index.data();
  W.x = values.data();
  W.nz = -1;
  std::vector<double> q(problem.q.data(), problem.q.data() + m);
  std::vector<double> mu(problem.mu.data(), problem.mu.data() + problem.mu.size());
  std::string title = problem.name.empty() ? "coulomb" : problem.name;
  std::string description = "written by Coulomb";
  std::string math = "";
  fclib_info info{title.data(), description.data(), math.data()};
  fclib_local local{};
  local.W = &W;
  local.mu = mu.data();
  local.q = q.data();
  local.spacedim = 3;
  local.info = &info;
  if (!fclib_write_local(&local, path.c_str())) {
    return InputError{path, 0, "", "libfclib could not write the file"};
  }
  return std::nullopt;
}

}  // namespace coulomb
