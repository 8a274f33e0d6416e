#include "coulomb/io/fclib_file.h"

#include <fmt/format.h>

#include <Eigen/SparseCholesky>
#include <cstdlib>
#include <filesystem>
#include <utility>
#include <vector>

#include "coulomb/io/friction_contact_file.h"
#include "coulomb/io/hdf5_reader.h"

extern "C" {  // fclib.h declares C functions without a C++ guard
#include <fclib.h>
}

namespace coulomb {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// An FCLib matrix group (datasets m, n, nz, p, i, x; fclib.h's `fclib_matrix`) as a sparse
// matrix of the size the problem's vectors demand. `nz` selects the storage: -1 compressed
// columns (p: n + 1 column starts), -2 compressed rows (p: m + 1 row starts), ≥ 0 that many
// triplets (i: rows, p: columns, the CSparse convention; see data/README.md). Every pointer and
// index is range-checked before use; duplicates are summed in file order and exact zeros dropped.
Expected<SparseMatrix> ReadMatrix(const io::Hdf5Reader& file, const std::string& group,
                                  std::int64_t rows, std::int64_t cols) {
  const auto error = [&](const std::string& field, const std::string& reason) {
    return InputError{"", 0, group + "/" + field, reason};
  };
  const Expected<std::int64_t> m = file.ReadInteger(group + "/m");
  if (!m.ok()) return m.error();
  const Expected<std::int64_t> n = file.ReadInteger(group + "/n");
  if (!n.ok()) return n.error();
  if (m.value() != rows || n.value() != cols) {
    return error("m/n", fmt::format("{} × {}, but the problem's vectors make it {} × {}", m.value(),
                                    n.value(), rows, cols));
  }
  const Expected<std::int64_t> nz = file.ReadInteger(group + "/nz");
  if (!nz.ok()) return nz.error();
  const std::int64_t storage = nz.value();
  if (storage < -2) {
    return error(
        "nz", fmt::format("{} (-1 compressed columns, -2 compressed rows, ≥ 0 triplets)", storage));
  }
  const std::int64_t outer = storage == -1 ? cols : rows;
  const Expected<std::vector<std::int64_t>> p =
      file.ReadIntegers(group + "/p", storage >= 0 ? -1 : outer + 1);
  if (!p.ok()) return p.error();
  const Expected<std::vector<std::int64_t>> i = file.ReadIntegers(group + "/i");
  if (!i.ok()) return i.error();
  const Expected<std::vector<double>> x = file.ReadDoubles(group + "/x");
  if (!x.ok()) return x.error();
  const auto& pv = p.value();
  const auto& iv = i.value();
  const auto& xv = x.value();
  std::int64_t entries = storage;
  if (storage < 0) {
    for (std::int64_t k = 0; k < outer; ++k) {
      if (pv[k] < 0 || pv[k + 1] < pv[k]) {
        return error("p", fmt::format("p[{}] = {}, p[{}] = {}: starts must not decrease from 0", k,
                                      pv[k], k + 1, pv[k + 1]));
      }
    }
    entries = pv[outer];
  }
  if (static_cast<std::int64_t>(iv.size()) < entries ||
      static_cast<std::int64_t>(xv.size()) < entries ||
      (storage >= 0 && static_cast<std::int64_t>(pv.size()) < entries)) {
    return error("i/x", fmt::format("{} entries announced, but p, i, x hold {}, {}, {}", entries,
                                    pv.size(), iv.size(), xv.size()));
  }
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(static_cast<std::size_t>(entries));
  for (std::int64_t k = 0, start = 0; k < entries; ++k) {
    std::int64_t row = iv[k], col = 0;
    if (storage >= 0) {
      col = pv[k];
    } else {
      while (pv[start + 1] <= k) ++start;  // the column (or row) holding entry k
      col = start;
      if (storage == -2) std::swap(row, col);
    }
    if (row < 0 || row >= rows || col < 0 || col >= cols) {
      return error("i", fmt::format("entry {} at row {}, column {} lies outside the {} × {} matrix",
                                    k, row, col, rows, cols));
    }
    triplets.emplace_back(static_cast<int>(row), static_cast<int>(col), xv[k]);
  }
  SparseMatrix out(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  out.setFromTriplets(triplets.begin(), triplets.end());
  out.prune([](Eigen::Index, Eigen::Index, double v) { return v != 0.0; });
  return out;
}

// A vector dataset of exactly `size` entries under <group>/vectors.
Expected<Eigen::VectorXd> ReadVector(const io::Hdf5Reader& file, const std::string& dataset,
                                     std::int64_t size = -1) {
  const Expected<std::vector<double>> values = file.ReadDoubles(dataset, size);
  if (!values.ok()) return values.error();
  return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(
      values.value().data(), static_cast<Eigen::Index>(values.value().size())));
}

// The problem's title from <group>/info/title if it has one, else the file's name.
Expected<std::string> ReadTitle(const io::Hdf5Reader& file, const std::string& group,
                                const std::string& path) {
  const std::string title = group + "/info/title";
  if (!file.Exists(title)) return std::filesystem::path(path).filename().string();
  return file.ReadString(title);
}

// The checks both problem kinds share: a readable FCLib file of this kind in 3D.
std::optional<InputError> CheckKind(const io::Hdf5Reader& file, const std::string& path,
                                    const std::string& group) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return InputError{path, 0, "", "no such file"};
  if (!IsHdf5File(path)) return InputError{path, 0, "", "not an HDF5 file (bad signature)"};
  if (file.error()) return file.error();
  if (!file.Exists(group)) {
    return InputError{path, 0, group,
                      "not an FCLib " + group.substr(7) + " problem (group missing)"};
  }
  const Expected<std::int64_t> dim = file.ReadInteger(group + "/spacedim");
  if (!dim.ok()) return dim.error();
  if (dim.value() != 3) {
    return InputError{path, 0, group + "/spacedim",
                      fmt::format("{} (only 3D problems are supported)", dim.value())};
  }
  return std::nullopt;
}

