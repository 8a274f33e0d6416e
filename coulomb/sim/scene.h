#pragma once
// A scene: everything a run needs (docs/DESIGN.md: the Model built from a scene file), as plain
// data. io/scene_file.h builds it from YAML; the C++ API can fill it directly.

#include <string>
#include <vector>

#include "coulomb/geometry/collision_world.h"
#include "coulomb/multibody/model.h"
#include "coulomb/sim/actuator.h"
#include "coulomb/sim/step.h"

namespace coulomb::sim {

// A mesh drawn on a body in the replay instead of its collision shapes (URDF <visual>).
struct VisualMesh {
  int body = 0;
  math::Transform X_BG;
  std::string file;  // any format of io/mesh_file.h, read when a replay is written
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  std::string color;  // "#rrggbb", "" for the viewer's default
};

struct Scene {
  std::string name;
  std::string source;  // the scene file, "" if built in code
  multibody::Model model;
  geometry::CollisionWorld world;
  std::vector<std::string> geometry_colors;    // per world geometry, "#rrggbb" (viewer only)
  std::vector<VisualMesh> visual_meshes;       // robots' visual meshes (viewer only)
  fem::DeformableModel deformables;            // FEM bodies (SAP only); initial.deformables
  std::vector<std::string> deformable_colors;  // per deformable body (viewer only)
  State initial;
  double time_step = 1e-3;  // s
  double duration = 1.0;    // s
  FormulationSettings settings;
  std::vector<Actuator> actuators;
  int record_every = 1;               // record a frame every N steps
  std::vector<std::string> warnings;  // e.g. URDF elements that were skipped
  // What loading decided for the user, said once at start: link pairs that overlap at the start
  // and were filtered, joints moved into their limits or onto their mimic leader.
  std::vector<std::string> notes;

  int NumSteps() const;
};

// "" when the scene can run (valid model and geometry, finite positive step and duration,
// state sizes), else the first problem in words naming the body, geometry or field.
std::string ValidateScene(const Scene& scene);

// "" when the scene's formulation enforces everything the model asks for; otherwise a sentence
// saying which joint limits and holonomic constraints it ignores (only SAP enforces them).
std::string ConstraintsIgnoredBy(const Scene& scene);

}  // namespace coulomb::sim
