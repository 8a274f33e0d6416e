#include "coulomb/io/lcp_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "coulomb/io/token_reader.h"

namespace coulomb {
namespace {

using io::ParseFailure;
using io::TokenReader;

std::string Entry(const char* name, Eigen::Index i, Eigen::Index j) {
  return fmt::format("{}[{}][{}]", name, i, j);
}

// Dense NumericsMatrix body: "rows cols" again, then values column by column.
void ReadDense(TokenReader& in, int n, Eigen::MatrixXd& M) {
  in.NextInt("M dense rows", n, n);
  in.NextInt("M dense columns", n, n);
  if (static_cast<double>(n) * n > static_cast<double>(in.size())) {
    throw ParseFailure(in.line(), "M",
                       fmt::format("file too short for {} x {} dense values", n, n));
  }
  M.resize(n, n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) M(i, j) = in.NextDouble(Entry("M", i, j));
  }
}

// Sparse block (SBM) NumericsMatrix body, as Siconos' SparseBlockMatrix writes it.
void ReadSparseBlock(TokenReader& in, int n, Eigen::MatrixXd& M) {
  M.setZero(n, n);
  const auto blocks = in.NextInt("SBM nbblocks", 0, std::int64_t{n} * n);
  if (blocks == 0) return;
  const auto block_rows = in.NextInt("SBM blocknumber0", 1, n);
  const auto block_cols = in.NextInt("SBM blocknumber1", 1, n);
  std::vector<std::int64_t> row_end(block_rows), col_end(block_cols);
  for (auto& r : row_end) r = in.NextInt("SBM blocksize0 (cumulative row sizes)", 1, n);
  for (auto& c : col_end) c = in.NextInt("SBM blocksize1 (cumulative column sizes)", 1, n);
  for (std::size_t k = 1; k < row_end.size(); ++k) {
    if (row_end[k] <= row_end[k - 1])
      throw ParseFailure(in.line(), "SBM blocksize0", "not increasing");
  }
  for (std::size_t k = 1; k < col_end.size(); ++k) {
    if (col_end[k] <= col_end[k - 1])
      throw ParseFailure(in.line(), "SBM blocksize1", "not increasing");
  }
  if (row_end.back() != n || col_end.back() != n) {
    throw ParseFailure(in.line(), "SBM block sizes", fmt::format("do not add up to n = {}", n));
  }
  const auto filled1 = in.NextInt("SBM filled1", block_rows + 1, block_rows + 1);
  const auto filled2 = in.NextInt("SBM filled2", blocks, blocks);
  std::vector<std::int64_t> row_ptr(filled1), col_index(filled2);
  for (auto& p : row_ptr) p = in.NextInt("SBM index1_data", 0, filled2);
  for (auto& c : col_index) c = in.NextInt("SBM index2_data", 0, block_cols - 1);
  if (row_ptr.front() != 0 || row_ptr.back() != filled2) {
    throw ParseFailure(in.line(), "SBM index1_data", "row pointers must run from 0 to filled2");
  }
  for (std::int64_t br = 0; br < block_rows; ++br) {
    if (row_ptr[br + 1] < row_ptr[br])
      throw ParseFailure(in.line(), "SBM index1_data", "decreasing");
    const std::int64_t r0 = br == 0 ? 0 : row_end[br - 1];
    const std::int64_t rows = row_end[br] - r0;
    for (std::int64_t k = row_ptr[br]; k < row_ptr[br + 1]; ++k) {
      in.NextInt(fmt::format("SBM block {} number", k), 0, std::int64_t{1} << 40);
      const std::int64_t bc = col_index[k];
      const std::int64_t c0 = bc == 0 ? 0 : col_end[bc - 1];
      const std::int64_t cols = col_end[bc] - c0;
      for (std::int64_t j = 0; j < cols; ++j) {
        for (std::int64_t i = 0; i < rows; ++i) {
          M(r0 + i, c0 + j) = in.NextDouble(Entry("M", r0 + i, c0 + j));
        }
      }
    }
  }
}

LcpProblem ParseSiconos(TokenReader& in) {
  LcpProblem p;
  const int n = static_cast<int>(in.NextInt("n (problem size)", 1, kMaxLcpFileSize));
  const auto storage = in.NextInt("M storage type", 0, 2);
  const auto rows = in.NextInt("M rows", 0, kMaxLcpFileSize);
  const auto cols = in.NextInt("M columns", 0, kMaxLcpFileSize);
  if (rows != cols) {
    throw ParseFailure(in.line(), "M", fmt::format("M is {} x {}, not square", rows, cols));
  }
  if (rows != n) {
    throw ParseFailure(in.line(), "M", fmt::format("M is {0} x {0} but n = {1}", rows, n));
  }
  if (storage == 0) {
    ReadDense(in, n, p.M);
  } else if (storage == 1) {
    ReadSparseBlock(in, n, p.M);
  } else {
    throw ParseFailure(in.line(), "M storage type",
                       "sparse (CSparse, type 2) storage is not supported for LCP files; "
                       "write M dense (0) or sparse-block (1)");
  }
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
  }
  if (!doc.is_object()) throw ParseFailure(1, "", "top level must be a JSON object");
  if (doc.value("format", "") != "coulomb-lcp") {
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
    for (Eigen::Index j = 0; j < n; ++j) p.M(i, j) = number(M[i][j], Entry("M", i, j));
  }
  return p;
}

}  // namespace

Expected<LcpProblem> ParseLcp(const std::string& text, const std::string& origin) {
  try {
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
  } catch (const ParseFailure& e) {
    return InputError{origin, e.line, e.field, e.what()};
  } catch (const std::bad_alloc&) {
    return InputError{origin, 0, "", "out of memory while reading the problem"};
  }
}

Expected<LcpProblem> ReadLcpFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return InputError{path, 0, "", ec ? ec.message() : "no such file (or not a regular file)"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return InputError{path, 0, "", "cannot be opened for reading"};
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return ParseLcp(buffer.str(), path);
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
