#include "coulomb/contact/contact_problem.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "coulomb/contact/contact_rows_assembly.h"
#include "coulomb/math/contact_frame.h"
#include "coulomb/math/dense_resize.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::contact {
namespace {

// Equal sizes and bits (not ==: −0.0 and 0.0 factor to different bits).
bool SameBits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) == 0;
}

}  // namespace

BlockCholesky::BlockCholesky(const std::vector<Eigen::MatrixXd>& M_blocks,
                             const std::vector<DofBlock>& blocks) {
  Factor(M_blocks, blocks);
}

void BlockCholesky::Factor(const std::vector<Eigen::MatrixXd>& M_blocks,
                           const std::vector<DofBlock>& blocks,
                           const std::vector<Eigen::MatrixXd>* reductions) {
  blocks_ = blocks;
  const std::size_t n = M_blocks.size();
  factors_.resize(n);
  reductions_.resize(n);
  factored_.resize(n);
  inverses_.resize(n);
  inverse_valid_.resize(n, 0);
  ok_ = true;
  for (std::size_t k = 0; k < n; ++k) {
    Eigen::MatrixXd& T = reductions_[k];
    const Eigen::MatrixXd& M = M_blocks[k];
    const bool reduced = reductions != nullptr && k < reductions->size() && (*reductions)[k].size();
    // Room for the block's inverse now, with the factors: a body's first contact (a sphere
    // landing in a bin) then allocates nothing.
    if (inverses_[k].rows() != M.rows()) inverses_[k].resize(M.rows(), M.cols());
    if (!reduced && T.size() == 0 && factored_[k].size() > 0 && SameBits(M, factored_[k])) {
      ok_ = ok_ && factors_[k].info() == Eigen::Success;
      continue;
    }
    inverse_valid_[k] = 0;
    T.resize(0, 0);
    if (reduced) {
      T = (*reductions)[k];
      factors_[k].compute(T.transpose() * M * T);
      factored_[k].resize(0, 0);
    } else {
      factors_[k].compute(M);
      math::ResizeKeepingStorage(factored_[k], M.rows(), M.cols());
      factored_[k] = M;
      if (M.rows() == 6 && factors_[k].info() == Eigen::Success) {
        // A free body's inverse always, whether or not a contact asks for it: SolveInPlace uses
        // it, and its answer must not depend on the history of the cache (checkpoint resumes).
        CalcInverse(static_cast<int>(k), Eigen::Map<Eigen::MatrixXd>(inverses_[k].data(), 6, 6));
        inverse_valid_[k] = 1;
      }
    }
    ok_ = ok_ && factors_[k].info() == Eigen::Success;
  }
}

void BlockCholesky::SolveInPlace(Eigen::VectorXd& x) const {
  for (std::size_t k = 0; k < blocks_.size(); ++k) {
    auto segment = x.segment(blocks_[k].start, blocks_[k].size);
    const Eigen::MatrixXd& T = reductions_[k];
    if (T.size() == 0 && blocks_[k].size == 6 && inverse_valid_[k] != 0) {
      // A free body: its inverse, made with its factors (Factor), times x. Two triangular solves
      // wait on twelve divisions in a row, most of the time of a one-body step's M⁻¹ f.
      const Eigen::Map<const Eigen::Matrix<double, 6, 6>> Minv(inverses_[k].data());
      auto x6 = x.segment<6>(blocks_[k].start);
      x6 = (Minv * x6).eval();
    } else if (T.size() == 0) {
      factors_[k].solveInPlace(segment);
    } else {
      segment = T * factors_[k].solve(T.transpose() * segment);
    }
  }
}

void BlockCholesky::SolveLowerBlockInPlace(int index, Eigen::MatrixXd& X) const {
  const Eigen::MatrixXd& T = reductions_[index];
  if (T.size() != 0) X = T.transpose() * X;  // now in the block's free coordinates
  factors_[index].matrixL().solveInPlace(X);
}