Expected<FrictionContactProblem> Finish(FrictionContactProblem p, const std::string& path) {
  if (const std::string defect = ValidateFrictionContactProblem(p); !defect.empty()) {
    return InputError{path, 0, "", defect};
  }
  return p;
}

// The Hdf5Reader's errors name the dataset but not the file; the public readers add it.
InputError InFile(InputError error, const std::string& path) {
  if (error.file.empty()) error.file = path;
  return error;
}

Expected<FrictionContactProblem> ReadLocal(const io::Hdf5Reader& file, const std::string& path) {
  const std::string g = "/fclib_local";
  if (std::optional<InputError> defect = CheckKind(file, path, g)) return *defect;
  for (const char* block : {"/V", "/R", "/vectors/s"}) {
    if (file.Exists(g + block)) {
      return InputError{path, 0, g + block,
                        "mixed problems with equality constraints are not supported"};
    }
  }
  const Expected<Eigen::VectorXd> q = ReadVector(file, g + "/vectors/q");
  if (!q.ok()) return q.error();
  const std::int64_t m = q.value().size();
  if (m % 3 != 0) {
    return InputError{path, 0, g + "/vectors/q", fmt::format("{} entries, not 3 n_c", m)};
  }
  const Expected<Eigen::VectorXd> mu = ReadVector(file, g + "/vectors/mu", m / 3);
  if (!mu.ok()) return mu.error();
  Expected<SparseMatrix> W = ReadMatrix(file, g + "/W", m, m);
  if (!W.ok()) return W.error();
  const Expected<std::string> title = ReadTitle(file, g, path);
  if (!title.ok()) return title.error();
  FrictionContactProblem p;
  p.W.swap(W.value());  // Eigen 3.4's SparseMatrix has no move assignment
  p.q = q.value();
  p.mu = mu.value();
  p.name = title.value();
  return Finish(std::move(p), path);
}

