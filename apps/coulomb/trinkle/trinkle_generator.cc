#include "apps/coulomb/trinkle/trinkle_generator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "apps/coulomb/trinkle/trinkle_scenes.h"
#include "apps/coulomb/trinkle/trinkle_solver.h"
#include "apps/coulomb/trinkle/trinkle_system.h"
#include "coulomb/base/random.h"
#include "coulomb/formulations/velocity_lcp/stewart_trinkle_lcp.h"

namespace coulomb::trinkle {
namespace {

constexpr double kGravity = 9.81;
constexpr double kSlipThreshold = 1e-6;  // m/s: slower tangential motion counts as rolling

// One group of contacts between the same two bodies, all rolling or all sliding.
struct Interface {
  enum class Kind { kStack, kWall, kFinger } kind = Kind::kStack;
  int body = 0;  // body A (the normal points into it)
  int count = 1;
  bool rolling = true;
};

// Splits `total` contacts over `parts` interfaces, each at least 1, preferring ≥ 3 (a face).
std::vector<int> Split(int total, int parts, SplitMix64& rng) {
  std::vector<int> sizes(parts, 1);
  int left = total - parts;
  for (int i = 0; i < parts && left > 0; ++i) {
    const int add = std::min(left, 2);
    sizes[i] += add;
    left -= add;
  }
  while (left > 0) {
    sizes[rng.Below(parts)] += 1;
    --left;
  }
  return sizes;
}

// Corners of the rectangle [x0,x1]×[y0,y1] first, then random interior points.
std::vector<Eigen::Vector2d> FacePoints(double x0, double x1, double y0, double y1, int count,
                                        SplitMix64& rng) {
  std::vector<Eigen::Vector2d> pts = {{x0, y0}, {x1, y1}, {x1, y0}, {x0, y1}};
  pts.resize(std::min(count, 4));
  while (static_cast<int>(pts.size()) < count) {
    pts.emplace_back(rng.Uniform(x0, x1), rng.Uniform(y0, y1));
  }
  return pts;
}

struct Box {
  Eigen::Vector3d half;
  Eigen::Vector3d center;
};

// Plans interfaces for the request; empty when this draw cannot meet it.
std::vector<Interface> PlanInterfaces(const GeneratorRequest& req, int bodies, SplitMix64& rng) {
  std::vector<Interface> plan;
  int sliding = req.num_sliding, rolling = req.num_rolling;
  const bool ground_rolls = sliding == 0 || (rolling > 0 && rng.Uniform() < 0.5);
  // Fingertips grasp the top body; their arms can follow it (rolling) or not (sliding). A single
  // body with both roles needs the fingers to carry the role its ground interface does not.
  if (bodies == 1 && sliding > 0 && rolling > 0) {
    int& budget = ground_rolls ? sliding : rolling;
    if (budget > 6 || !req.allow_arm) return {};
    for (; budget > 0; --budget) plan.push_back({Interface::Kind::kFinger, 0, 1, !ground_rolls});
  } else if (req.allow_arm && rng.Uniform() < 0.4) {
    const int fingers = 2 + static_cast<int>(rng.Below(4));
    for (int f = 0; f < fingers; ++f) {
      const bool roll = sliding <= 0 ? true : (rolling <= bodies ? false : rng.Uniform() < 0.5);
      int& budget = roll ? rolling : sliding;
      // Keep a contact for the stack unless fingers can carry this role alone.
      if (budget <= (roll == ground_rolls ? 1 : 0)) continue;
      plan.push_back({Interface::Kind::kFinger, bodies - 1, 1, roll});
      --budget;
    }
  }
  // A wall against the bottom body moves with the ground interface's role (see header).
  if (req.allow_wall && rng.Uniform() < 0.3) {
    int& budget = ground_rolls ? rolling : sliding;
    const int count = 2 + static_cast<int>(rng.Below(2));
    if (budget > count + 1) {
      plan.push_back({Interface::Kind::kWall, 0, count, ground_rolls});
      budget -= count;
    }
  }
  // Stack interfaces: body k on body k−1 (or the ground).
  std::vector<bool> roles(bodies);
  roles[0] = ground_rolls;
  int need_slide = sliding > 0 && !ground_rolls ? 0 : (sliding > 0 ? 1 : 0);
  int need_roll = rolling > 0 && ground_rolls ? 0 : (rolling > 0 ? 1 : 0);
  for (int k = 1; k < bodies; ++k) {
    if (need_slide > 0) {
      roles[k] = false;
      --need_slide;
    } else if (need_roll > 0) {
      roles[k] = true;
      --need_roll;
    } else {
      roles[k] = sliding > 0 && (rolling == 0 || rng.Uniform() < 0.5) ? false
                 : rolling == 0                                       ? false
                                                                      : true;
    }
  }
  if (need_slide > 0 || need_roll > 0) return {};
  const int n_slide = static_cast<int>(std::count(roles.begin(), roles.end(), false));
  const int n_roll = bodies - n_slide;
  if ((n_slide > 0) != (sliding > 0) || (n_roll > 0) != (rolling > 0)) return {};
  if (sliding < n_slide || rolling < n_roll) return {};
  const std::vector<int> slide_sizes =
      n_slide > 0 ? Split(sliding, n_slide, rng) : std::vector<int>{};
  const std::vector<int> roll_sizes = n_roll > 0 ? Split(rolling, n_roll, rng) : std::vector<int>{};
  int si = 0, ri = 0;
  for (int k = 0; k < bodies; ++k) {
    plan.push_back(
        {Interface::Kind::kStack, k, roles[k] ? roll_sizes[ri++] : slide_sizes[si++], roles[k]});
  }
  return plan;
}

// Adds a fingertip link (a 3-joint revolute chain from a grounded base) touching `point`.
void AddFinger(TrinkleManipulator& arm, std::vector<Eigen::Vector3d>& joint_pos,
               std::vector<Eigen::Vector3d>& joint_axis, const Eigen::Vector3d& point,
               const Eigen::Vector3d& outward, SplitMix64& rng) {
  const Eigen::Vector3d base = point + 0.4 * outward + Eigen::Vector3d(0, 0, -0.3);
  for (int i = 0; i < 3; ++i) {
    joint_pos.push_back(base + (point - base) * (i / 3.0) +
                        0.05 * Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal()));
    joint_axis.push_back(Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal()).normalized());
  }
  TrinkleLink tip;
  tip.origin = point;
  arm.links.push_back(tip);
}

