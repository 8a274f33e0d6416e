#include "coulomb/complementarity/nsgs.h"

#include <fmt/format.h>

#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/single_contact_solver.h"

namespace coulomb {

FrictionContactResult SolveNsgs(const FrictionContactProblem& problem, const NsgsParams& params,
                                const Eigen::VectorXd& warm_start) {
  const Stopwatch clock;
  if (std::string defect = ValidateFrictionContactProblem(problem); !defect.empty()) {
    return MakeBadFrictionContactResult("nsgs", defect);
  }
  if (!(params.relaxation > 0 && params.relaxation < 2)) {
    return MakeBadFrictionContactResult(
        "nsgs", fmt::format("relaxation = {} must lie in (0, 2)", params.relaxation));
  }
  const int nc = problem.num_contacts();
  Eigen::VectorXd r = Eigen::VectorXd::Zero(3 * nc);
  if (warm_start.size() == 3 * nc && warm_start.allFinite()) {
    for (int i = 0; i < nc; ++i) {
      r.segment<3>(3 * i) = ProjectOntoFrictionCone(warm_start.segment<3>(3 * i), problem.mu[i]);
    }
  }
  FrictionContactResult result;
  result.solver = "nsgs";
  // u = W r + q is kept up to date incrementally: a local update changes it by W_{:,i} Δr_i.
  Eigen::VectorXd u = problem.W * r + problem.q;
  // The 3 × 3 diagonal blocks, extracted once from the sparse W.
  std::vector<Eigen::Matrix3d> diagonal(nc);
  for (int i = 0; i < nc; ++i) {
    diagonal[i] = Eigen::MatrixXd(problem.W.block(3 * i, 3 * i, 3, 3));
  }
  LcpStatus status = LcpStatus::kIterationLimit;
  for (int sweep = 0; sweep < params.max_sweeps; ++sweep) {
    for (int i = 0; i < nc; ++i) {
      const Eigen::Matrix3d& Wii = diagonal[i];
      const Eigen::Vector3d ri = r.segment<3>(3 * i);
      const Eigen::Vector3d qi = u.segment<3>(3 * i) - Wii * ri;  // others' contribution
      Eigen::Vector3d next = SolveSingleContact(Wii, qi, problem.mu[i], ri).r;
      if (params.relaxation != 1.0) {
        next = ProjectOntoFrictionCone(ri + params.relaxation * (next - ri), problem.mu[i]);
      }
      const Eigen::Vector3d delta = next - ri;
      if (delta.squaredNorm() > 0) {
        r.segment<3>(3 * i) = next;
        // Only the nonzeros of W's three columns: `W.middleCols(…) * delta` would build and
        // add a dense 3 n_c temporary per contact, O(n_c²) per sweep.
        for (int c = 0; c < 3; ++c) {
          if (delta[c] == 0) continue;
          for (Eigen::SparseMatrix<double>::InnerIterator it(problem.W, 3 * i + c); it; ++it) {
            u[it.row()] += it.value() * delta[c];
          }
        }
      }
    }
    result.iterations = sweep + 1;
    // The certificate costs about one sweep: check every few sweeps (and at the cap).
    const bool check = sweep < 4 || sweep % 5 == 4 || sweep + 1 == params.max_sweeps;
    if (check && CertifyFrictionContact(problem, r).error <= params.tolerance) {
      status = LcpStatus::kSolved;
      break;
    }
    if (params.deadline.Passed()) {
      status = LcpStatus::kTimeLimit;
      break;
    }
  }
  SetFrictionContactAnswer(problem, r, status, params.tolerance, result);
  if (result.status == LcpStatus::kTimeLimit) {
    result.message = fmt::format("time limit reached after {} sweeps with error {:.3g} > {:.3g}",
                                 result.iterations, result.error, params.tolerance);
  } else if (status == LcpStatus::kIterationLimit) {
    result.message = fmt::format(
        "{} sweeps reached with error {:.3g} > {:.3g}; raise max_sweeps "
        "or use the nsn/ppa solver for tight tolerances",
        params.max_sweeps, result.error, params.tolerance);
  }
  result.seconds = clock.Seconds();
  return result;
}

}  // namespace coulomb
