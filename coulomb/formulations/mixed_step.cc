#include "coulomb/formulations/mixed_step.h"

#include <fmt/format.h>

#include <algorithm>

#include "coulomb/formulations/mixed_layout.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb {
namespace {

using contact::ContactProblem;
using contact::DeformableContact;

// One side of a deformable contact: its rows on one DoF block (block −1: nothing moves), and a
// velocity it has whatever the unknowns (an attached vertex's c), m/s.
struct SideRows {
  int block = -1;
  int start = 0;      // the block's first velocity
  Eigen::MatrixXd J;  // 3 × the block's size
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
};

// A deformable side: R times the point's barycentric velocity, through the layout (a free vertex
// at its columns, an attached one through its tree's T, mixed_layout.h).
SideRows DeformableSide(const MixedLayout& layout, const DeformableBlock& b, int d,
                        const std::vector<std::pair<int, double>>& at, const Eigen::Matrix3d& R) {
  SideRows side;
  const BodyLayout& L = layout.bodies[static_cast<std::size_t>(d)];
  if (!b.schur) return side;
  const int block = L.block;
  if (block >= 0) {
    side.start = layout.blocks[block].start;
    side.J = Eigen::MatrixXd::Zero(3, layout.blocks[block].size);
  }
  for (const auto& [a, weight] : at) {
    const auto it = std::lower_bound(b.vertices.begin(), b.vertices.end(), a);
    if (it == b.vertices.end() || *it != a || weight == 0) continue;  // fixed: does not move
    const auto k = static_cast<std::size_t>(it - b.vertices.begin());
    if (L.column[k] < 0) {
      side.offset += weight * R * L.c[k];
      if (L.T[k].cols() > 0) side.J.leftCols(L.T[k].cols()) += weight * R * L.T[k];
      continue;
    }
    for (int i = 0; i < 3; ++i) {
      const int own = b.ColumnOf(a) + i;  // single fixed components do not move either
      if (std::find(b.fixed_columns.begin(), b.fixed_columns.end(), own) != b.fixed_columns.end())
        continue;
      side.J.col(L.column[k] - side.start + i) += weight * R.col(i);
    }
  }
  if (side.J.size() > 0 && !side.J.isZero(0)) side.block = block;
  return side;
}

// R · J_point of rigid body `body` at world point p, on the tree block its velocities are in (the
// tree's velocities come first in its mixed block).
SideRows RigidSide(const CoupledStepInput& in, const MixedLayout& layout, int body,
                   const Eigen::Vector3d& p_W, const Eigen::Matrix3d& R) {
  SideRows side;
  if (body < 0) return side;
  const std::vector<multibody::DofBlock>& trees = in.rigid->mass.blocks();
  const Eigen::Vector3d p_B = in.data->X_world[body].Inverse().Apply(p_W);
  const Eigen::MatrixXd J = R * multibody::CalcPointJacobian(*in.model, *in.data, body, p_B);
  for (std::size_t k = 0; k < trees.size() && trees[k].start < J.cols(); ++k) {
    Eigen::MatrixXd rows = J.middleCols(trees[k].start, trees[k].size);
    if (rows.isZero(0)) continue;
    side.block = static_cast<int>(k);
    side.start = layout.blocks[k].start;
    side.J = std::move(rows);
    return side;
  }
  return side;
}

// The three rows of contact `row` in J: every column of a side, so the rows share one pattern.
void AddRows(const SideRows& side, int row, std::vector<Eigen::Triplet<double>>& entries) {
  if (side.block < 0) return;
  for (Eigen::Index j = 0; j < side.J.cols(); ++j) {
    if (side.J.col(j).isZero(0)) continue;
    for (int a = 0; a < 3; ++a) {
      entries.emplace_back(3 * row + a, side.start + static_cast<int>(j), side.J(a, j));
    }
  }
}

// The contacts of the mixed problem as they are appended, before they become its vectors.
struct ContactList {
  std::vector<Eigen::Triplet<double>> entries;  // of J
  std::vector<double> phi, mu, restitution, compliance;
  int count = 0;
};

// Rigid contacts [first, end) as they are, in order, at their velocities' mixed columns.
void AddRigidContacts(const ContactProblem& rigid, const MixedLayout& layout, int first, int end,
                      ContactProblem& p, ContactList& list) {
  for (int k = first; k < end; ++k, ++list.count) {
    for (int a = 0; a < 3; ++a) {
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rigid.J, 3 * k + a); it;
           ++it) {
        list.entries.emplace_back(3 * list.count + a, layout.rigid_column[it.col()], it.value());
      }
    }
    p.frames.push_back(rigid.frames[k]);
    p.points.push_back(rigid.points[k]);
    p.contact_blocks.push_back(rigid.contact_blocks[k]);
    list.phi.push_back(rigid.phi[k]);
    list.mu.push_back(rigid.mu[k]);
    list.restitution.push_back(rigid.restitution.size() > k ? rigid.restitution[k] : 0.0);
    list.compliance.push_back(rigid.compliance.size() > k ? rigid.compliance[k] : 0.0);
  }
}

