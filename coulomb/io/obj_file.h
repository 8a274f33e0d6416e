#pragma once
// Wavefront OBJ surface meshes (ASCII): `v` vertices and `f` faces. Face corners may carry
// texture and normal indices (v/vt/vn), which are ignored; negative indices count back from the
// last vertex; polygons are split into a fan of triangles. Other records (vn, vt, o, g, s, l,
// usemtl, mtllib) carry nothing collision needs and are skipped. A malformed number or an index
// out of range is an error naming the file and the line.

#include <Eigen/Dense>
#include <array>
#include <string>
#include <vector>

#include "coulomb/base/error.h"

namespace coulomb::io {

struct SurfaceMesh {
  std::vector<Eigen::Vector3d> vertices;
  std::vector<std::array<int, 3>> triangles;  // 0-based
};

Expected<SurfaceMesh> ReadObjFile(const std::string& path);
// The same from text; `origin` names the source in errors.
Expected<SurfaceMesh> ParseObj(const std::string& text, const std::string& origin);

}  // namespace coulomb::io