// Boxes stacked along z, each no wider than the one below.
std::vector<Box> StackBoxes(int bodies, SplitMix64& rng) {
  std::vector<Box> boxes(bodies);
  double z = 0;
  for (int k = 0; k < bodies; ++k) {
    Eigen::Vector3d h(rng.Uniform(0.05, 0.5), rng.Uniform(0.05, 0.5), rng.Uniform(0.05, 0.5));
    if (k > 0) {
      h.x() = std::min(h.x(), boxes[k - 1].half.x());
      h.y() = std::min(h.y(), boxes[k - 1].half.y());
    }
    Eigen::Vector2d offset = Eigen::Vector2d::Zero();
    if (k > 0) {
      offset = Eigen::Vector2d(rng.Uniform(-1, 1) * (boxes[k - 1].half.x() - h.x()),
                               rng.Uniform(-1, 1) * (boxes[k - 1].half.y() - h.y())) +
               boxes[k - 1].center.head<2>();
    }
    boxes[k] = {h, Eigen::Vector3d(offset.x(), offset.y(), z + h.z())};
    z += 2 * h.z();
  }
  return boxes;
}

// The boxes as paper-1 objects under gravity plus random wrenches (docs/notes/complementarity.md
// §6.1).
void AddObjects(const std::vector<Box>& boxes, SplitMix64& rng, TrinkleProblem& p) {
  for (const Box& b : boxes) {
    TrinkleObject o = MakeBox(b.half, rng.Uniform(500, 5000), b.center, Eigen::Matrix3d::Identity(),
                              {0, 0, -kGravity});
    const double mg = o.mass * kGravity;
    for (int i = 0; i < 3; ++i) o.external_wrench[i] += 0.3 * mg * rng.Normal();
    for (int i = 3; i < 6; ++i) o.external_wrench[i] += 0.1 * mg * b.half.norm() * rng.Normal();
    p.objects.push_back(o);
  }
}

// The grounded arm the fingertips belong to, before its mass matrix is known.
struct ArmSkeleton {
  TrinkleManipulator arm;
  std::vector<Eigen::Vector3d> joint_pos, joint_axis;
};