// Every deformable contact between things that move, recording its index in `contact_of`.
void AddDeformableContacts(const CoupledStepInput& in, const std::vector<DeformableBlock>& bodies,
                           const MixedLayout& layout, ContactProblem& p, ContactList& list,
                           std::vector<int>& contact_of) {
  contact_of.assign(in.contacts->size(), -1);
  for (std::size_t k = 0; k < in.contacts->size(); ++k) {
    const DeformableContact& c = (*in.contacts)[k];
    const Eigen::Matrix3d frame = math::ContactFrame(c.normal);
    const Eigen::Matrix3d Rt = frame.transpose();
    // u = Rᵀ (v_A − v_B) at the point: the normal points from B into A.
    const SideRows a =
        DeformableSide(layout, bodies[c.deformable], c.deformable, SideAVertices(c), Rt);
    const SideRows b = c.other >= 0
                           ? DeformableSide(layout, bodies[c.other], c.other, SideBVertices(c), -Rt)
                           : RigidSide(in, layout, c.rigid_body, c.point, -Rt);
    if (a.block < 0 && b.block < 0) continue;  // between fixed things: nothing to solve
    contact_of[k] = list.count;
    AddRows(a, list.count, list.entries);
    AddRows(b, list.count, list.entries);
    p.frames.push_back(frame);
    p.points.push_back(c.point);
    p.contact_blocks.push_back({a.block, b.block});
    // An attached vertex's c moves the contact whatever the unknowns: its normal part shifts the
    // gap the step must keep (u_n + δ ≥ −φ/h ⇔ u_n ≥ −(φ + h δ)/h); its tangential part, the
    // attachment's drift correction, is left out.
    list.phi.push_back(c.phi + in.rigid->time_step * (a.offset[0] + b.offset[0]));
    list.mu.push_back(c.mu);
    list.restitution.push_back(0);
    list.compliance.push_back(c.compliance);
    ++list.count;
  }
}

// The rigid problem's constraint rows (joint limits, joint friction, drives, couplers and welds:
// SAP's) at their mixed columns.
void AddRigidConstraintRows(const ContactProblem& rigid, const MixedLayout& layout,
                            ContactProblem& p) {
  const auto column = [&](int dof) { return layout.rigid_column[static_cast<std::size_t>(dof)]; };
  p.limits = rigid.limits;
  for (contact::JointLimit& l : p.limits) l.dof = column(l.dof);
  p.joint_friction = rigid.joint_friction;
  for (contact::JointFriction& f : p.joint_friction) f.dof = column(f.dof);
  p.drives = rigid.drives;
  for (contact::JointDrive& d : p.drives) d.dof = column(d.dof);
  p.bilateral.clear();
  for (const contact::BilateralConstraint& b : rigid.bilateral) {
    contact::BilateralConstraint& mixed = p.bilateral.emplace_back();
    mixed.name = b.name;
    mixed.g0 = b.g0;
    mixed.J = Eigen::MatrixXd::Zero(b.J.rows(), p.nv());
    for (Eigen::Index j = 0; j < b.J.cols(); ++j) {
      mixed.J.col(column(static_cast<int>(j))) = b.J.col(j);
    }
  }
}

