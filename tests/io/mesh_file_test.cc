// Mesh files in the formats robots are published with, each written here by hand from its
// format's definition (binary STL: 80-byte header, count, 50 bytes a facet; COLLADA 1.4's
// <unit> and <up_axis>), so the expected vertices follow from the file, not from the reader.

#include "coulomb/io/mesh_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "coulomb/geometry/mass_properties.h"
#include "coulomb/io/scene_shapes.h"

namespace coulomb::io {
namespace {

using Vertices = std::vector<Eigen::Vector3d>;

// The unit right tetrahedron: corners at the origin and at e_x, e_y, e_z (volume 1/6).
const Vertices kTetra = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
const int kTetraFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

std::string TempPath(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("coulomb_mesh_file_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string Write(const std::string& name, const std::string& bytes) {
  const std::string path = TempPath(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string BinaryStl(const Vertices& v, double scale) {
  std::string out(80, ' ');
  const std::uint32_t count = 4;
  out.append(reinterpret_cast<const char*>(&count), 4);
  for (const auto& face : kTetraFaces) {
    const float normal[3] = {0, 0, 0};  // readers recompute normals; zero is allowed
    out.append(reinterpret_cast<const char*>(normal), 12);
    for (const int c : face) {
      const float p[3] = {static_cast<float>(scale * v[c].x()),
                          static_cast<float>(scale * v[c].y()),
                          static_cast<float>(scale * v[c].z())};
      out.append(reinterpret_cast<const char*>(p), 12);
    }
    out.append(2, '\0');  // attribute byte count
  }
  return out;
}

std::string AsciiStl(const Vertices& v) {
  std::string out = "solid tetra\n";
  for (const auto& face : kTetraFaces) {
    out += " facet normal 0 0 0\n  outer loop\n";
    for (const int c : face) {
      out += "   vertex " + std::to_string(v[c].x()) + " " + std::to_string(v[c].y()) + " " +
             std::to_string(v[c].z()) + "\n";
    }
    out += "  endloop\n endfacet\n";
  }
  return out + "endsolid tetra\n";
}

// COLLADA 1.4 with one triangle list; `unit` metres per file unit, `up` "Y_UP" or "Z_UP".
std::string Collada(const Vertices& v, double unit, const std::string& up) {
  std::string positions;
  for (const Eigen::Vector3d& p : v) {
    positions +=
        std::to_string(p.x()) + " " + std::to_string(p.y()) + " " + std::to_string(p.z()) + " ";
  }
  std::string indices;
  for (const auto& face : kTetraFaces) {
    for (const int c : face) indices += std::to_string(c) + " ";
  }
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="u" meter=")" +
         std::to_string(unit) + R"("/><up_axis>)" + up + R"(</up_axis></asset>
  <library_geometries>
    <geometry id="g" name="g"><mesh>
      <source id="g-pos">
        <float_array id="g-pos-array" count="12">)" +
         positions + R"(</float_array>
        <technique_common><accessor source="#g-pos-array" count="4" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common>
      </source>
      <vertices id="g-vtx"><input semantic="POSITION" source="#g-pos"/></vertices>
      <triangles count="4"><input semantic="VERTEX" source="#g-vtx" offset="0"/><p>)" +
         indices + R"(</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="s"><node id="n"><instance_geometry url="#g"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
)";
}

// Every expected corner is among the mesh's vertices (readers may merge or reorder them).
void ExpectCorners(const SurfaceMesh& mesh, const Vertices& expected, double tolerance) {
  EXPECT_EQ(mesh.triangles.size(), 4u);
  for (const Eigen::Vector3d& e : expected) {
    double nearest = 1e300;
    for (const Eigen::Vector3d& p : mesh.vertices) nearest = std::min(nearest, (p - e).norm());
    EXPECT_LT(nearest, tolerance) << "no vertex at " << e.transpose();
  }
}

TEST(MeshFile, ReadsBinaryAndAsciiStlAsMetres) {
  const Expected<SurfaceMesh> binary = ReadMeshFile(Write("tetra.stl", BinaryStl(kTetra, 1.0)));
  ASSERT_TRUE(binary.ok()) << binary.error().ToString();
  ExpectCorners(binary.value(), kTetra, 1e-7);
  const Expected<SurfaceMesh> ascii = ReadMeshFile(Write("tetra_ascii.STL", AsciiStl(kTetra)));
  ASSERT_TRUE(ascii.ok()) << ascii.error().ToString();
  ExpectCorners(ascii.value(), kTetra, 1e-6);
}

TEST(MeshFile, AppliesColladaUnitAndKeepsZUp) {
  // Millimetres, Z up: a 1000 mm corner is 1 m along the same axis.
  const Expected<SurfaceMesh> mm = ReadMeshFile(
      Write("tetra_mm.dae",
            Collada({{0, 0, 0}, {1000, 0, 0}, {0, 1000, 0}, {0, 0, 1000}}, 0.001, "Z_UP")));
  ASSERT_TRUE(mm.ok()) << mm.error().ToString();
  ExpectCorners(mm.value(), kTetra, 1e-9);
}

TEST(MeshFile, TurnsAColladaYUpFileToZUp) {
  // A Y_UP file's "up" corner (0, 2, 0) is 2 m above the ground in a Z-up world; its +Z (toward
  // the viewer) becomes −Y (x stays, y → z, z → −y).
  const Expected<SurfaceMesh> y_up = ReadMeshFile(
      Write("tetra_yup.dae", Collada({{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {0, 0, 3}}, 1.0, "Y_UP")));
  ASSERT_TRUE(y_up.ok()) << y_up.error().ToString();
  ExpectCorners(y_up.value(), {{0, 0, 0}, {1, 0, 0}, {0, 0, 2}, {0, -3, 0}}, 1e-9);
}

TEST(MeshFile, ConvexHullOfAnStlHasTheClosedFormVolumeWithScale) {
  // URDF's <mesh scale> multiplies per axis: the tetrahedron scaled (2, 3, 4) has volume 24/6.
  const Expected<geometry::Shape> hull = LoadMeshShape(
      Write("tetra_scaled.stl", BinaryStl(kTetra, 1.0)), Eigen::Vector3d(2, 3, 4), true);
  ASSERT_TRUE(hull.ok()) << hull.error().ToString();
  EXPECT_NEAR(geometry::ShapeVolume(hull.value()), 4.0, 1e-9);
}

TEST(MeshFile, BadFilesAreErrorsNamingTheFile) {
  const std::string garbage = Write("garbage.stl", std::string(200, '\x7f'));
  const Expected<SurfaceMesh> bad = ReadMeshFile(garbage);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().ToString().find(garbage), std::string::npos) << bad.error().ToString();

  const std::string empty = Write("empty.stl", "");
  EXPECT_FALSE(ReadMeshFile(empty).ok());

  // A binary STL whose count promises more facets than the file holds.
  std::string cut = BinaryStl(kTetra, 1.0);
  const std::uint32_t many = 1000;
  std::memcpy(cut.data() + 80, &many, 4);
  EXPECT_FALSE(ReadMeshFile(Write("cut.stl", cut)).ok());

  const Expected<SurfaceMesh> unknown = ReadMeshFile(Write("part.xyz123", "1 2 3\n"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().reason.find(".xyz123"), std::string::npos)
      << unknown.error().ToString();

  const Expected<SurfaceMesh> missing = ReadMeshFile(TempPath("no_such_mesh.stl"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().ToString().find("no_such_mesh.stl"), std::string::npos);

  EXPECT_FALSE(ReadMeshFile(Write("no_facets.stl", "solid none\nendsolid none\n")).ok());
}

}  // namespace
}  // namespace coulomb::io
