#pragma once
// Typed access to YAML fields with errors that name the key path and line: the building blocks
// of the scene reader. Each accessor throws io::ParseFailure (caught at the reader's boundary).

#include <yaml-cpp/yaml.h>

#include <Eigen/Dense>
#include <initializer_list>
#include <string>
#include <vector>

#include "coulomb/io/token_reader.h"

namespace coulomb::io {

// A YAML node with its key path for messages ("bodies[1].mass").
struct Field {
  YAML::Node node;
  std::string path;

  int line() const { return node.Mark().line >= 0 ? node.Mark().line + 1 : 0; }
  bool IsMap() const { return node.IsMap(); }
  bool Has(const std::string& key) const { return node.IsMap() && node[key]; }
  Field operator[](const std::string& key) const;  // the child (may be undefined)
  Field At(std::size_t index) const;               // a sequence element

  [[noreturn]] void Fail(const std::string& reason) const;
  // Fails on keys outside `allowed`, listing the allowed ones.
  void CheckKeys(std::initializer_list<const char*> allowed) const;
  void CheckKeys(const std::vector<std::string>& allowed) const;
  void RequireMap() const;
  std::size_t SequenceSize() const;  // fails unless a sequence

  double Double() const;  // finite number
  double DoubleIn(double lo, double hi) const;
  int Int(int lo, int hi) const;
  bool Bool() const;
  std::string String() const;
  Eigen::Vector3d Vector3() const;
  Eigen::VectorXd Vector(int size) const;  // size −1: any length
};

// The child `key` of a map, with defaults when it is absent.
double OptionalDouble(const Field& map, const std::string& key, double fallback);
std::string OptionalString(const Field& map, const std::string& key, const std::string& fallback);
Eigen::Vector3d OptionalVector3(const Field& map, const std::string& key,
                                const Eigen::Vector3d& fallback);

// An orientation: {rpy: [r, p, y]} (rad, fixed axes x, y, z), {quaternion: [w, x, y, z]} or
// {axis_angle: [x, y, z, angle]}; identity when absent.
Eigen::Matrix3d OptionalRotation(const Field& map, const std::string& key);

}  // namespace coulomb::io
