#include "coulomb/formulations/mixed_step.h"

#include <algorithm>

#include "coulomb/math/contact_frame.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb {
namespace {

using contact::ContactProblem;
using contact::DeformableContact;

// One side of a deformable contact: its rows on one DoF block (block −1: nothing moves).
struct SideRows {
  int block = -1;
  int start = 0;      // the block's first velocity
  Eigen::MatrixXd J;  // 3 × the block's size
};

SideRows DeformableSide(const DeformableBlock& b, const std::vector<std::pair<int, double>>& at,
                        const Eigen::Matrix3d& R) {
  SideRows side;
  side.J = VertexRows(b, at, R);
  if (side.J.size() > 0) side.block = b.block, side.start = b.start;
  return side;
}

// R · J_point of rigid body `body` at world point p, on the tree block its velocities are in.
SideRows RigidSide(const CoupledStepInput& in, const std::vector<multibody::DofBlock>& blocks,
                   int body, const Eigen::Vector3d& p_W, const Eigen::Matrix3d& R) {
  SideRows side;
  if (body < 0) return side;
  const Eigen::Vector3d p_B = in.data->X_world[body].Inverse().Apply(p_W);
  const Eigen::MatrixXd J = R * multibody::CalcPointJacobian(*in.model, *in.data, body, p_B);
  for (std::size_t k = 0; k < blocks.size() && blocks[k].start < J.cols(); ++k) {
    Eigen::MatrixXd rows = J.middleCols(blocks[k].start, blocks[k].size);
    if (rows.isZero(0)) continue;
    side.block = static_cast<int>(k);
    side.start = blocks[k].start;
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

// What identifies a deformable contact from one step to the next: the body and its material
// point (triangle or vertex) and what it touches (rigid geometry or other body).
std::array<int, 5> KeyOf(const DeformableContact& c) {
  return {c.deformable, c.triangle, c.triangle >= 0 ? -1 : c.vertices[0], c.geometry, c.other};
}

// The contacts of the mixed problem as they are appended, before they become its vectors.
struct ContactList {
  std::vector<Eigen::Triplet<double>> entries;  // of J
  std::vector<double> phi, mu, restitution, compliance;
  int count = 0;
};

// The rigid trees' blocks, then one per deformable body with participating DoFs (Â its mass),
// with v and v* stacked the same way; sets each body's `block` and `start`.
void AddBlocks(const CoupledStepInput& in, std::vector<DeformableBlock>& bodies,
               ContactProblem& p) {
  const ContactProblem& rigid = *in.rigid;
  std::vector<multibody::DofBlock> blocks = rigid.mass.blocks();
  p.M_blocks = rigid.M_blocks;
  p.mimic_reductions = rigid.mimic_reductions;
  int nv = rigid.nv();
  for (DeformableBlock& b : bodies) {
    if (!b.schur) continue;
    b.block = static_cast<int>(blocks.size());
    b.start = nv;
    blocks.push_back({nv, b.size()});
    p.M_blocks.push_back(b.schur->reduced());
    if (!p.mimic_reductions.empty()) p.mimic_reductions.emplace_back();
    nv += b.size();
  }
  p.time_step = rigid.time_step;
  p.v.resize(nv);
  p.v_star.resize(nv);
  p.v.head(rigid.nv()) = rigid.v;
  p.v_star.head(rigid.nv()) = rigid.v_star;
  p.damping = Eigen::VectorXd::Zero(nv);
  if (rigid.damping.size() == rigid.nv()) p.damping.head(rigid.nv()) = rigid.damping;
  for (std::size_t d = 0; d < bodies.size(); ++d) {
    const DeformableBlock& b = bodies[d];
    if (!b.schur) continue;
    p.v.segment(b.start, b.size()) = b.Participating((*in.states)[d].Velocities());
    p.v_star.segment(b.start, b.size()) = b.Participating(b.v_star);
  }
  p.mass.Factor(p.M_blocks, blocks, p.mimic_reductions.empty() ? nullptr : &p.mimic_reductions);
}

// Rigid contacts [first, end) as they are, in order.
void AddRigidContacts(const ContactProblem& rigid, int first, int end, ContactProblem& p,
                      ContactList& list) {
  for (int k = first; k < end; ++k, ++list.count) {
    for (int a = 0; a < 3; ++a) {
      for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(rigid.J, 3 * k + a); it;
           ++it) {
        list.entries.emplace_back(3 * list.count + a, static_cast<int>(it.col()), it.value());
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
                           ContactProblem& p, ContactList& list, std::vector<int>& contact_of) {
  contact_of.assign(in.contacts->size(), -1);
  for (std::size_t k = 0; k < in.contacts->size(); ++k) {
    const DeformableContact& c = (*in.contacts)[k];
    const Eigen::Matrix3d frame = math::ContactFrame(c.normal);
    const Eigen::Matrix3d Rt = frame.transpose();
    // u = Rᵀ (v_A − v_B) at the point: the normal points from B into A.
    const SideRows a = DeformableSide(bodies[c.deformable], SideAVertices(c), Rt);
    const SideRows b = c.other >= 0
                           ? DeformableSide(bodies[c.other], SideBVertices(c), -Rt)
                           : RigidSide(in, in.rigid->mass.blocks(), c.rigid_body, c.point, -Rt);
    if (a.block < 0 && b.block < 0) continue;  // between fixed things: nothing to solve
    contact_of[k] = list.count;
    AddRows(a, list.count, list.entries);
    AddRows(b, list.count, list.entries);
    p.frames.push_back(frame);
    p.points.push_back(c.point);
    p.contact_blocks.push_back({a.block, b.block});
    list.phi.push_back(c.phi);
    list.mu.push_back(c.mu);
    list.restitution.push_back(0);
    list.compliance.push_back(c.compliance);
    ++list.count;
  }
}

// Warm start: the rigid contacts' as given, the deformable contacts' last impulse (world) in this
// step's frame where the same material point touches the same thing.
Eigen::VectorXd WarmStart(const CoupledStepInput& in, const ContactProblem& p,
                          const std::vector<int>& contact_of, const MixedStepWorkspace& ws) {
  const ContactProblem& rigid = *in.rigid;
  const int g = rigid.num_geometric_contacts();
  const int nd = p.num_contacts() - rigid.num_contacts();
  Eigen::VectorXd warm = Eigen::VectorXd::Zero(3 * p.num_contacts());
  if (in.warm_start != nullptr && in.warm_start->size() == 3 * rigid.num_contacts()) {
    warm.head(3 * g) = in.warm_start->head(3 * g);
    warm.tail(warm.size() - 3 * (g + nd)) = in.warm_start->tail(in.warm_start->size() - 3 * g);
  }
  for (std::size_t k = 0; k < in.contacts->size(); ++k) {
    if (contact_of[k] < 0) continue;
    const std::array<int, 5> key = KeyOf((*in.contacts)[k]);
    const auto at = std::lower_bound(ws.keys.begin(), ws.keys.end(), key);
    if (at == ws.keys.end() || *at != key) continue;
    warm.segment<3>(3 * contact_of[k]) =
        p.frames[contact_of[k]].transpose() * ws.impulses[at - ws.keys.begin()];
  }
  return warm;
}

// Keeps this step's deformable impulses, in world coordinates and sorted by key, for WarmStart.
void Remember(const CoupledStepInput& in, const ContactProblem& p,
              const std::vector<int>& contact_of, const Eigen::VectorXd& impulses,
              MixedStepWorkspace& ws) {
  std::vector<std::pair<std::array<int, 5>, Eigen::Vector3d>> remembered;
  for (std::size_t k = 0; k < in.contacts->size(); ++k) {
    const int row = contact_of[k];
    if (row < 0) continue;
    remembered.emplace_back(KeyOf((*in.contacts)[k]), p.frames[row] * impulses.segment<3>(3 * row));
  }
  std::sort(remembered.begin(), remembered.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  ws.keys.clear();
  ws.impulses.clear();
  for (const auto& [key, impulse] : remembered) {
    ws.keys.push_back(key);
    ws.impulses.push_back(impulse);
  }
}

}  // namespace

void BuildMixedContactProblem(const CoupledStepInput& in, std::vector<DeformableBlock>& bodies,
                              ContactProblem& p, std::vector<int>& contact_of) {
  const ContactProblem& rigid = *in.rigid;
  AddBlocks(in, bodies, p);
  // Contacts: the rigid geometric ones, the deformable ones, the rigid limit contacts.
  p.frames.clear();
  p.points.clear();
  p.contact_blocks.clear();
  ContactList list;
  AddRigidContacts(rigid, 0, rigid.num_geometric_contacts(), p, list);
  AddDeformableContacts(in, bodies, p, list, contact_of);
  AddRigidContacts(rigid, rigid.num_geometric_contacts(), rigid.num_contacts(), p, list);
  p.J.resize(3 * list.count, p.nv());
  p.J.setFromTriplets(list.entries.begin(), list.entries.end());
  p.phi = Eigen::Map<const Eigen::VectorXd>(list.phi.data(), list.count);
  p.mu = Eigen::Map<const Eigen::VectorXd>(list.mu.data(), list.count);
  p.restitution = Eigen::Map<const Eigen::VectorXd>(list.restitution.data(), list.count);
  p.compliance = Eigen::Map<const Eigen::VectorXd>(list.compliance.data(), list.count);
  p.limits = rigid.limits;
  p.limit_contacts = rigid.limit_contacts;
  p.joint_friction = rigid.joint_friction;
  p.bilateral = rigid.bilateral;
  p.drives = rigid.drives;
  p.contact_velocity_rate.resize(0);
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
  BuildMixedContactProblem(in, bodies, p, contact_of);
  if (!p.mass.ok()) {
    return UnsolvedCoupledStep(in, "a deformable body's Schur complement is not positive definite");
  }
  const Eigen::VectorXd warm = WarmStart(in, p, contact_of, ws);
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
  out.rigid.v_next = v.head(rigid.nv());
  out.rigid.impulses.resize(3 * rigid.num_contacts());
  out.rigid.impulses << impulses.head(3 * g), impulses.tail(impulses.size() - 3 * (g + nd));
  out.v = DeformableVelocities(bodies, v, p.v_star, &out.participating_dofs);
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
  Remember(in, p, contact_of, impulses, ws);
  return out;
}

}  // namespace coulomb
