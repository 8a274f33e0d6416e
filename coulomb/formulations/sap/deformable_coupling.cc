#include "coulomb/formulations/sap/deformable_coupling.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "coulomb/formulations/deformable_blocks.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb {
namespace {

using convex::SapJacobian;
using convex::SapProblem;

// diag(Â⁻¹): one dense Cholesky of Â and a triangular inverse, O(m³) like one factorization of
// the clique (see SapParams::deformable_delassus for when it is the better estimate).
Eigen::VectorXd InverseDiagonal(const Eigen::MatrixXd& A) {
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() != Eigen::Success) return A.diagonal().cwiseInverse();
  Eigen::MatrixXd L_inverse = Eigen::MatrixXd::Identity(A.rows(), A.cols());
  llt.matrixL().solveInPlace(L_inverse);
  return L_inverse.colwise().squaredNorm().transpose();  // (L⁻ᵀ L⁻¹)_ii = ‖L⁻¹ e_i‖²
}

// Makes each body with participating DoFs one more clique, its Schur complement Â, after the
// rigid trees' (FactorDeformableBodies factored them).
void AddDeformableCliques(const SapParams& params, std::vector<DeformableBlock>& bodies,
                          SapProblem& sap) {
  for (DeformableBlock& b : bodies) {
    if (!b.schur) continue;
    b.start = sap.nv();
    b.block = static_cast<int>(sap.cliques.size());
    sap.cliques.push_back({b.start, b.schur->reduced(), {}});
    if (params.deformable_delassus == SapParams::DeformableDelassus::kExact) {
      sap.cliques.back().delassus_diagonal = InverseDiagonal(sap.cliques.back().A);
    }
    sap.v_star.conservativeResize(b.start + b.size());
    sap.v_star.tail(b.size()) = b.Participating(b.v_star);
  }
}

// One side of a constraint: a block of constraint rows on one clique (clique −1: nothing moves
// on this side — the world, a static body, or only fixed vertices).
struct CliqueBlock {
  int clique = -1;
  Eigen::MatrixXd J;
};

// A deformable side: its rows on the body's clique (none when nothing on it moves).
CliqueBlock VertexBlock(const DeformableBlock& b,
                        const std::vector<std::pair<int, double>>& vertices,
                        const Eigen::Matrix3d& M) {
  CliqueBlock block;
  block.J = VertexRows(b, vertices, M);
  if (block.J.size() > 0) block.clique = b.block;
  return block;
}

// The rigid side of a point constraint: R · J_point of body b at world point p, as the block on
// b's tree clique (none for the world or a body without velocities).
CliqueBlock RigidBlock(const CoupledStepInput& in, const SapProblem& sap, int body,
                       const Eigen::Vector3d& p_W, const Eigen::Matrix3d& R) {
  CliqueBlock out;
  if (body < 0) return out;
  const Eigen::Vector3d p_B = in.data->X_world[body].Inverse().Apply(p_W);
  const Eigen::MatrixXd J = R * multibody::CalcPointJacobian(*in.model, *in.data, body, p_B);
  for (std::size_t k = 0; k < sap.cliques.size(); ++k) {
    const convex::SapClique& c = sap.cliques[k];
    if (c.start >= J.cols()) break;  // the deformable cliques come after the rigid ones
    Eigen::MatrixXd block = J.middleCols(c.start, c.size());
    if (block.isZero(0)) continue;
    out.clique = static_cast<int>(k);
    out.J = std::move(block);
    return out;
  }
  return out;
}

// Puts the sides that move into the Jacobian (the first as clique a); false when neither moves:
// a constraint between fixed things has nothing to act on.
bool SetSides(CliqueBlock a, CliqueBlock b, SapJacobian& jac) {
  if (a.clique < 0) std::swap(a, b);
  if (a.clique < 0) return false;
  jac.clique_a = a.clique;
  jac.J_a = std::move(a.J);
  jac.clique_b = b.clique;
  if (b.clique >= 0) jac.J_b = std::move(b.J);
  return true;
}

// Returns, per contact, its constraint's index (−1: both sides fixed, nothing to solve).
std::vector<int> AddContacts(const CoupledStepInput& in, const SapParams& params,
                             const std::vector<DeformableBlock>& bodies, SapProblem& sap) {
  const double dt = sap.time_step;
  std::vector<int> constraint_of;
  for (const contact::DeformableContact& c : *in.contacts) {
    constraint_of.push_back(-1);
    const DeformableBlock& a = bodies[c.deformable];
    const Eigen::Matrix3d Rt = math::ContactFrame(c.normal).transpose();
    SapJacobian jac;
    jac.name = "contact of " + contact::DescribeDeformableSide(*in.deformables, c);
    // v_c = Rᵀ (v_vertex − v_other at the point): the normal points from B into A.
    const CliqueBlock side_a = VertexBlock(a, SideAVertices(c), Rt);
    CliqueBlock side_b;
    if (c.other >= 0) {
      side_b = VertexBlock(bodies[c.other], SideBVertices(c), -Rt);
    } else {
      side_b = RigidBlock(in, sap, c.rigid_body, c.point, -Rt);
    }
    if (!SetSides(side_a, side_b, jac)) continue;
    constraint_of.back() = static_cast<int>(sap.constraints.size());
    convex::ContactParameters contact;
    contact.phi0 = c.phi;
    contact.damped_gap = INFINITY;  // paper 2's v̂ at every gap (SetContactConstraint says why)
    contact.mu = c.mu;
    contact.stiffness = c.compliance > 0 ? 1.0 / c.compliance : INFINITY;
    contact.dissipation_time_scale = params.dissipation_time_scale.value_or(dt);
    contact.max_correction_speed = params.max_correction_speed;
    const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, jac);
    sap.constraints.push_back(
        convex::MakeContactConstraint(std::move(jac), contact, W, dt, params.regularization));
  }
  return constraint_of;
}

