#include "coulomb/formulations/sap/deformable_coupling.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "coulomb/fem/schur_complement.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb {
namespace {

using convex::SapJacobian;
using convex::SapProblem;

// One deformable body's share of the step: its linear system, and when it has participating
// DoFs the Schur complement over them and the clique it became.
struct DeformableClique {
  fem::FemStepSystem system;
  std::vector<int> vertices;  // participating, sorted
  std::unique_ptr<fem::SchurComplement> schur;
  Eigen::VectorXd v_star;  // 3n
  int clique = -1;
  int start = 0;  // first participating velocity in the SAP problem
  // The column of vertex a's x velocity inside the clique.
  std::vector<int> fixed_columns;  // clique columns of single fixed components (fixed_dofs)
  int ColumnOf(int a) const {
    return 3 * static_cast<int>(std::lower_bound(vertices.begin(), vertices.end(), a) -
                                vertices.begin());
  }
};

// The participating vertices of every body: contact vertices on both sides (triangle vertices
// with a nonzero weight) and attached vertices. Fixed vertices never participate.
std::vector<std::vector<int>> ParticipatingVertices(const CoupledStepInput& in) {
  std::vector<std::vector<int>> out(in.deformables->bodies.size());
  for (const contact::DeformableContact& c : *in.contacts) {
    for (int k = 0; k < 3; ++k) {
      if (c.vertex_weights[k] > 0) out[c.deformable].push_back(c.vertices[k]);
    }
    if (c.other < 0) continue;
    for (int k = 0; k < 3; ++k) {
      if (c.weights[k] > 0) out[c.other].push_back(c.face[k]);
    }
  }
  for (const fem::VertexAttachment& a : in.deformables->attachments) {
    out[a.deformable].push_back(a.vertex);
  }
  for (std::size_t d = 0; d < out.size(); ++d) {
    const std::vector<int>& fixed = in.deformables->bodies[d].fixed_vertices;
    std::vector<int>& v = out[d];
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    v.erase(std::remove_if(
                v.begin(), v.end(),
                [&](int a) { return std::find(fixed.begin(), fixed.end(), a) != fixed.end(); }),
            v.end());
  }
  return out;
}

// diag(Â⁻¹): one dense Cholesky of Â and a triangular inverse, O(m³) like one factorization of
// the clique (see SapParams::deformable_delassus for when it is the better estimate).
Eigen::VectorXd InverseDiagonal(const Eigen::MatrixXd& A) {
  const Eigen::LLT<Eigen::MatrixXd> llt(A);
  if (llt.info() != Eigen::Success) return A.diagonal().cwiseInverse();
  Eigen::MatrixXd L_inverse = Eigen::MatrixXd::Identity(A.rows(), A.cols());
  llt.matrixL().solveInPlace(L_inverse);
  return L_inverse.colwise().squaredNorm().transpose();  // (L⁻ᵀ L⁻¹)_ii = ‖L⁻¹ e_i‖²
}

// Factors each body's step matrix once: with participating DoFs through the Schur complement
// (v* by block elimination), without through a plain sparse Cholesky. Appends the cliques.
// A free motion whose Newton did not converge but stayed finite is still the best linear model
// of the step: the contacts are solved with it (so a plate pressing on the body is held), and
// `unconverged` says why the step cannot be certified. Dropping the step instead let the rigid
// bodies take their free motion through the body.
std::string AddDeformableCliques(const CoupledStepInput& in, const SapParams& params,
                                 std::vector<DeformableClique>& bodies, SapProblem& sap,
                                 std::string& unconverged,
                                 std::vector<math::CholeskyFactor>* factors) {
  if (factors != nullptr) factors->resize(bodies.size());
  const std::vector<std::vector<int>> participating = ParticipatingVertices(in);
  const double dt = sap.time_step;
  for (std::size_t d = 0; d < participating.size(); ++d) {
    const fem::FemBody& body = in.deformables->bodies[d];
    DeformableClique& b = bodies[d];
    b.system = fem::AssembleFemStep(body, (*in.states)[d], dt);
    if (!b.system.converged) {
      const bool finite =
          b.system.rhs.allFinite() &&
          Eigen::Map<const Eigen::VectorXd>(b.system.A.valuePtr(), b.system.A.nonZeros())
              .allFinite();
      if (!finite) return b.system.message;
      if (unconverged.empty()) unconverged = b.system.message;
    }
    b.vertices = participating[d];
    if (b.vertices.empty()) {
      const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(b.system.A);
      if (llt.info() != Eigen::Success) break;
      b.v_star = llt.solve(b.system.rhs);
      continue;
    }
    std::vector<int> dofs;
    for (const int a : b.vertices) {
      for (int i = 0; i < 3; ++i) dofs.push_back(3 * a + i);
    }
    b.schur = std::make_unique<fem::SchurComplement>(b.system.A, std::move(dofs),
                                                     factors != nullptr ? &(*factors)[d] : nullptr);
    if (!b.schur->ok()) break;
    b.v_star = b.schur->Solve(b.system.rhs);
    b.start = sap.nv();
    b.clique = static_cast<int>(sap.cliques.size());
    for (const int dof : body.fixed_dofs) {
      const auto at = std::lower_bound(b.vertices.begin(), b.vertices.end(), dof / 3);
      if (at != b.vertices.end() && *at == dof / 3)
        b.fixed_columns.push_back(b.ColumnOf(*at) + dof % 3);
    }
    sap.cliques.push_back({b.start, b.schur->reduced(), {}});
    if (params.deformable_delassus == SapParams::DeformableDelassus::kExact) {
      sap.cliques.back().delassus_diagonal = InverseDiagonal(sap.cliques.back().A);
    }
    const Eigen::Index m = static_cast<Eigen::Index>(3 * b.vertices.size());
    sap.v_star.conservativeResize(b.start + m);
    for (std::size_t k = 0; k < b.vertices.size(); ++k) {
      sap.v_star.segment<3>(b.start + 3 * static_cast<Eigen::Index>(k)) =
          b.v_star.segment<3>(3 * b.vertices[k]);
    }
  }
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    if (bodies[d].v_star.size() == 0) {
      return fmt::format(
          "deformable body '{}': its step matrix M + dt D + dt^2/2 K is not positive definite; "
          "check density, material and time step",
          in.deformables->bodies[d].name);
    }
  }
  return "";
}

