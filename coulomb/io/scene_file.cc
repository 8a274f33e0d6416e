#include "coulomb/io/scene_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "coulomb/geometry/mass_properties.h"
#include "coulomb/io/scene_constraints.h"
#include "coulomb/io/scene_deformables.h"
#include "coulomb/io/scene_initial_state.h"
#include "coulomb/io/scene_settings.h"
#include "coulomb/io/scene_shapes.h"
#include "coulomb/io/scene_urdf.h"
#include "coulomb/io/text_file.h"
#include "coulomb/io/yaml_fields.h"
#include "coulomb/multibody/urdf_import.h"

namespace coulomb::io {
namespace {

using math::Transform;
using multibody::Body;
using multibody::JointType;

struct Material {
  double friction = 0.5, restitution = 0, compliance = 0;
};

// What a body name refers to while reading: a model body, or static geometry fixed in the world.
struct BodyRef {
  int body = -1;  // −1 for static bodies
  Transform X_WB;
};

struct SceneReader {
  sim::Scene scene;
  std::string base_dir;
  std::map<std::string, Material> materials;
  std::map<std::string, BodyRef> bodies;
  std::vector<std::pair<int, Field>> initial_values;  // (body, value field) for 1-DoF joints
  std::vector<std::pair<int, Field>> initial_rates;   // (body, initial_velocity) for 1-DoF joints
  // Collision groups of robots without self-collision: one bit each (bit 0 is everything else).
  std::map<int, std::uint32_t> group_of_body;
  int next_group_bit = 1;