// The contacts of every planned interface (fingertips also grow the arm); returns which of them
// are meant to roll.
std::vector<bool> AddContacts(const std::vector<Interface>& plan, const std::vector<Box>& boxes,
                              SplitMix64& rng, TrinkleProblem& p, ArmSkeleton& skeleton) {
  TrinkleManipulator& arm = skeleton.arm;
  std::vector<Eigen::Vector3d>& joint_pos = skeleton.joint_pos;
  std::vector<Eigen::Vector3d>& joint_axis = skeleton.joint_axis;
  std::vector<bool> rolling_contact;
  const auto add = [&](BodyRef b, const Eigen::Vector3d& point, const Eigen::Vector3d& normal,
                       bool rolling) {
    TrinkleContact c;
    c.a = BodyRef::Object(0);
    c.b = b;
    c.point = point;
    c.normal = normal;
    c.tangent = TangentFor(normal, Eigen::Vector3d(rng.Normal(), rng.Normal(), rng.Normal()));
    p.contacts.push_back(c);
    rolling_contact.push_back(rolling);
    return static_cast<int>(p.contacts.size()) - 1;
  };
  for (const Interface& in : plan) {
    const Box& box = boxes[in.body];
    if (in.kind == Interface::Kind::kStack) {
      const Box* below = in.body > 0 ? &boxes[in.body - 1] : nullptr;
      double x0 = box.center.x() - box.half.x(), x1 = box.center.x() + box.half.x();
      double y0 = box.center.y() - box.half.y(), y1 = box.center.y() + box.half.y();
      if (below != nullptr) {
        x0 = std::max(x0, below->center.x() - below->half.x());
        x1 = std::min(x1, below->center.x() + below->half.x());
        y0 = std::max(y0, below->center.y() - below->half.y());
        y1 = std::min(y1, below->center.y() + below->half.y());
      }
      const double zc = box.center.z() - box.half.z();
      for (const Eigen::Vector2d& q : FacePoints(x0, x1, y0, y1, in.count, rng)) {
        const int j = add(below ? BodyRef::Object(in.body - 1) : BodyRef::Ground(),
                          Eigen::Vector3d(q.x(), q.y(), zc), Eigen::Vector3d::UnitZ(), in.rolling);
        p.contacts[j].a = BodyRef::Object(in.body);
      }
    } else if (in.kind == Interface::Kind::kWall) {
      // The wall stands at the bottom box's +x face; its normal −x points into the box.
      const double xw = box.center.x() + box.half.x();
      for (const Eigen::Vector2d& q : FacePoints(
               box.center.y() - box.half.y(), box.center.y() + box.half.y(),
               box.center.z() - box.half.z(), box.center.z() + box.half.z(), in.count, rng)) {
        const int j = add(BodyRef::Ground(), Eigen::Vector3d(xw, q.x(), q.y()),
                          -Eigen::Vector3d::UnitX(), in.rolling);
        p.contacts[j].a = BodyRef::Object(in.body);
      }
    } else {
      // A fingertip on a random side face of the top box (not the wall's +x face).
      const int face = static_cast<int>(rng.Below(3));  // −x, +y, −y
      const Eigen::Vector3d sides[3] = {-Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(),
                                        -Eigen::Vector3d::UnitY()};
      const Eigen::Vector3d outward = sides[face];
      Eigen::Vector3d point = box.center + box.half.cwiseProduct(outward);
      for (int d = 0; d < 3; ++d) {
        if (outward[d] == 0) point[d] += rng.Uniform(-0.8, 0.8) * box.half[d];
      }
      const int link = static_cast<int>(arm.links.size());
      AddFinger(arm, joint_pos, joint_axis, point, outward, rng);
      const int j = add(BodyRef::Link(link), point, -outward, in.rolling);
      p.contacts[j].a = BodyRef::Object(in.body);
    }
  }
  return rolling_contact;
}

