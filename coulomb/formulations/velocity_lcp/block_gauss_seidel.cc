#include "coulomb/formulations/velocity_lcp/block_gauss_seidel.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "coulomb/complementarity/lemke.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

namespace coulomb {
namespace {

// One contact's LCP with the others frozen: W_kk and q_k + Σ_{j≠k} W_kj r_j = u_k − W_kk r_k.
LcpProblem ContactLcp(const Eigen::Matrix3d& Wkk, const Eigen::Vector3d& qk, double mu, int d) {
  return MakeStewartTrinkleLcp(Wkk, qk, Eigen::VectorXd::Constant(1, mu), d);
}

double NaturalResidual(const LcpProblem& lcp, const Eigen::VectorXd& z) {
  const Eigen::VectorXd w = lcp.M * z + lcp.q;
  return z.cwiseMin(w).cwiseAbs().maxCoeff();
}

}  // namespace

Eigen::Vector3d PyramidImpulse(double normal, const double* beta, int directions) {
  Eigen::Vector3d r(normal, 0, 0);
  for (int j = 0; j < directions; ++j) {
    const double angle = 2.0 * std::numbers::pi * j / directions;
    r[1] += std::cos(angle) * beta[j];
    r[2] += std::sin(angle) * beta[j];
  }
  return r;
}

BlockGaussSeidelResult SolveStewartTrinkleBlockGaussSeidel(const LocalContactProblem& local,
                                                           const Eigen::VectorXd& mu,
                                                           int directions,
                                                           const ProjectedGaussSeidelParams& params,
                                                           const Eigen::VectorXd& warm_start) {
  const int nc = static_cast<int>(mu.size()), d = directions;
  BlockGaussSeidelResult out;
  out.impulses = Eigen::VectorXd::Zero(3 * nc);
  if (warm_start.size() == 3 * nc && warm_start.allFinite()) out.impulses = warm_start;
  for (int k = 0; k < nc; ++k) out.impulses[3 * k] = std::max(0.0, out.impulses[3 * k]);
  std::vector<Eigen::Matrix3d> diagonal(nc);
  for (int k = 0; k < nc; ++k) diagonal[k] = Eigen::MatrixXd(local.W.block(3 * k, 3 * k, 3, 3));
  Eigen::VectorXd u = local.W * out.impulses + local.q;  // local velocities
  std::vector<Eigen::VectorXd> z(nc, Eigen::VectorXd::Zero(d + 2));
  const double scale = std::max(1.0, local.q.lpNorm<Eigen::Infinity>());
  for (int sweep = 1; sweep <= params.max_sweeps; ++sweep) {
    for (int k = 0; k < nc; ++k) {
      const Eigen::Vector3d rk = out.impulses.segment<3>(3 * k);
      const LcpProblem lcp =
          ContactLcp(diagonal[k], u.segment<3>(3 * k) - diagonal[k] * rk, mu[k], d);
      const LcpResult solved = SolveLemke(lcp);
      if (solved.z.size() != d + 2 || !solved.z.allFinite()) continue;  // keep the last answer
      z[k] = solved.z;
      const Eigen::Vector3d change = PyramidImpulse(z[k][0], z[k].data() + 1, d) - rk;
      for (int c = 0; c < 3; ++c) {
        if (change[c] == 0) continue;
        for (Eigen::SparseMatrix<double>::InnerIterator it(local.W, 3 * k + c); it; ++it) {
          u[it.row()] += it.value() * change[c];
        }
      }
      out.impulses.segment<3>(3 * k) += change;
    }
    out.sweeps = sweep;
    if (sweep % params.check_every != 0 && sweep != params.max_sweeps) continue;
    double worst = 0;
    for (int k = 0; k < nc; ++k) {
      const Eigen::Vector3d rk = out.impulses.segment<3>(3 * k);
      worst = std::max(
          worst,
          NaturalResidual(ContactLcp(diagonal[k], u.segment<3>(3 * k) - diagonal[k] * rk, mu[k], d),
                          z[k]));
    }
    out.residual = worst / scale;
    if (!std::isfinite(out.residual)) {
      out.status = LcpStatus::kStalled;
      out.message = fmt::format("impulses diverged at sweep {}", sweep);
      return out;
    }
    if (out.residual <= params.acceptance_tolerance) {
      out.status = LcpStatus::kSolved;
      return out;
    }
  }
  out.message = fmt::format(
      "sweep limit {} reached with relative residual {:.3g} > {:.3g}; raise "
      "max_sweeps or the tolerance",
      params.max_sweeps, out.residual, params.acceptance_tolerance);
  return out;
}

}  // namespace coulomb
