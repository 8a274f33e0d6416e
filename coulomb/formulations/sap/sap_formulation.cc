#include "coulomb/formulations/sap/sap_formulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "coulomb/math/dense_resize.h"

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

// A constraint slot at the end of the problem's list: one kept from an earlier step when there
// is one, so that its vectors and matrices keep their storage.
SapConstraint& NewConstraint(SapStepWorkspace& ws) {
  std::vector<SapConstraint>& constraints = ws.step.sap.constraints;
  if (ws.spare.empty()) return constraints.emplace_back();
  constraints.push_back(std::move(ws.spare.back()));
  ws.spare.pop_back();
  return constraints.back();
}

// Takes back the last constraint NewConstraint gave (it turned out to carry nothing).
void DropLastConstraint(SapStepWorkspace& ws) {
  ws.spare.push_back(std::move(ws.step.sap.constraints.back()));
  ws.step.sap.constraints.pop_back();
}

// Sets the name of a constraint in its kept storage.
template <typename... Args>
void Name(std::string& name, fmt::format_string<Args...> format, Args&&... args) {
  name.clear();
  fmt::format_to(std::back_inserter(name), format, std::forward<Args>(args)...);
}

// The 1-row Jacobian sign · e_dof of one velocity.
void SetDofJacobian(const SapProblem& sap, int dof, double sign, SapJacobian& jac) {
  jac.clique_a = CliqueOfDof(sap, dof);
  jac.clique_b = -1;
  const convex::SapClique& c = sap.cliques[jac.clique_a];
  math::ResizeKeepingStorage(jac.J_a, 1, c.size());
  jac.J_a.setZero();
  jac.J_a(0, dof - c.start) = sign;
  math::ResizeKeepingStorage(jac.J_b, 0, 0);
}

// The blocks of a dense rows × nv Jacobian on the (at most two) cliques it touches.
void SetSplitJacobian(const SapProblem& sap, const Eigen::MatrixXd& J, SapJacobian& jac,
                      std::string& error) {
  jac.clique_a = jac.clique_b = -1;
  for (std::size_t k = 0; k < sap.cliques.size(); ++k) {
    const convex::SapClique& c = sap.cliques[k];
    const auto block = J.middleCols(c.start, c.size());
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
}

// diag(Â⁻¹): one dense Cholesky of Â and a triangular inverse, O(m³) like one factorization of
// the clique (see SapParams::deformable_delassus for when it is the better estimate).
void InverseDiagonal(const Eigen::MatrixXd& A, Eigen::VectorXd& diagonal) {
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() != Eigen::Success) {
    diagonal = A.diagonal().cwiseInverse();
    return;
  }
  Eigen::MatrixXd L_inverse = Eigen::MatrixXd::Identity(A.rows(), A.cols());
  llt.matrixL().solveInPlace(L_inverse);
  diagonal = L_inverse.colwise().squaredNorm().transpose();  // (L⁻ᵀ L⁻¹)_ii = ‖L⁻¹ e_i‖²
}

void AddCliques(const contact::ContactProblem& problem, const SapParams& params, SapProblem& sap) {
  // A = M + δt·D per tree and v* solving A (v* − v0) = δt (f − D v0): the problem's mass and
  // free motion already treat joint damping implicitly (contact_problem.h).
  sap.v_star = problem.v_star;
  sap.cliques.resize(problem.M_blocks.size());
  for (std::size_t k = 0; k < problem.M_blocks.size(); ++k) {
    convex::SapClique& clique = sap.cliques[k];
    clique.start = problem.mass.blocks()[k].start;
    clique.A = problem.M_blocks[k];
    clique.delassus_diagonal.resize(0);
    if (params.deformable_delassus == SapParams::DeformableDelassus::kExact &&
        problem.IsDeformableBlock(static_cast<int>(k))) {
      InverseDiagonal(clique.A, clique.delassus_diagonal);
    }
  }
}

