#include "coulomb/formulations/contact_solution.h"

#include <algorithm>
#include <span>
#include <vector>

namespace coulomb {

LocalContactProblem MakeLocalContactProblem(const contact::ContactProblem& problem,
                                            const PositionCorrection& correction) {
  LocalContactProblem local;
  MakeLocalContactProblem(problem, correction, local);
  return local;
}

void MakeLocalContactProblem(const contact::ContactProblem& problem,
                             const PositionCorrection& correction, LocalContactProblem& local) {
  const int nc = problem.num_contacts();
  const Eigen::Index nv = problem.J.cols();
  const auto& blocks = problem.mass.blocks();
  LocalContactProblem::Scratch& s = local.scratch;
  // The contacts touching each block (contact_blocks), so the work is per block, not per
  // block × contact.
  const int nb = static_cast<int>(blocks.size());
  s.blocks.resize(blocks.size());
  s.touching_start.assign(nb + 1, 0);
  for (int k = 0; k < nc; ++k) {
    const auto [a, b] = problem.contact_blocks[k];
    if (a >= 0) ++s.touching_start[a + 1];
    if (b >= 0 && b != a) ++s.touching_start[b + 1];
  }
  for (int b = 0; b < nb; ++b) s.touching_start[b + 1] += s.touching_start[b];
  s.touching.resize(s.touching_start[nb]);
  s.next.assign(s.touching_start.begin(), s.touching_start.end() - 1);
  for (int k = 0; k < nc; ++k) {  // in contact order within each block
    const auto [a, b] = problem.contact_blocks[k];
    if (a >= 0) s.touching[s.next[a]++] = k;
    if (b >= 0 && b != a) s.touching[s.next[b]++] = k;
  }
  s.W.clear();
  s.MinvJt.clear();
  s.G.clear();
  for (int b = 0; b < static_cast<int>(blocks.size()); ++b) {
    const std::span<const int> rows(s.touching.data() + s.touching_start[b],
                                    s.touching_start[b + 1] - s.touching_start[b]);
    if (rows.empty()) continue;
    const int start = blocks[b].start, size = blocks[b].size;
    const int m = static_cast<int>(rows.size());
    Eigen::MatrixXd& Jt = s.blocks[b].Jt;
    Eigen::MatrixXd& Y = s.blocks[b].Y;
    Eigen::MatrixXd& Wb = s.blocks[b].Wb;
    // J_bᵀ, read from J's compressed rows (row-major: each row's entries are contiguous).
    Jt.setZero(size, 3 * m);
    for (int i = 0; i < m; ++i) {
      for (int a = 0; a < 3; ++a) {
        for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(problem.J,
                                                                            3 * rows[i] + a);
             it; ++it) {
          if (it.col() >= start && it.col() < start + size)
            Jt(it.col() - start, 3 * i + a) = it.value();
        }
      }
    }
    // M_bb = L Lᵀ: Z = L⁻¹ J_bᵀ gives G's block (Zᵀ), M_bb⁻¹ J_bᵀ = L⁻ᵀ Z and W_b = Zᵀ Z (with a
    // mimic reduction T: Tᵀ M_bb T = L Lᵀ, Z = L⁻¹ Tᵀ J_bᵀ and M⁻¹ J_bᵀ = T L⁻ᵀ Z).
    problem.mass.SolveLowerBlockInPlace(b, Jt);
    const Eigen::MatrixXd& Z = Jt;
    Y = Z;
    problem.mass.SolveUpperBlockInPlace(b, Y);
    Wb.noalias() = Z.transpose() * Z;
    for (int i = 0; i < m; ++i) {
      for (int a = 0; a < 3; ++a) {
        // Column 3 rows[i] + a of W, rows rising: the order of W's storage, so a lone block's
        // entries need no sort (math/sparse_assembly.h).
        for (int j = 0; j < m; ++j) {
          for (int c = 0; c < 3; ++c) {
            s.W.add(3 * rows[j] + c, 3 * rows[i] + a, Wb(3 * j + c, 3 * i + a));
          }
        }
        for (int d = 0; d < size; ++d) {
          if (Y(d, 3 * i + a) != 0.0) s.MinvJt.add(start + d, 3 * rows[i] + a, Y(d, 3 * i + a));
        }
        // Z has fewer rows than the block when mimic joints reduce it (contact_problem.h): G's
        // columns are then the block's free coordinates, which is all W = G Gᵀ needs. Zeros are
        // kept: G's pattern is then the contacts' and blocks', not its values' (an entry that
        // happened to be exactly zero changed it at every other step of the pyramid, and the
        // Newton solver's system was rebuilt and refactored from scratch for that).
        for (int d = 0; d < static_cast<int>(Z.rows()); ++d) {
          s.G.add(3 * rows[i] + a, start + d, Z(d, 3 * i + a));
        }
      }
    }
  }
  // A compliant contact (c m/N) deflects by φ_c = c f = c γ / h: the end-of-step gap condition
  // φ + h u_N + c γ_N / h ≥ 0 puts c / h² on the normal diagonal (a regularized, softer contact).
  local.W_diagonal.setZero(3 * nc);
  for (int k = 0; k < nc && problem.compliance.size() == nc; ++k) {
    if (problem.compliance[k] > 0) {
      local.W_diagonal[3 * k] = problem.compliance[k] / (problem.time_step * problem.time_step);
      s.W.add(3 * k, 3 * k, local.W_diagonal[3 * k]);
    }
  }
  math::AssignFromTriplets(s.G, 3 * nc, nv, local.G);
  math::AssignFromTriplets(s.W, 3 * nc, 3 * nc, local.W);  // sums blocks' contributions
  math::AssignFromTriplets(s.MinvJt, nv, 3 * nc, local.MinvJt);
  local.q.noalias() = problem.J * problem.v_star;
  s.v_before.noalias() = problem.J * problem.v;
  for (int k = 0; k < nc; ++k) {
    local.q[3 * k] -= RequiredNormalVelocity(problem, k, s.v_before[3 * k], correction);
  }
}

void ReserveContacts(const contact::ContactCapacity& capacity, LocalContactProblem& local) {
  const auto n = static_cast<std::size_t>(capacity.contacts);
  const auto rows = 3 * n, nv = static_cast<std::size_t>(capacity.nv);
  const auto per_row = static_cast<std::size_t>(capacity.columns);
  LocalContactProblem::Scratch& s = local.scratch;
  s.W.Reserve(9 * n * kCoupledContacts, rows);
  s.MinvJt.Reserve(rows * per_row, std::max(rows, nv));
  s.G.Reserve(rows * per_row, std::max(rows, nv));
}

double RequiredNormalVelocity(const contact::ContactProblem& problem, int k, double normal_velocity,
                              const PositionCorrection& correction) {
  const int nc = problem.num_contacts();
  const double h = problem.time_step;
  const double phi = problem.phi[k], slop = correction.slop;
  const double outside = phi > slop ? phi - slop : (phi < -slop ? phi + slop : 0.0);
  double required = -correction.fraction * outside / h;  // n·v⁺ ≥ required
  const bool rigid = problem.compliance.size() != nc || problem.compliance[k] == 0;
  if (rigid) required = std::min(required, correction.max_speed);
  const double vn = normal_velocity,
               e = problem.restitution.size() > k ? problem.restitution[k] : 0.0;
  if (e > 0 && vn < 0 && problem.phi[k] + h * vn <= 0) required = std::max(required, -e * vn);
  return required;
}

}  // namespace coulomb
