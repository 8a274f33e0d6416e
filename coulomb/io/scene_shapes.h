#pragma once
// Collision shapes in scene files (docs/scene-format.md, "Shapes"): the primitives, `mesh` (the
// convex hull of a mesh file) and `trimesh` (a mesh surface as static geometry), and the same
// mesh loading for URDF collision meshes.

#include <Eigen/Dense>
#include <string>

#include "coulomb/base/error.h"
#include "coulomb/geometry/shape.h"
#include "coulomb/io/yaml_fields.h"

namespace coulomb::io {

// One entry of a body's `shapes:` list; mesh files resolve against `base_dir`. Throws
// ParseFailure naming the field on bad input.
geometry::Shape ReadShape(const Field& f, const std::string& base_dir);

// A mesh file (mesh_file.h: OBJ, STL, COLLADA…) scaled per axis: its convex hull (`convex`) or
// its triangles as they are.
Expected<geometry::Shape> LoadMeshShape(const std::string& path, const Eigen::Vector3d& scale,
                                        bool convex);

}  // namespace coulomb::io
