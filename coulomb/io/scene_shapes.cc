#include "coulomb/io/scene_shapes.h"

#include <fmt/format.h>

#include <filesystem>

#include "coulomb/io/mesh_file.h"

namespace coulomb::io {
namespace {

// `scale: 0.1` or `scale: [sx, sy, sz]` (each positive).
Eigen::Vector3d ReadScale(const Field& f) {
  if (!f.Has("scale")) return Eigen::Vector3d::Ones();
  const Field s = f["scale"];
  Eigen::Vector3d scale = s.node.IsSequence() ? s.Vector3() : Eigen::Vector3d::Constant(s.Double());
  if (!(scale.minCoeff() > 0)) s.Fail("every scale factor must be positive");
  return scale;
}

geometry::Shape ReadMesh(const Field& f, const std::string& base_dir, bool convex) {
  f.CheckKeys({"type", "file", "scale", "position", "orientation", "material", "friction",
               "restitution", "compliance", "color"});
  const std::string file = f["file"].String();
  const std::filesystem::path p(file);
  const std::string path = p.is_absolute() ? file : (std::filesystem::path(base_dir) / p).string();
  Expected<geometry::Shape> shape = LoadMeshShape(path, ReadScale(f), convex);
  if (!shape.ok()) f["file"].Fail(shape.error().ToString());
  return shape.value();
}

}  // namespace

geometry::Shape ReadShape(const Field& f, const std::string& base_dir) {
  const std::string type = f["type"].String();
  if (type == "mesh" || type == "trimesh") return ReadMesh(f, base_dir, type == "mesh");
  if (type == "box") {
    f.CheckKeys({"type", "size", "position", "orientation", "material", "friction", "restitution",
                 "compliance", "color"});
    const Eigen::Vector3d size = f["size"].Vector3();
    if (!(size.minCoeff() > 0)) f["size"].Fail("every extent must be positive (m)");
    return geometry::Box{0.5 * size};
  }
  f.CheckKeys({"type", "radius", "length", "position", "orientation", "material", "friction",
               "restitution", "compliance", "color"});
  if (type == "halfspace") return geometry::HalfSpace{};
  const double radius = f["radius"].DoubleIn(1e-9, 1e9);
  if (type == "sphere") return geometry::Sphere{radius};
  const double length = f["length"].DoubleIn(0, 1e9);
  if (type == "capsule") return geometry::Capsule{radius, 0.5 * length};
  if (type == "cylinder") return geometry::Cylinder{radius, 0.5 * length};
  f["type"].Fail(fmt::format(
      "unknown shape '{}' (box, sphere, capsule, cylinder, halfspace, mesh, trimesh)", type));
}

Expected<geometry::Shape> LoadMeshShape(const std::string& path, const Eigen::Vector3d& scale,
                                        bool convex) {
  Expected<SurfaceMesh> file = ReadMeshFile(path);
  if (!file.ok()) return file.error();
  std::vector<Eigen::Vector3d> vertices = file.value().vertices;
  for (Eigen::Vector3d& v : vertices) v = v.cwiseProduct(scale);
  if (convex) {
    Expected<geometry::ConvexMesh> mesh = geometry::MakeConvexMesh(vertices, path);
    if (!mesh.ok()) return mesh.error();
    return geometry::Shape(mesh.value());
  }
  Expected<geometry::TriangleMesh> mesh =
      geometry::MakeTriangleMesh(vertices, file.value().triangles, path);
  if (!mesh.ok()) return mesh.error();
  return geometry::Shape(mesh.value());
}

}  // namespace coulomb::io
