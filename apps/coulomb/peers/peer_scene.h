#pragma once
// The scenes of `coulomb bench peers`, defined once and handed unchanged to every engine
// (docs/notes/peers.md, rule 1). A scene is plain data: boxes and spheres with mass and
// initial state, static planes, hinges, an optional ramped torque. Each engine adapter builds
// its own model from it; nothing here knows any engine.
//
// Units SI; quaternions (w, x, y, z); every body's frame is at its centre of mass with its
// principal axes along the shape's axes (uniform density).

#include <Eigen/Dense>
#include <Eigen/Geometry>
#include <optional>
#include <string>
#include <vector>

#include "coulomb/geometry/shape.h"

namespace coulomb::peers {

struct PeerBody {
  std::string name;
  geometry::Shape shape;  // Box or Sphere
  double mass = 1;        // kg
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();          // m/s, world
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  // rad/s, world
};

// The static solid {x : n·x ≤ offset}; n is the outward unit normal.
struct PeerPlane {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double offset = 0;
};

// A revolute joint between `parent` (−1: the world) and `child`, defined in the initial
// configuration by a world anchor point and a world axis.
struct PeerHinge {
  int parent = -1, child = 0;
  Eigen::Vector3d anchor = Eigen::Vector3d::Zero();
  Eigen::Vector3d axis = Eigen::Vector3d::UnitY();
};

// A world torque on one body growing linearly in time: τ(t) = rate · t · axis.
struct PeerTorqueRamp {
  int body = 0;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitY();
  double rate = 0;  // N m/s
};

// What the scene's figure of merit measures (peer_measures.h computes each from the poses).
enum class PeerFigure {
  kStackDrift,   // largest displacement of any cube from its initial position, m
  kBinEscapes,   // spheres outside the bin at the end (count)
  kSlideError,   // |slide along x − analytic| at the end, m
  kRollError,    // |x(T) − analytic| of the torqued ball, m (stick → roll → slip)
  kHeavyTopSag,  // how far the heavy top cube sank, m
  kJointGap,     // largest gap in a hinge (maximal-coordinate engines drift), m
};

struct PeerScene {
  std::string name, description;
  double time_step = 1e-3, duration = 1;  // s
  Eigen::Vector3d gravity{0, 0, -9.81};   // m/s²
  double friction = 0.5;                  // μ of every pair, body–body and body–plane alike
  std::vector<PeerBody> bodies;
  std::vector<PeerPlane> planes;
  std::vector<PeerHinge> hinges;
  bool bodies_collide = true;  // false: bodies touch only the planes (the chain)
  std::optional<PeerTorqueRamp> torque;
  PeerFigure figure = PeerFigure::kStackDrift;
  double analytic = 0;      // the analytic value the figure is compared with, if any
  double tolerance = 0;     // the figure passes when it is at most this
  double settle_time = -1;  // s; ≥ 0: also time the steps after it separately
  double wall_budget = 60;  // s of wall time per run (a run setting, not physics)
  int NumSteps() const;
};

// The benchmark's scenes: stack (1 ms and 10 ms), bin, incline (μ 0.5 and 0.7), mass ratio,
// ball under a ramped torque, chain against a wall. `quick` shortens the runs (tests).
std::vector<PeerScene> MakePeerScenes(bool quick);

// The analytic trajectory of a ball (mass m, radius R, I = 2/5 m R²) on a plane under a torque
// growing as k t about a horizontal axis: it rolls until friction reaches μ m g at
// t_s = 7 μ m g R / (5 k), then slips with acceleration μ g. Returns the travel x(t), m.
double RampedBallTravel(double t, double mass, double radius, double mu, double g, double k);

}  // namespace coulomb::peers
