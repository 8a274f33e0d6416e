#pragma once
// Everything a run of a Model changes (docs/DESIGN.md, "Model and Data"): the state, the clock,
// the dynamics caches, the warm starts, every workspace of the step and the last step's report.
// One Data belongs to one run and one calling thread at a time (its `workers` are its own); a
// Model is shared by any number of them.
// A copy of a Data steps on exactly as the original would (its SAP factor is refactored from the
// matrix it was made from).

#include <Eigen/Dense>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "coulomb/base/thread_pool.h"
#include "coulomb/contact/contact_problem.h"
#include "coulomb/fem/fem_model.h"
#include "coulomb/formulations/formulation.h"
#include "coulomb/geometry/collision_world.h"
#include "coulomb/multibody/model.h"
#include "coulomb/sim/model.h"
#include "coulomb/sim/step_report.h"
#include "coulomb/sim/warm_start.h"

namespace coulomb::sim {

// The state a step advances: what a checkpoint stores and what the state hash covers (with the
// clock of Data).
struct State {
  Eigen::VectorXd q, v;
  double time = 0;  // s
  // Last step's contacts and impulses: the next step's warm start (warm_start.h).
  std::vector<PersistentContact> contacts;
  std::vector<fem::FemState> deformables;  // one per DeformableModel body
};

// The neutral configuration at rest, at t = 0.
State MakeRestState(const multibody::Model& model);

// What a step reuses from the last one, so that a warm step allocates as little as it can.
struct StepWorkspace {
  std::vector<double> reach;
  geometry::SpeculativeMotion motion;
  geometry::CollisionScratch collision;
  geometry::ContactDetection detection;
  contact::ContactProblem problem;
  ContactSolution solution;
  Eigen::VectorXd warm_start;
  Eigen::VectorXd tau;                        // nv: the step's generalized forces
  std::vector<contact::JointDrive> drives;    // the step's implicit PD drives
  std::vector<Eigen::VectorXd> deformable_v;  // the coupled solve's FEM velocities
  Eigen::Matrix3Xd deformable_warm_start;     // per deformable contact, world frame, N s
  // J̇v's second detection along the motion (formulations that ask for it, step.cc).
  struct VelocityRate {
    Eigen::VectorXd q, zero_tau, u_now, u_later;
    geometry::ContactDetection moved;
    geometry::ContactSet matched;
    std::vector<int> index;
    contact::ContactProblem later;
  } velocity_rate;
};

struct Data {
  State state;
  // The clock: state.time = start_time + steps · h, written by Step alone (a running sum of h
  // drifts: 1000 × 1e-3 s ≠ 1 s in floating point).
  double start_time = 0;  // s
  std::int64_t steps = 0;
  multibody::Data multibody;         // kinematics and dynamics caches
  FormulationWorkspace formulation;  // what the formulation keeps between steps
  StepWorkspace step;
  StepReport report;  // the last step's (Step returns it by reference)
  // The threads the step's parallel stages run on (one: none besides the caller's). Any number
  // gives the same answer, bit for bit (docs/determinism.md); a copy has threads of its own.
  ThreadPool workers;
};

// A Data at `initial`, its clock starting at initial.time, with room for
// EstimateContactCapacity(model) contacts (ReserveContacts).
Data MakeData(const Model& model, const State& initial);

// How many contacts a Data makes room for up front: kContactsPerMovingGeometry per collision
// geometry on a body, which covers a pile of spheres (about 3 each) and boxes resting face to
// face (4 per face, two faces shared per box) at rest.
inline constexpr int kContactsPerMovingGeometry = 4;
int EstimateContactCapacity(const Model& model);

// Makes room in `data` for steps of up to `contacts` contacts (every buffer sized per contact:
// detection, the contact problem, warm starts, the formulation's workspace, the report), so that
// they allocate nothing, as MuJoCo sizes its arena when it makes its data. A step with more
// contacts still runs: its buffers grow, each to twice its size.
void ReserveContacts(const Model& model, Data& data, int contacts);

// "" when `state` can be stepped by `model`: sizes, finite q, v and time, unit quaternions
// (|‖quat‖ − 1| ≤ 1e-3) and finite FEM vertices; else the first problem, naming the field and the
// joint or body ("q[3:7], the quaternion of joint 'base' (body 'box'), has norm 0").
std::string ValidateState(const Model& model, const State& state);

// The first entry of `values` that is not finite, as "name[i] = nan"; "" when all are.
std::string FirstNonFinite(const Eigen::Ref<const Eigen::VectorXd>& values, std::string_view name);

}  // namespace coulomb::sim
