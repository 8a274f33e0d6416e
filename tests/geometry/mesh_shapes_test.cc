// Convex meshes and static triangle meshes: hull, mass properties, contacts and point queries,
// each checked against the analytic primitive the mesh reproduces (a mesh cube is a Box).

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "coulomb/base/random.h"
#include "coulomb/geometry/box_box.h"
#include "coulomb/geometry/mass_properties.h"
#include "coulomb/geometry/narrow_phase.h"
#include "coulomb/geometry/point_query.h"
#include "coulomb/io/obj_file.h"
#include "coulomb/io/scene_shapes.h"
#include "tests/support/build_paths.h"
#include "tests/support/stacked_cubes.h"

namespace coulomb::geometry {
namespace {

const std::string kMeshes = std::string(coulomb::testing::DataDir()) + "/meshes/ipc/triMeshes/";

Transform At(const Eigen::Vector3d& p, const Eigen::Matrix3d& R = Eigen::Matrix3d::Identity()) {
  return {R, p};
}

Eigen::Matrix3d RandomRotation(SplitMix64& rng) {
  Eigen::Quaterniond q(rng.Normal(), rng.Normal(), rng.Normal(), rng.Normal());
  return q.normalized().toRotationMatrix();
}

// The corners of a box with half extents h as a point cloud (the hull is the box itself).
ConvexMesh MeshBox(const Eigen::Vector3d& h) {
  std::vector<Eigen::Vector3d> corners;
  for (int c = 0; c < 8; ++c) {
    corners.emplace_back((c & 1 ? 1 : -1) * h.x(), (c & 2 ? 1 : -1) * h.y(),
                         (c & 4 ? 1 : -1) * h.z());
  }
  corners.push_back(Eigen::Vector3d::Zero());  // an interior point the hull must drop
  Expected<ConvexMesh> mesh = MakeConvexMesh(corners, "test box");
  EXPECT_TRUE(mesh.ok()) << mesh.error().ToString();
  return mesh.value();
}

TEST(ConvexMesh, HullOfABoxHasSixQuadFacesAndTheBoxMassProperties) {
  const Eigen::Vector3d h(0.3, 0.2, 0.1);
  const ConvexMesh mesh = MeshBox(h);
  EXPECT_EQ(mesh.data->vertices.size(), 8u);
  ASSERT_EQ(mesh.data->faces.size(), 6u);
  for (std::size_t f = 0; f < 6; ++f) {
    EXPECT_EQ(mesh.data->faces[f].size(), 4u);
    // Counter-clockwise about the outward normal.
    const auto& face = mesh.data->faces[f];
    const Eigen::Vector3d& a = mesh.data->vertices[face[0]];
    const Eigen::Vector3d n =
        (mesh.data->vertices[face[1]] - a).cross(mesh.data->vertices[face[2]] - a).normalized();
    EXPECT_GT(n.dot(mesh.data->normals[f]), 0.999);
  }
  const Box box{h};
  EXPECT_NEAR(ShapeVolume(mesh), ShapeVolume(box), 1e-15);
  EXPECT_LT(ShapeCentroid(mesh).norm(), 1e-15);
  EXPECT_TRUE(UnitRotationalInertia(mesh).isApprox(UnitRotationalInertia(box), 1e-12));
}

TEST(ConvexMesh, OffCentreMeshHasItsCentroidAndCentralInertia) {
  // A unit cube from the origin to (1, 1, 1): centroid (½, ½, ½), central inertia 1/6 per kg.
  Expected<io::SurfaceMesh> obj = io::ReadObjFile(kMeshes + "cube.obj");
  ASSERT_TRUE(obj.ok()) << obj.error().ToString();
  std::vector<Eigen::Vector3d> shifted = obj.value().vertices;
  for (Eigen::Vector3d& v : shifted) v += Eigen::Vector3d(0.5, 0.5, 0.5) - Eigen::Vector3d::Zero();
  Expected<ConvexMesh> mesh = MakeConvexMesh(shifted, "cube");
  ASSERT_TRUE(mesh.ok());
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();
  for (const Eigen::Vector3d& v : shifted) centre += v / static_cast<double>(shifted.size());
  EXPECT_TRUE(ShapeCentroid(mesh.value()).isApprox(centre, 1e-12));
  const double side = (mesh.value().data->bounds.sizes()).x();
  EXPECT_NEAR(ShapeVolume(mesh.value()), side * side * side, 1e-12);
  EXPECT_TRUE(UnitRotationalInertia(mesh.value())
                  .isApprox(side * side / 6 * Eigen::Matrix3d::Identity(), 1e-12));
}

TEST(ConvexMesh, SphereMeshVolumeApproachesTheBallsFromBelow) {
  Expected<Shape> shape =
      io::LoadMeshShape(kMeshes + "sphere1K.obj", Eigen::Vector3d::Ones(), true);
  ASSERT_TRUE(shape.ok()) << shape.error().ToString();
  const ConvexMeshData& m = *std::get<ConvexMesh>(shape.value()).data;
  double radius = 0;
  for (const Eigen::Vector3d& v : m.vertices) radius = std::max(radius, v.norm());
  const double ball = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  EXPECT_LT(m.volume, ball);
  EXPECT_GT(m.volume, 0.98 * ball);
}

TEST(ConvexMesh, DegenerateInputIsAnError) {
  Expected<ConvexMesh> flat =
      MakeConvexMesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 0}}, "flat.obj");
  ASSERT_FALSE(flat.ok());
  EXPECT_NE(flat.error().ToString().find("flat.obj"), std::string::npos);
  EXPECT_NE(flat.error().reason.find("no volume"), std::string::npos);
  EXPECT_FALSE(MakeConvexMesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "three").ok());
  EXPECT_FALSE(MakeConvexMesh({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, NAN}}, "nan").ok());
}

