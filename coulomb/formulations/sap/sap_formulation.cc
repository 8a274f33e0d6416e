#include "coulomb/formulations/sap/sap_formulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "coulomb/base/stopwatch.h"

namespace coulomb {
namespace {

using convex::SapConstraint;
using convex::SapJacobian;
using convex::SapProblem;

// The clique (DofBlock) holding velocity index `dof`.
int CliqueOfDof(const SapProblem& sap, int dof) {
  for (std::size_t k = 0; k < sap.cliques.size(); ++k) {
    const convex::SapClique& c = sap.cliques[k];
    if (dof >= c.start && dof < c.start + c.size()) return static_cast<int>(k);
  }
  return -1;
}

// The 1-row Jacobian sign · e_dof of one velocity.
SapJacobian DofJacobian(const SapProblem& sap, std::string name, int dof, double sign) {
  SapJacobian jac;
  jac.name = std::move(name);
  jac.clique_a = CliqueOfDof(sap, dof);
  const convex::SapClique& c = sap.cliques[jac.clique_a];
  jac.J_a = Eigen::MatrixXd::Zero(1, c.size());
  jac.J_a(0, dof - c.start) = sign;
  return jac;
}

// The blocks of a dense rows × nv Jacobian on the (at most two) cliques it touches.
SapJacobian SplitJacobian(const SapProblem& sap, std::string name, const Eigen::MatrixXd& J,
                          std::string& error) {
  SapJacobian jac;
  jac.name = std::move(name);
  for (std::size_t k = 0; k < sap.cliques.size(); ++k) {
    const convex::SapClique& c = sap.cliques[k];
    const Eigen::MatrixXd block = J.middleCols(c.start, c.size());
    if (block.isZero(0)) continue;
    if (jac.clique_a < 0) {
      jac.clique_a = static_cast<int>(k);
      jac.J_a = block;
    } else if (jac.clique_b < 0) {
      jac.clique_b = static_cast<int>(k);
      jac.J_b = block;
    } else {
      error = jac.name + " couples more than two trees";
    }
  }
  if (jac.clique_a < 0 && error.empty()) error = jac.name + " involves no moving body";
  return jac;
}

void AddCliques(const contact::ContactProblem& problem, SapProblem& sap) {
  // A = M + δt·D per tree and v* solving A (v* − v0) = δt (f − D v0): the problem's mass and
  // free motion already treat joint damping implicitly (contact_problem.h).
  sap.v_star = problem.v_star;
  for (std::size_t k = 0; k < problem.M_blocks.size(); ++k) {
    convex::SapClique clique;
    clique.start = problem.mass.blocks()[k].start;
    clique.A = problem.M_blocks[k];
    sap.cliques.push_back(std::move(clique));
  }
}

void AddContacts(const contact::ContactProblem& problem, const SapParams& params,
                 SapStepProblem& out) {
  SapProblem& sap = out.sap;
  const double h = problem.time_step;
  for (int k = 0; k < problem.num_contacts(); ++k) {
    auto [a, b] = problem.contact_blocks[k];
    if (a < 0) std::swap(a, b);
    if (a < 0) continue;  // between two bodies without velocities: nothing to solve
    SapJacobian jac;
    jac.name = fmt::format("contact {}", k);
    const auto block = [&](int clique) {
      const convex::SapClique& c = sap.cliques[clique];
      return Eigen::MatrixXd(problem.J.block(3 * k, c.start, 3, c.size()));
    };
    jac.clique_a = a;
    jac.J_a = block(a);
    if (b >= 0 && b != a) {
      jac.clique_b = b;
      jac.J_b = block(b);
    }
    convex::ContactParameters contact;
    contact.phi0 = problem.phi[k];
    contact.mu = problem.mu[k];
    contact.stiffness = problem.compliance[k] > 0 ? 1.0 / problem.compliance[k] : INFINITY;
    contact.dissipation_time_scale = params.dissipation_time_scale.value_or(h);
    contact.max_correction_speed = params.max_correction_speed;
    const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, jac);
    // A contact whose normal impulse moves nothing (two links welded together that the scene's
    // filter let through) can carry no impulse: its regularization would be zero. Skip it.
    if (!(W(0, 0) > 0)) continue;
    sap.constraints.push_back(
        convex::MakeContactConstraint(std::move(jac), contact, W, h, params.regularization));
    out.contacts.push_back(k);
  }
}

void AddLimits(const contact::ContactProblem& problem, const SapParams& params, SapProblem& sap) {
  const double h = problem.time_step;
  for (const contact::JointLimit& limit : problem.limits) {
    // Only limits the joint can reach within the step (Drake's window,
    // docs/notes/sap-and-deformables.md §1.3): far limits would add rows that are never active.
    const double reach =
        2 * h * std::max(std::abs(problem.v[limit.dof]), std::abs(sap.v_star[limit.dof]));
    for (const double side : {1.0, -1.0}) {
      const double bound = side > 0 ? limit.lower : limit.upper;
      if (!std::isfinite(bound)) continue;
      const double gap = side * (limit.q - bound);  // ≥ 0 inside the range
      if (gap > reach) continue;
      SapJacobian jac = DofJacobian(
          sap, fmt::format("{} limit of joint '{}'", side > 0 ? "lower" : "upper", limit.joint),
          limit.dof, side);
      const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, jac);
      sap.constraints.push_back(convex::MakeLimitConstraint(
          std::move(jac), Eigen::VectorXd::Constant(1, gap), W, h, params.regularization));
    }
  }
}

