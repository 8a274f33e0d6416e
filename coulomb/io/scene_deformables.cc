#include "coulomb/io/scene_deformables.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "coulomb/io/tet_mesh_file.h"
#include "coulomb/multibody/dynamics.h"

namespace coulomb::io {
namespace {

fem::TetMesh ReadMesh(const Field& f, const std::string& base_dir) {
  f.RequireMap();
  const std::string type = f["type"].String();
  if (type == "box") {
    f.CheckKeys({"type", "size", "cells"});
    const Eigen::Vector3d size = f["size"].Vector3();
    if (!(size.array() > 0).all()) f["size"].Fail("box size must be positive (m)");
    const Eigen::Vector3d cells = f.Has("cells") ? f["cells"].Vector3() : Eigen::Vector3d(4, 4, 4);
    if (!(cells.array() >= 1).all() || !(cells.array() <= 200).all()) {
      f["cells"].Fail("cells per axis must be within 1..200");
    }
    return fem::MakeBoxMesh(size / 2, cells.cast<int>());
  }
  if (type == "ball") {
    f.CheckKeys({"type", "radius", "resolution"});
    return fem::MakeBallMesh(f["radius"].DoubleIn(1e-6, 1e3),
                             f.Has("resolution") ? f["resolution"].Int(1, 100) : 4);
  }
  if (type == "cylinder") {
    f.CheckKeys({"type", "radius", "length", "radial", "axial"});
    return fem::MakeCylinderMesh(f["radius"].DoubleIn(1e-6, 1e3), f["length"].DoubleIn(1e-6, 1e3),
                                 f.Has("radial") ? f["radial"].Int(1, 100) : 4,
                                 f.Has("axial") ? f["axial"].Int(1, 200) : 4);
  }
  if (type == "file") {
    f.CheckKeys({"type", "path", "scale", "refine"});
    const std::filesystem::path p(f["path"].String());
    const std::string path =
        p.is_absolute() ? p.string() : (std::filesystem::path(base_dir) / p).string();
    Expected<TetMeshFile> file = ReadTetMeshFile(path);
    if (!file.ok()) f["path"].Fail(file.error().ToString());
    fem::TetMesh mesh = std::move(file.value().mesh);
    mesh.vertices *= f.Has("scale") ? f["scale"].DoubleIn(1e-9, 1e9) : 1.0;
    const int refine = f.Has("refine") ? f["refine"].Int(0, 4) : 0;
    for (int k = 0; k < refine; ++k) mesh = fem::RefineTetMesh(mesh);
    return mesh;
  }
  f["type"].Fail("unknown mesh type '" + type + "' (box, ball, cylinder, file)");
}

// The vertices of `x` inside the world box {min, max}; at least one, or a failure.
std::vector<int> VerticesIn(const Field& f, const Eigen::Matrix3Xd& x) {
  f.CheckKeys({"min", "max", "body", "axes"});
  const Eigen::Vector3d lo = f["min"].Vector3(), hi = f["max"].Vector3();
  std::vector<int> out;
  for (int a = 0; a < x.cols(); ++a) {
    if ((x.col(a).array() >= lo.array()).all() && (x.col(a).array() <= hi.array()).all()) {
      out.push_back(a);
    }
  }
  if (out.empty()) f.Fail("no vertex of the body lies inside this box (world frame, m)");
  return out;
}

void ReadAttachments(const Field& list, const multibody::Data& data, int d, sim::Scene& scene) {
  const Eigen::Matrix3Xd& x = scene.initial.deformables[d].x;
  for (std::size_t i = 0; i < list.SequenceSize(); ++i) {
    const Field f = list.At(i);
    f.RequireMap();
    const std::string name = f["body"].String();
    if (name == "world") {  // held in place: Dirichlet vertices
      std::vector<int>& fixed = scene.model.deformables.bodies[d].fixed_vertices;
      for (const int a : VerticesIn(f, x)) fixed.push_back(a);
      std::sort(fixed.begin(), fixed.end());
      fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
      for (const int a : fixed) scene.initial.deformables[d].v.col(a).setZero();
      continue;
    }
    const int body = scene.model.multibody.FindBody(name);
    if (body < 0) {
      f["body"].Fail("no moving rigid body named '" + name +
                     "' (fixed bodies are part of the world: use 'world')");
    }
    const math::Transform X_BW = data.X_world[body].Inverse();
    for (const int a : VerticesIn(f, x)) {
      scene.model.deformables.attachments.push_back({d, a, body, X_BW.Apply(x.col(a))});
    }
  }
}

void ReadOne(const Field& f, const std::string& base_dir, const multibody::Data& data,
             sim::Scene& scene) {
  f.CheckKeys({"name", "mesh", "position", "orientation", "velocity", "material", "youngs_modulus",
               "poisson_ratio", "mooney_rivlin", "density", "mass", "mass_damping",
               "stiffness_damping", "friction", "color", "fixed", "attach"});
  const int d = static_cast<int>(scene.model.deformables.bodies.size());
  fem::LinearElasticity material;
  material.youngs_modulus = OptionalDouble(f, "youngs_modulus", material.youngs_modulus);
  material.poisson_ratio = OptionalDouble(f, "poisson_ratio", material.poisson_ratio);
  fem::FemBody body =
      fem::MakeFemBody(OptionalString(f, "name", fmt::format("deformable{}", d)),
                       ReadMesh(f["mesh"], base_dir), material, OptionalDouble(f, "density", 1000));
  // Place the mesh: its rest shape is the placed one (an unstressed body at t = 0).
  const Eigen::Matrix3d R = OptionalRotation(f, "orientation");
  const Eigen::Vector3d p = OptionalVector3(f, "position", Eigen::Vector3d::Zero());
  body.rest.vertices = (R * body.rest.vertices).colwise() + p;
  body.tets = fem::MakeLinearTets(body.rest);
  if (f.Has("material")) {
    const auto model = fem::ParseMaterialModel(f["material"].String());
    if (!model) f["material"].Fail("unknown material (corotated, neohookean, mooney_rivlin)");
    body.model = *model;
  }
  if (body.model == fem::MaterialModel::kMooneyRivlin) {
    if (!f.Has("mooney_rivlin"))
      f.Fail("material mooney_rivlin needs mooney_rivlin: {c1, c2, bulk_modulus}");
    const Field m = f["mooney_rivlin"];
    m.CheckKeys({"c1", "c2", "bulk_modulus", "mean_dilatation"});
    body.mooney_rivlin = {OptionalDouble(m, "c1", 0), OptionalDouble(m, "c2", 0),
                          m["bulk_modulus"].Double()};
    body.mean_dilatation = m.Has("mean_dilatation") && m["mean_dilatation"].Bool();
    if (body.mean_dilatation &&
        body.rest.cells.size() != static_cast<std::size_t>(body.rest.num_tets())) {
      m["mean_dilatation"].Fail("needs hexahedral cells: a box, ball or cylinder mesh");
    }
  }
  if (f.Has("mass")) {
    const std::string mass = f["mass"].String();
    if (mass != "lumped" && mass != "consistent")
      f["mass"].Fail("mass is 'lumped' or 'consistent'");
    body.consistent_mass = mass == "consistent";
  }
  body.mass_damping = OptionalDouble(f, "mass_damping", 0);
  body.stiffness_damping = OptionalDouble(f, "stiffness_damping", 0);
  body.friction = OptionalDouble(f, "friction", 0.5);
  body.gravity = scene.model.multibody.gravity;
  if (f.Has("fixed")) {
    const Field fixed = f["fixed"];
    const std::vector<int> vertices = VerticesIn(fixed, body.rest.vertices);
    const std::string axes = OptionalString(fixed, "axes", "xyz");
    if (axes.empty() || axes.find_first_not_of("xyz") != std::string::npos) {
      fixed["axes"].Fail("axes is a subset of 'xyz' (the world components held still)");
    }
    if (axes.find('x') != std::string::npos && axes.find('y') != std::string::npos &&
        axes.find('z') != std::string::npos) {
      body.fixed_vertices = vertices;
    } else {
      for (const int a : vertices) {
        for (const char axis : axes) body.fixed_dofs.push_back(3 * a + (axis - 'x'));
      }
    }
  }
  if (std::string defect = fem::ValidateFemBody(body); !defect.empty()) f.Fail(defect);
  fem::FemState state = fem::MakeRestState(body);
  state.v.colwise() = OptionalVector3(f, "velocity", Eigen::Vector3d::Zero());
  for (const int a : body.fixed_vertices) state.v.col(a).setZero();
  for (const int dof : body.fixed_dofs) state.v(dof % 3, dof / 3) = 0;
  scene.model.deformables.bodies.push_back(std::move(body));
  scene.initial.deformables.push_back(std::move(state));
  scene.deformable_colors.push_back(OptionalString(f, "color", "#e07a9a"));
  if (f.Has("attach")) ReadAttachments(f["attach"], data, d, scene);
}

}  // namespace

void ReadSceneDeformables(const Field& list, const std::string& base_dir, sim::Scene& scene) {
  multibody::Data data = multibody::MakeData(scene.model.multibody);
  multibody::CalcForwardKinematics(scene.model.multibody, data, scene.initial.q, scene.initial.v);
  for (std::size_t i = 0; i < list.SequenceSize(); ++i) {
    list.At(i).RequireMap();
    ReadOne(list.At(i), base_dir, data, scene);
  }
}

}  // namespace coulomb::io