// Mass matrix and efforts of the fingers' arm; attaches it to the problem.
void FinishArm(ArmSkeleton& skeleton, SplitMix64& rng, TrinkleProblem& p) {
  TrinkleManipulator& arm = skeleton.arm;
  const std::vector<Eigen::Vector3d>& joint_pos = skeleton.joint_pos;
  const std::vector<Eigen::Vector3d>& joint_axis = skeleton.joint_axis;
  if (!arm.links.empty()) {
    // Each fingertip link is moved only by its own three joints; mass matrix from point masses
    // at the joints and the tip (what CRBA gives for such a chain) plus small link inertias.
    const int n = static_cast<int>(joint_pos.size());
    arm.inertia = Eigen::MatrixXd::Zero(n, n);
    arm.gravity_effort = Eigen::VectorXd::Zero(n);
    for (std::size_t l = 0; l < arm.links.size(); ++l) {
      TrinkleLink& tip = arm.links[l];
      tip.jacobian = Eigen::MatrixXd::Zero(6, n);
      for (int i = 0; i < 3; ++i) {
        const int q = 3 * static_cast<int>(l) + i;
        tip.jacobian.block<3, 1>(0, q) = joint_axis[q].cross(tip.origin - joint_pos[q]);
        tip.jacobian.block<3, 1>(3, q) = joint_axis[q];
      }
      // Masses at the 2nd and 3rd joints and at the tip.
      for (int body = 1; body <= 3; ++body) {
        const int last = 3 * static_cast<int>(l) + body - 1;
        const Eigen::Vector3d at = body == 3 ? tip.origin : joint_pos[last + 1];
        Eigen::MatrixXd Jv = Eigen::MatrixXd::Zero(3, n), Jw = Eigen::MatrixXd::Zero(3, n);
        for (int q = 3 * static_cast<int>(l); q <= last; ++q) {
          Jv.col(q) = joint_axis[q].cross(at - joint_pos[q]);
          Jw.col(q) = joint_axis[q];
        }
        const double mass = rng.Uniform(0.2, 1.0);
        arm.inertia += mass * Jv.transpose() * Jv + 1e-3 * mass * Jw.transpose() * Jw;
        arm.gravity_effort -= Jv.transpose() * (mass * Eigen::Vector3d(0, 0, -kGravity));
      }
    }
    arm.joint_velocity = Eigen::VectorXd::Zero(n);
    arm.effort = Eigen::VectorXd::Zero(n);
    for (int i = 0; i < n; ++i) arm.effort[i] = 0.5 * rng.Normal();
    // Coriolis/centrifugal efforts of the arm are not modelled by the generator (h_man = 0).
    arm.velocity_product_effort = Eigen::VectorXd::Zero(n);
    p.manipulator = arm;
  }
}

// Velocities consistent with eq. (7)–(8); returns the number of sliding contacts, or −1 when the
// draw does not make exactly the planned contacts slide.
int DrawVelocities(const std::vector<bool>& rolling_contact, SplitMix64& rng, TrinkleProblem& p) {
  // Velocities (eq. 7–8): the null space of all normal rows and the rolling tangential rows.
  const TrinkleSystem s0 = BuildTrinkleSystem(p);
  std::vector<int> rows;
  for (std::size_t j = 0; j < p.contacts.size(); ++j) {
    rows.push_back(s0.offset[j]);
    if (rolling_contact[j]) {
      rows.push_back(s0.offset[j] + 1);
      rows.push_back(s0.offset[j] + 2);
    }
  }
  Eigen::MatrixXd C(static_cast<Eigen::Index>(rows.size()), s0.num_dofs);
  for (std::size_t r = 0; r < rows.size(); ++r) C.row(r) = s0.G.col(rows[r]).transpose();
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(C, Eigen::ComputeFullV);
  const Eigen::VectorXd& sv = svd.singularValues();
  int rank = 0;
  for (Eigen::Index i = 0; i < sv.size(); ++i) rank += sv[i] > 1e-10 * std::max(1.0, sv[0]);
  const int nullity = s0.num_dofs - rank;
  Eigen::VectorXd u = Eigen::VectorXd::Zero(s0.num_dofs);
  if (nullity > 0) {
    Eigen::VectorXd xi(nullity);
    for (int i = 0; i < nullity; ++i) xi[i] = rng.Normal();
    u = svd.matrixV().rightCols(nullity) * xi;
    u.normalize();
    // Scale to a contact speed of 0.1–1 m/s; when no contact moves (only free fingers do),
    // keep the unit norm rather than amplify round-off.
    const double speed = (s0.G.transpose() * u).lpNorm<Eigen::Infinity>();
    u *= rng.Uniform(0.1, 1.0) / (speed > 1e-6 ? speed : 1.0);
  }
  for (int i = 0; i < s0.num_objects; ++i) {
    p.objects[i].linear_velocity = u.segment<3>(6 * i);
    p.objects[i].angular_velocity = u.segment<3>(6 * i + 3);
  }
  if (p.manipulator) p.manipulator->joint_velocity = u.tail(s0.num_joints);
  const TrinkleSystem s = BuildTrinkleSystem(p);
  int n_sliding = 0;
  bool consistent = true;
  for (std::size_t j = 0; j < p.contacts.size(); ++j) {
    const double slip = s.contact_velocity.segment<2>(s.offset[j] + 1).norm();
    const bool slides = slip > kSlipThreshold;
    n_sliding += slides;
    // Rolling contacts must be rolling to round-off, sliding ones clearly sliding.
    consistent = consistent && (slides ? !rolling_contact[j] : slip < 1e-12 && rolling_contact[j]);
    consistent = consistent && std::abs(s.contact_velocity[s.offset[j]]) < 1e-12;
  }
  return consistent ? n_sliding : -1;
}

}  // namespace