TEST(ConvexMesh, RestingOnAHalfSpaceGivesTheFaceCorners) {
  const ConvexMesh mesh = MeshBox({0.3, 0.2, 0.1});
  std::vector<ContactPoint> out;
  ASSERT_EQ(Collide(mesh, At({1, 2, 0.1 - 1e-4}), HalfSpace{}, At({0, 0, 0}), 1e-6, out), 4);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, -1e-4, 1e-15);
    EXPECT_TRUE(c.normal.isApprox(Eigen::Vector3d::UnitZ()));
  }
}

// A mesh box against a box must give what the analytic box–box routine gives: the same
// deepest φ and normal (unless the analytic routine prefers a face to a slightly shallower edge
// axis), and the same number of points when faces rest on faces.
TEST(ConvexMesh, MeshBoxAgainstBoxAgreesWithTheAnalyticRoutine) {
  SplitMix64 rng(7);
  const Eigen::Vector3d ha(0.3, 0.2, 0.1), hb(0.25, 0.25, 0.15);
  const ConvexMesh mesh = MeshBox(ha);
  int compared = 0, face_preferred = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Transform X_A =
        At({rng.Uniform(-0.2, 0.2), rng.Uniform(-0.2, 0.2), 0.3}, RandomRotation(rng));
    const Transform X_B = At(Eigen::Vector3d::Zero(), RandomRotation(rng));
    std::vector<ContactPoint> analytic, general;
    CollideBoxes(Box{ha}, X_A, Box{hb}, X_B, 0.0, analytic);
    Collide(mesh, X_A, Box{hb}, X_B, 0.0, general);
    ASSERT_EQ(analytic.empty(), general.empty()) << "trial " << trial;
    if (analytic.empty()) continue;
    ++compared;
    double deepest_a = INFINITY, deepest_g = INFINITY;
    for (const ContactPoint& c : analytic) deepest_a = std::min(deepest_a, c.phi);
    for (const ContactPoint& c : general) deepest_g = std::min(deepest_g, c.phi);
    if (general[0].normal.dot(analytic[0].normal) > 0.999) {
      EXPECT_NEAR(deepest_g, deepest_a, 1e-6 + 1e-3 * std::abs(deepest_a)) << "trial " << trial;
      continue;
    }
    // Otherwise the analytic routine preferred a face (separation s_f < 0) to an edge axis s_e
    // with s_e ≤ s_f + 0.05 |s_f| + 0.02 · 0.1 (5 % of the face's depth + 2 % of the smallest half
    // extent), i.e. s_f ≥ (s_e − 0.002) / 0.95. The general path's EPA depth is the least
    // penetration s_e, so it bounds the face's from above, and the face's deepest point is no
    // deeper than s_f.
    ++face_preferred;
    const Eigen::Vector3d& n = analytic[0].normal;
    bool face_normal = false;
    for (int k = 0; k < 3; ++k) {
      face_normal = face_normal || std::abs(n.dot(X_A.R.col(k))) > 1 - 1e-12 ||
                    std::abs(n.dot(X_B.R.col(k))) > 1 - 1e-12;
    }
    EXPECT_TRUE(face_normal) << "trial " << trial;
    EXPECT_LE(deepest_a, deepest_g + 1e-6) << "trial " << trial;
    EXPECT_GE(deepest_a, (deepest_g - 0.02 * 0.1) / 0.95 - 1e-6) << "trial " << trial;
  }
  EXPECT_GT(compared, 40);
  EXPECT_LT(face_preferred, compared / 4);
  // Face on face: the mesh box sitting flat on the box, slightly sunk, touches at 4 corners.
  std::vector<ContactPoint> flat;
  ASSERT_EQ(Collide(mesh, At({0.05, 0, 0.25 - 1e-3}), Box{hb}, At({0, 0, 0}), 0.0, flat), 4);
  for (const ContactPoint& c : flat) {
    EXPECT_NEAR(c.phi, -1e-3, 1e-9);
    EXPECT_TRUE(c.normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-9));
  }
}

