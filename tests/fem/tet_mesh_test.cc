// Tetrahedral meshes: the generated box against exact volume and boundary counts, the three file
// readers against each other and against known geometry (files from data/), and bad
// input named down to the element.
#include "coulomb/fem/tet_mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "coulomb/io/tet_mesh_file.h"
#include "tests/support/build_paths.h"

namespace coulomb {
namespace {

const std::string kMeshes = std::string(coulomb::testing::DataDir()) + "/meshes/";

TEST(TetMesh, BoxMeshHasExactVolumeAndAClosedBoundary) {
  const fem::TetMesh mesh = fem::MakeBoxMesh(Eigen::Vector3d(0.5, 0.25, 0.1), {4, 3, 2});
  EXPECT_EQ(mesh.num_tets(), 6 * 24);
  EXPECT_EQ(mesh.num_vertices(), 5 * 4 * 3);
  EXPECT_EQ(fem::ValidateTetMesh(mesh), "");
  EXPECT_NEAR(fem::TotalVolume(mesh), 1.0 * 0.5 * 0.2, 1e-15);
  const std::vector<Eigen::Vector3i> faces = fem::BoundaryFaces(mesh);
  EXPECT_EQ(faces.size(), 2u * 2 * (4 * 3 + 3 * 2 + 2 * 4));  // two triangles per surface quad
  // Outward orientation: the divergence theorem gives the volume back, ∮ x n dA / 3.
  double volume = 0;
  for (const Eigen::Vector3i& f : faces) {
    const Eigen::Vector3d a = mesh.vertices.col(f[0]), b = mesh.vertices.col(f[1]),
                          c = mesh.vertices.col(f[2]);
    volume += a.dot(b.cross(c)) / 6;
  }
  EXPECT_NEAR(volume, 0.1, 1e-14);
}

// Red refinement splits every element into 8 positively oriented ones of equal volume (1/8 of
// their parent's), keeps the total volume, and shares edge midpoints across elements.
TEST(TetMesh, RefinementSplitsEveryElementIntoEightAndKeepsTheVolume) {
  const fem::TetMesh coarse = fem::MakeBoxMesh(Eigen::Vector3d(0.5, 0.5, 0.5), {2, 2, 2});
  const fem::TetMesh fine = fem::RefineTetMesh(coarse);
  EXPECT_EQ(fine.num_tets(), 8 * coarse.num_tets());
  EXPECT_EQ(fem::ValidateTetMesh(fine), "");
  EXPECT_NEAR(fem::TotalVolume(fine), 1.0, 1e-14);
  for (int e = 0; e < coarse.num_tets(); ++e) {
    for (int k = 0; k < 8; ++k) {
      EXPECT_NEAR(fem::SignedVolume(fine, 8 * e + k), fem::SignedVolume(coarse, e) / 8, 1e-15);
    }
  }
  // Every edge midpoint of the 2³-cell box (cell edges, face and main diagonals) is a point of
  // the 4³-cell grid, each created once: 5³ vertices. The surface is closed and twice as fine.
  EXPECT_EQ(fine.num_vertices(), 125);
  EXPECT_EQ(fem::BoundaryFaces(fine).size(), 4 * fem::BoundaryFaces(coarse).size());
}

// The radially mapped ball and cylinder are valid meshes whose volumes converge to 4/3 π R³ and
// π R² L from below (inscribed facets), and whose boundary vertices lie on the surface.
TEST(TetMesh, BallAndCylinderConvergeToTheirVolumes) {
  const double R = 0.1, L = 0.3;
  double previous_ball = 0, previous_cylinder = 0;
  for (const int n : {2, 4, 8}) {
    const fem::TetMesh ball = fem::MakeBallMesh(R, n);
    const fem::TetMesh cylinder = fem::MakeCylinderMesh(R, L, n, 3);
    EXPECT_EQ(fem::ValidateTetMesh(ball), "") << n;
    EXPECT_EQ(fem::ValidateTetMesh(cylinder), "") << n;
    const double vb = fem::TotalVolume(ball), vc = fem::TotalVolume(cylinder);
    EXPECT_LT(vb, 4.0 / 3 * std::numbers::pi * R * R * R);
    EXPECT_GT(vb, previous_ball);
    EXPECT_LT(vc, std::numbers::pi * R * R * L);
    EXPECT_GT(vc, previous_cylinder);
    previous_ball = vb;
    previous_cylinder = vc;
    for (const Eigen::Vector3i& f : fem::BoundaryFaces(ball)) {
      EXPECT_NEAR(ball.vertices.col(f[0]).norm(), R, 1e-12);
    }
  }
  EXPECT_NEAR(previous_ball, 4.0 / 3 * std::numbers::pi * R * R * R, 0.02 * previous_ball);
  EXPECT_NEAR(previous_cylinder, std::numbers::pi * R * R * L, 0.01 * previous_cylinder);
}

TEST(TetMesh, InvertedAndDegenerateElementsAreNamed) {
  fem::TetMesh mesh = fem::MakeBoxMesh(Eigen::Vector3d::Ones(), {1, 1, 1});
  std::swap(mesh.tets(0, 4), mesh.tets(1, 4));
  EXPECT_NE(fem::ValidateTetMesh(mesh).find("element 4 is inverted"), std::string::npos)
      << fem::ValidateTetMesh(mesh);
  EXPECT_EQ(fem::OrientPositively(mesh), 1);
  mesh.vertices.col(mesh.tets(3, 2)) = mesh.vertices.col(mesh.tets(0, 2));  // collapse
  EXPECT_NE(fem::ValidateTetMesh(mesh).find("degenerate"), std::string::npos);
  mesh.tets(2, 5) = 99;
  EXPECT_NE(fem::ValidateTetMesh(mesh).find("element 5 refers to vertex 99"), std::string::npos);
}

TEST(TetMeshFile, GmshCubeIsTheUnitCube) {
  const auto file = io::ReadTetMeshFile(kMeshes + "ipc/tetMeshes/cube.msh");
  ASSERT_TRUE(std::filesystem::exists(kMeshes)) << "missing from data/";
  ASSERT_TRUE(file.ok()) << file.error().ToString();
  EXPECT_EQ(file.value().mesh.num_vertices(), 8);
  EXPECT_EQ(file.value().mesh.num_tets(), 6);
  EXPECT_NEAR(fem::TotalVolume(file.value().mesh), 1.0, 1e-12);
}

// sfepy ships the same cylinder as Medit and as VTK: the two readers must agree, and the
// volume must be that of the inscribed polygonal cylinder.
TEST(TetMeshFile, MeditAndVtkCylindersAgree) {
  ASSERT_TRUE(std::filesystem::exists(kMeshes)) << "missing from data/";
  const auto medit = io::ReadTetMeshFile(kMeshes + "sfepy/cylinder.mesh");
  const auto vtk = io::ReadTetMeshFile(kMeshes + "sfepy/cylinder.vtk");
  ASSERT_TRUE(medit.ok()) << medit.error().ToString();
  ASSERT_TRUE(vtk.ok()) << vtk.error().ToString();
  EXPECT_EQ(medit.value().mesh.num_tets(), 1348);
  EXPECT_EQ(vtk.value().mesh.num_tets(), 1348);
  EXPECT_LT((medit.value().mesh.vertices - vtk.value().mesh.vertices).cwiseAbs().maxCoeff(), 1e-6);
  const double v_medit = fem::TotalVolume(medit.value().mesh);
  EXPECT_NEAR(fem::TotalVolume(vtk.value().mesh), v_medit, 1e-9 * v_medit);
  // Bounding box → radius and length; the polygonal section is slightly below π r².
  const Eigen::Vector3d lo = medit.value().mesh.vertices.rowwise().minCoeff();
  const Eigen::Vector3d hi = medit.value().mesh.vertices.rowwise().maxCoeff();
  const double length = hi.x() - lo.x(), radius = 0.5 * (hi.y() - lo.y());
  const double cylinder = std::numbers::pi * radius * radius * length;
  EXPECT_LT(v_medit, cylinder);
  EXPECT_GT(v_medit, 0.9 * cylinder);
}

TEST(TetMeshFile, Gmsh22FromTextWithSurfaceElementsSkipped) {
  const std::string text = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
4
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
$EndNodes
$Elements
2
1 2 2 0 1 1 2 3
2 4 2 0 1 1 3 2 4
$EndElements
)";
  const auto file = io::ParseTetMesh(text, "msh", "inline.msh");
  ASSERT_TRUE(file.ok()) << file.error().ToString();
  EXPECT_EQ(file.value().skipped_elements, 1);
  EXPECT_EQ(file.value().reoriented, 1);  // (1, 3, 2, 4) is negatively oriented
  EXPECT_NEAR(fem::TotalVolume(file.value().mesh), 1.0 / 6, 1e-15);
}

TEST(TetMeshFile, BadFilesNameTheLineOrElement) {
  const auto truncated =
      io::ParseTetMesh("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0", "msh", "cut.msh");
  ASSERT_FALSE(truncated.ok());
  EXPECT_NE(truncated.error().ToString().find("cut.msh"), std::string::npos);
  const auto flat = io::ParseTetMesh(
      "MeshVersionFormatted 1\nDimension 3\nVertices\n4\n0 0 0 0\n1 0 0 0\n0 1 0 0\n1 1 0 0\n"
      "Tetrahedra\n1\n1 2 3 4 0\nEnd\n",
      "mesh", "flat.mesh");
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.error().ToString().find("element 0 is degenerate"), std::string::npos)
      << flat.error().ToString();
  const auto range = io::ParseTetMesh(
      "# vtk DataFile Version 2.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 4 float\n"
      "0 0 0 1 0 0 0 1 0 0 0 1\nCELLS 1 5\n4 0 1 2 7\nCELL_TYPES 1\n10\n",
      "vtk", "range.vtk");
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.error().ToString().find(":8"), std::string::npos) << range.error().ToString();
}

}  // namespace
}  // namespace coulomb
