#include "coulomb/convex/sap_problem.h"

#include <fmt/format.h>

#include <cmath>

namespace coulomb::convex {
namespace {

std::string ValidateJacobianBlock(const SapProblem& problem, const SapJacobian& jac, int clique,
                                  const Eigen::MatrixXd& J) {
  if (clique < 0 || clique >= static_cast<int>(problem.cliques.size())) {
    return fmt::format("constraint '{}': clique {} does not exist ({} cliques)", jac.name, clique,
                       problem.cliques.size());
  }
  if (J.rows() != jac.rows() || J.cols() != problem.cliques[clique].size()) {
    return fmt::format("constraint '{}': Jacobian block is {}x{}, expected {}x{}", jac.name,
                       J.rows(), J.cols(), jac.rows(), problem.cliques[clique].size());
  }
  if (!J.allFinite()) return fmt::format("constraint '{}': Jacobian is not finite", jac.name);
  return "";
}

std::string ValidateConstraint(const SapProblem& problem, const SapConstraint& c) {
  const SapJacobian& jac = c.jacobian;
  std::string error = ValidateJacobianBlock(problem, jac, jac.clique_a, jac.J_a);
  if (error.empty() && jac.clique_b == jac.clique_a) {
    error = fmt::format("constraint '{}': both sides in clique {}; sum the blocks into J_a",
                        jac.name, jac.clique_a);
  }
  if (error.empty() && jac.clique_b >= 0) {
    error = ValidateJacobianBlock(problem, jac, jac.clique_b, jac.J_b);
  }
  if (!error.empty()) return error;
  const int r = jac.rows();
  if (r < 1 || r > kMaxConstraintRows) {
    return fmt::format("constraint '{}': {} rows (1 to {} supported)", jac.name, r,
                       kMaxConstraintRows);
  }
  if (c.R.size() != r || c.v_hat.size() != r) {
    return fmt::format("constraint '{}': R and v_hat must have {} entries", jac.name, r);
  }
  if (!(c.R.array() > 0).all() || !c.R.allFinite()) {
    return fmt::format("constraint '{}': regularization R must be positive and finite", jac.name);
  }
  if (!c.v_hat.allFinite()) return fmt::format("constraint '{}': bias is not finite", jac.name);
  if (c.kind == SapConstraint::Kind::kFrictionCone) {
    if (r != 3 || c.R[1] != c.R[2]) {
      return fmt::format("constraint '{}': a friction cone has 3 rows and R_t = R_o", jac.name);
    }
    if (!(c.mu >= 0) || !std::isfinite(c.mu)) {
      return fmt::format("constraint '{}': friction coefficient {} must be finite and >= 0",
                         jac.name, c.mu);
    }
  } else if (c.lower.size() != r || c.upper.size() != r ||
             !(c.lower.array() <= c.upper.array()).all()) {
    return fmt::format("constraint '{}': bounds must have {} entries with lower <= upper", jac.name,
                       r);
  }
  return "";
}

}  // namespace

Eigen::MatrixXd EstimateDelassusBlock(const SapProblem& problem, const SapJacobian& jacobian) {
  std::vector<double> scratch;
  ConstraintMatrix W;
  EstimateDelassusBlock(problem, jacobian, scratch, W);
  return W;
}

void EstimateDelassusBlock(const SapProblem& problem, const SapJacobian& jacobian,
                           std::vector<double>& scratch, ConstraintMatrix& W) {
  // J_c w J_cᵀ with w the clique's Delassus diagonal (or diag(A_c)⁻¹), as J_c diag(w) first and
  // then the product with J_cᵀ.
  const auto term = [&](int clique, const Eigen::MatrixXd& J, ConstraintMatrix& out) {
    const SapClique& c = problem.cliques[clique];
    scratch.resize(static_cast<std::size_t>(J.size()));
    Eigen::Map<Eigen::MatrixXd> Jw(scratch.data(), J.rows(), J.cols());
    if (c.delassus_diagonal.size() == c.size()) {
      Jw = J * c.delassus_diagonal.asDiagonal();
    } else {
      Jw = J * c.A.diagonal().cwiseInverse().asDiagonal();
    }
    out.noalias() = Jw * J.transpose();
  };
  term(jacobian.clique_a, jacobian.J_a, W);
  if (jacobian.clique_b >= 0) {
    ConstraintMatrix b;
    term(jacobian.clique_b, jacobian.J_b, b);
    W += b;
  }
}

std::string ValidateSapProblem(const SapProblem& problem) {
  if (!(problem.time_step > 0) || !std::isfinite(problem.time_step)) {
    return fmt::format("time step {} s must be positive and finite", problem.time_step);
  }
  if (!problem.v_star.allFinite()) return "free-motion velocity v* is not finite";
  for (std::size_t k = 0; k < problem.cliques.size(); ++k) {
    const SapClique& c = problem.cliques[k];
    if (c.A.rows() != c.A.cols() || c.start < 0 || c.start + c.size() > problem.nv()) {
      return fmt::format("clique {}: A is {}x{} at {}, outside the {} velocities", k, c.A.rows(),
                         c.A.cols(), c.start, problem.nv());
    }
    if (!c.A.allFinite() || !(c.A.diagonal().array() > 0).all()) {
      return fmt::format("clique {}: A must be finite with a positive diagonal", k);
    }
  }
  for (const SapConstraint& c : problem.constraints) {
    std::string error = ValidateConstraint(problem, c);
    if (!error.empty()) return error;
  }
  return "";
}

}  // namespace coulomb::convex