// Each attachment x_vertex − X_WB p_B = 0 as a holonomic row block (docs/notes/
// sap-and-deformables.md §2.4), for a formulation that enforces constraints itself.
void AddAttachmentRows(const CoupledStepInput& in, const std::vector<DeformableBlock>& bodies,
                       const MixedLayout& layout, ContactProblem& p) {
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  for (const fem::VertexAttachment& at : in.deformables->attachments) {
    const Eigen::Vector3d target = in.data->X_world[at.body].Apply(at.p_B);
    const SideRows vertex =
        DeformableSide(layout, bodies[at.deformable], at.deformable, {{at.vertex, 1.0}}, I);
    const SideRows body = RigidSide(in, layout, at.body, target, -I);
    if (vertex.block < 0 && body.block < 0) continue;  // between fixed things
    contact::BilateralConstraint& row = p.bilateral.emplace_back();
    row.name =
        fmt::format("attachment of vertex {} of '{}' to body '{}'", at.vertex,
                    in.deformables->bodies[at.deformable].name, in.model->bodies[at.body].name);
    row.J = Eigen::MatrixXd::Zero(3, p.nv());
    for (const SideRows* side : {&vertex, &body}) {
      if (side->block >= 0) row.J.middleCols(side->start, side->J.cols()) += side->J;
    }
    row.g0 = (*in.states)[at.deformable].x.col(at.vertex) - target;
  }
}

// Warm start: the rigid contacts' as given, the deformable contacts' last impulse (world, where
// the same material point touched the same thing: sim/warm_start.h) in this step's frames.
Eigen::VectorXd WarmStart(const CoupledStepInput& in, const ContactProblem& p,
                          const std::vector<int>& contact_of) {
  const ContactProblem& rigid = *in.rigid;
  const int g = rigid.num_geometric_contacts();
  const int nd = p.num_contacts() - rigid.num_contacts();
  Eigen::VectorXd warm = Eigen::VectorXd::Zero(3 * p.num_contacts());
  if (in.warm_start != nullptr && in.warm_start->size() == 3 * rigid.num_contacts()) {
    warm.head(3 * g) = in.warm_start->head(3 * g);
    warm.tail(warm.size() - 3 * (g + nd)) = in.warm_start->tail(in.warm_start->size() - 3 * g);
  }
  const Eigen::Matrix3Xd* last = in.deformable_warm_start;
  if (last == nullptr || last->cols() != static_cast<Eigen::Index>(in.contacts->size())) {
    return warm;
  }
  for (std::size_t k = 0; k < in.contacts->size(); ++k) {
    if (contact_of[k] < 0) continue;
    warm.segment<3>(3 * contact_of[k]) =
        p.frames[contact_of[k]].transpose() * last->col(static_cast<Eigen::Index>(k));
  }
  return warm;
}

}  // namespace

std::string BuildMixedContactProblem(const CoupledStepInput& in,
                                     const std::vector<DeformableBlock>& bodies,
                                     bool attachments_as_constraints, MixedLayout& layout,
                                     ContactProblem& p, std::vector<int>& contact_of) {
  const ContactProblem& rigid = *in.rigid;
  if (std::string error = LayOutMixedBlocks(in, bodies, !attachments_as_constraints, layout, p);
      !error.empty()) {
    return error;
  }
  p.time_step = rigid.time_step;
  p.damping = Eigen::VectorXd::Zero(p.nv());
  for (Eigen::Index i = 0; i < rigid.damping.size(); ++i) {
    p.damping[layout.rigid_column[i]] = rigid.damping[i];
  }
  // Contacts: the rigid geometric ones, the deformable ones, the rigid limit contacts.
  p.frames.clear();
  p.points.clear();
  p.contact_blocks.clear();
  ContactList list;
  AddRigidContacts(rigid, layout, 0, rigid.num_geometric_contacts(), p, list);
  AddDeformableContacts(in, bodies, layout, p, list, contact_of);
  AddRigidContacts(rigid, layout, rigid.num_geometric_contacts(), rigid.num_contacts(), p, list);
  p.J.resize(3 * list.count, p.nv());
  p.J.setFromTriplets(list.entries.begin(), list.entries.end());
  p.phi = Eigen::Map<const Eigen::VectorXd>(list.phi.data(), list.count);
  p.mu = Eigen::Map<const Eigen::VectorXd>(list.mu.data(), list.count);
  p.restitution = Eigen::Map<const Eigen::VectorXd>(list.restitution.data(), list.count);
  p.compliance = Eigen::Map<const Eigen::VectorXd>(list.compliance.data(), list.count);
  // The limit contacts and the constraint rows at their mixed columns (a formulation reads the
  // ones it enforces: the contact-level ones the limit contacts, SAP the rows).
  p.limit_contacts = rigid.limit_contacts;
  for (contact::LimitContact& l : p.limit_contacts) l.dof = layout.rigid_column[l.dof];
  AddRigidConstraintRows(rigid, layout, p);
  if (attachments_as_constraints) AddAttachmentRows(in, bodies, layout, p);
  p.contact_velocity_rate.resize(0);
  return "";
}

