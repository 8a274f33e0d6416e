#include "coulomb/formulations/contact_solution.h"

#include <algorithm>
#include <vector>

namespace coulomb {

LocalContactProblem MakeLocalContactProblem(const contact::ContactProblem& problem,
                                            double position_correction,
                                            double max_correction_speed) {
  const int nc = problem.num_contacts();
  const Eigen::Index nv = problem.J.cols();
  const auto& blocks = problem.mass.blocks();
  // The contacts touching each block (contact_blocks), so the work is per block, not per
  // block × contact.
  std::vector<std::vector<int>> touching(blocks.size());
  for (int k = 0; k < nc; ++k) {
    const auto [a, b] = problem.contact_blocks[k];
    if (a >= 0) touching[a].push_back(k);
    if (b >= 0 && b != a) touching[b].push_back(k);
  }
  std::vector<Eigen::Triplet<double>> w_entries, minv_entries, g_entries;
  for (int b = 0; b < static_cast<int>(blocks.size()); ++b) {
    const std::vector<int>& rows = touching[b];
    if (rows.empty()) continue;
    const int start = blocks[b].start, size = blocks[b].size;
    const int m = static_cast<int>(rows.size());
    Eigen::MatrixXd Jb(3 * m, size);
    for (int i = 0; i < m; ++i) {
      Jb.middleRows<3>(3 * i) = Eigen::MatrixXd(problem.J.block(3 * rows[i], start, 3, size));
    }
    // M_bb = L Lᵀ: Z = L⁻¹ J_bᵀ gives G's block (Zᵀ), M_bb⁻¹ J_bᵀ = L⁻ᵀ Z and W_b = Zᵀ Z.
    const Eigen::MatrixXd Z = problem.mass.SolveLowerBlock(b, Jb.transpose());
    const Eigen::MatrixXd Y = problem.mass.SolveUpperBlock(b, Z);
    const Eigen::MatrixXd Wb = Z.transpose() * Z;
    for (int i = 0; i < m; ++i) {
      for (int a = 0; a < 3; ++a) {
        for (int j = 0; j < m; ++j) {
          for (int c = 0; c < 3; ++c) {
            w_entries.emplace_back(3 * rows[i] + a, 3 * rows[j] + c, Wb(3 * i + a, 3 * j + c));
          }
        }
        for (int d = 0; d < size; ++d) {
          if (Y(d, 3 * i + a) != 0.0)
            minv_entries.emplace_back(start + d, 3 * rows[i] + a, Y(d, 3 * i + a));
          if (Z(d, 3 * i + a) != 0.0)
            g_entries.emplace_back(3 * rows[i] + a, start + d, Z(d, 3 * i + a));
        }
      }
    }
  }
  LocalContactProblem local;
  // A compliant contact (c m/N) deflects by φ_c = c f = c γ / h: the end-of-step gap condition
  // φ + h u_N + c γ_N / h ≥ 0 puts c / h² on the normal diagonal (a regularized, softer contact).
  local.W_diagonal = Eigen::VectorXd::Zero(3 * nc);
  for (int k = 0; k < nc && problem.compliance.size() == nc; ++k) {
    if (problem.compliance[k] > 0) {
      local.W_diagonal[3 * k] = problem.compliance[k] / (problem.time_step * problem.time_step);
      w_entries.emplace_back(3 * k, 3 * k, local.W_diagonal[3 * k]);
    }
  }
  local.G.resize(3 * nc, nv);
  local.G.setFromTriplets(g_entries.begin(), g_entries.end());
  local.W.resize(3 * nc, 3 * nc);
  local.W.setFromTriplets(w_entries.begin(), w_entries.end());  // sums blocks' contributions
  local.MinvJt.resize(nv, 3 * nc);
  local.MinvJt.setFromTriplets(minv_entries.begin(), minv_entries.end());
  local.q = problem.J * problem.v_star;
  const Eigen::VectorXd v_before = problem.J * problem.v;
  const double h = problem.time_step;
  for (int k = 0; k < nc; ++k) {
    double required = -position_correction * problem.phi[k] / h;  // n·v⁺ ≥ required
    const bool rigid = problem.compliance.size() != nc || problem.compliance[k] == 0;
    if (rigid) required = std::min(required, max_correction_speed);
    const double vn = v_before[3 * k],
                 e = problem.restitution.size() > k ? problem.restitution[k] : 0.0;
    if (e > 0 && vn < 0 && problem.phi[k] + h * vn <= 0) required = std::max(required, -e * vn);
    local.q[3 * k] -= required;
  }
  return local;
}

}  // namespace coulomb