void BlockCholesky::SolveUpperBlockInPlace(int index, Eigen::MatrixXd& X) const {
  factors_[index].matrixU().solveInPlace(X);
  const Eigen::MatrixXd& T = reductions_[index];
  if (T.size() != 0) X = T * X;  // back to the block's velocities
}

void BlockCholesky::InvertBlock(int index, Eigen::Map<Eigen::MatrixXd> Minv) const {
  Eigen::MatrixXd& cached = inverses_[index];
  if (inverse_valid_[index] != 0 && cached.rows() == Minv.rows()) {
    if (Minv.rows() == 6 && Minv.cols() == 6) {  // a free body's, copied in fixed size
      Eigen::Map<Eigen::Matrix<double, 6, 6>>(Minv.data()) =
          Eigen::Map<const Eigen::Matrix<double, 6, 6>>(cached.data());
    } else {
      Minv = cached;
    }
    return;
  }
  CalcInverse(index, Minv);
  math::ResizeKeepingStorage(cached, Minv.rows(), Minv.cols());
  cached = Minv;
  inverse_valid_[index] = 1;
}

void BlockCholesky::CalcInverse(int index, Eigen::Map<Eigen::MatrixXd> Minv) const {
  const Eigen::MatrixXd& T = reductions_[index];
  if (T.size() == 0 && Minv.rows() == 6) {
    // A free body: M⁻¹ = L⁻ᵀ L⁻¹ with L⁻¹ by forward substitution in fixed sizes. (Eigen's
    // triangular solves with a matrix right-hand side take the blocked general path even at 6 × 6:
    // a third of a small scene's contact assembly.)
    const Eigen::Matrix<double, 6, 6> L = factors_[index].matrixLLT();  // lower triangle is L
    Eigen::Matrix<double, 6, 6> L_inverse = Eigen::Matrix<double, 6, 6>::Zero();
    for (int j = 0; j < 6; ++j) {
      L_inverse(j, j) = 1.0 / L(j, j);
      for (int i = j + 1; i < 6; ++i) {
        double sum = 0;
        for (int k = j; k < i; ++k) sum += L(i, k) * L_inverse(k, j);
        L_inverse(i, j) = -sum / L(i, i);
      }
    }
    Minv.noalias() = L_inverse.transpose() * L_inverse;
  } else if (T.size() == 0) {
    Minv.setIdentity();
    factors_[index].solveInPlace(Minv);
  } else {
    Minv.noalias() = T * factors_[index].solve(T.transpose());
  }
}

Eigen::VectorXd BlockCholesky::Solve(const Eigen::VectorXd& rhs) const {
  Eigen::VectorXd x = rhs;
  SolveInPlace(x);
  return x;
}

Eigen::MatrixXd ContactProblem::MassMatrix() const {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(nv(), nv());
  for (std::size_t k = 0; k < M_blocks.size(); ++k) {
    const DofBlock& b = mass.blocks()[k];
    M.block(b.start, b.start, b.size, b.size) = M_blocks[k];
  }
  return M;
}

Eigen::VectorXd ContactProblem::MultiplyMass(const Eigen::VectorXd& x) const {
  Eigen::VectorXd y;
  MultiplyMass(x, y);
  return y;
}

void ContactProblem::MultiplyMass(const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  y.resize(x.size());
  for (std::size_t k = 0; k < M_blocks.size(); ++k) {
    const DofBlock& b = mass.blocks()[k];
    y.segment(b.start, b.size).noalias() = M_blocks[k] * x.segment(b.start, b.size);
  }
}

Eigen::MatrixXd ContactProblem::Delassus() const {
  const Eigen::MatrixXd Jd(J);
  Eigen::MatrixXd MinvJt = Jd.transpose();
  for (Eigen::Index c = 0; c < MinvJt.cols(); ++c) {
    Eigen::VectorXd column = MinvJt.col(c);
    mass.SolveInPlace(column);
    MinvJt.col(c) = column;
  }
  return Jd * MinvJt;
}