void AddJointConstraints(const contact::ContactProblem& problem, const SapParams& params,
                         SapProblem& sap) {
  const double h = problem.time_step;
  if (params.joint_limits) AddLimits(problem, params, sap);
  for (const contact::BilateralConstraint& b : problem.bilateral) {
    std::string error;
    SapJacobian jac = SplitJacobian(sap, b.name, b.J, error);
    // A constraint spans at most two bodies, so at most two trees; the only error left is one
    // between bodies without velocities, which has nothing to enforce.
    if (!error.empty()) continue;
    convex::HolonomicParameters holonomic;
    holonomic.g0 = b.g0;
    const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, jac);
    sap.constraints.push_back(
        convex::MakeHolonomicConstraint(std::move(jac), holonomic, W, h, params.regularization));
  }
  for (const contact::JointDrive& d : problem.drives) {
    SapJacobian jac = DofJacobian(sap, fmt::format("drive of joint '{}'", d.joint), d.dof, 1.0);
    const convex::PdParameters pd{d.q, d.q_ref, d.v_ref, d.kp, d.kd, d.effort};
    sap.constraints.push_back(convex::MakePdConstraint(std::move(jac), pd, h));
  }
}

LcpStatus StatusOf(convex::SapStatus status) {
  switch (status) {
    case convex::SapStatus::kConverged:
      return LcpStatus::kSolved;
    case convex::SapStatus::kIterationLimit:
      return LcpStatus::kIterationLimit;
    case convex::SapStatus::kLineSearchFailed:
      return LcpStatus::kStalled;
    case convex::SapStatus::kNotPositiveDefinite:
      return LcpStatus::kNotApplicable;
    case convex::SapStatus::kBadInput:
      break;
  }
  return LcpStatus::kBadInput;
}

}  // namespace

SapStepProblem MakeSapProblem(const contact::ContactProblem& problem, const SapParams& params) {
  SapStepProblem out;
  out.sap.time_step = problem.time_step;
  AddCliques(problem, out.sap);
  AddContacts(problem, params, out);
  AddJointConstraints(problem, params, out.sap);
  return out;
}

ContactSolution RigidSolution(const contact::ContactProblem& problem, const SapStepProblem& step,
                              const convex::SapResult& r) {
  ContactSolution out;
  out.status = StatusOf(r.status);
  out.message = r.message;
  out.iterations = r.iterations;
  out.residual = r.residual;
  const Eigen::Index nv = problem.v.size();
  out.v_next = r.v.size() >= nv ? Eigen::VectorXd(r.v.head(nv)) : problem.v_star;
  // Contacts come first in the constraint stack; contacts between two static bodies have none
  // and keep zero impulse.
  out.impulses = Eigen::VectorXd::Zero(3 * problem.num_contacts());
  if (r.gamma.size() > 0) {
    for (std::size_t i = 0; i < step.contacts.size(); ++i) {
      out.impulses.segment<3>(3 * step.contacts[i]) = r.gamma.segment<3>(3 * i);
    }
  }
  out.factor_seconds = r.factor_seconds;
  out.factorizations = r.factorizations;
  return out;
}

ContactSolution SolveSapStep(const contact::ContactProblem& problem, const SapParams& params,
                             math::CholeskyFactor* factorization) {
  const Stopwatch clock;
  const SapStepProblem step = MakeSapProblem(problem, params);
  // Warm start from the current velocity (docs/notes/sap-and-deformables.md §1.5): in steady
  // contact it is nearly optimal.
  const convex::SapResult r = convex::SolveSap(step.sap, params.solver, problem.v, factorization);
  ContactSolution out = RigidSolution(problem, step, r);
  out.seconds = clock.Seconds();
  return out;
}

}  // namespace coulomb
