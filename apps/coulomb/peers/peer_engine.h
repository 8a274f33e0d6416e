#pragma once
// One engine × solver of `coulomb bench peers`: a function from a PeerScene to the poses it
// produced and what it cost. Adapters (one file per engine) are compiled only when the engine's
// Debian package is installed; without it the registry lists the engine as not installed.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "apps/coulomb/peers/peer_scene.h"

namespace coulomb::peers {

// Every body's world pose and velocity at one instant.
struct PeerFrame {
  double time = 0;
  std::vector<Eigen::Vector3d> position;
  std::vector<Eigen::Quaterniond> orientation;
  std::vector<Eigen::Vector3d> velocity, angular_velocity;  // world
};

struct PeerRun {
  bool ok = true;
  std::string message;               // why the run failed or was skipped
  std::vector<PeerFrame> frames;     // the initial state, then one per step
  std::vector<double> step_seconds;  // wall time of each step call, s
  double iterations = 0;             // mean solver iterations per step (−1: not reported)
  double contacts = 0;               // mean contact points per step
  int failures = 0;                  // steps that failed or fell back to another solver
  bool stopped = false;              // the wall-time budget ran out before the scene's end
};

struct PeerEngine {
  std::string engine;    // "coulomb", "ode", …
  std::string solver;    // "sap", "quickstep", …
  std::string version;   // library version, or "" when not installed
  std::string settings;  // iteration budget, tolerance, stabilisation, cone: printed beside times
  bool installed = true;
  std::function<PeerRun(const PeerScene&)> run;
};

// The mean of a per-step total over the steps the run took.
double PerStep(const PeerRun& run, double total);

// True once the run's steps have used the scene's wall-time budget (and marks the run stopped):
// a dense pivoting solver on the 200-sphere bin may need minutes per simulated second.
bool BudgetSpent(const PeerScene& scene, PeerRun& run);

// What one step of an engine reports.
struct StepOutcome {
  int contacts = 0;
  double iterations = 0;
  bool failed = false;  // did not converge, or fell back to another solver
};

// The stepping loop every adapter shares: before each step `push` receives the scene's ramped
// torque (world frame, at the step's start time; not called without one); `step` advances one
// δt and is the only part timed; `read` gives the frame at the step's end time. Stops at the
// scene's end or its wall-time budget; fills frames (after the one already there), step times,
// failures, and the mean contacts and iterations per step.
void RunSteps(const PeerScene& scene, PeerRun& run,
              const std::function<void(const Eigen::Vector3d&)>& push,
              const std::function<StepOutcome()>& step,
              const std::function<PeerFrame(double)>& read);

// Appends the frame of a run with the given per-body state; adapters use it after each step.
PeerFrame MakeFrame(double time, std::size_t num_bodies);

// The registry: Coulomb's formulations first, then each peer (installed or not).
std::vector<PeerEngine> CoulombEngines();
std::vector<PeerEngine> OdeEngines();
std::vector<PeerEngine> BulletEngines();
std::vector<PeerEngine> MujocoEngines();
std::vector<PeerEngine> DartEngines();
std::vector<PeerEngine> AllPeerEngines();

}  // namespace coulomb::peers