namespace {

void AddJointConstraints(const multibody::Model& model, const Eigen::VectorXd& q,
                         ContactProblem& p) {
  p.damping.setZero(model.nv);
  p.joint_friction.clear();
  p.limits.clear();
  p.bilateral.clear();
  for (std::size_t i = 0; i < model.bodies.size(); ++i) {
    const multibody::Body& b = model.bodies[i];
    if (multibody::VelocitySize(b.joint) != 1) continue;
    p.damping[b.v_index] = b.damping;
    if (b.friction > 0) p.joint_friction.push_back({b.joint_name, b.v_index, b.friction});
    if (std::isfinite(b.position_lower) || std::isfinite(b.position_upper)) {
      p.limits.push_back({b.joint_name, b.v_index, static_cast<int>(i), q[b.q_index],
                          b.position_lower, b.position_upper});
    }
  }
  for (const multibody::JointCoupler& c : model.couplers) {
    const multibody::Body& follower = model.bodies[c.body];
    const multibody::Body& leader = model.bodies[c.mimicked_body];
    BilateralConstraint coupler{"coupler of joint '" + follower.joint_name + "'",
                                Eigen::MatrixXd::Zero(1, model.nv), Eigen::VectorXd(1)};
    coupler.J(0, follower.v_index) = 1;
    coupler.J(0, leader.v_index) -= c.multiplier;
    coupler.g0[0] = q[follower.q_index] - c.multiplier * q[leader.q_index] - c.offset;
    p.bilateral.push_back(std::move(coupler));
  }
}

// Mimic joints as a change of variables, per DoF block: v_b = T_b v_free with one column per
// DoF that leads or moves freely, and a follower's row m times its leader's (q_f = m q_l + o has
// the constant-coefficient velocity form v_f = m v_l, so the reduction is exact, and a follower
// of a follower multiplies through). Blocks without followers get an empty T. A coupler whose
// two joints lie in different blocks is left to the formulations that take constraints (SAP).
void MimicReductions(const multibody::Model& model, const std::vector<DofBlock>& blocks,
                     std::vector<Eigen::MatrixXd>& T) {
  T.resize(blocks.size());
  for (Eigen::MatrixXd& t : T) t.resize(0, 0);
  if (model.couplers.empty()) return;
  std::vector<int> block_of(model.nv, -1);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    for (int d = 0; d < blocks[k].size; ++d) block_of[blocks[k].start + d] = static_cast<int>(k);
  }
  // leader[d] and ratio[d]: v_d = ratio[d] · v_leader[d] for followers; leader[d] = d otherwise.
  std::vector<int> leader(model.nv);
  std::vector<double> ratio(model.nv, 1.0);
  for (int d = 0; d < model.nv; ++d) leader[d] = d;
  for (const multibody::JointCoupler& c : model.couplers) {
    const int f = model.bodies[c.body].v_index, l = model.bodies[c.mimicked_body].v_index;
    if (block_of[f] != block_of[l] || block_of[f] < 0) continue;
    leader[f] = l;
    ratio[f] = c.multiplier;
  }
  // Chains (a follower of a follower) resolve to the first leader; a cycle keeps its last link
  // as free, which the model's validation refuses before a step is taken.
  for (int d = 0; d < model.nv; ++d) {
    for (int hops = 0; leader[d] != d && leader[leader[d]] != leader[d] && hops < model.nv;
         ++hops) {
      ratio[d] *= ratio[leader[d]];
      leader[d] = leader[leader[d]];
    }
  }
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const int start = blocks[k].start, size = blocks[k].size;
    std::vector<int> column(size, -1);
    int free = 0;
    for (int d = 0; d < size; ++d) {
      if (leader[start + d] == start + d) column[d] = free++;
    }
    if (free == size) continue;
    T[k].setZero(size, free);
    for (int d = 0; d < size; ++d) {
      const int l = leader[start + d] - start;
      if (column[l] < 0) continue;  // its leader follows in a cycle: left to validation
      T[k](d, column[l]) = ratio[start + d];
    }
  }
}