std::optional<GeneratedProblem> GenerateTrinkleProblem(const GeneratorRequest& req,
                                                       std::uint64_t seed, int max_attempts) {
  const int contacts = req.num_sliding + req.num_rolling;
  if (contacts <= 0) return std::nullopt;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    SplitMix64 rng(seed * 7919 + static_cast<std::uint64_t>(attempt));
    // Both roles on one body need fingers; otherwise a second body carries the other role.
    const int at_least = req.num_sliding > 0 && req.num_rolling > 0 && rng.Uniform() < 0.7 ? 2 : 1;
    const int bodies =
        req.num_bodies > 0
            ? req.num_bodies
            : std::min(contacts,
                       std::max(at_least,
                                1 + static_cast<int>(rng.Below(std::clamp(contacts / 6, 1, 6)))));
    std::vector<Interface> plan = PlanInterfaces(req, bodies, rng);
    if (plan.empty()) continue;

    const std::vector<Box> boxes = StackBoxes(bodies, rng);
    TrinkleProblem p;
    AddObjects(boxes, rng, p);
    ArmSkeleton skeleton;
    const std::vector<bool> rolling_contact = AddContacts(plan, boxes, rng, p, skeleton);
    FinishArm(skeleton, rng, p);
    const int n_sliding = DrawVelocities(rolling_contact, rng, p);
    if (n_sliding != req.num_sliding) continue;
    const TrinkleSystem s = BuildTrinkleSystem(p);

    GeneratedProblem out;
    out.problem = WithFriction(p, 0.5);
    out.num_bodies = bodies;
    out.num_sliding = n_sliding;
    out.num_rolling = static_cast<int>(p.contacts.size()) - n_sliding;
    out.jacobian_rank = static_cast<int>(Eigen::FullPivLU<Eigen::MatrixXd>(s.G).rank());
    out.attempts = attempt;
    bool wall = false;
    for (const Interface& in : plan) wall = wall || in.kind == Interface::Kind::kWall;
    out.description =
        fmt::format("{} box{}{}{}", bodies, bodies == 1 ? "" : "es", wall ? ", wall" : "",
                    p.manipulator ? fmt::format(", arm({} dof)", s.num_joints) : "");
    return out;
  }
  return std::nullopt;
}

TrinkleProblem WithFriction(const TrinkleProblem& problem, double mu) {
  TrinkleProblem p = problem;
  for (TrinkleContact& c : p.contacts) {
    if (c.soft_finger() && c.mu > 0) c.mu_torsion *= mu / c.mu;
    c.mu = mu;
  }
  return p;
}

FrictionContactProblem MakeFrictionContactProblem(const TrinkleProblem& problem, double h) {
  const TrinkleSystem s = BuildTrinkleSystem(problem);
  const ContactDynamics dyn = ComputeContactDynamics(s);
  const int nc = static_cast<int>(problem.contacts.size());
  FrictionContactProblem out;
  Eigen::MatrixXd W(3 * nc, 3 * nc);
  out.q.resize(3 * nc);
  out.mu.resize(nc);
  // Impulses r = h c: u⁺ = Gᵀ(u + h M⁻¹(f + G c)) = v + h (b − κ) + W r, W = A (eq. 24–26).
  for (int j = 0; j < nc; ++j) {
    out.mu[j] = problem.contacts[j].mu;
    for (int d = 0; d < 3; ++d) {
      const int row = s.offset[j] + d;
      out.q[3 * j + d] = s.contact_velocity[row] + h * (dyn.b[row] - s.bias[row]);
      for (int k = 0; k < nc; ++k) {
        for (int e = 0; e < 3; ++e) W(3 * j + d, 3 * k + e) = dyn.A(row, s.offset[k] + e);
      }
    }
  }
  out.W = W.sparseView();
  return out;
}

LcpProblem MakeVelocityLevelLcp(const TrinkleProblem& problem, double h, int directions) {
  const FrictionContactProblem local = MakeFrictionContactProblem(problem, h);
  LcpProblem lcp = MakeStewartTrinkleLcp(local.W, local.q, local.mu, directions);
  lcp.name = "velocity-level";
  return lcp;
}

}  // namespace coulomb::trinkle
