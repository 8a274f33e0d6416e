#include "coulomb/sweep/sweep_table.h"

#include <fmt/format.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "coulomb/io/checkpoint_file.h"
#include "coulomb/io/text_file.h"

namespace coulomb::sweep {
namespace fs = std::filesystem;

namespace {

constexpr const char* kJournal = "runs.csv";
constexpr const char* kManifest = "sweep.json";
// Files of a sweep's folder that --force may delete (nothing else there is touched).
constexpr const char* kOwnedFiles[] = {"runs.csv", "results.csv", "results.h5",
                                       "sweep.md", "sweep.json",  "sweep.yaml"};

std::string Quote(const std::string& field) {
  const bool plain = field.find_first_of(",\"\n\r") == std::string::npos;
  if (plain) return field;
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out += '"';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + "\"";
}

std::string Hex(std::uint64_t x) {
  return fmt::format("{:016x}", x);
}

nlohmann::json Manifest(const SweepDefinition& sweep, std::uint64_t sweep_hash,
                        std::uint64_t scene_hash) {
  nlohmann::json j;
  j["coulomb_sweep"] = 1;
  j["name"] = sweep.name;
  j["sweep_file"] = sweep.path;
  j["sweep_hash"] = Hex(sweep_hash);
  j["scene_file"] = sweep.scene_path;
  j["scene_hash"] = Hex(scene_hash);
  j["runs"] = sweep.NumRuns();
  j["columns"] = SweepColumns(sweep);
  return j;
}

// "" when the folder's manifest is this sweep's, else what differs.
std::string CompareManifest(const std::string& path, const nlohmann::json& expected) {
  Expected<std::string> text = io::ReadTextFile(path);
  if (!text.ok()) return text.error().ToString();
  nlohmann::json found;
  try {
    found = nlohmann::json::parse(text.value());
  } catch (const nlohmann::json::exception& e) {
    return fmt::format("{} is not JSON ({})", path, e.what());
  }
  for (const char* key : {"sweep_hash", "scene_hash", "runs", "columns"}) {
    if (!found.contains(key) || found[key] != expected[key]) {
      return fmt::format(
          "{}: '{}' differs (the sweep file or its scene changed since these "
          "results were started)",
          path, key);
    }
  }
  return "";
}

std::string WriteTextAtomically(const fs::path& path, const std::string& text) {
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    out << text;
    if (!out) return fmt::format("{}: cannot write", temporary.string());
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  return ec ? fmt::format("{}: {}", path.string(), ec.message()) : "";
}

// Drops a last line without its line break: a row being written when the sweep was killed.
std::string TrimPartialLastRow(const fs::path& journal) {
  Expected<std::string> text = io::ReadTextFile(journal.string());
  if (!text.ok()) return text.error().ToString();
  const std::string& t = text.value();
  if (t.empty() || t.back() == '\n') return "";
  const std::size_t keep = t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1;
  std::error_code ec;
  fs::resize_file(journal, keep, ec);
  return ec ? fmt::format("{}: {}", journal.string(), ec.message()) : "";
}

}  // namespace

std::string FormatCsvLine(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (k > 0) line += ',';
    line += Quote(fields[k]);
  }
  return line;
}

std::string FormatCsvRow(const SweepRow& row) {
  std::vector<std::string> fields = {std::to_string(row.index), std::to_string(row.point),
                                     std::to_string(row.repeat)};
  for (const std::string& v : row.values) fields.push_back(v);
  fields.push_back(row.status);
  fields.push_back(row.reason);
  for (const double x : row.metrics) fields.push_back(std::isnan(x) ? "" : FormatNumber(x));
  fields.push_back(fmt::format("{:.6f}", row.wall_seconds));
  fields.push_back(Hex(row.state_hash));
  return FormatCsvLine(fields);
}