// World pose and 6 × nv frame Jacobian (linear at point p_B, angular) of a body, or of the world.
std::pair<math::Transform, Eigen::MatrixXd> FrameOf(const multibody::Model& model,
                                                    const multibody::Data& data, int body,
                                                    const Eigen::Vector3d& p_B) {
  if (body < 0) return {math::Transform{}, Eigen::MatrixXd::Zero(6, model.nv)};
  return {data.X_world[body], multibody::CalcFrameJacobian(model, data, body, p_B)};
}

// Welds: B's origin held at X_AB's position in A, and B's orientation at A's times R_AB. The
// errors are world vectors (position, and the rotation vector of R_B R_targetᵀ), whose rates are
// the relative linear velocity at B's origin and the relative angular velocity.
// Distance constraints: ‖p_B − p_A‖ − d, whose rate is the relative velocity along the line.
void AddHolonomicConstraints(const multibody::Model& model, const multibody::Data& data,
                             ContactProblem& p) {
  for (const multibody::WeldConstraint& w : model.welds) {
    const auto [X_B, J_B] = FrameOf(model, data, w.body_b, Eigen::Vector3d::Zero());
    const Eigen::Vector3d p_on_A =
        w.body_a < 0 ? Eigen::Vector3d(X_B.p) : data.X_world[w.body_a].Inverse().Apply(X_B.p);
    const auto [X_A, J_A] = FrameOf(model, data, w.body_a, p_on_A);
    const math::Transform target = X_A * w.X_AB;
    const Eigen::AngleAxisd error(X_B.R * target.R.transpose());
    BilateralConstraint weld{"weld '" + w.name + "'", J_B - J_A, Eigen::VectorXd(6)};
    weld.g0 << X_B.p - target.p, error.angle() * error.axis();
    p.bilateral.push_back(std::move(weld));
  }
  for (const multibody::DistanceConstraint& d : model.distances) {
    const auto [X_A, J_A] = FrameOf(model, data, d.body_a, d.p_A);
    const auto [X_B, J_B] = FrameOf(model, data, d.body_b, d.p_B);
    const Eigen::Vector3d delta = X_B.Apply(d.p_B) - X_A.Apply(d.p_A);
    const double length = delta.norm();
    const Eigen::Vector3d direction =
        length > 0 ? Eigen::Vector3d(delta / length) : Eigen::Vector3d::UnitZ();
    BilateralConstraint rod{"distance constraint '" + d.name + "'",
                            direction.transpose() * (J_B - J_A).topRows<3>(),
                            Eigen::VectorXd::Constant(1, length - d.distance)};
    p.bilateral.push_back(std::move(rod));
  }
}

// The joint whose coordinate carries body `body`'s limits: itself, or, for a mimic follower
// reduced away (a coupler within one DoF block, as MimicReductions takes it), the first leader of
// its chain, with q_body = ratio q_leader + offset.
struct LimitCarrier {
  int body = 0;
  double ratio = 1, offset = 0;
};
LimitCarrier CarrierOf(const multibody::Model& model, const multibody::Data& data, int body) {
  LimitCarrier carrier{body, 1, 0};
  for (int hops = 0; hops <= static_cast<int>(model.couplers.size()); ++hops) {
    const multibody::JointCoupler* next = nullptr;
    for (const multibody::JointCoupler& c : model.couplers) {
      if (c.body == carrier.body &&
          data.block_of_body[c.body] == data.block_of_body[c.mimicked_body]) {
        next = &c;
      }
    }
    if (next == nullptr) break;
    // q = r q_f + o with q_f = m q_l + o_f: q = r m q_l + r o_f + o.
    carrier.offset += carrier.ratio * next->offset;
    carrier.ratio *= next->multiplier;
    carrier.body = next->mimicked_body;
  }
  return carrier;
}

