#include "coulomb/io/scene_initial_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "coulomb/multibody/dynamics.h"

namespace coulomb::io {

using multibody::Body;
using multibody::JointType;

namespace {

// A joint whose zero lies outside its limits (quadruped knees, hand joints whose lower limit is
// above 0) starts at the nearest limit rather than being snapped there in step 0; said once.
void StartInsideLimits(sim::Scene& scene, const std::vector<bool>& given) {
  std::string moved;
  int moved_count = 0;
  for (std::size_t b = 0; b < scene.model.multibody.bodies.size(); ++b) {
    const Body& body = scene.model.multibody.bodies[b];
    if (given[b] || multibody::ConfigurationSize(body.joint) != 1) continue;
    double& q = scene.initial.q[body.q_index];
    const double clamped = std::clamp(q, body.position_lower, body.position_upper);
    if (clamped != q) {
      moved += fmt::format("{}{} at {:.6g} in [{:.6g}, {:.6g}]", moved.empty() ? "" : ", ",
                           body.joint_name, clamped, body.position_lower, body.position_upper);
      ++moved_count;
      q = clamped;
    }
  }
  if (moved_count > 0) {
    scene.notes.push_back(
        fmt::format("{} joint(s) whose zero is outside their limits start at the nearest limit: {}",
                    moved_count, moved));
  }
}

void PlaceMimicFollowers(sim::Scene& scene, const std::vector<std::pair<int, Field>>& values,
                         const std::vector<bool>& given) {
  // Mimic followers start where their leaders put them: q_f = m q_l + o, v_f = m v_l.
  for (const multibody::JointCoupler& c : scene.model.multibody.couplers) {
    const Body& follower = scene.model.multibody.bodies[c.body];
    const Body& leader = scene.model.multibody.bodies[c.mimicked_body];
    if (multibody::ConfigurationSize(follower.joint) != 1 ||
        multibody::ConfigurationSize(leader.joint) != 1) {
      continue;  // refused with its joints named by the model's validation
    }
    const double q = c.multiplier * scene.initial.q[leader.q_index] + c.offset;
    double& q_f = scene.initial.q[follower.q_index];
    if (given[c.body] && std::abs(q_f - q) > 1e-9 * std::max(1.0, std::abs(q))) {
      for (const auto& [index, f] : values) {
        if (index == c.body) {
          f.Fail(fmt::format("joint '{}' mimics '{}' ({} × {} + {} = {}); give only the leader",
                             follower.joint_name, leader.joint_name, c.multiplier,
                             scene.initial.q[leader.q_index], c.offset, q));
        }
      }
    }
    if (q_f != q) {
      scene.notes.push_back(
          fmt::format("joint '{}' starts at {:.6g}, where its leader '{}' puts it",
                      follower.joint_name, q, leader.joint_name));
    }
    q_f = q;
    scene.initial.v[follower.v_index] = c.multiplier * scene.initial.v[leader.v_index];
  }
}

}  // namespace

void ApplyInitialState(sim::Scene& scene, const std::vector<std::pair<int, Field>>& values,
                       const std::vector<std::pair<int, Field>>& rates) {
  scene.initial = sim::MakeRestState(scene.model.multibody);
  for (const auto& [index, f] : rates) {
    scene.initial.v[scene.model.multibody.bodies[index].v_index] = f.Double();  // rad/s or m/s
  }
  std::vector<bool> given(scene.model.multibody.bodies.size(), false);
  for (const auto& [index, f] : values) given[index] = true;
  StartInsideLimits(scene, given);
  for (const auto& [index, f] : values) {
    const Body& body = scene.model.multibody.bodies[index];
    if (body.joint != JointType::kFloating) {
      if (multibody::ConfigurationSize(body.joint) != 1)
        f.Fail("initial values need a 1-DoF joint");
      const double q = f.Double();
      if (q < body.position_lower || q > body.position_upper) {
        f.Fail(fmt::format("{} is outside the limits [{}, {}] of joint '{}'", q,
                           body.position_lower, body.position_upper, body.joint_name));
      }
      scene.initial.q[body.q_index] = q;
      continue;
    }
    const Eigen::Matrix3d R = OptionalRotation(f, "orientation");
    scene.initial.q.segment<3>(body.q_index) =
        OptionalVector3(f, "position", Eigen::Vector3d::Zero());
    const Eigen::Quaterniond quaternion(R);
    scene.initial.q.segment<4>(body.q_index + 3) << quaternion.w(), quaternion.x(), quaternion.y(),
        quaternion.z();
    // Scene velocities are in the world frame; floating joints take ω in the body frame.
    scene.initial.v.segment<3>(body.v_index) =
        OptionalVector3(f, "velocity", Eigen::Vector3d::Zero());
    scene.initial.v.segment<3>(body.v_index + 3) =
        R.transpose() * OptionalVector3(f, "angular_velocity", Eigen::Vector3d::Zero());
  }
  PlaceMimicFollowers(scene, values, given);
}

void FilterSelfCollisions(sim::Scene& scene) {
  scene.model.world.ExcludeAdjacentBodies(scene.model.multibody);
  multibody::Data data = multibody::MakeData(scene.model.multibody);
  multibody::CalcForwardKinematics(scene.model.multibody, data, scene.initial.q, scene.initial.v);
  const std::vector<geometry::BodyOverlap> overlaps =
      scene.model.world.ExcludeOverlappingLinks(scene.model.multibody, data.X_world);
  if (overlaps.empty()) return;
  std::string list;
  for (const geometry::BodyOverlap& o : overlaps) {
    list += fmt::format("{}{}–{} ({:.3g} mm)", list.empty() ? "" : ", ",
                        scene.model.multibody.bodies[o.body_a].name,
                        scene.model.multibody.bodies[o.body_b].name, 1e3 * o.depth);
  }
  scene.notes.push_back(fmt::format(
      "{} pair(s) of links overlap where the scene starts and do not collide with each other "
      "(collision_filter.include restores a pair): {}",
      overlaps.size(), list));
}

}  // namespace coulomb::io