// The local problem of a global one with no equality constraints (FCLib's GM3DFC, G absent):
// M v = H r + f and u = Hᵀ v + w give u = W r + q with W = Hᵀ M⁻¹ H and q = Hᵀ M⁻¹ f + w.
// M is factored once (sparse LDLᵀ) and W built a column at a time, W(:, j) = Hᵀ M⁻¹ H(:, j):
// memory O(n + nnz(W)) rather than a dense n × m M⁻¹ H. Exact zeros (contacts on different
// bodies) stay structural zeros.
Expected<FrictionContactProblem> ReadGlobal(const io::Hdf5Reader& file, const std::string& path) {
  const std::string g = "/fclib_global";
  if (std::optional<InputError> defect = CheckKind(file, path, g)) return *defect;
  if (file.Exists(g + "/G")) {
    const Expected<std::int64_t> columns = file.ReadInteger(g + "/G/n");
    if (!columns.ok() || columns.value() != 0) {
      return InputError{path, 0, g + "/G",
                        "global problems with equality constraints are not supported"};
    }
  }
  const Expected<Eigen::VectorXd> f = ReadVector(file, g + "/vectors/f");
  if (!f.ok()) return f.error();
  const Expected<Eigen::VectorXd> w = ReadVector(file, g + "/vectors/w");
  if (!w.ok()) return w.error();
  const std::int64_t n = f.value().size(), m = w.value().size();
  if (m % 3 != 0) {
    return InputError{path, 0, g + "/vectors/w", fmt::format("{} entries, not 3 n_c", m)};
  }
  const Expected<Eigen::VectorXd> mu = ReadVector(file, g + "/vectors/mu", m / 3);
  if (!mu.ok()) return mu.error();
  const Expected<SparseMatrix> M = ReadMatrix(file, g + "/M", n, n);
  if (!M.ok()) return M.error();
  const Expected<SparseMatrix> H = ReadMatrix(file, g + "/H", n, m);
  if (!H.ok()) return H.error();
  const Expected<std::string> title = ReadTitle(file, g, path);
  if (!title.ok()) return title.error();

  // M is symmetric by FCLib's definition. Some writers (LMGC90) store one triangle only; that is
  // read as the symmetric matrix it stands for. Both triangles stored must agree.
  SparseMatrix Ms = M.value();
  const SparseMatrix lower = Ms.triangularView<Eigen::StrictlyLower>();
  const SparseMatrix upper = Ms.triangularView<Eigen::StrictlyUpper>();
  std::string storage;
  if (lower.nonZeros() == 0 && upper.nonZeros() > 0) {
    Ms += SparseMatrix(upper.transpose());
    storage = ", M from its upper triangle";
  } else if (upper.nonZeros() == 0 && lower.nonZeros() > 0) {
    Ms += SparseMatrix(lower.transpose());
    storage = ", M from its lower triangle";
  } else {
    const SparseMatrix asymmetry = Ms - SparseMatrix(Ms.transpose());
    if (asymmetry.nonZeros() > 0 &&
        asymmetry.coeffs().cwiseAbs().maxCoeff() > 1e-10 * Ms.coeffs().cwiseAbs().maxCoeff()) {
      return InputError{path, 0, g + "/M", "not symmetric (beyond 1e-10 of its largest entry)"};
    }
  }
  const Eigen::SimplicialLDLT<SparseMatrix> ldlt(Ms);
  if (ldlt.info() != Eigen::Success || (ldlt.vectorD().array() <= 0).any()) {
    return InputError{path, 0, g + "/M",
                      "not symmetric positive definite: the problem cannot be condensed"};
  }
  const SparseMatrix& Hs = H.value();
  const SparseMatrix Ht = Hs.transpose();
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::VectorXd column(n);
  for (Eigen::Index j = 0; j < m; ++j) {
    column = ldlt.solve(Eigen::VectorXd(Hs.col(j)));
    const Eigen::VectorXd Wj = Ht * column;
    for (Eigen::Index i = 0; i < m; ++i) {
      if (Wj[i] != 0.0) entries.emplace_back(static_cast<int>(i), static_cast<int>(j), Wj[i]);
    }
  }
  FrictionContactProblem p;
  p.W.resize(m, m);
  p.W.setFromTriplets(entries.begin(), entries.end());
  p.q = Ht * ldlt.solve(f.value()) + w.value();
  p.mu = mu.value();
  p.name = title.value() + fmt::format(" (global, {} DoF, condensed{})", n, storage);
  return Finish(std::move(p), path);
}

}  // namespace

Expected<FrictionContactProblem> ReadFclibFile(const std::string& path) {
  const io::Hdf5Reader file(path, {"/fclib_local", "/fclib_global"});
  if (file.Exists("/fclib_global") && !file.Exists("/fclib_local")) {
    const auto p = ReadGlobal(file, path);
    return p.ok() ? p : InFile(p.error(), path);
  }
  const auto p = ReadLocal(file, path);
  return p.ok() ? p : InFile(p.error(), path);
}

Expected<FrictionContactProblem> ReadFclibGlobal(const std::string& path) {
  const io::Hdf5Reader file(path, {"/fclib_global"});
  const auto p = ReadGlobal(file, path);
  return p.ok() ? p : InFile(p.error(), path);
}

Expected<FrictionContactProblem> ReadFclibLocal(const std::string& path) {
  const io::Hdf5Reader file(path, {"/fclib_local"});
  const auto p = ReadLocal(file, path);
  return p.ok() ? p : InFile(p.error(), path);
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