// The limits each joint can reach within the step, which become frictionless contacts
// (contact_problem.h, LimitContact). The window is SAP's (2 h max(|v|, |v*|)), so every
// formulation sees the same limits; a limit already passed (φ < 0) is always in it. A mimic
// follower's limits bound its leader instead: the follower's own row would be parallel to the
// leader's (v_f = m v_l), and two parallel rows make W singular (Lemke ended on secondary rays on
// the Panda's fingers, Gauss–Seidel stalled on the Ability hand's). One row per joint and side,
// the tightest bound.
void SelectLimitContacts(const multibody::Model& model, const multibody::Data& data,
                         const Eigen::VectorXd& q, ContactProblem& p) {
  const double h = p.time_step;
  for (std::size_t i = 0; i < p.limits.size(); ++i) {
    const JointLimit& limit = p.limits[i];
    const LimitCarrier carrier = CarrierOf(model, data, limit.body);
    if (carrier.ratio == 0) continue;  // a follower held fixed: its limit is not a row
    const multibody::Body& joint = model.bodies[carrier.body];
    for (const int side : {1, -1}) {
      const double bound = side > 0 ? limit.lower : limit.upper;
      if (!std::isfinite(bound)) continue;
      // side (r q_l + o − bound) ≥ 0 ⇔ side sign(r) (q_l − (bound − o) / r) ≥ 0.
      LimitContact row{static_cast<int>(i), joint.v_index, carrier.body,
                       carrier.ratio > 0 ? side : -side, (bound - carrier.offset) / carrier.ratio};
      const auto same = std::find_if(
          p.limit_contacts.begin(), p.limit_contacts.end(),
          [&](const LimitContact& c) { return c.dof == row.dof && c.side == row.side; });
      if (same == p.limit_contacts.end()) {
        p.limit_contacts.push_back(row);
      } else if (row.side * (row.bound - same->bound) > 0) {
        *same = row;  // tighter
      }
    }
  }
  // Only the limits within reach of this step.
  const auto far = [&](const LimitContact& c) {
    const double reach = 2 * h * std::max(std::abs(p.v[c.dof]), std::abs(p.v_star[c.dof]));
    return c.side * (q[model.bodies[c.body].q_index] - c.bound) > reach;
  };
  p.limit_contacts.erase(std::remove_if(p.limit_contacts.begin(), p.limit_contacts.end(), far),
                         p.limit_contacts.end());
}

// The limit contacts' rows, after the `first` geometric contacts: normal side·e_dof, no
// tangent rows, μ = 0, rigid, no restitution.
void AddLimitContacts(const multibody::Model& model, const multibody::Data& data,
                      const Eigen::VectorXd& q, int first, ContactProblem& p) {
  for (int k = first; k < p.num_contacts(); ++k) {
    const LimitContact& c = p.limit_contacts[k - first];
    p.jacobian_entries.add(3 * k, c.dof, c.side);
    p.frames[k].setIdentity();  // a joint-space row: no world direction
    p.points[k].setZero();
    p.contact_blocks[k] = {data.block_of_body[c.body], -1};
    p.phi[k] = c.side * (q[model.bodies[c.body].q_index] - c.bound);
    p.mu[k] = 0;
    p.restitution[k] = 0;
    p.compliance[k] = 0;
  }
}

}  // namespace

ContactProblem BuildContactProblem(const multibody::Model& model, multibody::Data& data,
                                   const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                   const Eigen::VectorXd& tau, const ContactSet& set, double h) {
  ContactProblem p;
  BuildContactProblem(model, data, q, v, tau, set, h, p);
  return p;
}

void BuildContactProblem(const multibody::Model& model, multibody::Data& data,
                         const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                         const Eigen::VectorXd& tau, const ContactSet& set, double h,
                         ContactProblem& p, LimitRows limit_rows) {
  multibody::CalcForwardKinematics(model, data, q, v);
  BuildContactProblemAtPoses(model, data, q, v, tau, set, h, p, limit_rows);
}