// Attachments: x_vertex − X_WB p_B = 0, rigid (docs/notes/sap-and-deformables.md §2.4: holonomic, k
// = ∞, β = 0.1).
void AddAttachments(const CoupledStepInput& in, const SapParams& params,
                    const std::vector<DeformableBlock>& bodies, SapProblem& sap) {
  for (const fem::VertexAttachment& at : in.deformables->attachments) {
    const DeformableBlock& a = bodies[at.deformable];
    const Eigen::Vector3d x = (*in.states)[at.deformable].x.col(at.vertex);
    const Eigen::Vector3d target = in.data->X_world[at.body].Apply(at.p_B);
    SapJacobian jac;
    jac.name =
        fmt::format("attachment of vertex {} of '{}' to body '{}'", at.vertex,
                    in.deformables->bodies[at.deformable].name, in.model->bodies[at.body].name);
    if (!SetSides(VertexBlock(a, {{at.vertex, 1.0}}, Eigen::Matrix3d::Identity()),
                  RigidBlock(in, sap, at.body, target, -Eigen::Matrix3d::Identity()), jac)) {
      continue;
    }
    convex::HolonomicParameters holonomic;
    holonomic.g0 = x - target;
    const Eigen::MatrixXd W = convex::EstimateDelassusBlock(sap, jac);
    sap.constraints.push_back(convex::MakeHolonomicConstraint(
        std::move(jac), holonomic, W, sap.time_step, params.regularization));
  }
}

}  // namespace

CoupledSolution SolveCoupledSapStep(const CoupledStepInput& in, const SapParams& params,
                                    math::CholeskyFactor* factorization,
                                    std::vector<math::CholeskyFactor>* eliminated_factors) {
  CoupledSolution out;
  SapStepProblem step = MakeSapProblem(*in.rigid, params);
  std::vector<DeformableBlock> bodies;
  std::string unconverged;
  if (std::string error = FactorDeformableBodies(in, bodies, unconverged, eliminated_factors);
      !error.empty()) {
    return UnsolvedCoupledStep(in, std::move(error));
  }
  AddDeformableCliques(params, bodies, step.sap);
  const std::vector<int> constraint_of = AddContacts(in, params, bodies, step.sap);
  AddAttachments(in, params, bodies, step.sap);
  // Warm start: the current velocities (rigid, then each clique's participating vertices).
  Eigen::VectorXd guess = step.sap.v_star;
  guess.head(in.rigid->v.size()) = in.rigid->v;
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    const Eigen::VectorXd v0 = (*in.states)[d].Velocities();
    for (std::size_t k = 0; k < bodies[d].vertices.size(); ++k) {
      guess.segment<3>(bodies[d].start + 3 * static_cast<Eigen::Index>(k)) =
          v0.segment<3>(3 * bodies[d].vertices[k]);
    }
  }
  const convex::SapResult r = convex::SolveSap(step.sap, params.solver, guess, factorization);
  out.rigid = RigidSolution(*in.rigid, step, r);
  if (!unconverged.empty() && out.rigid.status == LcpStatus::kSolved) {
    out.rigid.status = LcpStatus::kInaccurate;
    out.rigid.message = unconverged + " (the contacts were solved with its last iterate)";
  }
  const Eigen::VectorXd& v = r.v.size() == step.sap.nv() ? r.v : step.sap.v_star;
  out.v = DeformableVelocities(bodies, v, step.sap.v_star, &out.participating_dofs);
  out.linear_model_error = WorstLinearModelError(in, bodies, out.v);
  const Eigen::Index nc = static_cast<Eigen::Index>(in.contacts->size());
  out.impulses = Eigen::VectorXd::Zero(3 * nc);
  out.contact_velocities = Eigen::VectorXd::Zero(3 * nc);
  std::vector<Eigen::Index> first_row(step.sap.constraints.size() + 1, 0);
  for (std::size_t i = 0; i < step.sap.constraints.size(); ++i) {
    first_row[i + 1] = first_row[i] + step.sap.constraints[i].rows();
  }
  for (Eigen::Index k = 0; k < nc; ++k) {
    const int index = constraint_of[static_cast<std::size_t>(k)];
    if (index < 0) continue;  // between fixed things: no impulse, no velocity
    if (r.gamma.size() > 0) {
      out.impulses.segment<3>(3 * k) = r.gamma.segment<3>(first_row[index]);
    }
    const convex::SapConstraint& c = step.sap.constraints[index];
    Eigen::Vector3d u = c.jacobian.J_a * v.segment(step.sap.cliques[c.jacobian.clique_a].start,
                                                   c.jacobian.J_a.cols());
    if (c.jacobian.clique_b >= 0) {
      u += c.jacobian.J_b *
           v.segment(step.sap.cliques[c.jacobian.clique_b].start, c.jacobian.J_b.cols());
    }
    out.contact_velocities.segment<3>(3 * k) = u;
  }
  return out;
}

}  // namespace coulomb
