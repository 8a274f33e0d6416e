#include "coulomb/io/obj_file.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <sstream>

#include "coulomb/io/text_file.h"

namespace coulomb::io {
namespace {

bool ParseDouble(const std::string& token, double& value) {
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  return ec == std::errc() && ptr == end;
}

// "7", "7/2", "7//3", "-1/4/2": the vertex index before the first slash.
bool ParseCorner(const std::string& token, long vertex_count, int& index) {
  const std::string head = token.substr(0, token.find('/'));
  long value = 0;
  const char* end = head.data() + head.size();
  const auto [ptr, ec] = std::from_chars(head.data(), end, value);
  if (ec != std::errc() || ptr != end || value == 0) return false;
  const long zero_based = value > 0 ? value - 1 : vertex_count + value;
  if (zero_based < 0 || zero_based >= vertex_count) return false;
  index = static_cast<int>(zero_based);
  return true;
}

}  // namespace

Expected<SurfaceMesh> ParseObj(const std::string& text, const std::string& origin) {
  SurfaceMesh mesh;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::istringstream words(line);
    std::string keyword;
    if (!(words >> keyword) || keyword[0] == '#') continue;
    const auto fail = [&](const std::string& reason) {
      return InputError{origin, number, keyword, reason};
    };
    std::vector<std::string> tokens;
    for (std::string t; words >> t;) tokens.push_back(t);
    if (keyword == "v") {
      Eigen::Vector3d p;
      if (tokens.size() < 3) return fail("a vertex needs three coordinates");
      for (int k = 0; k < 3; ++k) {
        if (!ParseDouble(tokens[k], p[k]) || !std::isfinite(p[k])) {
          return fail(fmt::format("coordinate '{}' is not a finite number", tokens[k]));
        }
      }
      mesh.vertices.push_back(p);
    } else if (keyword == "f") {
      if (tokens.size() < 3) return fail("a face needs at least three corners");
      std::vector<int> corners(tokens.size());
      const long count = static_cast<long>(mesh.vertices.size());
      for (std::size_t k = 0; k < tokens.size(); ++k) {
        if (!ParseCorner(tokens[k], count, corners[k])) {
          return fail(fmt::format("corner '{}' is not a vertex index in 1..{} (or -1..-{})",
                                  tokens[k], count, count));
        }
      }
      for (std::size_t k = 1; k + 1 < corners.size(); ++k) {
        mesh.triangles.push_back({corners[0], corners[k], corners[k + 1]});
      }
    }
  }
  if (mesh.vertices.empty()) return InputError{origin, 0, "v", "the file has no vertices"};
  return mesh;
}

Expected<SurfaceMesh> ReadObjFile(const std::string& path) {
  Expected<std::string> text = ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseObj(text.value(), path);
}

}  // namespace coulomb::io