namespace {

// The drive's own damping and force as folded into the step (contact_problem.h).
double DriveDamping(const JointDrive& d, double h) {
  return d.kd + h * d.kp;
}
double DriveForce(const JointDrive& d) {
  return d.kp * (d.q_ref - d.q) + d.kd * d.v_ref;
}

// M_blocks (with h D), the mimic reductions, their factor and v* = v + h M⁻¹ (f − D v) from
// p.applied = f.
void SolveFreeMotion(const Eigen::VectorXd& v, double h, ContactProblem& p) {
  p.force = p.applied - p.damping.cwiseProduct(v);
  p.mass.SolveInPlace(p.force);
  p.v_star = v + h * p.force;
}

// Drives whose torque at v* exceeds their effort limit: their folded damping and force are
// replaced by the limit, and v* is solved again. A drive that saturates stays saturated (at
// most one pass per drive).
void ClampFoldedDrives(const std::vector<JointDrive>& drives, const Eigen::VectorXd& v, double h,
                       const std::vector<multibody::DofBlock>& blocks, ContactProblem& p) {
  p.saturated_drives.assign(drives.size(), 0);
  for (std::size_t pass = 0; pass < drives.size(); ++pass) {
    bool changed = false;
    for (std::size_t i = 0; i < drives.size(); ++i) {
      const JointDrive& d = drives[i];
      if (!std::isfinite(d.effort) || p.saturated_drives[i] != 0) continue;
      const double damping = DriveDamping(d, h);
      const double torque = DriveForce(d) - damping * p.v_star[d.dof];
      if (std::abs(torque) <= d.effort) continue;
      p.saturated_drives[i] = 1;
      p.damping[d.dof] -= damping;
      p.applied[d.dof] += std::copysign(d.effort, torque) - DriveForce(d);
      for (std::size_t k = 0; k < blocks.size(); ++k) {
        if (d.dof >= blocks[k].start && d.dof < blocks[k].start + blocks[k].size) {
          p.M_blocks[k](d.dof - blocks[k].start, d.dof - blocks[k].start) -= h * damping;
        }
      }
      changed = true;
    }
    if (!changed) return;
    p.mass.Factor(p.M_blocks, blocks, &p.mimic_reductions);
    SolveFreeMotion(v, h, p);
  }
}

}  // namespace