CoupledSolution SolveCoupledAsContactProblem(const CoupledStepInput& in,
                                             const Formulation& formulation,
                                             const FormulationSettings& settings,
                                             FormulationWorkspace& workspace) {
  std::vector<DeformableBlock> bodies;
  std::string unconverged;
  if (std::string error =
          FactorDeformableBodies(in, bodies, unconverged, &workspace.eliminated_factors);
      !error.empty()) {
    return UnsolvedCoupledStep(in, std::move(error));
  }
  MixedStepWorkspace& ws = workspace.mixed;
  ContactProblem& p = ws.problem;
  std::vector<int> contact_of;
  MixedLayout layout;
  // A formulation with constraint rows of its own (SAP) enforces the attachments as rows; the
  // contact-level ones carry the attached vertices with their trees (mixed_layout.h).
  const bool attachments_as_constraints = formulation.supports.joint_limits;
  if (std::string error =
          BuildMixedContactProblem(in, bodies, attachments_as_constraints, layout, p, contact_of);
      !error.empty()) {
    return UnsolvedCoupledStep(in, std::move(error));
  }
  const Eigen::VectorXd warm = WarmStart(in, p, contact_of);
  ContactSolution solution;
  formulation.solve(p, settings, warm, workspace, solution);
  // Back to the rigid problem's contacts (its geometric ones, then its limit contacts after the
  // deformable ones) and the bodies' full velocities.
  const ContactProblem& rigid = *in.rigid;
  const int g = rigid.num_geometric_contacts();
  const int nd = p.num_contacts() - rigid.num_contacts();
  CoupledSolution out;
  out.rigid.status = solution.status;
  out.rigid.message = solution.message;
  out.rigid.solver_switch = solution.solver_switch;
  out.rigid.iterations = solution.iterations;
  out.rigid.residual = solution.residual;
  if (!unconverged.empty() && out.rigid.status == LcpStatus::kSolved) {
    out.rigid.status = LcpStatus::kInaccurate;
    out.rigid.message = unconverged + " (the contacts were solved with its last iterate)";
  }
  const bool solved = solution.v_next.size() == p.nv() && solution.impulses.size() == warm.size();
  const Eigen::VectorXd& v = solved ? solution.v_next : p.v_star;
  const Eigen::VectorXd impulses = solved ? solution.impulses : Eigen::VectorXd::Zero(warm.size());
  out.rigid.v_next.resize(rigid.nv());
  for (int i = 0; i < rigid.nv(); ++i) out.rigid.v_next[i] = v[layout.rigid_column[i]];
  out.rigid.impulses.resize(3 * rigid.num_contacts());
  out.rigid.impulses << impulses.head(3 * g), impulses.tail(impulses.size() - 3 * (g + nd));
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    const DeformableBlock& b = bodies[d];
    if (!b.schur) {
      out.v.push_back(b.v_star);
      continue;
    }
    out.participating_dofs += b.size();
    const Eigen::VectorXd w = ParticipatingVelocity(layout, b, static_cast<int>(d), v);
    out.v.push_back(b.v_star + b.schur->Extend(w - b.Participating(b.v_star)));
  }
  out.linear_model_error = WorstLinearModelError(in, bodies, out.v);
  out.whole = &p;
  out.whole_impulses = impulses;
  out.whole_v = v;
  const Eigen::Index nc = static_cast<Eigen::Index>(in.contacts->size());
  out.impulses = Eigen::VectorXd::Zero(3 * nc);
  out.contact_velocities = Eigen::VectorXd::Zero(3 * nc);
  for (Eigen::Index k = 0; k < nc; ++k) {
    const int row = contact_of[k];
    if (row < 0) continue;
    out.impulses.segment<3>(3 * k) = impulses.segment<3>(3 * row);
    out.contact_velocities.segment<3>(3 * k) = p.J.middleRows(3 * row, 3) * v;
  }
  return out;
}

}  // namespace coulomb
