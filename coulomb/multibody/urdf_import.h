#pragma once
// URDF import through urdfdom (Debian liburdfdom-dev, BSD): links become bodies, joints their
// joints (revolute, continuous → revolute without limits, prismatic, fixed, floating), with
// inertials, limits, damping; collision geometry is collected for the geometry layer;
// `<mimic>` joints become coupler constraints (never silently dropped). Every element we do not
// support gives one warning naming it; `strict` turns warnings into errors. Malformed files,
// unknown joint types, moving links without `<inertial>` and meshes that cannot be found are
// errors naming the element.

#include <map>
#include <string>
#include <vector>

#include "coulomb/base/error.h"
#include "coulomb/multibody/model.h"

namespace coulomb::multibody {

struct UrdfOptions {
  // package://NAME/rest → map[NAME]/rest; a package the map does not name is looked for at and
  // above the URDF's folder (a package.xml naming it, or a folder of its name). Relative mesh
  // paths resolve against the URDF's folder.
  std::map<std::string, std::string> package_map;
  bool floating_base = false;  // attach the root link with a floating joint instead of welding it
  bool strict = false;         // warnings become errors
};

struct CollisionGeometry {
  enum class Shape { kBox, kSphere, kCylinder, kMesh };
  int body = 0;
  Shape shape = Shape::kBox;
  Eigen::Vector3d size =
      Eigen::Vector3d::Zero();  // box: full extents; sphere: (r); cylinder: (r, length)
  std::string mesh_path;        // resolved absolute path (meshes)
  Eigen::Vector3d mesh_scale = Eigen::Vector3d::Ones();
  Transform X_BG;     // geometry frame in the body frame
  std::string color;  // "#rrggbb" of a visual's <material><color>, "" if none
};

struct UrdfImport {
  Model model;
  std::vector<CollisionGeometry> collisions;
  // <visual> meshes whose file exists (for the HTML replay; never for contact). A visual mesh
  // that is absent is not an error: corpora often ship collision meshes only.
  std::vector<CollisionGeometry> visual_meshes;
  std::vector<JointCoupler> couplers;
  std::vector<std::string> warnings;
  std::string robot_name;
};

Expected<UrdfImport> ReadUrdf(const std::string& path, const UrdfOptions& options = {});
// `origin` names the source in messages; relative meshes resolve against `base_dir`.
Expected<UrdfImport> ParseUrdf(const std::string& xml, const std::string& origin,
                               const std::string& base_dir, const UrdfOptions& options = {});

}  // namespace coulomb::multibody