void BuildContactProblemAtPoses(const multibody::Model& model, multibody::Data& data,
                                const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const Eigen::VectorXd& tau, const ContactSet& set, double h,
                                ContactProblem& p, LimitRows limit_rows,
                                const std::vector<JointDrive>* folded_drives) {
  p.time_step = h;
  p.v = v;
  // RNEA, CRBA and the Jacobians below read the kinematics at (q, v).
  p.force = tau - multibody::CalcBiasForcesAtPoses(model, data, v);
  multibody::CalcMassMatrixBlocksAtPoses(model, data, p.M_blocks);
  AddJointConstraints(model, q, p);
  // Joint damping D, implicit: (M + h D)(v⁺ − v) = h (f − D v) + Jᵀλ. Explicit damping is
  // stable only for d h / I < 2, and published fingers (d = 3–10 N m s/rad on ~1e-6 kg m² links)
  // exceed that by 10³ at any practical step; folding h D into the mass every formulation uses
  // makes the step stable for any d (the treatment SAP gives PD drives, and MuJoCo's implicit
  // integrators give damping).
  if (folded_drives != nullptr) {
    for (const JointDrive& d : *folded_drives) {
      p.damping[d.dof] += DriveDamping(d, h);
      p.force[d.dof] += DriveForce(d);
    }
  }
  math::ResizeKeepingStorage(p.applied, p.force.size());
  p.applied = p.force;
  for (std::size_t k = 0; k < p.M_blocks.size(); ++k) {
    const multibody::DofBlock& b = data.dof_blocks[k];
    p.M_blocks[k].diagonal() += h * p.damping.segment(b.start, b.size);
  }
  MimicReductions(model, data.dof_blocks, p.mimic_reductions);
  p.mass.Factor(p.M_blocks, data.dof_blocks, &p.mimic_reductions);
  SolveFreeMotion(v, h, p);
  if (folded_drives != nullptr) ClampFoldedDrives(*folded_drives, v, h, data.dof_blocks, p);
  AddHolonomicConstraints(model, data, p);
  const int nc = static_cast<int>(set.contacts.size());
  p.limit_contacts.clear();
  if (limit_rows == LimitRows::kAsContacts) SelectLimitContacts(model, data, q, p);
  const int rows = nc + static_cast<int>(p.limit_contacts.size());  // contacts, limits included
  math::TripletBuffer& entries = p.jacobian_entries;
  entries.clear();
  // Sized per contact: kept blocks, so a count that comes and goes allocates nothing.
  math::ResizeKeepingStorage(p.phi, rows);
  math::ResizeKeepingStorage(p.mu, rows);
  math::ResizeKeepingStorage(p.restitution, rows);
  math::ResizeKeepingStorage(p.compliance, rows);
  p.frames.resize(rows);
  p.points.resize(rows);
  p.contact_blocks.resize(rows);
  // Only contacts between root free bodies (or the world), no limit rows: J is written in place.
  ContactRowsTarget target{p.J, entries, p.contact_columns};
  target.in_place = p.limit_contacts.empty() && BeginRowsInPlace(model, set, model.nv, p.J);
  for (int k = 0; k < nc; ++k) {
    const Contact& c = set.contacts[k];
    const Eigen::Matrix3d frame = math::ContactFrame(c.normal);
    p.frames[k] = frame;
    p.points[k] = c.point;
    // Velocity of the material point of A at the contact minus that of B, in (n, t, o): only the
    // velocities on the two bodies' paths to their roots (duplicates, in one tree, are summed).
    AddContactJacobianRows(model, data, k, c, frame, target);
    p.contact_blocks[k] = {c.body_a < 0 ? -1 : data.block_of_body[c.body_a],
                           c.body_b < 0 ? -1 : data.block_of_body[c.body_b]};
    p.phi[k] = c.phi;
    p.mu[k] = c.mu;
    p.restitution[k] = c.restitution;
    p.compliance[k] = c.compliance;
  }
  AddLimitContacts(model, data, q, nc, p);
  if (target.in_place) {
    p.J.outerIndexPtr()[3 * rows] = target.written;
  } else {
    math::AssignFromTriplets(entries, 3 * p.num_contacts(), model.nv, p.J);
  }
}

ContactCapacity MakeContactCapacity(int contacts, const multibody::Model& model,
                                    const multibody::Data& data) {
  ContactCapacity capacity;
  capacity.contacts = std::max(contacts, 0);
  capacity.nv = model.nv;
  capacity.blocks = static_cast<int>(data.dof_blocks.size());
  int largest = 0, second = 0;
  for (const DofBlock& block : data.dof_blocks) {
    capacity.block_values += block.size * block.size;
    if (block.size > largest) {
      second = largest;
      largest = block.size;
    } else {
      second = std::max(second, block.size);
    }
  }
  capacity.columns = largest + second;
  return capacity;
}

void ReserveContacts(const ContactCapacity& capacity, ContactProblem& p) {
  const Eigen::Index n = capacity.contacts;
  for (Eigen::VectorXd* per_contact : {&p.phi, &p.mu, &p.restitution, &p.compliance}) {
    math::ReserveStorage(*per_contact, n);
  }
  p.frames.reserve(static_cast<std::size_t>(n));
  p.points.reserve(static_cast<std::size_t>(n));
  p.contact_blocks.reserve(static_cast<std::size_t>(n));
  p.contact_columns.reserve(2 * static_cast<std::size_t>(capacity.columns));
  const Eigen::Index entries = 3 * n * capacity.columns;
  p.jacobian_entries.Reserve(static_cast<std::size_t>(entries),
                             static_cast<std::size_t>(std::max<Eigen::Index>(3 * n, capacity.nv)));
  math::ReserveSparse(p.J, 3 * n, entries);
}

}  // namespace coulomb::contact