// The clutter's two stacked cubes as convex meshes (tests/support/stacked_cubes.h): EPA's least
// penetration lies on an edge axis, 1.9° from the upper cube's face normal, within the 2° at which
// the general path builds a face manifold; so the meshes get the four points the analytic routine
// now gives, whether one or both cubes are meshes.
TEST(ConvexMesh, TiltedYawedMeshCubesKeepTheirFaceManifold) {
  const Eigen::Vector3d h = Eigen::Vector3d::Constant(testing::kStackedCubeHalfExtent);
  const ConvexMesh mesh = MeshBox(h);
  const Transform lower = testing::LowerStackedCube(), upper = testing::UpperStackedCube();
  std::vector<ContactPoint> both, one;
  Collide(mesh, upper, mesh, lower, 0.02, both);
  testing::ExpectStackedCubeFaceManifold(both);
  Collide(mesh, upper, Box{h}, lower, 0.02, one);
  testing::ExpectStackedCubeFaceManifold(one);
}

TEST(ConvexMesh, SphereAgainstMeshBoxMatchesTheBoxSignedDistance) {
  SplitMix64 rng(11);
  const Eigen::Vector3d h(0.3, 0.2, 0.1);
  const ConvexMesh mesh = MeshBox(h);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Vector3d centre(rng.Uniform(-0.5, 0.5), rng.Uniform(-0.4, 0.4),
                                 rng.Uniform(-0.3, 0.3));
    std::vector<ContactPoint> analytic, general;
    Collide(Sphere{0.1}, At(centre), Box{h}, At({0, 0, 0}), 0.05, analytic);
    Collide(Sphere{0.1}, At(centre), mesh, At({0, 0, 0}), 0.05, general);
    ASSERT_EQ(analytic.size(), general.size()) << "trial " << trial;
    if (analytic.empty()) continue;
    EXPECT_NEAR(general[0].phi, analytic[0].phi, 1e-6) << "trial " << trial;
    EXPECT_GT(general[0].normal.dot(analytic[0].normal), 0.9999) << "trial " << trial;
  }
}

TEST(ConvexMesh, PointQueryMatchesTheBox) {
  SplitMix64 rng(3);
  const Eigen::Vector3d h(0.3, 0.2, 0.1);
  const ConvexMesh mesh = MeshBox(h);
  for (int trial = 0; trial < 200; ++trial) {
    const Eigen::Vector3d p(rng.Uniform(-0.6, 0.6), rng.Uniform(-0.4, 0.4), rng.Uniform(-0.3, 0.3));
    const PointQuery box = QueryPoint(Box{h}, p), general = QueryPoint(mesh, p);
    EXPECT_NEAR(general.phi, box.phi, 1e-12);
    EXPECT_TRUE(general.closest.isApprox(box.closest, 1e-9));
  }
}

TEST(GeneralConvex, CylinderLyingOnABoxAndStandingOnASphere) {
  // Axis along x, 2 mm into the top face of a box whose top is at z = 0.
  const Eigen::Matrix3d along_x =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitY()).toRotationMatrix();
  std::vector<ContactPoint> out;
  ASSERT_GE(Collide(Cylinder{0.1, 0.2}, At({0, 0, 0.098}, along_x), Box{{1, 1, 0.5}},
                    At({0, 0, -0.5}), 1e-3, out),
            1);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, -0.002, 1e-6);
    EXPECT_GT(c.normal.z(), 0.9999);
  }
  // Standing on a sphere of radius 0.5: the cap's centre touches the top, 1 cm above.
  out.clear();
  ASSERT_EQ(Collide(Cylinder{0.1, 0.2}, At({0, 0, 0.71}), Sphere{0.5}, At({0, 0, 0}), 0.02, out),
            1);
  EXPECT_NEAR(out[0].phi, 0.01, 1e-6);
  EXPECT_GT(out[0].normal.z(), 0.9999);
  out.clear();
  EXPECT_EQ(Collide(Cylinder{0.1, 0.2}, At({0, 0, 0.75}), Sphere{0.5}, At({0, 0, 0}), 0.02, out),
            0);
}

Expected<Shape> Obj(const std::string& file, bool convex, double scale = 1.0) {
  return io::LoadMeshShape(kMeshes + file, Eigen::Vector3d::Constant(scale), convex);
}

