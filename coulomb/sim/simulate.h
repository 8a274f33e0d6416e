#pragma once
// Running a scene: the step loop with actuation, per-step statistics, recorded frames and the
// run summary. The loop is deterministic: the same scene and binary give bit-identical states.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "coulomb/sim/scene.h"
#include "coulomb/sim/step.h"

namespace coulomb::sim {

struct ContactRecord {
  int body_a = 0, body_b = -1;  // rigid bodies (−1 world); a deformable contact has body_a −2
  Eigen::Vector3d point, normal;
  double phi = 0;
  Eigen::Vector3d impulse;        // (n, t, o) components, N s
  Eigen::Vector3d impulse_world;  // the same impulse in world coordinates, N s
};

struct Frame {
  double time = 0;
  Eigen::VectorXd q, v;
  std::vector<ContactRecord> contacts;  // of the step that starts at this frame
  // Vertex positions of each deformable body, m; single precision is ample for viewing and
  // halves the size of long recordings.
  std::vector<Eigen::Matrix3Xf> deformables;
};

struct StepRecord {
  int step = 0;
  double time = 0;  // at the start of the step, s
  int contacts = 0;
  LcpStatus status = LcpStatus::kSolved;
  int iterations = 0;
  double residual = 0;
  double max_penetration = 0;  // m
  ContactMetrics metrics;
  StepProfile profile;  // s
};

struct Recording {
  std::vector<Frame> frames;
  std::vector<StepRecord> steps;
};

struct RunSummary {
  std::string scene, formulation, solver;
  int steps = 0;
  double sim_time = 0, wall_seconds = 0, mean_step_us = 0, max_step_us = 0;
  double max_penetration = 0;  // m
  int failed_steps = 0;        // steps whose solver did not certify its answer
  std::string first_failure;   // the first failed step's message
  std::string solver_switch;   // the first step that ran another solver than asked, and why
  // "" when every step ran; otherwise why the run stopped early (a state that is no longer
  // finite: continuing would only spread NaN through every later frame).
  std::string stopped;
  int max_contacts = 0;
  double mean_contacts = 0, mean_iterations = 0;
  double mean_factorizations = 0;  // SAP: Newton Hessians factored per step (the rest reused)
  double mean_linearizations = 0;  // deformable bodies: coupled solves per step (StepReport)
  int unsupported_pairs = 0;       // the most in any step
  ContactMetrics worst;            // the largest of each accuracy measure over all steps
  // J: kinetic + gravitational, and elastic for deformable bodies.
  double initial_energy = 0, final_energy = 0;
  int max_participating_dofs = 0;  // deformable DoFs in SAP's cliques, the most in any step
  std::uint64_t state_hash = 0;    // FNV-1a of the final q, v and vertex state (determinism checks)
};

// Called after every step with (steps done, total); return false to stop early.
using ProgressCallback = std::function<bool(int, int)>;

struct RunCheckpoint;  // checkpoint.h

// Checkpoints and resuming (checkpoint.h).
struct RunControl {
  // Continue this run instead of starting from scene.initial (CheckResumable must accept it):
  // steps, failures, maxima and means of the summary are those of the whole run.
  const RunCheckpoint* resume = nullptr;
  int checkpoint_every = 0;        // steps between checkpoints; 0: none on the way
  bool checkpoint_at_end = false;  // also after the last step (or where progress stopped it)
  // Receives each checkpoint; returns "" or why it could not be kept. A checkpoint that cannot
  // be kept stops the run (RunSummary::stopped): going on would lose what the user asked to keep.
  std::function<std::string(const RunCheckpoint&)> on_checkpoint;
  // The threads the step runs on (sim::Data::workers): the answer is the same for any number.
  int threads = 1;
};

// Runs scene.NumSteps() steps from scene.initial, or from control.resume to the same end.
// `recording` may be null; a resumed run records from the checkpoint on.
RunSummary Simulate(const Scene& scene, Recording* recording,
                    const ProgressCallback& progress = nullptr, const RunControl& control = {});

std::uint64_t HashState(const Eigen::VectorXd& q, const Eigen::VectorXd& v);
std::uint64_t HashState(const State& state);  // q, v and every deformable body's x and v

}  // namespace coulomb::sim
