#include "apps/coulomb/paper2/paper2_cases.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace coulomb::paper2 {
namespace {

// The cylinder scene's slab thickness, m (its load: a ramp to 28 kN, 1.4 MN/m, over 500 s).
constexpr double kCylinderSlab = 0.02;
// Judging windows of the scripted robot scenes (see their scene files), s.
constexpr double kTeddyShake[2] = {2.0, 4.0}, kBallShake[2] = {3.0, 5.0};
// The arch: drift is measured from this time on (the blocks start apart and settle first), s.
constexpr double kArchSettle = 20.0, kArchSettleQuick = 4.0;

int DeformableIndex(const sim::Scene& scene, const std::string& name) {
  for (std::size_t d = 0; d < scene.model.deformables.bodies.size(); ++d) {
    if (scene.model.deformables.bodies[d].name == name) return static_cast<int>(d);
  }
  return -1;
}

Eigen::Vector3d Centroid(const Eigen::Matrix3Xf& x) {
  return x.cast<double>().rowwise().mean();
}

double Interpolate(const std::vector<std::pair<double, double>>& curve, double x, bool& inside) {
  inside = false;
  for (std::size_t k = 1; k < curve.size(); ++k) {
    const auto [x0, y0] = curve[k - 1];
    const auto [x1, y1] = curve[k];
    if (x0 <= x && x <= x1 && x1 > x0) {
      inside = true;
      return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
    }
  }
  return 0;
}

// Mean relative force error against the reference where the load is above a tenth of its
// final value (the first tenth is noise-level force on both curves).
Figure JudgeCylinder(const sim::Scene& scene, const sim::Recording& rec,
                     const std::vector<std::pair<double, double>>& reference) {
  Figure f{"curve error", 0, "%", "", false, {}, reference};
  int plate = -1;
  for (std::size_t b = 0; b < scene.model.multibody.bodies.size(); ++b) {
    if (scene.model.multibody.bodies[b].name == "plate") plate = static_cast<int>(b);
  }
  if (plate < 0 || reference.empty()) {
    f.text = plate < 0 ? "no body 'plate' in the scene" : "no reference curve";
    return f;
  }
  const int qi = scene.model.multibody.bodies[plate].q_index;
  // The reference as approach of force (it is monotone): the load is what the test controls.
  std::vector<std::pair<double, double>> by_force;
  by_force.reserve(reference.size());
  for (const auto& [approach, force] : reference) by_force.emplace_back(force, approach);
  double sum = 0, worst = 0, approach_sum = 0;
  int n = 0;
  f.curve.emplace_back(0.0, 0.0);
  for (std::size_t k = 0; k + 1 < rec.frames.size(); ++k) {
    // The force is the one the rubber puts on the plate, as the reference's (solids4foam's
    // force on its contact patch): the step's contact impulses on the plate over δt, paired
    // with the approach at the step's end. The commanded load is not it: the actuator applies
    // the ramp's value at the step's start (one 4 s step lags 0.011 MN/m behind) and the
    // plate's joint damping takes its share.
    double impulse = 0;
    for (const sim::ContactRecord& c : rec.frames[k].contacts) {
      if (c.body_b == plate) impulse += c.impulse_world.y();
      if (c.body_a == plate) impulse -= c.impulse_world.y();
    }
    const double force = std::abs(impulse) / scene.model.time_step / kCylinderSlab / 1e6;  // MN/m
    const double approach = rec.frames[k + 1].q[qi];
    f.curve.emplace_back(approach, force);
    bool inside = false;
    const double r = Interpolate(reference, approach, inside);
    if (force < 0.14 || !inside || r <= 0) continue;
    const double e = std::abs(force - r) / r;
    sum += e;
    worst = std::max(worst, e);
    bool loaded = false;
    approach_sum += std::abs(approach - Interpolate(by_force, force, loaded));
    ++n;
  }
  if (n == 0) {
    f.text = "the curve never reached the reference's range";
    return f;
  }
  f.value = 100 * sum / n;
  const double approach = f.curve.back().first;
  f.text = fmt::format(
      "force at the same approach: mean {:.1f} %, max {:.1f} % ({} points); approach at the "
      "same force: mean error {:.1f} mm; at 1.4 MN/m {:.3f} m (reference 0.200 m)",
      f.value, 100 * worst, n, 1e3 * approach_sum / n, approach);
  // Our goal: within 10 % on average (the curve is steep, so a few mm of approach is many % of
  // force); the table says when it is missed rather than hiding it.
  f.pass = f.value < 10;
  return f;
}

// Keystone drift: how far block13 (the keystone) moved after the arch settled, over the span.
Figure JudgeArch(const sim::Scene& scene, const sim::Recording& rec, bool should_stand) {
  Figure f{should_stand ? "keystone drift" : "keystone drop", 0, "%", "", false, {}, {}};
  const int key = DeformableIndex(scene, "block13");
  if (key < 0 || rec.frames.empty()) {
    f.text = "no keystone 'block13' or no frames";
    return f;
  }
  double lo = INFINITY, hi = -INFINITY;  // the span: horizontal extent of the blocks at rest
  for (std::size_t d = 0; d < scene.model.deformables.bodies.size(); ++d) {
    if (scene.model.deformables.bodies[d].name.rfind("block", 0) != 0) continue;
    lo = std::min(lo, scene.model.deformables.bodies[d].rest.vertices.row(0).minCoeff());
    hi = std::max(hi, scene.model.deformables.bodies[d].rest.vertices.row(0).maxCoeff());
  }
  const double span = hi - lo;
  const double end = rec.frames.back().time;
  const double settle = std::min(end > 2 * kArchSettle ? kArchSettle : kArchSettleQuick, end);
  const sim::Frame* settled = &rec.frames.front();
  for (const sim::Frame& frame : rec.frames) {
    if (frame.time <= settle) settled = &frame;
  }
  const Eigen::Vector3d start = Centroid(rec.frames.front().deformables[key]);
  const Eigen::Vector3d at_settle = Centroid(settled->deformables[key]);
  const Eigen::Vector3d last = Centroid(rec.frames.back().deformables[key]);
  if (should_stand) {
    f.value = 100 * (last - at_settle).norm() / span;
    f.text = fmt::format("{:.3f} % of the {:.2f} m span from t = {:g} s to {:g} s (goal < 1 %)",
                         f.value, span, settled->time, end);
    f.pass = f.value < 1.0 && start.y() - last.y() < 0.1 * span;
  } else {
    f.value = 100 * (start.y() - last.y()) / span;
    f.text = fmt::format(
        "keystone fell {:.2f} m ({:.0f} % of the span) in {:g} s (collapse: "
        "> 10 %)",
        start.y() - last.y(), f.value, end);
    f.pass = f.value > 10;
  }
  return f;
}

// Held: during the shake, the object's lowest point stays clear of the ground it was lifted
// from and the object stays near the gripper (its centroid above its starting height).
Figure JudgeHeld(const sim::Scene& scene, const sim::Recording& rec, const std::string& object,
                 const double window[2], double min_clearance) {
  Figure f{object + " held", 0, "m", "", false, {}, {}};
  const int d = DeformableIndex(scene, object);
  if (d < 0 || rec.frames.empty()) {
    f.text = "no deformable body '" + object + "' or no frames";
    return f;
  }
  const double z0 = Centroid(rec.frames.front().deformables[d]).z();
  double clearance = INFINITY, lift = INFINITY;
  int frames = 0;
  for (const sim::Frame& frame : rec.frames) {
    if (frame.time < window[0] || frame.time > window[1]) continue;
    clearance = std::min(clearance, static_cast<double>(frame.deformables[d].row(2).minCoeff()));
    lift = std::min(lift, Centroid(frame.deformables[d]).z() - z0);
    ++frames;
  }
  if (frames == 0) {
    f.text = fmt::format("the run ended before the shake ({:g}–{:g} s)", window[0], window[1]);
    return f;
  }
  f.value = clearance;
  f.pass = clearance > min_clearance && lift > min_clearance;
  f.text = fmt::format(
      "{} during the shake ({:g}–{:g} s): lowest point {:.3f} m above the "
      "ground, lifted at least {:.3f} m",
      f.pass ? "held" : "DROPPED", window[0], window[1], clearance, lift);
  return f;
}

}  // namespace