TEST(TriangleMesh, BoxRestsOnAFloorOfManyTrianglesOnItsCorners) {
  // internal_edges.obj: a slab whose top (y = 0.5) is cut into triangles meeting inside the
  // face. A box resting on it must get exactly its four corners, all pushing straight up.
  Expected<Shape> floor = Obj("erleben/internal_edges.obj", false);
  ASSERT_TRUE(floor.ok()) << floor.error().ToString();
  const Eigen::Matrix3d y_up =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitX()).toRotationMatrix();
  const Transform X_floor = At({0, 0, 0}, y_up);  // the file's +y becomes world +z
  const Box box{{0.2, 0.2, 0.1}};
  SplitMix64 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::Vector3d p(rng.Uniform(-0.7, 0.7), rng.Uniform(-0.7, 0.7), 0.6 - 1e-4);
    const Eigen::Matrix3d yaw =
        Eigen::AngleAxisd(rng.Uniform(0, 3), Eigen::Vector3d::UnitZ()).toRotationMatrix();
    std::vector<ContactPoint> out;
    Collide(box, At(p, yaw), floor.value(), X_floor, 1e-6, out);
    int corners = 0;
    for (const ContactPoint& c : out) {
      EXPECT_TRUE(c.normal.isApprox(Eigen::Vector3d::UnitZ(), 1e-9)) << "trial " << trial;
      EXPECT_NEAR(c.phi, -1e-4, 1e-9);
      const Eigen::Vector3d local = yaw.transpose() * (c.witness_a - p);
      corners +=
          std::abs(std::abs(local.x()) - 0.2) < 1e-9 && std::abs(std::abs(local.y()) - 0.2) < 1e-9;
    }
    EXPECT_EQ(corners, 4) << "trial " << trial;
  }
}

TEST(TriangleMesh, SphereOverACliffEdgeIsPushedAwayFromTheEdge) {
  // cliff.obj is a frustum: top face |x|, |z| ≤ 0.5 at y = 0.5, sides sloping out to 0.75 at
  // y = −0.5. A sphere beyond the top edge at x = 0.5 touches that edge and is pushed along the
  // line from the edge to its centre (a direction between the two faces' normals).
  Expected<Shape> cliff = Obj("erleben/cliff.obj", false);
  ASSERT_TRUE(cliff.ok()) << cliff.error().ToString();
  const Eigen::Vector3d centre(0.56, 0.56, 0.0);  // 6 cm out and up from the edge (0.5, 0.5)
  std::vector<ContactPoint> out;
  ASSERT_GE(Collide(Sphere{0.1}, At(centre), cliff.value(), At({0, 0, 0}), 1e-3, out), 1);
  const Eigen::Vector3d expected = Eigen::Vector3d(1, 1, 0).normalized();
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, std::sqrt(2 * 0.06 * 0.06) - 0.1, 1e-6);
    EXPECT_GT(c.normal.dot(expected), 0.9999);
  }
}

TEST(TriangleMesh, PointQueryOnAClosedCubeMatchesTheBox) {
  Expected<Shape> cube = Obj("cube.obj", false);  // the unit cube from 0 to 1
  ASSERT_TRUE(cube.ok());
  SplitMix64 rng(9);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Vector3d p(rng.Uniform(-1, 2), rng.Uniform(-1, 2), rng.Uniform(-1, 2));
    const PointQuery box = QueryPoint(Box{{0.5, 0.5, 0.5}}, p - Eigen::Vector3d(0.5, 0.5, 0.5));
    const PointQuery mesh = QueryPoint(cube.value(), p);
    EXPECT_NEAR(std::abs(mesh.phi), std::abs(box.phi), 1e-12);
    if (box.phi > 1e-9) {
      EXPECT_GT(mesh.phi, 0);
    }
  }
}

TEST(ObjFile, ParsesPolygonsAndNegativeIndicesAndNamesTheBadLine) {
  Expected<io::SurfaceMesh> quad = io::ParseObj(
      "# a quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 -1//1\n", "q");
  ASSERT_TRUE(quad.ok()) << quad.error().ToString();
  ASSERT_EQ(quad.value().triangles.size(), 2u);
  EXPECT_EQ(quad.value().triangles[1], (std::array<int, 3>{0, 2, 3}));
  Expected<io::SurfaceMesh> bad = io::ParseObj("v 0 0 0\nv 1 0 0\nv 1 x 0\n", "bad.obj");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().line, 3);
  EXPECT_NE(bad.error().ToString().find("bad.obj:3"), std::string::npos);
  Expected<io::SurfaceMesh> range = io::ParseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "r.obj");
  ASSERT_FALSE(range.ok());
  EXPECT_NE(range.error().reason.find("1..3"), std::string::npos);
  EXPECT_FALSE(io::ReadObjFile(kMeshes + "no_such_file.obj").ok());
  Expected<Shape> missing =
      io::LoadMeshShape(kMeshes + "no_such_part.stl", Eigen::Vector3d::Ones(), true);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().ToString().find("no_such_part.stl"), std::string::npos);
}

}  // namespace
}  // namespace coulomb::geometry