std::optional<std::vector<std::string>> ParseCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (quoted) {
      if (c == '"' && k + 1 < line.size() && line[k + 1] == '"') {
        fields.back() += '"';
        ++k;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"' && fields.back().empty()) {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) return std::nullopt;
  return fields;
}

std::optional<InputError> SweepJournal::Open(const SweepDefinition& sweep,
                                             const std::string& directory, JournalMode mode) {
  directory_ = directory;
  const fs::path dir(directory);
  const auto fail = [&](const std::string& reason) { return InputError{directory, 0, "", reason}; };
  Expected<std::uint64_t> sweep_hash = io::HashFile(sweep.path);
  if (!sweep_hash.ok()) return sweep_hash.error();
  Expected<std::uint64_t> scene_hash = io::HashFile(sweep.scene_path);
  if (!scene_hash.ok()) return scene_hash.error();
  const nlohmann::json manifest = Manifest(sweep, sweep_hash.value(), scene_hash.value());
  std::error_code ec;
  const bool has_results = fs::exists(dir / kJournal, ec) || fs::exists(dir / kManifest, ec);
  if (mode == JournalMode::kNew && has_results) {
    return fail(
        "already holds a sweep's results (--resume continues them, --force replaces "
        "them)");
  }
  if (mode == JournalMode::kResume && !has_results) {
    return fail("--resume: no sweep results here to continue (runs.csv, sweep.json)");
  }
  if (mode == JournalMode::kReplace) {
    for (const char* name : kOwnedFiles) fs::remove(dir / name, ec);
    fs::remove_all(dir / "plots", ec);
  }
  fs::create_directories(dir, ec);
  if (ec || ::access(dir.c_str(), W_OK) != 0) {
    return fail("cannot create or write this folder");
  }
  done_.assign(sweep.NumRuns(), false);
  const std::vector<std::string> columns = SweepColumns(sweep);
  if (mode == JournalMode::kResume) {
    if (std::string why = CompareManifest((dir / kManifest).string(), manifest); !why.empty()) {
      return fail("--resume: " + why + "; --force starts the sweep over");
    }
    if (std::string why = TrimPartialLastRow(dir / kJournal); !why.empty()) return fail(why);
    const JournalRows rows = ReadJournal(directory);
    if (!rows.error.empty()) return fail(rows.error);
    for (const auto& r : rows.rows) {
      const int index = std::stoi(r[0]);
      if (index >= sweep.NumRuns())
        return fail(fmt::format("runs.csv: run {} of {} runs", index, sweep.NumRuns()));
      if (!done_[index]) ++done_count_;
      done_[index] = true;
    }
  } else {
    if (std::string e = WriteTextAtomically(dir / kManifest, manifest.dump(2) + "\n"); !e.empty()) {
      return fail(e);
    }
    Expected<std::string> text = io::ReadTextFile(sweep.path);
    if (!text.ok()) return text.error();
    if (std::string e = WriteTextAtomically(dir / "sweep.yaml", text.value()); !e.empty()) {
      return fail(e);
    }
  }
  file_ = std::fopen((dir / kJournal).c_str(), "a");
  if (file_ == nullptr) return fail("cannot open runs.csv for appending");
  if (mode != JournalMode::kResume) {
    if (!Append(FormatCsvLine(columns)).empty()) return fail("cannot write runs.csv");
  }
  return std::nullopt;
}

SweepJournal::~SweepJournal() {
  Close();
}

std::string SweepJournal::Append(const std::string& csv_line) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (file_ == nullptr) return "the journal is closed";
  // One write of the whole line, so a kill leaves at most one partial last line.
  const std::string line = csv_line + "\n";
  if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0) {
    return fmt::format("{}/{}: write failed", directory_, kJournal);
  }
  // Flushed to the kernel survives a killed process; synced survives a lost machine.
  if (clock_.Seconds() - last_sync_ > 0.5) {
    ::fdatasync(fileno(file_));
    last_sync_ = clock_.Seconds();
  }
  return "";
}

void SweepJournal::Close() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (file_ == nullptr) return;
  std::fflush(file_);
  ::fdatasync(fileno(file_));
  std::fclose(file_);
  file_ = nullptr;
}