void AddContacts(const contact::ContactProblem& problem, const SapParams& params,
                 SapStepWorkspace& ws) {
  SapProblem& sap = ws.step.sap;
  const double h = problem.time_step;
  convex::ConstraintMatrix W;
  for (int k = 0; k < problem.num_contacts(); ++k) {
    auto [a, b] = problem.contact_blocks[k];
    if (a < 0) std::swap(a, b);
    if (a < 0) continue;  // between two bodies without velocities: nothing to solve
    SapConstraint& constraint = NewConstraint(ws);
    SapJacobian& jac = constraint.jacobian;
    Name(jac.name, "contact {}", k);
    const auto block = [&](int clique, Eigen::MatrixXd& J) {
      const convex::SapClique& c = sap.cliques[clique];
      math::ResizeKeepingStorage(J, 3, c.size());  // a reused slot keeps its block
      J = problem.J.block(3 * k, c.start, 3, c.size());
    };
    jac.clique_a = a;
    block(a, jac.J_a);
    jac.clique_b = -1;
    if (b >= 0 && b != a) {
      jac.clique_b = b;
      block(b, jac.J_b);
    } else {
      math::ResizeKeepingStorage(jac.J_b, 0, 0);
    }
    convex::ContactParameters contact;
    contact.phi0 = problem.phi[k];
    contact.mu = problem.mu[k];
    contact.stiffness = problem.compliance[k] > 0 ? 1.0 / problem.compliance[k] : INFINITY;
    contact.dissipation_time_scale = params.dissipation_time_scale.value_or(h);
    contact.max_correction_speed = params.max_correction_speed;
    // Paper 2's v̂ at every gap for a contact on a deformable body (SetContactConstraint says
    // why); a rigid contact that does not touch yet has no damper.
    if (problem.IsDeformableBlock(a) || problem.IsDeformableBlock(b)) contact.damped_gap = INFINITY;
    convex::EstimateDelassusBlock(sap, jac, ws.delassus_scratch, W);
    // A contact whose normal impulse moves nothing (two links welded together that the scene's
    // filter let through) can carry no impulse: its regularization would be zero. Skip it.
    if (!(W(0, 0) > 0)) {
      DropLastConstraint(ws);
      continue;
    }
    convex::SetContactConstraint(contact, W, h, params.regularization, constraint);
    ws.step.contacts.push_back(k);
  }
}

void AddLimits(const contact::ContactProblem& problem, const SapParams& params,
               SapStepWorkspace& ws) {
  SapProblem& sap = ws.step.sap;
  const double h = problem.time_step;
  convex::ConstraintMatrix W;
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
      SapConstraint& constraint = NewConstraint(ws);
      Name(constraint.jacobian.name, "{} limit of joint '{}'", side > 0 ? "lower" : "upper",
           limit.joint);
      SetDofJacobian(sap, limit.dof, side, constraint.jacobian);
      convex::EstimateDelassusBlock(sap, constraint.jacobian, ws.delassus_scratch, W);
      convex::SetLimitConstraint(gap, W, h, params.regularization, constraint);
    }
  }
}

void AddJointConstraints(const contact::ContactProblem& problem, const SapParams& params,
                         SapStepWorkspace& ws) {
  SapProblem& sap = ws.step.sap;
  const double h = problem.time_step;
  if (params.joint_limits) AddLimits(problem, params, ws);
  for (const contact::BilateralConstraint& b : problem.bilateral) {
    std::string error;
    SapConstraint& constraint = NewConstraint(ws);
    constraint.jacobian.name = b.name;
    SetSplitJacobian(sap, b.J, constraint.jacobian, error);
    // A constraint spans at most two bodies, so at most two trees; the only error left is one
    // between bodies without velocities, which has nothing to enforce.
    if (!error.empty()) {
      DropLastConstraint(ws);
      continue;
    }
    convex::HolonomicParameters holonomic;
    holonomic.g0 = b.g0;
    const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, constraint.jacobian);
    constraint = convex::MakeHolonomicConstraint(std::move(constraint.jacobian), holonomic, W, h,
                                                 params.regularization);
  }
  for (const contact::JointFriction& f : problem.joint_friction) {
    SapConstraint& constraint = NewConstraint(ws);
    Name(constraint.jacobian.name, "friction of joint '{}'", f.joint);
    SetDofJacobian(sap, f.dof, 1.0, constraint.jacobian);
    convex::ConstraintMatrix W;
    convex::EstimateDelassusBlock(sap, constraint.jacobian, ws.delassus_scratch, W);
    convex::SetJointFrictionConstraint(f.friction, W(0, 0), h, params.regularization, constraint);
  }
  for (const contact::JointDrive& d : problem.drives) {
    SapConstraint& constraint = NewConstraint(ws);
    Name(constraint.jacobian.name, "drive of joint '{}'", d.joint);
    SetDofJacobian(sap, d.dof, 1.0, constraint.jacobian);
    const convex::PdParameters pd{d.q, d.q_ref, d.v_ref, d.kp, d.kd, d.effort};
    convex::SetPdConstraint(pd, h, constraint);
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
  SapStepWorkspace workspace;
  MakeSapProblem(problem, params, workspace);
  return std::move(workspace.step);
}

