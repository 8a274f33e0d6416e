#include "apps/coulomb/peers/peer_scene.h"

#include <cmath>

#include "coulomb/base/random.h"

namespace coulomb::peers {
namespace {

constexpr double kG = 9.81;  // m/s²

PeerBody MakeBox(std::string name, const Eigen::Vector3d& size, double mass,
                 const Eigen::Vector3d& position) {
  PeerBody body;
  body.name = std::move(name);
  body.shape = geometry::Box{0.5 * size};
  body.mass = mass;
  body.position = position;
  return body;
}

PeerBody MakeBall(std::string name, double radius, double mass, const Eigen::Vector3d& position) {
  PeerBody body;
  body.name = std::move(name);
  body.shape = geometry::Sphere{radius};
  body.mass = mass;
  body.position = position;
  return body;
}

PeerPlane Ground() {
  return {Eigen::Vector3d::UnitZ(), 0};
}

PeerScene Stack(double time_step, double duration) {
  PeerScene scene;
  scene.name = time_step < 5e-3 ? "stack_1ms" : "stack_10ms";
  scene.description = "10 unit cubes (1 m, 1 kg) stacked on the ground, μ = 0.5";
  scene.time_step = time_step;
  scene.duration = duration;
  for (int i = 0; i < 10; ++i) {
    scene.bodies.push_back(
        MakeBox("cube" + std::to_string(i), Eigen::Vector3d::Ones(), 1.0, {0, 0, 0.5 + i}));
  }
  scene.planes = {Ground()};
  scene.figure = PeerFigure::kStackDrift;
  scene.tolerance = 0.01;  // 1 cm on a 10 m tower: it stands
  return scene;
}

PeerScene Bin(double duration) {
  PeerScene scene;
  scene.name = "bin";
  scene.description = "200 spheres (r 5 cm, 0.1 kg) dropped into a 0.6 m square bin, μ = 0.4";
  scene.time_step = 2e-3;
  scene.duration = duration;
  scene.friction = 0.4;
  SplitMix64 rng(7);  // the jitter is part of the scene: every engine gets the same one
  for (int k = 0; k < 8; ++k) {
    for (int j = 0; j < 5; ++j) {
      for (int i = 0; i < 5; ++i) {
        const Eigen::Vector3d p(-0.22 + 0.11 * i + rng.Uniform(-0.005, 0.005),
                                -0.22 + 0.11 * j + rng.Uniform(-0.005, 0.005), 0.06 + 0.12 * k);
        scene.bodies.push_back(
            MakeBall("ball" + std::to_string(scene.bodies.size()), 0.05, 0.1, p));
      }
    }
  }
  scene.planes = {Ground(),
                  {-Eigen::Vector3d::UnitX(), -0.3},
                  {Eigen::Vector3d::UnitX(), -0.3},
                  {-Eigen::Vector3d::UnitY(), -0.3},
                  {Eigen::Vector3d::UnitY(), -0.3}};
  scene.figure = PeerFigure::kBinEscapes;
  scene.tolerance = 0;
  scene.settle_time = duration - 0.5;
  return scene;
}

// The slope is the ground with gravity tilted by 30° about y, so that every engine sees the
// same flat contact and the slide runs along +x.
PeerScene Incline(double mu, double duration) {
  PeerScene scene;
  const double theta = M_PI / 6;
  scene.name = mu < 0.6 ? "incline_mu0.5" : "incline_mu0.7";
  scene.description = "a 0.2 m, 1 kg cube on a 30° slope";
  scene.duration = duration;
  scene.friction = mu;
  scene.gravity = {kG * std::sin(theta), 0, -kG * std::cos(theta)};
  scene.bodies = {MakeBox("cube", Eigen::Vector3d::Constant(0.2), 1.0, {0, 0, 0.1})};
  scene.planes = {Ground()};
  scene.figure = PeerFigure::kSlideError;
  scene.tolerance = 0.01 * 0.3286 * duration * duration;  // 1 % of the μ = 0.5 slide
  const double a = std::max(0.0, kG * (std::sin(theta) - mu * std::cos(theta)));
  scene.analytic = 0.5 * a * duration * duration;
  return scene;
}

PeerScene MassRatio(double duration) {
  PeerScene scene;
  scene.name = "mass_ratio";
  scene.description = "a 10⁶ kg cube resting on a 1 kg cube (0.2 m each)";
  scene.duration = duration;
  scene.bodies = {MakeBox("light", Eigen::Vector3d::Constant(0.2), 1.0, {0, 0, 0.1}),
                  MakeBox("heavy", Eigen::Vector3d::Constant(0.2), 1e6, {0, 0, 0.3})};
  scene.planes = {Ground()};
  scene.figure = PeerFigure::kHeavyTopSag;
  scene.tolerance = 1e-3;
  return scene;
}

PeerScene RampedBall(double duration) {
  PeerScene scene;
  scene.name = "ball_torque";
  scene.description = "a ball (r 0.1 m, 1 kg) under a torque 1 N m/s · t: stick, roll, slip";
  scene.duration = duration;
  scene.bodies = {MakeBall("ball", 0.1, 1.0, {0, 0, 0.1})};
  scene.planes = {Ground()};
  scene.torque = PeerTorqueRamp{0, Eigen::Vector3d::UnitY(), 1.0};
  scene.figure = PeerFigure::kRollError;
  scene.analytic = RampedBallTravel(duration, 1.0, 0.1, scene.friction, kG, 1.0);
  scene.tolerance = 0.02 * scene.analytic;  // 2 %
  return scene;
}

PeerScene Chain(double duration) {
  PeerScene scene;
  scene.name = "chain";
  scene.description = "20 hinged links (0.1 m, 0.1 kg) released horizontal, swinging into a wall";
  scene.duration = duration;
  const double top = 2.5;
  for (int i = 0; i < 20; ++i) {
    scene.bodies.push_back(
        MakeBox("link" + std::to_string(i), {0.1, 0.02, 0.02}, 0.1, {0.05 + 0.1 * i, 0, top}));
    scene.hinges.push_back({i - 1, i, {0.1 * i, 0, top}, Eigen::Vector3d::UnitY()});
  }
  scene.planes = {Ground(), {Eigen::Vector3d::UnitX(), -0.4}};
  scene.bodies_collide = false;
  scene.figure = PeerFigure::kJointGap;
  scene.tolerance = 1e-3;
  return scene;
}

}  // namespace

int PeerScene::NumSteps() const {
  return static_cast<int>(std::lround(duration / time_step));
}

std::vector<PeerScene> MakePeerScenes(bool quick) {
  const double s = quick ? 0.25 : 1.0;  // quick runs a quarter of each horizon
  std::vector<PeerScene> scenes = {Stack(1e-3, 2 * s),  Stack(1e-2, 2 * s),  Bin(quick ? 0.5 : 2.0),
                                   Incline(0.5, 1 * s), Incline(0.7, 1 * s), MassRatio(1 * s),
                                   RampedBall(2 * s),   Chain(2 * s)};
  // Quick: the pivoting peers on the bin would each spend the full budget (7.6 min in all with
  // 60 s); 10 s times them as well, under the 5 minutes a quick run may take.
  if (quick) {
    for (PeerScene& scene : scenes) scene.wall_budget = 10;
  }
  return scenes;
}

double RampedBallTravel(double t, double mass, double radius, double mu, double g, double k) {
  // Rolling: m a = f, I α = τ − f R, a = α R with I = 2/5 m R² give a = 5 τ / (7 m R); with
  // τ = k t that integrates to x = 5 k t³ / (42 m R) until f = 5 τ / (7 R) reaches μ m g.
  const double t_slip = 7 * mu * mass * g * radius / (5 * k);
  const double ts = std::min(t, t_slip);
  const double x_roll = 5 * k * ts * ts * ts / (42 * mass * radius);
  if (t <= t_slip) return x_roll;
  const double v_slip = 5 * k * ts * ts / (14 * mass * radius);
  const double dt = t - t_slip;
  return x_roll + v_slip * dt + 0.5 * mu * g * dt * dt;
}

}  // namespace coulomb::peers
