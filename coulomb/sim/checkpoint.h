#pragma once
// A run paused at a step boundary: everything the step loop carries from one step to the next
// that changes what later steps compute, so that a run resumed from it continues bit-identically
// to the run that never stopped (both summaries give the same state_hash; a test pins it for the
// arch and for every formulation). It keeps what the formulation carries (its descriptor's
// save_carry: SAP's lagged Hessian factor, as the matrix it was made from, refactored on resume,
// because later steps precondition with it). What it leaves
// out is speed only: the symbolic analyses (SAP's, the cone's KLU one, functions of the
// sparsity pattern) and Data::step (contact scratch, the last report), which the first
// resumed step rebuilds with the same result.
// io/checkpoint_file.h writes it to a versioned, checksummed file and reads it back.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/sim/scene.h"
#include "coulomb/sim/simulate.h"

namespace coulomb::sim {

// The run's summary so far and the sums its means are computed from.
struct RunTally {
  RunSummary summary;
  double contacts_sum = 0, iterations_sum = 0, factorizations_sum = 0, step_seconds_sum = 0;
  double linearizations_sum = 0;
};

struct RunCheckpoint {
  int steps_done = 0;
  double initial_time = 0;  // s, the run's first time: the clock is initial_time + steps · h
  double time_step = 0;     // s
  std::string formulation;  // Formulation::name of the run
  Eigen::VectorXd q, v;
  // The warm start of the next step (warm_start.h): last step's contacts and impulses.
  std::vector<PersistentContact> contacts;
  std::vector<fem::FemState> deformables;  // x, v and R0 (the corotated rotations) per body
  // What the formulation carries that later steps depend on (SAP's lagged factor: later steps
  // precondition CG with it, so their iterates depend on it).
  FormulationCarry carried;
  RunTally tally;
};

// The checkpoint of a run of `model` at `data` (its state, clock and lagged factor).
RunCheckpoint MakeCheckpoint(const Model& model, const Data& data, const RunTally& tally);

// "" when `checkpoint` continues `scene` (the same time step, formulation and sizes of q, v and
// of every deformable body, a clock that agrees with its step count); else what differs, in
// words.
std::string CheckResumable(const Scene& scene, const RunCheckpoint& checkpoint);

}  // namespace coulomb::sim