// One side of a constraint: a block of constraint rows on one clique (clique −1: nothing moves
// on this side — the world, a static body, or only fixed vertices).
struct CliqueBlock {
  int clique = -1;
  Eigen::MatrixXd J;
};

// M (3 rows) at the columns of the given vertices of body b, scaled by their weights. A vertex
// that does not participate is fixed and contributes nothing; neither does a single fixed
// component (its row of A is the identity, which any impulse would move).
CliqueBlock VertexBlock(const DeformableClique& b,
                        const std::vector<std::pair<int, double>>& vertices,
                        const Eigen::Matrix3d& M) {
  CliqueBlock block;
  if (b.clique < 0) return block;
  block.clique = b.clique;
  block.J = Eigen::MatrixXd::Zero(3, 3 * static_cast<Eigen::Index>(b.vertices.size()));
  for (const auto& [a, weight] : vertices) {
    const auto at = std::lower_bound(b.vertices.begin(), b.vertices.end(), a);
    if (at == b.vertices.end() || *at != a || weight == 0) continue;
    block.J.middleCols<3>(b.ColumnOf(a)) += weight * M;
  }
  for (const int c : b.fixed_columns) block.J.col(c).setZero();
  if (block.J.isZero(0)) block.clique = -1;
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
                             const std::vector<DeformableClique>& bodies, SapProblem& sap) {
  const double dt = sap.time_step;
  std::vector<int> constraint_of;
  for (const contact::DeformableContact& c : *in.contacts) {
    constraint_of.push_back(-1);
    const DeformableClique& a = bodies[c.deformable];
    const Eigen::Matrix3d Rt = math::ContactFrame(c.normal).transpose();
    SapJacobian jac;
    jac.name = "contact of " + contact::DescribeDeformableSide(*in.deformables, c);
    // v_c = Rᵀ (v_vertex − v_other at the point): the normal points from B into A.
    std::vector<std::pair<int, double>> material;  // the contact's point of body A
    for (int k = 0; k < 3; ++k) {
      if (c.vertex_weights[k] > 0) material.emplace_back(c.vertices[k], c.vertex_weights[k]);
    }
    const CliqueBlock side_a = VertexBlock(a, material, Rt);
    CliqueBlock side_b;
    if (c.other >= 0) {
      side_b = VertexBlock(
          bodies[c.other],
          {{c.face[0], c.weights[0]}, {c.face[1], c.weights[1]}, {c.face[2], c.weights[2]}}, -Rt);
    } else {
      side_b = RigidBlock(in, sap, c.rigid_body, c.point, -Rt);
    }
    if (!SetSides(side_a, side_b, jac)) continue;
    constraint_of.back() = static_cast<int>(sap.constraints.size());
    convex::ContactParameters contact;
    contact.phi0 = c.phi;
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
                    const std::vector<DeformableClique>& bodies, SapProblem& sap) {
  for (const fem::VertexAttachment& at : in.deformables->attachments) {
    const DeformableClique& a = bodies[at.deformable];
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
  std::vector<DeformableClique> bodies(in.deformables->bodies.size());
  std::string unconverged;
  if (std::string error =
          AddDeformableCliques(in, params, bodies, step.sap, unconverged, eliminated_factors);
      !error.empty()) {
    out.rigid.status = LcpStatus::kNotApplicable;
    out.rigid.message = std::move(error);
    out.rigid.v_next = in.rigid->v_star;
    out.rigid.impulses = Eigen::VectorXd::Zero(3 * in.rigid->num_contacts());
    for (std::size_t d = 0; d < bodies.size(); ++d) out.v.push_back((*in.states)[d].Velocities());
    // Sized like a solved step's (zero impulses), so reports and recordings can index them.
    out.impulses = Eigen::VectorXd::Zero(3 * static_cast<Eigen::Index>(in.contacts->size()));
    out.contact_velocities = out.impulses;
    return out;
  }
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
  for (DeformableClique& b : bodies) {
    if (b.clique < 0) {
      out.v.push_back(b.v_star);
      continue;
    }
    const Eigen::Index m = b.schur->reduced().rows();
    out.participating_dofs += static_cast<int>(m);
    out.v.push_back(b.v_star +
                    b.schur->Extend(v.segment(b.start, m) - step.sap.v_star.segment(b.start, m)));
  }
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
