#include "coulomb/io/scene_constraints.h"

#include "coulomb/multibody/dynamics.h"

namespace coulomb::io {
namespace {

// A body by name, or −1 for "world".
int BodyNamed(const Field& f, const sim::Scene& scene) {
  const std::string name = f.String();
  if (name == "world") return -1;
  const int body = scene.model.multibody.FindBody(name);
  if (body < 0) f.Fail("no body named '" + name + "' (or 'world')");
  return body;
}

int JointNamed(const Field& f, const sim::Scene& scene) {
  const std::string name = f.String();
  for (int b = 0; b < static_cast<int>(scene.model.multibody.bodies.size()); ++b) {
    const multibody::Body& body = scene.model.multibody.bodies[b];
    if (body.joint_name == name && multibody::VelocitySize(body.joint) == 1) return b;
  }
  f.Fail("no revolute or prismatic joint named '" + name + "'");
}

math::Transform PoseOf(const multibody::Data& data, int body) {
  return body < 0 ? math::Transform{} : data.X_world[body];
}

void ReadOne(const Field& f, const multibody::Data& data, sim::Scene& scene) {
  const std::string type = f["type"].String();
  if (type == "coupler") {
    f.CheckKeys({"type", "joint", "mimics", "multiplier", "offset"});
    multibody::JointCoupler c;
    c.body = JointNamed(f["joint"], scene);
    c.mimicked_body = JointNamed(f["mimics"], scene);
    if (c.body == c.mimicked_body) f["mimics"].Fail("a joint cannot mimic itself");
    c.multiplier = OptionalDouble(f, "multiplier", 1.0);
    c.offset = OptionalDouble(f, "offset", 0.0);
    scene.model.multibody.couplers.push_back(c);
  } else if (type == "weld") {
    f.CheckKeys({"type", "name", "body_a", "body_b"});
    multibody::WeldConstraint w;
    w.body_a = BodyNamed(f["body_a"], scene);
    w.body_b = BodyNamed(f["body_b"], scene);
    if (w.body_a == w.body_b) f["body_b"].Fail("a weld needs two different bodies");
    w.name = OptionalString(f, "name", f["body_a"].String() + "/" + f["body_b"].String());
    w.X_AB = PoseOf(data, w.body_a).Inverse() * PoseOf(data, w.body_b);
    scene.model.multibody.welds.push_back(w);
  } else if (type == "distance") {
    f.CheckKeys({"type", "name", "body_a", "point_a", "body_b", "point_b", "distance"});
    multibody::DistanceConstraint d;
    d.body_a = BodyNamed(f["body_a"], scene);
    d.body_b = BodyNamed(f["body_b"], scene);
    if (d.body_a == d.body_b) f["body_b"].Fail("a distance constraint needs two different bodies");
    d.name = OptionalString(f, "name", f["body_a"].String() + "/" + f["body_b"].String());
    d.p_A = OptionalVector3(f, "point_a", Eigen::Vector3d::Zero());
    d.p_B = OptionalVector3(f, "point_b", Eigen::Vector3d::Zero());
    const double initial =
        (PoseOf(data, d.body_b).Apply(d.p_B) - PoseOf(data, d.body_a).Apply(d.p_A)).norm();
    d.distance = f.Has("distance") ? f["distance"].DoubleIn(1e-9, 1e9) : initial;
    if (!(d.distance > 0)) f.Fail("the two points coincide: give a positive 'distance'");
    scene.model.multibody.distances.push_back(d);
  } else {
    f["type"].Fail("unknown constraint type '" + type + "' (coupler, weld, distance)");
  }
}

}  // namespace

void ReadSceneConstraints(const Field& list, sim::Scene& scene) {
  multibody::Data data = multibody::MakeData(scene.model.multibody);
  multibody::CalcForwardKinematics(scene.model.multibody, data, scene.initial.q, scene.initial.v);
  for (std::size_t i = 0; i < list.SequenceSize(); ++i) {
    list.At(i).RequireMap();
    ReadOne(list.At(i), data, scene);
  }
}

}  // namespace coulomb::io