JournalRows ReadJournal(const std::string& directory) {
  JournalRows table;
  const std::string path = (fs::path(directory) / kJournal).string();
  std::ifstream in(path);
  if (!in) {
    table.error = path + ": cannot be read";
    return table;
  }
  std::string line;
  int line_number = 0;
  std::map<int, std::vector<std::string>> by_index;
  while (std::getline(in, line)) {
    ++line_number;
    std::optional<std::vector<std::string>> fields = ParseCsvLine(line);
    if (!fields) {
      table.error = fmt::format("{}:{}: broken quoting", path, line_number);
      return table;
    }
    if (line_number == 1) {
      table.columns = *fields;
      continue;
    }
    if (fields->size() != table.columns.size()) {
      table.error = fmt::format("{}:{}: {} fields, the header has {}", path, line_number,
                                fields->size(), table.columns.size());
      return table;
    }
    int index = -1;
    try {
      index = std::stoi(fields->front());
    } catch (const std::exception&) {
      index = -1;
    }
    if (index < 0) {
      table.error =
          fmt::format("{}:{}: '{}' is not a run index", path, line_number, fields->front());
      return table;
    }
    by_index.emplace(index, std::move(*fields));  // a repeated index keeps its first row
  }
  for (auto& [index, fields] : by_index) table.rows.push_back(std::move(fields));
  return table;
}

namespace {

// Whether every row's field in this column is a number (empty cells are NaN).
bool NumericColumn(const JournalRows& table, std::size_t column) {
  bool any = false;
  for (const auto& row : table.rows) {
    const std::string& f = row[column];
    if (f.empty()) continue;
    char* end = nullptr;
    std::strtod(f.c_str(), &end);
    if (end == f.c_str() || *end != 0) return false;
    any = true;
  }
  return any || table.rows.empty();
}

std::string WriteHdf5(const fs::path& path, const JournalRows& table) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0) return path.string() + ": cannot be created";
  const hid_t group = H5Gcreate2(file, "runs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const hsize_t n = table.rows.size();
  const hid_t space = H5Screate_simple(1, &n, nullptr);
  bool ok = group >= 0 && space >= 0;
  for (std::size_t c = 0; ok && c < table.columns.size(); ++c) {
    const std::string& name = table.columns[c];
    const bool text = name == "state_hash" || !NumericColumn(table, c);
    if (text) {
      const hid_t type = H5Tcopy(H5T_C_S1);
      H5Tset_size(type, H5T_VARIABLE);
      H5Tset_cset(type, H5T_CSET_UTF8);
      std::vector<const char*> values;
      for (const auto& row : table.rows) values.push_back(row[c].c_str());
      const hid_t set =
          H5Dcreate2(group, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
      ok = set >= 0 &&
           (n == 0 || H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
      if (set >= 0) H5Dclose(set);
      H5Tclose(type);
    } else {
      std::vector<double> values;
      for (const auto& row : table.rows) {
        values.push_back(row[c].empty() ? std::nan("") : std::strtod(row[c].c_str(), nullptr));
      }
      const hid_t set = H5Dcreate2(group, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT,
                                   H5P_DEFAULT, H5P_DEFAULT);
      ok = set >= 0 && (n == 0 || H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                           values.data()) >= 0);
      if (set >= 0) H5Dclose(set);
    }
  }
  if (space >= 0) H5Sclose(space);
  if (group >= 0) H5Gclose(group);
  H5Fclose(file);
  return ok ? "" : path.string() + ": writing a dataset failed";
}

}  // namespace

std::optional<InputError> WriteResultTables(const std::string& directory,
                                            const JournalRows& table) {
  std::string csv = FormatCsvLine(table.columns) + "\n";
  for (const auto& row : table.rows) csv += FormatCsvLine(row) + "\n";
  const fs::path dir(directory);
  if (std::string e = WriteTextAtomically(dir / "results.csv", csv); !e.empty()) {
    return InputError{directory, 0, "results.csv", e};
  }
  if (std::string e = WriteHdf5(dir / "results.h5", table); !e.empty()) {
    return InputError{directory, 0, "results.h5", e};
  }
  return std::nullopt;
}

}  // namespace coulomb::sweep