  void Read(const Field& root);
  void ReadMaterials(const Field& list);
  void ReadBody(const Field& body);
  void ReadBodyArray(const Field& body);
  void ReadUrdf(const Field& entry);
  std::pair<int, std::uint32_t> ReadMount(const Field& entry, bool floating_base);
  void ReadActuator(const Field& entry);
  void ReadCollisionFilter(const Field& filter);
  std::vector<std::pair<geometry::Shape, Transform>> ReadShapes(const Field& body, int owner,
                                                                const Transform& X_WB);
  Material ShapeMaterial(const Field& shape) const;
  std::string ResolvePath(const std::string& path) const;
};

std::string SceneReader::ResolvePath(const std::string& path) const {
  const std::filesystem::path p(path);
  return p.is_absolute() ? p.string() : (std::filesystem::path(base_dir) / p).string();
}

Material SceneReader::ShapeMaterial(const Field& shape) const {
  Material m;
  if (shape.Has("material")) {
    const std::string name = shape["material"].String();
    const auto found = materials.find(name);
    if (found == materials.end()) shape["material"].Fail("unknown material '" + name + "'");
    m = found->second;
  }
  if (shape.Has("friction")) m.friction = shape["friction"].DoubleIn(0, 1e6);
  if (shape.Has("restitution")) m.restitution = shape["restitution"].DoubleIn(0, 1);
  if (shape.Has("compliance")) m.compliance = shape["compliance"].DoubleIn(0, 1);
  return m;
}

std::vector<std::pair<geometry::Shape, Transform>> SceneReader::ReadShapes(const Field& body,
                                                                           int owner,
                                                                           const Transform& X_WB) {
  std::vector<std::pair<geometry::Shape, Transform>> shapes;
  if (!body.Has("shapes")) return shapes;
  const Field list = body["shapes"];
  for (std::size_t i = 0; i < list.SequenceSize(); ++i) {
    const Field f = list.At(i);
    f.RequireMap();
    const geometry::Shape shape = ReadShape(f, base_dir);
    if (owner >= 0 && std::holds_alternative<geometry::HalfSpace>(shape)) {
      f["type"].Fail("a halfspace can only belong to a fixed body (it has no finite mass)");
    }
    if (owner >= 0 && std::holds_alternative<geometry::TriangleMesh>(shape)) {
      f["type"].Fail(
          "a trimesh can only belong to a fixed body; use type: mesh (its convex "
          "hull) on a moving body");
    }
    const Transform X_BG{OptionalRotation(f, "orientation"),
                         OptionalVector3(f, "position", Eigen::Vector3d::Zero())};
    const Material material = ShapeMaterial(f);
    geometry::CollisionGeometry g;
    g.name = fmt::format("{}/{}", body["name"].String(), i);
    g.body = owner;
    g.shape = shape;
    g.X_BG = owner >= 0 ? X_BG : X_WB * X_BG;
    g.friction = material.friction;
    g.restitution = material.restitution;
    g.compliance = material.compliance;
    scene.model.world.Add(g);
    scene.geometry_colors.push_back(OptionalString(f, "color", owner >= 0 ? "#d08040" : "#9aa4ad"));
    shapes.emplace_back(shape, X_BG);
  }
  return shapes;
}

// Mass properties from the shapes at uniform density, or as given.
math::Inertia ReadInertia(const Field& f,
                          const std::vector<std::pair<geometry::Shape, Transform>>& shapes) {
  math::Inertia inertia;
  double volume = 0;
  for (const auto& [shape, X] : shapes) volume += geometry::ShapeVolume(shape);
  if (f.Has("mass") && f.Has("density")) f.Fail("give mass or density, not both");
  double density = OptionalDouble(f, "density", 1000.0);
  if (f.Has("mass")) {
    inertia.mass = f["mass"].DoubleIn(1e-12, 1e12);
    if (volume > 0) density = inertia.mass / volume;
  } else {
    inertia.mass = density * volume;
  }
  if (!(inertia.mass > 0)) f.Fail("the body has no mass: give mass (kg) or shapes with volume");
  if (f.Has("inertia")) {
    const Eigen::Vector3d diagonal = f["inertia"].Vector3();
    if (!(diagonal.minCoeff() > 0)) f["inertia"].Fail("principal moments must be positive");
    // A physical body's principal moments satisfy I_a <= I_b + I_c (each is an integral of
    // squared distances to an axis); a violation is a typo and makes the body spin wrongly.
    for (int a = 0; a < 3; ++a) {
      const double others = diagonal[(a + 1) % 3] + diagonal[(a + 2) % 3];
      if (diagonal[a] > others * (1 + 1e-9)) {
        f["inertia"].Fail(fmt::format(
            "principal moments break the triangle inequality: I[{}] = {:g} > {:g} = sum of the "
            "other two (kg m²)",
            a, diagonal[a], others));
      }
    }
    inertia.rotational = diagonal.asDiagonal();
    inertia.com = OptionalVector3(f, "com", Eigen::Vector3d::Zero());
    return inertia;
  }
  if (volume <= 0) f.Fail("give inertia: [Ixx, Iyy, Izz] (kg m²) for a body without shapes");
  for (const auto& [shape, X] : shapes) {
    inertia.com += density * geometry::ShapeVolume(shape) * X.Apply(geometry::ShapeCentroid(shape));
  }
  inertia.com /= inertia.mass;
  for (const auto& [shape, X] : shapes) {
    const double m = density * geometry::ShapeVolume(shape);
    const Eigen::Vector3d d = X.Apply(geometry::ShapeCentroid(shape)) - inertia.com;
    inertia.rotational += m * (X.R * geometry::UnitRotationalInertia(shape) * X.R.transpose() +
                               (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  }
  return inertia;
}

// `array: {count: [nx, ny, nz], spacing: [dx, dy, dz], stagger: true}` replicates a floating
// body on a grid from its position (names name_0, name_1, …); `stagger` shifts odd layers by
// half a spacing in x and y so that piles of spheres do not stand in perfect columns.
void SceneReader::ReadBodyArray(const Field& f) {
  const Field array = f["array"];
  array.CheckKeys({"count", "spacing", "stagger"});
  array["count"].Vector(3);  // three numbers
  const Eigen::Vector3d spacing = array["spacing"].Vector3();
  const bool stagger = array.Has("stagger") && array["stagger"].Bool();
  int n[3];
  for (int i = 0; i < 3; ++i) n[i] = array["count"].At(i).Int(1, 100000);
  if (static_cast<double>(n[0]) * n[1] * n[2] > 100000)
    array["count"].Fail("more than 100000 copies");
  if (OptionalString(f, "joint", "floating") != "floating") {
    f["joint"].Fail("only floating bodies can be replicated with array");
  }
  const Eigen::Vector3d origin = OptionalVector3(f, "position", Eigen::Vector3d::Zero());
  const std::string name = f["name"].String();
  int copy = 0;
  for (int k = 0; k < n[2]; ++k) {
    for (int j = 0; j < n[1]; ++j) {
      for (int i = 0; i < n[0]; ++i, ++copy) {
        YAML::Node clone = YAML::Clone(f.node);
        clone.remove("array");
        clone["name"] = fmt::format("{}_{}", name, copy);
        const double shift = stagger && k % 2 == 1 ? 0.5 : 0.0;
        const Eigen::Vector3d p =
            origin +
            Eigen::Vector3d((i + shift) * spacing.x(), (j + shift) * spacing.y(), k * spacing.z());
        clone["position"] = std::vector<double>{p.x(), p.y(), p.z()};
        ReadBody(Field{clone, f.path});
      }
    }
  }
}

void SceneReader::ReadBody(const Field& f) {
  // clang-format off
  f.CheckKeys({"name", "joint", "parent", "axis", "position", "orientation", "mass", "density",
               "inertia", "com", "velocity", "angular_velocity", "initial", "initial_velocity",
               "damping", "joint_friction", "lower", "upper", "effort", "shapes", "array"});
  // clang-format on
  if (f.Has("array")) return ReadBodyArray(f);
  const std::string name = f["name"].String();
  if (bodies.count(name)) f["name"].Fail("a body named '" + name + "' already exists");
  const std::string joint = OptionalString(f, "joint", "floating");
  const Transform placement{OptionalRotation(f, "orientation"),
                            OptionalVector3(f, "position", Eigen::Vector3d::Zero())};
  BodyRef parent;
  if (f.Has("parent")) {
    const auto found = bodies.find(f["parent"].String());
    if (found == bodies.end()) f["parent"].Fail("no earlier body of that name");
    parent = found->second;
  }
  if (joint == "fixed" && parent.body < 0) {  // static geometry, part of the world
    for (const char* key :
         {"velocity", "angular_velocity", "initial", "initial_velocity", "mass", "density",
          "inertia", "com", "damping", "joint_friction", "lower", "upper", "effort"}) {
      if (f.Has(key)) f[key].Fail("a fixed body without a parent is static geometry; remove it");
    }
    bodies[name] = {-1, parent.X_WB * placement};
    ReadShapes(f, -1, parent.X_WB * placement);
    return;
  }
  Body body;
  body.name = name;
  body.joint_name = name;
  const std::map<std::string, JointType> types = {{"floating", JointType::kFloating},
                                                  {"revolute", JointType::kRevolute},
                                                  {"prismatic", JointType::kPrismatic},
                                                  {"ball", JointType::kBall},
                                                  {"fixed", JointType::kFixed}};
  const auto type = types.find(joint);
  if (type == types.end()) {
    f["joint"].Fail("unknown joint '" + joint + "' (floating, revolute, prismatic, ball, fixed)");
  }
  body.joint = type->second;
  if (body.joint == JointType::kFloating && f.Has("parent")) {
    f["parent"].Fail("a floating body moves freely in the world: remove parent");
  }
  body.parent = parent.body;
  // Floating bodies start at `placement` through q; the others are placed by their joint frame.
  body.placement = body.joint == JointType::kFloating ? Transform{}
                   : parent.body < 0                  ? parent.X_WB * placement
                                                      : placement;
  if (f.Has("axis")) {
    const Eigen::Vector3d axis = f["axis"].Vector3();
    if (axis.norm() < 1e-9) f["axis"].Fail("is zero");
    body.axis = axis.normalized();
  }
  body.damping = OptionalDouble(f, "damping", 0.0);
  body.friction = OptionalDouble(f, "joint_friction", 0.0);
  if (!(body.friction >= 0 && std::isfinite(body.friction))) {
    f["joint_friction"].Fail("must be finite and >= 0 (N m or N)");
  }
  body.position_lower = OptionalDouble(f, "lower", -INFINITY);
  body.position_upper = OptionalDouble(f, "upper", INFINITY);
  body.effort_limit = OptionalDouble(f, "effort", INFINITY);
  if (body.position_lower > body.position_upper) {
    f["upper"].Fail(
        fmt::format("is below lower ({:g} < {:g})", body.position_upper, body.position_lower));
  }
  if (body.joint == JointType::kFloating || body.joint == JointType::kBall ||
      body.joint == JointType::kFixed) {
    for (const char* key :
         {"initial", "initial_velocity", "lower", "upper", "effort", "joint_friction"}) {
      if (f.Has(key)) {
        f[key].Fail(body.joint == JointType::kFloating
                        ? "is for revolute and prismatic joints; a floating body starts at "
                          "position, orientation, velocity and angular_velocity"
                        : "is for revolute and prismatic joints only");
      }
    }
  }
  const int index = static_cast<int>(scene.model.multibody.bodies.size());
  const Transform X_WB = parent.X_WB * placement;  // at the neutral configuration
  body.inertia = ReadInertia(f, ReadShapes(f, index, X_WB));
  scene.model.multibody.AddBody(body);
  bodies[name] = {index, X_WB};
  if (f.Has("initial")) initial_values.emplace_back(index, f["initial"]);
  if (f.Has("initial_velocity")) initial_rates.emplace_back(index, f["initial_velocity"]);
  if (body.joint == JointType::kFloating) {
    initial_values.emplace_back(index, f);  // pose and velocities, applied after the model is built
  } else if (f.Has("velocity") || f.Has("angular_velocity")) {
    f.Fail("velocity/angular_velocity are for floating bodies; use initial_velocity");
  }
}

// `parent`: the robot's root is welded to that body (a hand on an arm's flange) and
// position/orientation place it in the parent's frame; otherwise in the world.
// self_collision: false puts the robot's shapes in a group of their own that does not collide
// with itself (primitive collision models of neighbouring links overlap by design); a robot
// mounted on such a robot joins its group (a hand does not collide with the arm carrying it).
std::pair<int, std::uint32_t> SceneReader::ReadMount(const Field& f, bool floating_base) {
  int parent = -1;
  if (f.Has("parent")) {
    const std::string name = f["parent"].String();
    if (!bodies.count(name)) f["parent"].Fail("no body '" + name + "' before this include");
    if (floating_base) f["parent"].Fail("a robot mounted on a parent cannot float");
    parent = bodies.at(name).body;
    if (parent < 0)
      f["parent"].Fail("'" + name +
                       "' is static geometry; omit parent to fix the robot in the world");
  }
  std::uint32_t group = 1;
  if (parent >= 0 && group_of_body.count(parent)) {
    group = group_of_body.at(parent);
  } else if (f.Has("self_collision") && !f["self_collision"].Bool()) {
    if (next_group_bit >= 32) f["self_collision"].Fail("at most 31 robots can turn it off");
    group = 1u << next_group_bit++;
  }
  return {parent, group};
}

void SceneReader::ReadUrdf(const Field& f) {
  f.CheckKeys({"file", "package_map", "position", "orientation", "floating_base", "strict",
               "friction", "joint_friction", "initial", "name", "parent", "self_collision"});
  multibody::UrdfOptions options;
  if (f.Has("package_map")) {
    const Field map = f["package_map"];
    map.RequireMap();
    for (const auto& entry : map.node) {
      options.package_map[entry.first.as<std::string>()] =
          ResolvePath(map[entry.first.as<std::string>()].String());
    }
  }
  options.floating_base = f.Has("floating_base") && f["floating_base"].Bool();
  options.strict = f.Has("strict") && f["strict"].Bool();
  const std::string file = ResolvePath(f["file"].String());
  Expected<multibody::UrdfImport> urdf = multibody::ReadUrdf(file, options);
  if (!urdf.ok()) f["file"].Fail(urdf.error().ToString());
  multibody::UrdfImport& robot = urdf.value();
  const Transform X_WBase{OptionalRotation(f, "orientation"),
                          OptionalVector3(f, "position", Eigen::Vector3d::Zero())};
  const double friction = f.Has("friction") ? f["friction"].DoubleIn(0, 1e6) : 0.5;
  const auto [parent, group] = ReadMount(f, options.floating_base);
  const int offset = static_cast<int>(scene.model.multibody.bodies.size());
  ApplyJointFriction(
      f.Has("joint_friction") ? std::optional(f["joint_friction"].DoubleIn(0, 1e9)) : std::nullopt,
      file, robot, scene);
  for (Body body : robot.model.bodies) {
    if (bodies.count(body.name)) f.Fail("body '" + body.name + "' already exists in the scene");
    if (body.parent < 0) {
      body.placement = X_WBase * body.placement;
      body.parent = parent;
    } else {
      body.parent += offset;
    }
    const int index = scene.model.multibody.AddBody(body);
    bodies[body.name] = {index, {}};
    if (group != 1) group_of_body[index] = group;
  }
  if (const std::string defect = AddUrdfCollisions(robot, offset, file, friction, group, scene);
      !defect.empty()) {
    f["file"].Fail(defect);
  }
  for (const multibody::CollisionGeometry& v : robot.visual_meshes) {
    scene.visual_meshes.push_back({v.body + offset, v.X_BG, v.mesh_path, v.mesh_scale, v.color});
  }
  for (const std::string& w : robot.warnings)
    scene.warnings.push_back(fmt::format("{}: {}", file, w));

  for (multibody::JointCoupler c : robot.couplers) {
    c.body += offset;
    c.mimicked_body += offset;
    scene.model.multibody.couplers.push_back(c);
  }
  if (f.Has("initial")) {
    const Field initial = f["initial"];
    initial.RequireMap();
    for (const auto& entry : initial.node) {
      const std::string joint = entry.first.as<std::string>();
      int found = -1;
      for (int b = offset; b < static_cast<int>(scene.model.multibody.bodies.size()); ++b) {
        if (scene.model.multibody.bodies[b].joint_name == joint) found = b;
      }
      if (found < 0) initial[joint].Fail("no joint of that name in " + file);
      initial_values.emplace_back(found, initial[joint]);
    }
  }
}

// collision_filter: {exclude: [[a, b], …], include: [[a, b], …]}: body pairs (scene bodies or
// URDF links, by name) taken out of or put back into collision after the default filter.
void SceneReader::ReadCollisionFilter(const Field& f) {
  f.CheckKeys({"exclude", "include"});
  std::vector<std::pair<int, int>>& excluded = scene.model.world.excluded_body_pairs;
  for (const char* key : {"exclude", "include"}) {
    if (!f.Has(key)) continue;
    const Field list = f[key];
    for (std::size_t i = 0; i < list.SequenceSize(); ++i) {
      const Field entry = list.At(i);
      if (entry.SequenceSize() != 2) entry.Fail("give a pair of body names: [a, b]");
      int index[2];
      for (std::size_t k = 0; k < 2; ++k) {
        const std::string name = entry.At(k).String();
        if (!bodies.count(name)) entry.At(k).Fail("no body or link named '" + name + "'");
        index[k] = bodies.at(name).body;
      }
      if (index[0] == index[1]) entry.Fail("a body never collides with itself");
      const std::pair<int, int> pair(std::min(index[0], index[1]), std::max(index[0], index[1]));
      const auto at = std::lower_bound(excluded.begin(), excluded.end(), pair);
      const bool present = at != excluded.end() && *at == pair;
      if (std::string(key) == "exclude" && !present) excluded.insert(at, pair);
      if (std::string(key) == "include" && present) excluded.erase(at);
    }
  }
}

sim::Profile ReadProfile(const Field& f) {
  sim::Profile p;
  if (f.node.IsScalar()) {
    p.value = f.Double();
    return p;
  }
  f.CheckKeys({"constant", "ramp", "sine", "waypoints"});
  if (f.node.size() != 1) f.Fail("give exactly one of constant, ramp, sine, waypoints");
  if (f.Has("constant")) {
    p.value = f["constant"].Double();
  } else if (f.Has("ramp")) {
    const Field r = f["ramp"];
    r.CheckKeys({"from", "to", "start", "end"});
    p.kind = sim::Profile::Kind::kRamp;
    p.from = r["from"].Double();
    p.to = r["to"].Double();
    p.start = OptionalDouble(r, "start", 0.0);
    p.end = r["end"].Double();
    if (!(p.end > p.start)) r["end"].Fail("must be after start");
  } else if (f.Has("sine")) {
    const Field s = f["sine"];
    s.CheckKeys({"offset", "amplitude", "frequency", "phase"});
    p.kind = sim::Profile::Kind::kSine;
    p.offset = OptionalDouble(s, "offset", 0.0);
    p.amplitude = s["amplitude"].Double();
    p.frequency = s["frequency"].DoubleIn(0, 1e6);
    p.phase = OptionalDouble(s, "phase", 0.0);
  } else {
    const Field w = f["waypoints"];
    p.kind = sim::Profile::Kind::kWaypoints;
    for (std::size_t i = 0; i < w.SequenceSize(); ++i) {
      const Eigen::VectorXd point = w.At(i).Vector(2);
      if (!p.waypoints.empty() && !(point[0] > p.waypoints.back()[0])) {
        w.At(i).Fail("waypoint times must increase");
      }
      p.waypoints.emplace_back(point[0], point[1]);
    }
    if (p.waypoints.empty()) w.Fail("needs at least one [time, value] pair");
  }
  return p;
}

void SceneReader::ReadActuator(const Field& f) {
  f.CheckKeys({"joint", "type", "kp", "kd", "target"});
  sim::Actuator a;
  a.joint = f["joint"].String();
  a.body = -1;
  for (int b = 0; b < static_cast<int>(scene.model.multibody.bodies.size()); ++b) {
    if (scene.model.multibody.bodies[b].joint_name == a.joint) a.body = b;
  }
  if (a.body < 0) f["joint"].Fail("no joint named '" + a.joint + "'");
  // Two drives on one joint would fight (a PD and a torque both set the generalized force), and
  // only one of them shows in the outputs: a second one is refused rather than summed silently.
  for (std::size_t i = 0; i < scene.model.actuators.size(); ++i) {
    if (scene.model.actuators[i].body == a.body) {
      f["joint"].Fail(fmt::format(
          "joint '{}' already has an actuator (actuators[{}]); one per joint", a.joint, i));
    }
  }
  if (multibody::VelocitySize(scene.model.multibody.bodies[a.body].joint) != 1) {
    f["joint"].Fail("actuators drive 1-DoF (revolute or prismatic) joints only");
  }
  const std::string type = OptionalString(f, "type", "pd");
  if (type == "pd") {
    a.kind = sim::Actuator::Kind::kPd;
    a.kp = f["kp"].DoubleIn(0, 1e12);
    a.kd = OptionalDouble(f, "kd", 0.0);
    if (a.kd < 0) f["kd"].Fail("must be >= 0");
  } else if (type == "torque") {
    a.kind = sim::Actuator::Kind::kTorque;
  } else {
    f["type"].Fail("unknown actuator type '" + type + "' (pd, torque)");
  }
  a.target = ReadProfile(f["target"]);
  scene.model.actuators.push_back(a);
}

void SceneReader::ReadMaterials(const Field& f) {
  f.RequireMap();
  for (const auto& entry : f.node) {
    const std::string name = entry.first.as<std::string>();
    const Field m = f[name];
    m.CheckKeys({"friction", "restitution", "compliance"});
    materials[name] = {m.Has("friction") ? m["friction"].DoubleIn(0, 1e6) : 0.5,
                       m.Has("restitution") ? m["restitution"].DoubleIn(0, 1) : 0.0,
                       m.Has("compliance") ? m["compliance"].DoubleIn(0, 1) : 0.0};
  }
}

void SceneReader::Read(const Field& root) {
  std::vector<std::string> keys = {
      "coulomb", "name",      "solver",      "materials",   "bodies",
      "urdf",    "actuators", "constraints", "deformables", "collision_filter"};
  for (const SceneSetting& s : SceneSettings()) {
    if (s.key.find('.') == std::string_view::npos) keys.emplace_back(s.key);
  }
  root.CheckKeys(keys);
  if (!root.Has("coulomb")) {
    root.Fail(fmt::format("missing 'coulomb: {}' (the schema version)", kSceneSchemaVersion));
  }
  if (root["coulomb"].Int(0, 1000) != kSceneSchemaVersion) {
    root["coulomb"].Fail(fmt::format("schema version must be {}", kSceneSchemaVersion));
  }
  scene.name = OptionalString(root, "name", scene.name);
  if (root.Has("materials")) ReadMaterials(root["materials"]);
  if (root.Has("bodies")) {
    for (std::size_t i = 0; i < root["bodies"].SequenceSize(); ++i) {
      root["bodies"].At(i).RequireMap();
      ReadBody(root["bodies"].At(i));
    }
  }
  if (root.Has("urdf")) {
    for (std::size_t i = 0; i < root["urdf"].SequenceSize(); ++i) ReadUrdf(root["urdf"].At(i));
  }
  if (root.Has("actuators")) {
    for (std::size_t i = 0; i < root["actuators"].SequenceSize(); ++i) {
      ReadActuator(root["actuators"].At(i));
    }
  }
  ApplyInitialState(scene, initial_values, initial_rates);
  FilterSelfCollisions(scene);
  if (root.Has("collision_filter")) ReadCollisionFilter(root["collision_filter"]);
  if (root.Has("constraints")) ReadSceneConstraints(root["constraints"], scene);
  if (root.Has("urdf") && !root.Has("formulation") && !root.Has("deformables")) {
    // SAP (the formulation with implicit constraints and drives) brought the most published
    // robots to rest and was the fastest on every one (docs/robots.md).
    bool articulated = false;
    for (const Body& b : scene.model.multibody.bodies) {
      articulated = articulated || (multibody::VelocitySize(b.joint) == 1);
    }
    if (articulated) {
      scene.model.settings.formulation =
          FirstFormulationSupporting(&FormulationSupport::joint_limits);
      scene.notes.push_back(fmt::format(
          "formulation {}: the default for a scene with articulated URDF robots (measured the "
          "fastest on published robots); `formulation:` in the scene or --formulation chooses "
          "another",
          scene.model.settings.formulation->name));
    }
  }
  if (root.Has("deformables")) {
    ReadSceneDeformables(root["deformables"], base_dir, scene);
    // Paper 2's formulation (SAP) is the default for scenes with deformable bodies.
    if (!root.Has("formulation")) {
      scene.model.settings.formulation =
          FirstFormulationSupporting(&FormulationSupport::preferred_for_deformables);
    }
  }
  // Settings last: some reach into what the sections above built (gravity into each deformable
  // body, friction into every geometry), and solver.name is read by the formulation that runs,
  // SAP's by default in a scene with deformable bodies.
  ReadSceneSettings(root, scene);
  if (std::string defect = sim::ValidateScene(scene); !defect.empty()) root.Fail(defect);
}

}  // namespace

Expected<sim::Scene> ParseScene(const std::string& text, const std::string& origin,
                                const std::string& base_dir) {
  SceneReader reader;
  reader.base_dir = base_dir;
  reader.scene.source = origin;
  reader.scene.name = std::filesystem::path(origin).stem().string();
  try {
    const YAML::Node document = YAML::Load(text);
    reader.Read(Field{document, ""});
  } catch (const YAML::Exception& e) {
    return InputError{origin, e.mark.line >= 0 ? e.mark.line + 1 : 0, "", "YAML: " + e.msg};
  } catch (const ParseFailure& e) {
    return InputError{origin, e.line, e.field, e.what()};
  }
  return std::move(reader.scene);
}

Expected<sim::Scene> ReadSceneFile(const std::string& path) {
  Expected<std::string> text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseScene(text.value(), path, std::filesystem::path(path).parent_path().string());
}

}  // namespace coulomb::io
