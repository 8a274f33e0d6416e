#include "coulomb/io/yaml_fields.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

namespace coulomb::io {

Field Field::operator[](const std::string& key) const {
  return {node.IsMap() ? node[key] : YAML::Node(), path.empty() ? key : path + "." + key};
}

Field Field::At(std::size_t index) const {
  return {node[index], fmt::format("{}[{}]", path, index)};
}

void Field::Fail(const std::string& reason) const {
  throw ParseFailure(line(), path, reason);
}

void Field::CheckKeys(std::initializer_list<const char*> allowed) const {
  CheckKeys(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void Field::CheckKeys(const std::vector<std::string>& allowed) const {
  RequireMap();
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    bool known = false;
    for (const std::string& a : allowed) known = known || key == a;
    if (!known) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      const std::string where = path.empty() ? key : path + "." + key;
      const int at = entry.first.Mark().line + 1;
      throw ParseFailure(at, where, fmt::format("unknown key (allowed here: {})", list));
    }
  }
}

void Field::RequireMap() const {
  if (!node.IsDefined() || node.IsNull()) {
    if (path.empty())
      throw ParseFailure(1, "", "the file is empty (a mapping of key: value is required)");
    Fail("missing (a mapping is required)");
  }
  if (!node.IsMap()) Fail("must be a mapping of key: value");
  // yaml-cpp keeps both entries of a repeated key and lookups see only the first, so a second
  // `duration:` would be silently ignored: refuse it, naming both lines.
  std::map<std::string, int> first_line;
  for (const auto& entry : node) {
    const std::string key = entry.first.Scalar();
    const int at = entry.first.Mark().line + 1;
    const auto [it, inserted] = first_line.emplace(key, at);
    if (!inserted) {
      const std::string where = path.empty() ? key : path + "." + key;
      throw ParseFailure(at, where, fmt::format("given twice (first on line {})", it->second));
    }
  }
}

std::size_t Field::SequenceSize() const {
  if (!node.IsDefined() || node.IsNull()) Fail("missing (a list is required)");
  if (!node.IsSequence()) Fail("must be a list");
  return node.size();
}

double Field::Double() const {
  if (!node.IsDefined() || node.IsNull()) Fail("missing (a number is required)");
  if (!node.IsScalar()) Fail("must be a number");
  double value = 0;
  try {
    value = node.as<double>();
  } catch (const YAML::Exception&) {
    Fail(fmt::format("'{}' is not a number", node.Scalar()));
  }
  if (!std::isfinite(value)) Fail(fmt::format("{} is not finite", node.Scalar()));
  return value;
}

double Field::DoubleIn(double lo, double hi) const {
  const double value = Double();
  if (!(value >= lo && value <= hi)) Fail(fmt::format("{} is not in [{}, {}]", value, lo, hi));
  return value;
}

int Field::Int(int lo, int hi) const {
  const double value = Double();
  if (value != std::floor(value)) Fail(fmt::format("{} is not an integer", value));
  if (!(value >= lo && value <= hi)) Fail(fmt::format("{} is not in [{}, {}]", value, lo, hi));
  return static_cast<int>(value);
}

bool Field::Bool() const {
  if (!node.IsDefined() || !node.IsScalar()) Fail("must be true or false");
  try {
    return node.as<bool>();
  } catch (const YAML::Exception&) {
    Fail(fmt::format("'{}' is not true or false", node.Scalar()));
  }
}

std::string Field::String() const {
  if (!node.IsDefined() || node.IsNull()) Fail("missing (a string is required)");
  if (!node.IsScalar()) Fail("must be a string");
  return node.Scalar();
}

Eigen::VectorXd Field::Vector(int size) const {
  const std::size_t n = SequenceSize();
  if (size >= 0 && n != static_cast<std::size_t>(size)) {
    Fail(fmt::format("must be a list of {} numbers, got {}", size, n));
  }
  Eigen::VectorXd out(static_cast<Eigen::Index>(n));
  for (std::size_t i = 0; i < n; ++i) out[static_cast<Eigen::Index>(i)] = At(i).Double();
  return out;
}

Eigen::Vector3d Field::Vector3() const {
  return Vector(3);
}

double OptionalDouble(const Field& map, const std::string& key, double fallback) {
  return map.Has(key) ? map[key].Double() : fallback;
}

std::string OptionalString(const Field& map, const std::string& key, const std::string& fallback) {
  return map.Has(key) ? map[key].String() : fallback;
}

Eigen::Vector3d OptionalVector3(const Field& map, const std::string& key,
                                const Eigen::Vector3d& fallback) {
  return map.Has(key) ? map[key].Vector3() : fallback;
}

Eigen::Matrix3d OptionalRotation(const Field& map, const std::string& key) {
  if (!map.Has(key)) return Eigen::Matrix3d::Identity();
  const Field f = map[key];
  f.CheckKeys({"rpy", "quaternion", "axis_angle"});
  if (f.node.size() != 1) f.Fail("give exactly one of rpy, quaternion, axis_angle");
  if (f.Has("rpy")) {
    const Eigen::Vector3d rpy = f["rpy"].Vector3();
    return (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) *
            Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
            Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX()))
        .toRotationMatrix();
  }
  if (f.Has("quaternion")) {
    const Eigen::VectorXd w = f["quaternion"].Vector(4);
    const Eigen::Quaterniond quaternion(w[0], w[1], w[2], w[3]);
    if (quaternion.norm() < 1e-9) f["quaternion"].Fail("is zero");
    return quaternion.normalized().toRotationMatrix();
  }
  const Eigen::VectorXd a = f["axis_angle"].Vector(4);
  const Eigen::Vector3d axis = a.head<3>();
  if (axis.norm() < 1e-9) f["axis_angle"].Fail("axis is zero");
  return Eigen::AngleAxisd(a[3], axis.normalized()).toRotationMatrix();
}

}  // namespace coulomb::io
