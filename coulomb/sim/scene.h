#pragma once
// A scene: a Model, the state it starts from, how long it runs and how it looks — everything a
// run needs, as plain data. io/scene_file.h builds it from YAML; the C++ API can fill it directly.

#include <string>
#include <vector>

#include "coulomb/sim/data.h"
#include "coulomb/sim/model.h"

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
  Model model;
  State initial;          // one FemState per model.deformables body
  double duration = 1.0;  // s
  int record_every = 1;   // record a frame every N steps
  // Appearance (viewer only).
  std::vector<std::string> geometry_colors;    // per world geometry, "#rrggbb"
  std::vector<VisualMesh> visual_meshes;       // robots' visual meshes
  std::vector<std::string> deformable_colors;  // per deformable body
  std::vector<std::string> warnings;           // e.g. URDF elements that were skipped
  // What loading decided for the user, said once at start: link pairs that overlap at the start
  // and were filtered, joints moved into their limits or onto their mimic leader.
  std::vector<std::string> notes;

  int NumSteps() const;
};

// "" when the scene can run (valid model and geometry, finite positive step and duration,
// state sizes), else the first problem in words naming the body, geometry or field.
std::string ValidateScene(const Scene& scene);

// "" when the scene's formulation enforces everything the model asks for; otherwise a sentence
// saying which holonomic constraints and joint friction it ignores (only SAP enforces them;
// every formulation enforces joint limits and mimic couplers within a tree).
std::string ConstraintsIgnoredBy(const Scene& scene);

}  // namespace coulomb::sim