std::vector<Paper2Case> Paper2Cases(bool quick) {
  std::vector<Paper2Case> out;
  // Cylinder: four progressively finer meshes (cells across the radius); quick: one coarse mesh
  // at 10 s steps (50 steps of the 500 s ramp).
  for (const int radial : quick ? std::vector<int>{3} : std::vector<int>{3, 4, 6, 8}) {
    Paper2Case c{fmt::format("cylinder r{}", radial),
                 "cylinder_crush.yaml",
                 {{"radial: 6", fmt::format("radial: {}", radial)}}};
    c.time_step = quick ? 10.0 : -1;
    c.judge = Judge::kCylinderCurve;
    out.push_back(c);
  }
  Paper2Case stands{"arch mu 1.0", "arch.yaml", {}, quick ? 8.0 : 600.0};
  stands.judge = Judge::kArchStands;
  out.push_back(stands);
  Paper2Case falls{"arch mu 0.2", "arch.yaml", {{"friction: 1.0", "friction: 0.2"}}};
  falls.duration = quick ? 5.0 : 10.0;
  falls.judge = Judge::kArchFalls;
  out.push_back(falls);
  Paper2Case gripper{"gripper + teddy", "gripper_teddy.yaml", {}};
  gripper.time_step = quick ? 0.02 : -1;
  gripper.judge = Judge::kToyHeld;
  out.push_back(gripper);
  Paper2Case arm{"iiwa + allegro + ball", "arm_hand_ball.yaml", {}};
  arm.time_step = quick ? 0.02 : -1;
  arm.judge = Judge::kBallHeld;
  out.push_back(arm);
  return out;
}

std::vector<std::pair<double, double>> ReadCylinderReference(const std::string& path,
                                                             std::string& error) {
  std::ifstream in(path);
  std::vector<std::pair<double, double>> out;
  if (!in) {
    error = path + ": cannot open the reference curve";
    return out;
  }
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    double displacement = 0, force = 0;
    if (!(row >> displacement >> force)) {
      error = fmt::format("{}: unreadable line '{}'", path, line);
      return {};
    }
    out.emplace_back(2 * displacement, force);  // quarter model: approach = 2 × displacement
  }
  if (out.size() < 2) error = path + ": fewer than two points";
  return out;
}

Figure JudgeRun(const Paper2Case& c, const sim::Scene& scene, const sim::Recording& recording,
                const std::vector<std::pair<double, double>>& reference) {
  switch (c.judge) {
    case Judge::kCylinderCurve:
      return JudgeCylinder(scene, recording, reference);
    case Judge::kArchStands:
      return JudgeArch(scene, recording, true);
    case Judge::kArchFalls:
      return JudgeArch(scene, recording, false);
    case Judge::kToyHeld:
      return JudgeHeld(scene, recording, "teddy", kTeddyShake, 0.02);
    case Judge::kBallHeld:
      return JudgeHeld(scene, recording, "ball", kBallShake, 0.03);
  }
  return {};
}

}  // namespace coulomb::paper2
