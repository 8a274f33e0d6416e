#pragma once
// What a simulation is made of, fixed once built (docs/DESIGN.md, "Model and Data"): the bodies
// and joints, their collision geometry, the FEM bodies, the actuators, the time step and the
// formulation with its settings. Nothing in a Model changes while it is stepped, so any number of
// Datas (threads, sweeps, Python) step one Model at once; everything that changes is in the Data
// (data.h).

#include <vector>

#include "coulomb/fem/deformable_model.h"
#include "coulomb/formulations/formulation.h"
#include "coulomb/geometry/collision_world.h"
#include "coulomb/multibody/model.h"
#include "coulomb/sim/actuator.h"

namespace coulomb::sim {

struct Model {
  multibody::Model multibody;        // bodies, joints, limits, couplers, welds
  geometry::CollisionWorld world;    // collision geometry on those bodies and the world
  fem::DeformableModel deformables;  // FEM bodies (under a formulation that supports them)
  std::vector<Actuator> actuators;   // motors and PD controllers on joints
  double time_step = 1e-3;           // s, the one h of every stage
  FormulationSettings settings;      // which formulation steps it, and with what settings
};

}  // namespace coulomb::sim
