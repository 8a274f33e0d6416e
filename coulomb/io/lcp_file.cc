#include "coulomb/io/lcp_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "coulomb/io/numerics_matrix.h"
#include "coulomb/io/text_file.h"
#include "coulomb/io/token_reader.h"

namespace coulomb {
namespace {

using io::CatchParseFailures;
using io::ParseFailure;
using io::TokenReader;

LcpProblem ParseSiconos(TokenReader& in) {
  LcpProblem p;
  const int n = static_cast<int>(in.NextInt("n (problem size)", 1, kMaxLcpFileSize));
  ReadNumericsMatrix(in, n, "M", p.M);
  p.q.resize(n);
  for (int i = 0; i < n; ++i) p.q[i] = in.NextDouble(fmt::format("q[{}]", i));
  return p;  // the rest of the file is a comment by Siconos' convention
}

// Line of a byte offset, for JSON errors.
int LineOf(const std::string& text, std::size_t byte) {
  int line = 1;
  for (std::size_t i = 0; i < std::min(byte, text.size()); ++i) line += text[i] == '\n';
  return line;
}

LcpProblem ParseJson(const std::string& text) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseFailure(LineOf(text, e.byte), "", std::string("invalid JSON: ") + e.what());
  } catch (const nlohmann::json::exception& e) {
    // A number too large for a double (1e400) is an out_of_range error, not a parse error:
    // found by fuzz_lcp, it used to end the program.
    throw ParseFailure(1, "", std::string("invalid JSON: ") + e.what());
  }
  if (!doc.is_object()) throw ParseFailure(1, "", "top level must be a JSON object");
  // value() would throw a type error on `"format": 3`; compare the node itself.
  if (!doc.contains("format") || doc["format"] != "coulomb-lcp") {
    throw ParseFailure(1, "format", "must be \"coulomb-lcp\"");
  }
  if (!doc.contains("version") || doc["version"] != 1) {
    throw ParseFailure(1, "version", "must be 1 (the only version this build reads)");
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "format" && key != "version" && key != "name" && key != "M" && key != "q") {
      throw ParseFailure(1, key, "unknown key (expected format, version, name, M, q)");
    }
  }
  const auto number = [](const nlohmann::json& v, const std::string& field) {
    if (!v.is_number()) throw ParseFailure(1, field, "must be a number, got " + v.dump());
    return v.get<double>();
  };
  if (!doc.contains("q") || !doc["q"].is_array()) throw ParseFailure(1, "q", "missing array");
  if (!doc.contains("M") || !doc["M"].is_array())
    throw ParseFailure(1, "M", "missing array of rows");
  const auto& q = doc["q"];
  const auto& M = doc["M"];
  const auto n = static_cast<Eigen::Index>(q.size());
  if (n == 0 || n > kMaxLcpFileSize) {
    throw ParseFailure(1, "q", fmt::format("size {} is not in [1, {}]", n, kMaxLcpFileSize));
  }
  if (static_cast<Eigen::Index>(M.size()) != n) {
    throw ParseFailure(1, "M", fmt::format("has {} rows but q has {} entries", M.size(), n));
  }
  LcpProblem p;
  p.name = doc.value("name", "");
  p.q.resize(n);
  p.M.resize(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    p.q[i] = number(q[i], fmt::format("q[{}]", i));
    if (!M[i].is_array() || static_cast<Eigen::Index>(M[i].size()) != n) {
      throw ParseFailure(1, fmt::format("M[{}]", i),
                         fmt::format("must be an array of {} numbers", n));
    }
    for (Eigen::Index j = 0; j < n; ++j)
      p.M(i, j) = number(M[i][j], fmt::format("M[{}][{}]", i, j));
  }
  return p;
}

}  // namespace

Expected<LcpProblem> ParseLcp(const std::string& text, const std::string& origin) {
  return CatchParseFailures<LcpProblem>(origin, [&] {
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) throw ParseFailure(1, "", "file is empty");
    LcpProblem p;
    if (text[first] == '{') {
      p = ParseJson(text);
    } else {
      TokenReader in(text);
      p = ParseSiconos(in);
    }
    if (p.name.empty()) p.name = std::filesystem::path(origin).filename().string();
    if (const std::string defect = ValidateLcp(p); !defect.empty()) {
      throw ParseFailure(0, "", defect);
    }
    return p;
  });
}

Expected<LcpProblem> ReadLcpFile(const std::string& path) {
  Expected<std::string> text = io::ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseLcp(text.value(), path);
}

std::string FormatLcp(const LcpProblem& problem, LcpFileFormat format) {
  const Eigen::Index n = problem.q.size();
  std::string out;
  if (format == LcpFileFormat::kJson) {
    nlohmann::json doc;
    doc["format"] = "coulomb-lcp";
    doc["version"] = 1;
    doc["name"] = problem.name;
    doc["M"] = nlohmann::json::array();
    for (Eigen::Index i = 0; i < n; ++i) {
      nlohmann::json row = nlohmann::json::array();
      for (Eigen::Index j = 0; j < n; ++j) row.push_back(problem.M(i, j));
      doc["M"].push_back(row);
    }
    doc["q"] = std::vector<double>(problem.q.data(), problem.q.data() + n);
    return doc.dump(1) + "\n";
  }
  // Siconos dense layout; %.17g round-trips every double exactly.
  out += fmt::format("{}\n0\n{} {}\n{} {}\n", n, n, n, n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index i = 0; i < n; ++i) out += fmt::format("{:.17g} ", problem.M(i, j));
    out += "\n";
  }
  for (Eigen::Index i = 0; i < n; ++i) out += fmt::format("{:.17g} ", problem.q[i]);
  out += "\n";
  return out;
}

std::optional<InputError> WriteLcpFile(const LcpProblem& problem, const std::string& path,
                                       LcpFileFormat format, bool overwrite) {
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec)) {
    return InputError{path, 0, "", "already exists; refusing to overwrite it"};
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return InputError{path, 0, "", "cannot be opened for writing"};
  out << FormatLcp(problem, format);
  if (!out) return InputError{path, 0, "", "write failed (disk full?)"};
  return std::nullopt;
}

}  // namespace coulomb