void MakeSapProblem(const contact::ContactProblem& problem, const SapParams& params,
                    SapStepWorkspace& ws) {
  SapProblem& sap = ws.step.sap;
  // Last step's constraints go to the spares, keeping their storage for this step's; in reverse,
  // so that NewConstraint hands them out in the same order (a contact between two bodies gets a
  // slot that had a J_b before).
  for (auto c = sap.constraints.rbegin(); c != sap.constraints.rend(); ++c) {
    ws.spare.push_back(std::move(*c));
  }
  sap.constraints.clear();
  ws.step.contacts.clear();
  sap.time_step = problem.time_step;
  AddCliques(problem, params, sap);
  AddContacts(problem, params, ws);
  AddJointConstraints(problem, params, ws);
}

void ReserveContacts(const contact::ContactCapacity& capacity, SapStepWorkspace& ws,
                     math::CholeskyFactor& factorization) {
  const auto n = static_cast<std::size_t>(capacity.contacts);
  SapStepProblem& step = ws.step;
  step.sap.constraints.reserve(n);
  step.contacts.reserve(n);
  ws.spare.reserve(n);
  // Spare slots up to n, each with room for a contact between the two largest blocks: the
  // constraints beyond the most a step has had are then not created one by one mid-run.
  for (std::size_t k = step.sap.constraints.size() + ws.spare.size(); k < n; ++k) {
    SapConstraint& slot = ws.spare.emplace_back();
    for (Eigen::MatrixXd* J : {&slot.jacobian.J_a, &slot.jacobian.J_b}) {
      math::ResizeKeepingStorage(*J, 3, capacity.columns);
      math::ResizeKeepingStorage(*J, 0, 0);
    }
    math::ReserveStorage(slot.R, 3);
    math::ReserveStorage(slot.v_hat, 3);
  }
  const convex::SapSize size{.constraints = capacity.contacts,
                             .velocities = capacity.nv,
                             .cliques = capacity.blocks,
                             .clique_values = capacity.block_values,
                             .columns = capacity.columns};
  convex::ReserveSapWorkspace(size, ws.solver, ws.result);
  factorization.Reserve(capacity.nv, convex::MaxHessianEntries(size));
}

ContactSolution RigidSolution(const contact::ContactProblem& problem, const SapStepProblem& step,
                              const convex::SapResult& r) {
  ContactSolution out;
  RigidSolution(problem, step, r, out);
  return out;
}

void RigidSolution(const contact::ContactProblem& problem, const SapStepProblem& step,
                   const convex::SapResult& r, ContactSolution& out) {
  out.Reset();
  out.status = StatusOf(r.status);
  out.message = r.message;
  out.iterations = r.iterations;
  out.residual = r.residual;
  const Eigen::Index nv = problem.v.size();
  if (r.v.size() >= nv) {
    out.v_next = r.v.head(nv);
  } else {
    out.v_next = problem.v_star;
  }
  // Contacts come first in the constraint stack; contacts between two static bodies have none
  // and keep zero impulse.
  math::ResizeKeepingStorage(out.impulses, 3 * problem.num_contacts());
  out.impulses.setZero();
  if (r.gamma.size() > 0) {
    for (std::size_t i = 0; i < step.contacts.size(); ++i) {
      out.impulses.segment<3>(3 * step.contacts[i]) = r.gamma.segment<3>(3 * i);
    }
  }
  out.factor_seconds = r.factor_seconds;
  out.factorizations = r.factorizations;
}

ContactSolution SolveSapStep(const contact::ContactProblem& problem, const SapParams& params,
                             math::CholeskyFactor* factorization) {
  SapStepWorkspace workspace;
  ContactSolution out;
  SolveSapStep(problem, params, factorization, workspace, out);
  return out;
}

void SolveSapStep(const contact::ContactProblem& problem, const SapParams& params,
                  math::CholeskyFactor* factorization, SapStepWorkspace& ws, ContactSolution& out) {
  MakeSapProblem(problem, params, ws);
  // Warm start from the current velocity (docs/notes/sap-and-deformables.md §1.5): in steady
  // contact it is nearly optimal.
  convex::SolveSap(ws.step.sap, params.solver, problem.v, factorization, ws.solver, ws.result);
  RigidSolution(problem, ws.step, ws.result, out);
}

}  // namespace coulomb
