#include "apps/coulomb/trinkle/cone_newton.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "apps/coulomb/trinkle/trinkle_system.h"
#include "coulomb/math/backtracking.h"

namespace coulomb::trinkle {
namespace {

// The cone problem in reduced unknowns x: c = Φ x, a = A c + b.
struct ReducedCone {
  Eigen::MatrixXd phi;  // components × unknowns
  Eigen::MatrixXd A;    // a = A c + b over all components
  Eigen::VectorXd b;
  std::vector<int> normal_x;   // x index of each contact's c_n
  std::vector<int> tangent_x;  // x index of c_t (c_o follows), −1 for sliding contacts
  std::vector<int> offset;     // component offset of each contact
  std::vector<double> mu;
};

// F(x) and, optionally, an element of its generalized Jacobian.
Eigen::VectorXd Residual(const ReducedCone& r, const Eigen::VectorXd& x, double rho,
                         Eigen::MatrixXd* jacobian) {
  const Eigen::VectorXd c = r.phi * x;
  const Eigen::VectorXd a = r.A * c + r.b;
  const Eigen::MatrixXd da = r.A * r.phi;  // ∂a/∂x
  Eigen::VectorXd F(x.size());
  if (jacobian) jacobian->setZero(x.size(), x.size());
  for (std::size_t j = 0; j < r.normal_x.size(); ++j) {
    const int in = r.normal_x[j], k = r.offset[j];
    const double cn = x[in];
    if (cn - rho * a[k] > 0) {
      F[in] = rho * a[k];
      if (jacobian) jacobian->row(in) = rho * da.row(k);
    } else {
      F[in] = cn;
      if (jacobian) (*jacobian)(in, in) = 1.0;
    }
    const int it = r.tangent_x[j];
    if (it < 0) continue;
    const Eigen::Vector2d cT = x.segment<2>(it);
    const Eigen::Vector2d y = cT - rho * a.segment<2>(k + 1);
    const double radius = r.mu[j] * std::max(0.0, cn);
    const double ny = y.norm();
    if (ny <= radius) {  // inside the disk: F_T = ρ a_T
      F.segment<2>(it) = rho * a.segment<2>(k + 1);
      if (jacobian) jacobian->middleRows(it, 2) = rho * da.middleRows(k + 1, 2);
    } else {  // on the boundary: F_T = c_T − r ŷ
      const Eigen::Vector2d yhat = y / ny;
      F.segment<2>(it) = cT - radius * yhat;
      if (jacobian) {
        // dF = dc_T − (r/‖y‖)(I − ŷŷᵀ)(dc_T − ρ da_T) − ŷ μ dc_n [c_n > 0].
        const Eigen::Matrix2d P =
            (radius / ny) * (Eigen::Matrix2d::Identity() - yhat * yhat.transpose());
        Eigen::MatrixXd dy = -rho * da.middleRows(k + 1, 2);
        dy.col(it) += Eigen::Vector2d::UnitX();
        dy.col(it + 1) += Eigen::Vector2d::UnitY();
        jacobian->middleRows(it, 2) = -P * dy;
        (*jacobian)(it, it) += 1.0;
        (*jacobian)(it + 1, it + 1) += 1.0;
        if (cn > 0) jacobian->middleRows(it, 2).col(in) -= r.mu[j] * yhat;
      }
    }
  }
  return F;
}

}  // namespace

TrinkleSolution SolveTrinkleConeDirect(const TrinkleProblem& problem,
                                       const ConeNewtonParams& params) {
  TrinkleSolution sol;
  if (const std::string defect = ValidateTrinkleProblem(problem); !defect.empty()) {
    sol.message = defect;
    return sol;
  }
  for (const TrinkleContact& c : problem.contacts) {
    if (c.soft_finger() || problem.variant == TrinkleVariant::kQuasistatic) {
      sol.status = LcpStatus::kNotApplicable;
      sol.message = "the direct cone solver covers point contacts of the dynamic problem only";
      return sol;
    }
  }
  const TrinkleSystem s = BuildTrinkleSystem(problem);
  sol.states = ClassifyContacts(problem, s, params.velocity_tolerance);
  const ContactDynamics dyn = ComputeContactDynamics(s);
  if (!dyn.ok) {
    sol.status = LcpStatus::kBadInput;
    sol.message =
        "the mass matrix of the bodies with unknown acceleration is not positive definite";
    return sol;
  }
  ReducedCone r;
  r.A = dyn.A;
  r.b = dyn.b;
  r.offset = s.offset;
  const int nc = static_cast<int>(problem.contacts.size());
  int nx = nc;
  for (int j = 0; j < nc; ++j) {
    r.normal_x.push_back(j);
    r.mu.push_back(problem.frictionless ? 0.0 : problem.contacts[j].mu);
    const bool rolling = sol.states[j].translation == SlipState::kRolling;
    r.tangent_x.push_back(rolling && !problem.frictionless ? nx : -1);
    if (rolling && !problem.frictionless) nx += 2;
  }
  r.phi = Eigen::MatrixXd::Zero(s.num_components, nx);
  for (int j = 0; j < nc; ++j) {
    const int k = s.offset[j];
    r.phi(k, j) = 1.0;
    if (r.tangent_x[j] >= 0) {
      r.phi(k + 1, r.tangent_x[j]) = 1.0;
      r.phi(k + 2, r.tangent_x[j] + 1) = 1.0;
    } else if (sol.states[j].translation == SlipState::kSliding) {
      r.phi(k + 1, j) = -r.mu[j] * sol.states[j].slip_direction.x();  // eq. (12)
      r.phi(k + 2, j) = -r.mu[j] * sol.states[j].slip_direction.y();
      ++sol.num_sliding;
    }
  }
  sol.num_rolling = nc - sol.num_sliding;
  double max_diag = 0;
  for (int j = 0; j < nc; ++j) max_diag = std::max(max_diag, r.A(s.offset[j], s.offset[j]));
  const double rho = params.rho > 0 ? params.rho : 1.0 / std::max(max_diag, 1e-300);
  const double scale = 1.0 + r.b.lpNorm<Eigen::Infinity>() * rho;

  Eigen::VectorXd x = Eigen::VectorXd::Zero(nx);
  Eigen::MatrixXd J;
  Eigen::VectorXd F = Residual(r, x, rho, &J);
  double merit = 0.5 * F.squaredNorm();
  sol.status = LcpStatus::kIterationLimit;
  int iteration = 0;
  for (; iteration < params.max_iterations; ++iteration) {
    if (F.lpNorm<Eigen::Infinity>() <= params.tolerance * scale) {
      sol.status = LcpStatus::kSolved;
      break;
    }
    const Eigen::VectorXd gradient = J.transpose() * F;
    Eigen::VectorXd d = J.fullPivLu().solve(-F);
    if (!d.allFinite() || gradient.dot(d) > -1e-12 * d.squaredNorm()) d = -gradient;
    Eigen::MatrixXd J_trial;
    Eigen::VectorXd x_trial, F_trial;
    const auto merit_at = [&](double t) {
      x_trial = x + t * d;
      F_trial = Residual(r, x_trial, rho, &J_trial);
      return 0.5 * F_trial.squaredNorm();
    };
    math::BacktrackingSettings search;
    search.alpha_min = 1e-14;
    const math::BacktrackingResult step =
        math::BacktrackArmijo(merit_at, merit, gradient.dot(d), search);
    if (step.accepted) {
      x = x_trial;
      F = F_trial;
      J = J_trial;
      merit = step.merit;
    } else {
      sol.status = LcpStatus::kStalled;
      sol.message = fmt::format("line search failed at iteration {} (‖F‖ = {:.3e})", iteration + 1,
                                F.lpNorm<Eigen::Infinity>());
      break;
    }
  }
  sol.lcp_result.solver = "cone-newton";
  sol.lcp_result.iterations = iteration;
  if (sol.status == LcpStatus::kIterationLimit) {
    sol.message = fmt::format("iteration limit {} reached (‖F‖ = {:.3e})", params.max_iterations,
                              F.lpNorm<Eigen::Infinity>());
  }
  sol.forces = r.phi * x;
  sol.contact_acceleration = r.A * sol.forces + r.b;
  const MotionRecovery motion = RecoverMotion(problem, s, sol.forces);
  sol.acceleration = motion.acceleration;
  sol.joint_effort = motion.joint_effort;
  for (int j = 0; j < nc; ++j) {
    if (r.tangent_x[j] < 0 || r.mu[j] * sol.forces[s.offset[j]] <= 0) continue;
    sol.max_cone_ratio =
        std::max(sol.max_cone_ratio, sol.forces.segment<2>(s.offset[j] + 1).norm() /
                                         (r.mu[j] * sol.forces[s.offset[j]]));
  }
  if (sol.status == LcpStatus::kSolved) {
    CheckOptions options = params.check;
    options.velocity_tolerance = params.velocity_tolerance;
    options.cone_model = true;
    sol.check = CheckTrinkleSolution(problem, s, sol, options);
    if (!sol.check.ok) {
      sol.status = LcpStatus::kInaccurate;
      sol.message = "model check failed:\n" + sol.check.Summary();
    }
  }
  return sol;
}

}  // namespace coulomb::trinkle
