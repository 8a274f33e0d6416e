#include "coulomb/multibody/urdf_import.h"

#include <fmt/format.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <sstream>

#include "coulomb/multibody/dynamics.h"

namespace coulomb::multibody {
namespace {

namespace fs = std::filesystem;

Transform FromPose(const urdf::Pose& pose) {
  Transform X;
  double x, y, z, w;
  pose.rotation.getQuaternion(x, y, z, w);
  X.R = Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix();
  X.p = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  return X;
}

int LineOf(const std::string& text, std::size_t offset) {
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

// urdfdom reports problems only on its console, so the checks that must name an element are
// done here on the XML text first: joint types.
std::optional<InputError> CheckJointTypes(const std::string& xml, const std::string& origin) {
  static const std::regex joint_tag(R"(<joint\b[^>]*>)");
  static const std::regex name_attr(R"re(\bname\s*=\s*"([^"]*)")re");
  static const std::regex type_attr(R"re(\btype\s*=\s*"([^"]*)")re");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), joint_tag);
       it != std::sregex_iterator(); ++it) {
    const std::string tag = it->str();
    std::smatch name, type;
    std::regex_search(tag, name, name_attr);
    if (!std::regex_search(tag, type, type_attr)) continue;  // <joint> inside <transmission>
    static const char* known[] = {"revolute", "continuous", "prismatic",
                                  "fixed",    "floating",   "planar"};
    if (std::find(std::begin(known), std::end(known), type[1].str()) == std::end(known)) {
      return InputError{origin, LineOf(xml, static_cast<std::size_t>(it->position())),
                        fmt::format("joint '{}'", name.size() > 1 ? name[1].str() : "?"),
                        fmt::format("unknown joint type '{}' (revolute, continuous, prismatic, "
                                    "fixed, floating)",
                                    type[1].str())};
    }
  }
  return std::nullopt;
}

// urdfdom reports a non-finite or unparsable number (`<mass value="nan"/>`) on the console and
// then drops the whole element, so the link silently loses its mass or its collision. Numbers
// are checked here first, naming the line, the tag and the attribute.
std::optional<InputError> CheckNumbers(const std::string& xml, const std::string& origin) {
  static const std::regex tag_re(
      R"(<(mass|inertia|origin|axis|limit|dynamics|box|sphere|cylinder|capsule|mesh|mimic)\b[^>]*>)");
  static const std::regex attr_re(R"re(\b([a-z_]+)\s*=\s*"([^"]*)")re");
  static const char* numeric[] = {"value",    "ixx",        "ixy",      "ixz",   "iyy",    "iyz",
                                  "izz",      "xyz",        "rpy",      "lower", "upper",  "effort",
                                  "velocity", "damping",    "friction", "size",  "radius", "length",
                                  "scale",    "multiplier", "offset"};
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), tag_re); it != std::sregex_iterator();
       ++it) {
    const std::string tag = it->str();
    for (auto a = std::sregex_iterator(tag.begin(), tag.end(), attr_re);
         a != std::sregex_iterator(); ++a) {
      const std::string attribute = (*a)[1].str();
      if (std::find(std::begin(numeric), std::end(numeric), attribute) == std::end(numeric))
        continue;
      const std::string value = (*a)[2].str();
      if (value.find("${") != std::string::npos || value.find("$(") != std::string::npos) {
        // Husky's and TIAGo's published URDFs keep `$(optenv …)` and `${…}`: the file is a
        // xacro template, not a URDF, and guessing its values would load a different robot.
        return InputError{origin, LineOf(xml, static_cast<std::size_t>(it->position())),
                          fmt::format("<{} {}>", (*it)[1].str(), attribute),
                          fmt::format("'{}' is a xacro expression: expand the file with xacro "
                                      "first (xacro robot.urdf.xacro > robot.urdf)",
                                      value)};
      }
      std::istringstream values(value);
      for (std::string token; values >> token;) {
        char* end = nullptr;
        const double x = std::strtod(token.c_str(), &end);
        if (end == token.c_str() || *end != '\0' || !std::isfinite(x)) {
          return InputError{origin, LineOf(xml, static_cast<std::size_t>(it->position())),
                            fmt::format("<{} {}>", (*it)[1].str(), attribute),
                            fmt::format("'{}' is not a finite number", token)};
        }
      }
    }
  }
  return std::nullopt;
}

// Where import problems go: errors fail the import, warnings are reported (errors with strict).
struct Diagnostics {
  std::vector<std::string>& errors;
  std::vector<std::string>& warnings;
  // Warnings that published robots repeat for dozens of elements, said once each with the names:
  // what is ignored → the joints or links it concerns.
  std::map<std::string, std::vector<std::string>> grouped = {};
};

// One warning per group: "3 joints: <dynamics friction> is not modelled: a, b, c".
void ReportGrouped(Diagnostics& d) {
  for (const auto& [what, names] : d.grouped) {
    std::string list;
    for (std::size_t i = 0; i < names.size() && i < 8; ++i) list += (i ? ", " : "") + names[i];
    if (names.size() > 8) list += fmt::format(" and {} more", names.size() - 8);
    d.warnings.push_back(fmt::format("{} {}: {}", names.size(), what, list));
  }
}

// The joint of `link` (to its parent) and its inertial, as a Body without parent index.
Body BodyFromLink(const urdf::Link& link, const UrdfOptions& options, Diagnostics& d) {
  Body body;
  body.name = link.name;
  const urdf::JointConstSharedPtr joint = link.parent_joint;
  if (!joint) {
    body.joint = options.floating_base ? JointType::kFloating : JointType::kFixed;
    body.joint_name = options.floating_base ? "floating_base" : "world_weld";
  } else {
    body.joint_name = joint->name;
    body.placement = FromPose(joint->parent_to_joint_origin_transform);
    body.axis = Eigen::Vector3d(joint->axis.x, joint->axis.y, joint->axis.z);
    switch (joint->type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        body.joint = JointType::kRevolute;
        break;
      case urdf::Joint::PRISMATIC:
        body.joint = JointType::kPrismatic;
        break;
      case urdf::Joint::FIXED:
        body.joint = JointType::kFixed;
        break;
      case urdf::Joint::FLOATING:
        body.joint = JointType::kFloating;
        break;
      default:
        d.errors.push_back(fmt::format("joint '{}': type not supported (planar)", joint->name));
        body.joint = JointType::kFixed;
    }
    if (body.joint == JointType::kRevolute || body.joint == JointType::kPrismatic) {
      if (body.axis.norm() < 1e-12) {
        d.errors.push_back(fmt::format("joint '{}': axis is zero", joint->name));
      } else {
        body.axis.normalize();
      }
    }
    if (joint->limits && joint->type != urdf::Joint::CONTINUOUS) {
      body.position_lower = joint->limits->lower;
      body.position_upper = joint->limits->upper;
      if (joint->limits->effort > 0) body.effort_limit = joint->limits->effort;
    }
    if (joint->dynamics) {
      body.damping = joint->dynamics->damping;
      body.friction = joint->dynamics->friction;
    }
    if (joint->safety)
      d.grouped["joint(s) with an ignored <safety_controller>"].push_back(joint->name);
    if (joint->calibration)
      d.grouped["joint(s) with an ignored <calibration>"].push_back(joint->name);
  }
  if (link.inertial) {
    const urdf::Inertial& in = *link.inertial;
    const Transform X = FromPose(in.origin);
    Eigen::Matrix3d I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    body.inertia.mass = in.mass;
    body.inertia.com = X.p;
    body.inertia.rotational = X.R * I * X.R.transpose();
    if (!(in.mass >= 0)) {
      d.errors.push_back(
          fmt::format("link '{}': <inertial> mass {} is negative", link.name, in.mass));
    }
  } else if (body.joint != JointType::kFixed) {
    // A massless link welded to its parent (a sensor or tool frame) is common and harmless; one
    // on a moving joint rides on the mass below it, or is refused ("moves no mass") below.
    d.grouped["moving link(s) without <inertial>, treated as massless"].push_back(link.name);
  }
  return body;
}

// The folder of ROS package `package` for a URDF in `folder` when no package map names it: the
// nearest folder at or above `folder` that is the package (its package.xml says
// <name>package</name>, or it bears the package's name) or holds it as a subfolder, as packages sit
// in a ROS workspace.
std::optional<std::string> FindPackageNear(const std::string& package, const std::string& folder) {
  std::error_code ec;
  const auto names_package = [&](const fs::path& dir) {
    std::ifstream manifest(dir / "package.xml");
    if (!manifest) return false;
    std::ostringstream text;
    text << manifest.rdbuf();
    return text.str().find("<name>" + package + "</name>") != std::string::npos;
  };
  const fs::path start = fs::absolute(folder, ec);
  if (ec) return std::nullopt;
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    if (names_package(dir) || dir.filename() == package) return dir.string();
    std::error_code missing;  // set when the subfolder does not exist: not an error here
    if (fs::is_directory(dir / package, missing)) return (dir / package).string();
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

// package://NAME/rest through the package map, file:// stripped, relative to the URDF's folder.
std::string ResolveMesh(const std::string& filename, const std::string& link_name,
                        const UrdfOptions& options, const std::string& base_dir, Diagnostics& d) {
  std::string file = filename;
  if (file.rfind("package://", 0) == 0) {
    std::string rest = file.substr(10);
    if (!rest.empty() && rest[0] == '/') {
      // "package:///NAME/…" (TALOS' full model writes it) names no package; read as NAME, said.
      rest.erase(0, rest.find_first_not_of('/'));
      d.grouped["link(s) with a mesh at package:///NAME/…, read as package://NAME/…"].push_back(
          link_name);
    }
    const std::string package = rest.substr(0, rest.find('/'));
    const auto found = options.package_map.find(package);
    std::string root;
    if (found != options.package_map.end()) {
      root = found->second;
    } else if (std::optional<std::string> nearby = FindPackageNear(package, base_dir)) {
      root = *nearby;
    } else {
      d.errors.push_back(
          fmt::format("link '{}': mesh '{}' uses package '{}', which the package map does not "
                      "name and no folder above the URDF is (give package_map: {{{}: FOLDER}})",
                      link_name, filename, package, package));
      return file;
    }
    file = root + rest.substr(package.size());
  } else if (file.rfind("file://", 0) == 0) {
    file = file.substr(7);
  } else if (fs::path(file).is_relative()) {
    file = (fs::path(base_dir) / file).string();
  }
  if (!fs::exists(file)) {
    d.errors.push_back(fmt::format("link '{}': mesh '{}' not found (resolved to '{}')", link_name,
                                   filename, file));
  }
  return file;
}

CollisionGeometry CollisionFromUrdf(const urdf::Collision& c, int body,
                                    const std::string& link_name, const UrdfOptions& options,
                                    const std::string& base_dir, Diagnostics& d) {
  CollisionGeometry g;
  g.body = body;
  g.X_BG = FromPose(c.origin);
  switch (c.geometry->type) {
    case urdf::Geometry::BOX: {
      const auto& box = static_cast<const urdf::Box&>(*c.geometry);
      g.shape = CollisionGeometry::Shape::kBox;
      g.size = Eigen::Vector3d(box.dim.x, box.dim.y, box.dim.z);
      break;
    }
    case urdf::Geometry::SPHERE:
      g.shape = CollisionGeometry::Shape::kSphere;
      g.size.x() = static_cast<const urdf::Sphere&>(*c.geometry).radius;
      break;
    case urdf::Geometry::CYLINDER: {
      const auto& cyl = static_cast<const urdf::Cylinder&>(*c.geometry);
      g.shape = CollisionGeometry::Shape::kCylinder;
      g.size = Eigen::Vector3d(cyl.radius, cyl.length, 0);
      break;
    }
    case urdf::Geometry::MESH: {
      const auto& mesh = static_cast<const urdf::Mesh&>(*c.geometry);
      g.shape = CollisionGeometry::Shape::kMesh;
      g.mesh_scale = Eigen::Vector3d(mesh.scale.x, mesh.scale.y, mesh.scale.z);
      g.mesh_path = ResolveMesh(mesh.filename, link_name, options, base_dir, d);
      break;
    }
  }
  return g;
}

// The link's <visual> meshes whose files exist (a missing one is no error: corpora often ship
// collision meshes only), with the material's colour.
void AddVisualMeshes(const urdf::Link& link, int body, const UrdfOptions& options,
                     const std::string& base_dir, std::vector<CollisionGeometry>& visuals) {
  for (const urdf::VisualSharedPtr& v : link.visual_array) {
    if (!v || !v->geometry || v->geometry->type != urdf::Geometry::MESH) continue;
    const auto& mesh = static_cast<const urdf::Mesh&>(*v->geometry);
    std::vector<std::string> quiet_errors, quiet_warnings;
    Diagnostics quiet{quiet_errors, quiet_warnings};
    CollisionGeometry g;
    g.body = body;
    g.shape = CollisionGeometry::Shape::kMesh;
    g.X_BG = FromPose(v->origin);
    g.mesh_scale = Eigen::Vector3d(mesh.scale.x, mesh.scale.y, mesh.scale.z);
    g.mesh_path = ResolveMesh(mesh.filename, link.name, options, base_dir, quiet);
    if (v->material && v->material->color.a > 0) {
      const auto channel = [](float c) {
        return static_cast<int>(std::lround(255 * std::clamp(c, 0.0f, 1.0f)));
      };
      g.color = fmt::format("#{:02x}{:02x}{:02x}", channel(v->material->color.r),
                            channel(v->material->color.g), channel(v->material->color.b));
    }
    if (quiet_errors.empty()) visuals.push_back(std::move(g));
  }
}

// <mimic> elements as couplers of `out.model`'s bodies.
void AddCouplers(const urdf::ModelInterface& urdf, const std::map<std::string, int>& body_of_link,
                 std::vector<std::string>& errors, UrdfImport& out) {
  for (const auto& [name, joint] : urdf.joints_) {
    if (!joint->mimic) continue;
    const auto follower = body_of_link.find(joint->child_link_name);
    const urdf::JointConstSharedPtr leader = urdf.getJoint(joint->mimic->joint_name);
    if (!leader) {
      errors.push_back(fmt::format("joint '{}': <mimic joint='{}'> names no joint", name,
                                   joint->mimic->joint_name));
      continue;
    }
    const int leader_body = body_of_link.at(leader->child_link_name);
    // A reduced model may weld a mimic joint (type fixed) and keep its <mimic>: nothing moves
    // there to follow, so the tag has no effect (a 1-DoF leader is still required).
    if (out.model.bodies[follower->second].joint == JointType::kFixed) {
      out.warnings.push_back(fmt::format(
          "joint '{}': fixed, so its <mimic joint='{}'> has no effect", name, leader->name));
      continue;
    }
    if (VelocitySize(out.model.bodies[leader_body].joint) != 1 ||
        VelocitySize(out.model.bodies[follower->second].joint) != 1 ||
        leader_body == follower->second) {
      errors.push_back(
          fmt::format("joint '{}': <mimic joint='{}'>: both joints must be distinct "
                      "revolute or prismatic joints",
                      name, leader->name));
      continue;
    }
    out.couplers.push_back(
        {follower->second, leader_body, joint->mimic->multiplier, joint->mimic->offset});
  }
}

// Massless links are fine as long as every joint moves some mass; a joint that moves none
// makes the mass matrix singular, so name it. A mimic follower moves with its leader (the step
// reduces it away, contact/contact_problem.h): its mass, if any, is the leader's to carry.
std::optional<InputError> CheckEveryJointMovesMass(const UrdfImport& out,
                                                   const std::string& origin) {
  Data data = MakeData(out.model);
  const Eigen::MatrixXd M = CalcMassMatrix(out.model, data, out.model.NeutralConfiguration());
  std::vector<bool> follower(out.model.bodies.size(), false);
  for (const JointCoupler& c : out.couplers) follower[c.body] = true;
  for (std::size_t i = 0; i < out.model.bodies.size(); ++i) {
    const Body& b = out.model.bodies[i];
    if (follower[i]) continue;
    for (int k = 0; k < VelocitySize(b.joint); ++k) {
      if (!(M(b.v_index + k, b.v_index + k) > 1e-12 * std::max(1.0, M.diagonal().maxCoeff()))) {
        return InputError{origin, 0, fmt::format("joint '{}'", b.joint_name),
                          fmt::format("moves no mass: link '{}' and everything below it lack "
                                      "<inertial>",
                                      b.name)};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

Expected<UrdfImport> ParseUrdf(const std::string& xml, const std::string& origin,
                               const std::string& base_dir, const UrdfOptions& options) {
  if (auto error = CheckJointTypes(xml, origin)) return *error;
  if (auto error = CheckNumbers(xml, origin)) return *error;
  const urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDF(xml);
  if (!urdf) {
    return InputError{origin, 0, "<robot>",
                      "urdfdom could not parse the file (malformed XML, a joint naming a missing "
                      "link, or a loop); its console message above gives the detail"};
  }
  UrdfImport out;
  out.robot_name = urdf->getName();
  std::vector<std::string> errors;

  // Depth-first from the root so that parents precede children.
  std::map<std::string, int> body_of_link;
  Diagnostics diagnostics{errors, out.warnings};
  std::function<void(const urdf::LinkConstSharedPtr&, int)> add =
      [&](const urdf::LinkConstSharedPtr& link, int parent) {
        Body body = BodyFromLink(*link, options, diagnostics);
        body.parent = parent;
        const int index = out.model.AddBody(body);
        body_of_link[link->name] = index;
        for (const urdf::CollisionSharedPtr& c : link->collision_array) {
          if (!c || !c->geometry) continue;
          out.collisions.push_back(
              CollisionFromUrdf(*c, index, link->name, options, base_dir, diagnostics));
        }
        AddVisualMeshes(*link, index, options, base_dir, out.visual_meshes);
        for (const urdf::LinkSharedPtr& child : link->child_links) add(child, index);
      };
  add(urdf->getRoot(), -1);
  ReportGrouped(diagnostics);

  AddCouplers(*urdf, body_of_link, errors, out);
  if (options.strict) {
    for (const std::string& w : out.warnings) errors.push_back("(strict) " + w);
  }
  if (!errors.empty()) {
    std::string all = errors.front();
    if (errors.size() > 1) all += fmt::format(" (and {} more: {})", errors.size() - 1, errors[1]);
    return InputError{origin, 0, "", all};
  }
  if (const std::string defect = out.model.Validate(); !defect.empty()) {
    return InputError{origin, 0, "", defect};
  }
  if (std::optional<InputError> error = CheckEveryJointMovesMass(out, origin)) return *error;
  return out;
}

Expected<UrdfImport> ReadUrdf(const std::string& path, const UrdfOptions& options) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return InputError{path, 0, "", "is a directory, not a file"};
  std::ifstream in(path);
  if (!in) return InputError{path, 0, "", "cannot be opened for reading"};
  std::ostringstream text;
  text << in.rdbuf();
  return ParseUrdf(text.str(), path, fs::path(path).parent_path().string(), options);
}

}  // namespace coulomb::multibody
