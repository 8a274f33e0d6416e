#include "coulomb/io/checkpoint_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <type_traits>

#include "coulomb/base/fnv_hash.h"
#include "coulomb/io/text_file.h"

namespace coulomb::io {
namespace {

constexpr char kMagic[8] = {'C', 'L', 'M', 'B', 'C', 'K', 'P', 'T'};
constexpr std::uint32_t kByteOrderMark = 0x01020304;
constexpr std::size_t kHeaderSize = sizeof(kMagic) + 4 + 4 + 8;

// Appends plain values as their bytes. Every field of the payload goes through Put, so the
// reader below mirrors it field for field.
class ByteWriter {
 public:
  template <class T>
  void Put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    bytes_.append(p, sizeof(T));
  }
  void Put(const std::string& s) {
    Put(static_cast<std::uint64_t>(s.size()));
    bytes_.append(s);
  }
  // An empty vector's data() may be null, which memcpy must not be given even for 0 bytes.
  void Put(const double* data, std::size_t n) {
    if (n > 0) bytes_.append(reinterpret_cast<const char*>(data), n * sizeof(double));
  }
  void Put(const int* data, std::size_t n) {
    if (n > 0) bytes_.append(reinterpret_cast<const char*>(data), n * sizeof(int));
  }
  void Put(const Eigen::VectorXd& v) {
    Put(static_cast<std::uint64_t>(v.size()));
    Put(v.data(), static_cast<std::size_t>(v.size()));
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// Reads what ByteWriter wrote; every read checks that the bytes are there, and a count is
// checked against the bytes left before anything is allocated for it (a corrupted count must
// not ask for gigabytes).
class ByteReader {
 public:
  ByteReader(const std::string& bytes, std::size_t begin, std::size_t end)
      : bytes_(bytes), at_(begin), end_(end) {}
  bool ok() const { return ok_; }
  const std::string& field() const { return field_; }
  template <class T>
  T Get(const char* field) {
    static_assert(std::is_trivially_copyable_v<T>);
    T value{};
    if (Take(sizeof(T), field)) std::memcpy(&value, bytes_.data() + at_ - sizeof(T), sizeof(T));
    return value;
  }
  std::string GetString(const char* field) {
    const std::uint64_t n = Count(field, 1);
    if (!Take(n, field)) return {};
    return bytes_.substr(at_ - n, n);
  }
  void GetDoubles(double* out, std::size_t n, const char* field) {
    if (Take(n * sizeof(double), field) && n > 0)
      std::memcpy(out, bytes_.data() + at_ - n * sizeof(double), n * sizeof(double));
  }
  void GetInts(int* out, std::size_t n, const char* field) {
    if (Take(n * sizeof(int), field) && n > 0)
      std::memcpy(out, bytes_.data() + at_ - n * sizeof(int), n * sizeof(int));
  }
  Eigen::VectorXd GetVector(const char* field) {
    const std::uint64_t n = Count(field, sizeof(double));
    Eigen::VectorXd v(static_cast<Eigen::Index>(n));
    GetDoubles(v.data(), n, field);
    return v;
  }
  // A count of items of at least `item_bytes` each, no more than the bytes left can hold.
  std::uint64_t Count(const char* field, std::size_t item_bytes) {
    const auto n = Get<std::uint64_t>(field);
    if (ok_ && n > (end_ - at_) / item_bytes) Fail(field);
    return ok_ ? n : 0;
  }
  bool AtEnd() const { return at_ == end_; }

 private:
  bool Take(std::size_t n, const char* field) {
    if (!ok_) return false;
    if (n > end_ - at_) {
      Fail(field);
      return false;
    }
    at_ += n;
    return true;
  }
  void Fail(const char* field) {
    if (ok_) field_ = field;
    ok_ = false;
  }
  const std::string& bytes_;
  std::size_t at_, end_;
  bool ok_ = true;
  std::string field_;
};

void PutSummary(const sim::RunTally& tally, ByteWriter& w) {
  const sim::RunSummary& s = tally.summary;
  w.Put(s.scene);
  w.Put(s.formulation);
  w.Put(s.solver);
  w.Put(static_cast<std::int64_t>(s.steps));
  for (double x : {s.sim_time, s.wall_seconds, s.max_step_us, s.max_penetration}) w.Put(x);
  w.Put(static_cast<std::int64_t>(s.failed_steps));
  w.Put(s.first_failure);
  w.Put(s.solver_switch);
  w.Put(s.stopped);
  w.Put(static_cast<std::int64_t>(s.max_contacts));
  w.Put(static_cast<std::int64_t>(s.unsupported_pairs));
  const sim::ContactMetrics& m = s.worst;
  for (double x : {m.signorini, m.cone, m.dissipation, m.misalignment, m.gliding}) w.Put(x);
  w.Put(s.initial_energy);
  w.Put(static_cast<std::int64_t>(s.max_participating_dofs));
  for (double x : {tally.contacts_sum, tally.iterations_sum, tally.factorizations_sum,
                   tally.step_seconds_sum, tally.linearizations_sum}) {
    w.Put(x);
  }
}

int GetInt(ByteReader& r, const char* field) {
  const auto n = r.Get<std::int64_t>(field);
  return n < 0 || n > std::numeric_limits<int>::max() ? -1 : static_cast<int>(n);
}

// `version`: the file's (the linearization count is stored from version 3 on).
void GetSummary(ByteReader& r, std::uint32_t version, sim::RunTally& tally) {
  sim::RunSummary& s = tally.summary;
  s.scene = r.GetString("summary.scene");
  s.formulation = r.GetString("summary.formulation");
  s.solver = r.GetString("summary.solver");
  s.steps = GetInt(r, "summary.steps");
  for (double* x : {&s.sim_time, &s.wall_seconds, &s.max_step_us, &s.max_penetration})
    *x = r.Get<double>("summary");
  s.failed_steps = GetInt(r, "summary.failed_steps");
  s.first_failure = r.GetString("summary.first_failure");
  s.solver_switch = r.GetString("summary.solver_switch");
  s.stopped = r.GetString("summary.stopped");
  s.max_contacts = GetInt(r, "summary.max_contacts");
  s.unsupported_pairs = GetInt(r, "summary.unsupported_pairs");
  sim::ContactMetrics& m = s.worst;
  for (double* x : {&m.signorini, &m.cone, &m.dissipation, &m.misalignment, &m.gliding})
    *x = r.Get<double>("summary.worst");
  s.initial_energy = r.Get<double>("summary.initial_energy");
  s.max_participating_dofs = GetInt(r, "summary.max_participating_dofs");
  for (double* x : {&tally.contacts_sum, &tally.iterations_sum, &tally.factorizations_sum,
                    &tally.step_seconds_sum}) {
    *x = r.Get<double>("summary sums");
  }
  if (version >= 3) tally.linearizations_sum = r.Get<double>("summary sums");
}

void PutFactorSource(const math::CholeskySource& source, ByteWriter& w) {
  Eigen::SparseMatrix<double> lower = source.lower;
  lower.makeCompressed();
  w.Put(static_cast<std::uint64_t>(lower.rows()));
  w.Put(static_cast<std::uint64_t>(lower.cols()));
  w.Put(static_cast<std::uint64_t>(lower.nonZeros()));
  w.Put(lower.outerIndexPtr(), static_cast<std::size_t>(lower.cols()) + 1);
  w.Put(lower.innerIndexPtr(), static_cast<std::size_t>(lower.nonZeros()));
  w.Put(lower.valuePtr(), static_cast<std::size_t>(lower.nonZeros()));
  w.Put(static_cast<std::uint8_t>(source.method));
  w.Put(static_cast<std::uint8_t>(source.ordering));
  w.Put(static_cast<std::uint64_t>(source.tag.size()));
  w.Put(source.tag.data(), source.tag.size());
}

// The lagged factor's matrix; false when its structure is not that of a compressed sparse
// matrix (which only a forged file can hold: the checksum matched).
bool GetFactorSource(ByteReader& r, math::CholeskySource& source) {
  const std::uint64_t rows = r.Count("sap_factor", 1), cols = r.Count("sap_factor", sizeof(int));
  const std::uint64_t nnz = r.Count("sap_factor", sizeof(int) + sizeof(double));
  if (!r.ok()) return true;  // the reader names the field
  if (rows != cols || rows > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    return false;
  std::vector<int> outer(cols + 1), inner(nnz);
  std::vector<double> values(nnz);
  r.GetInts(outer.data(), outer.size(), "sap_factor");
  r.GetInts(inner.data(), inner.size(), "sap_factor");
  r.GetDoubles(values.data(), values.size(), "sap_factor");
  const auto method = r.Get<std::uint8_t>("sap_factor");
  const auto ordering = r.Get<std::uint8_t>("sap_factor");
  source.tag.resize(r.Count("sap_factor.tag", sizeof(int)));
  r.GetInts(source.tag.data(), source.tag.size(), "sap_factor.tag");
  if (!r.ok()) return true;
  if (method > 2 || ordering > 1 || outer[0] != 0 || outer[cols] != static_cast<int>(nnz))
    return false;
  // Every column start first: a start past nnz followed by a smaller one would otherwise index
  // inner[] out of range before the decrease is seen (found by fuzz_checkpoint).
  for (std::uint64_t c = 0; c < cols; ++c) {
    if (outer[c + 1] < outer[c]) return false;
  }
  for (std::uint64_t c = 0; c < cols; ++c) {
    for (int k = outer[c]; k < outer[c + 1]; ++k) {
      if (inner[k] < static_cast<int>(c) || inner[k] >= static_cast<int>(rows) ||
          (k > outer[c] && inner[k] <= inner[k - 1])) {
        return false;  // lower triangle, sorted, in range
      }
    }
  }
  source.method = static_cast<math::CholeskyMethod>(method);
  source.ordering = static_cast<math::FillOrdering>(ordering);
  source.lower = Eigen::Map<const Eigen::SparseMatrix<double>>(
      static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols),
      static_cast<Eigen::Index>(nnz), outer.data(), inner.data(), values.data());
  return true;
}

std::string Serialize(const CheckpointFile& file) {
  const sim::RunCheckpoint& c = file.checkpoint;
  ByteWriter w;
  w.Put(file.scene_path);
  w.Put(file.scene_hash);
  w.Put(file.formulation);
  w.Put(file.solver);
  w.Put(static_cast<std::uint64_t>(file.settings.size()));
  for (const std::string& assignment : file.settings) w.Put(assignment);
  w.Put(file.duration);
  w.Put(static_cast<std::int64_t>(c.steps_done));
  w.Put(c.initial_time);
  w.Put(c.time_step);
  w.Put(c.formulation);
  w.Put(c.q);
  w.Put(c.v);
  w.Put(static_cast<std::uint64_t>(c.contacts.size()));
  for (const sim::PersistentContact& p : c.contacts) {
    w.Put(p.pair);
    w.Put(p.point_A.data(), 3);
    w.Put(p.impulse.data(), 3);
    w.Put(p.reach);
  }
  w.Put(static_cast<std::uint64_t>(c.deformables.size()));
  for (const fem::FemState& d : c.deformables) {
    w.Put(static_cast<std::uint64_t>(d.x.cols()));
    w.Put(d.x.data(), static_cast<std::size_t>(d.x.size()));
    w.Put(d.v.data(), static_cast<std::size_t>(d.v.size()));
    w.Put(static_cast<std::uint64_t>(d.R0.size()));
    for (const Eigen::Matrix3d& R : d.R0) w.Put(R.data(), 9);
  }
  PutFactorSource(c.carried.factor, w);
  PutSummary(c.tally, w);
  return w.bytes();
}

std::string SystemError() {
  return std::strerror(errno);
}

}  // namespace

Expected<std::uint64_t> HashFile(const std::string& path) {
  Expected<std::string> bytes = ReadTextFile(path);
  if (!bytes.ok()) return bytes.error();
  return Fnv1a(kFnvOffsetBasis, bytes.value().data(), bytes.value().size());
}

std::optional<InputError> WriteCheckpointFile(const std::string& path, const CheckpointFile& file) {
  const std::string payload = Serialize(file);
  std::string bytes(kMagic, sizeof(kMagic));
  const auto append = [&bytes](const auto& value) {
    bytes.append(reinterpret_cast<const char*>(&value), sizeof(value));
  };
  append(kCheckpointVersion);
  append(kByteOrderMark);
  append(static_cast<std::uint64_t>(payload.size()));
  bytes += payload;
  append(Fnv1a(kFnvOffsetBasis, payload.data(), payload.size()));
  // Write beside the target, flush to disk, then rename over it: rename is atomic, so whoever
  // reads `path` (or a run killed at any point here) sees the old checkpoint or the new one.
  const std::string temporary = fmt::format("{}.partial-{}", path, ::getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return InputError{path, 0, "", "cannot be written: " + SystemError()};
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string reason = SystemError();
      ::close(fd);
      ::unlink(temporary.c_str());
      return InputError{path, 0, "", "writing failed: " + reason};
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const std::string reason = SystemError();
    ::unlink(temporary.c_str());
    return InputError{path, 0, "", "could not be flushed to disk: " + reason};
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string reason = SystemError();
    ::unlink(temporary.c_str());
    return InputError{path, 0, "", "could not replace the previous checkpoint: " + reason};
  }
  // The rename itself is durable once the directory is flushed too.
  std::filesystem::path directory = std::filesystem::path(path).parent_path();
  if (directory.empty()) directory = ".";
  const int dir_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return std::nullopt;
}

Expected<CheckpointFile> ParseCheckpoint(const std::string& bytes, const std::string& path) {
  if (bytes.empty()) return InputError{path, 0, "", "the file is empty: not a checkpoint"};
  if (bytes.size() < sizeof(kMagic) && std::memcmp(bytes.data(), kMagic, bytes.size()) == 0) {
    return InputError{path, 0, "header", "truncated: the file ends inside its header"};
  }
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    return InputError{path, 0, "", "not a Coulomb checkpoint (it does not start with CLMBCKPT)"};
  }
  if (bytes.size() < kHeaderSize) {
    return InputError{path, 0, "header", "truncated: the file ends inside its header"};
  }
  std::uint32_t version = 0, mark = 0;
  std::uint64_t size = 0;
  std::memcpy(&version, bytes.data() + 8, 4);
  std::memcpy(&mark, bytes.data() + 12, 4);
  std::memcpy(&size, bytes.data() + 16, 8);
  if (mark != kByteOrderMark) {
    return InputError{path, 0, "byte order",
                      "written on a machine of the other byte order; it cannot be resumed here"};
  }
  if (version < 1 || version > kCheckpointVersion) {
    return InputError{path, 0, "version",
                      fmt::format("{}, and this coulomb reads versions 1 to {} (resume it with "
                                  "the coulomb that wrote it)",
                                  version, kCheckpointVersion)};
  }
  if (size > bytes.size() - kHeaderSize || bytes.size() - kHeaderSize - size < 8) {
    return InputError{path, 0, "",
                      fmt::format("truncated: {} bytes, and its header announces {}", bytes.size(),
                                  size > std::numeric_limits<std::uint64_t>::max() - kHeaderSize - 8
                                      ? std::string("more than fit in memory")
                                      : std::to_string(kHeaderSize + size + 8))};
  }
  if (bytes.size() != kHeaderSize + size + 8) {
    return InputError{path, 0, "",
                      fmt::format("{} bytes after its end: not one checkpoint",
                                  bytes.size() - kHeaderSize - size - 8)};
  }
  std::uint64_t checksum = 0;
  std::memcpy(&checksum, bytes.data() + kHeaderSize + size, 8);
  if (checksum != Fnv1a(kFnvOffsetBasis, bytes.data() + kHeaderSize, size)) {
    return InputError{path, 0, "checksum", "does not match: the file is corrupted"};
  }
  CheckpointFile file;
  sim::RunCheckpoint& c = file.checkpoint;
  ByteReader r(bytes, kHeaderSize, kHeaderSize + size);
  file.scene_path = r.GetString("scene_path");
  file.scene_hash = r.Get<std::uint64_t>("scene_hash");
  file.formulation = r.GetString("formulation");
  file.solver = r.GetString("solver");
  if (version >= 2) {
    file.settings.resize(r.Count("settings", 8));
    for (std::string& assignment : file.settings) assignment = r.GetString("settings");
  }
  file.duration = r.Get<double>("duration");
  c.steps_done = GetInt(r, "steps_done");
  c.initial_time = r.Get<double>("initial_time");
  c.time_step = r.Get<double>("time_step");
  c.formulation = r.GetString("formulation");
  c.q = r.GetVector("q");
  c.v = r.GetVector("v");
  constexpr std::size_t kContactBytes = 8 + 7 * sizeof(double);
  c.contacts.resize(r.Count("contacts", kContactBytes));
  for (sim::PersistentContact& p : c.contacts) {
    p.pair = r.Get<std::uint64_t>("contacts");
    r.GetDoubles(p.point_A.data(), 3, "contacts");
    r.GetDoubles(p.impulse.data(), 3, "contacts");
    p.reach = r.Get<double>("contacts");
  }
  c.deformables.resize(r.Count("deformables", 16));
  for (fem::FemState& d : c.deformables) {
    const std::uint64_t vertices = r.Count("deformables", 6 * sizeof(double));
    d.x.resize(3, static_cast<Eigen::Index>(vertices));
    d.v.resize(3, static_cast<Eigen::Index>(vertices));
    r.GetDoubles(d.x.data(), 3 * vertices, "deformables.x");
    r.GetDoubles(d.v.data(), 3 * vertices, "deformables.v");
    d.R0.resize(r.Count("deformables.R0", 9 * sizeof(double)));
    for (Eigen::Matrix3d& R : d.R0) r.GetDoubles(R.data(), 9, "deformables.R0");
  }
  if (!GetFactorSource(r, c.carried.factor)) {
    return InputError{path, 0, "sap_factor", "not a lower-triangular sparse matrix"};
  }
  GetSummary(r, version, c.tally);
  if (!r.ok()) {
    return InputError{path, 0, r.field(), "malformed (the checksum matched: a bug of its writer)"};
  }
  if (!r.AtEnd()) return InputError{path, 0, "", "bytes left after the last field"};
  if (c.steps_done < 0 || c.tally.summary.steps < 0 || c.tally.summary.failed_steps < 0) {
    return InputError{path, 0, "steps_done", "a negative or too large step count"};
  }
  return file;
}

Expected<CheckpointFile> ReadCheckpointFile(const std::string& path) {
  Expected<std::string> bytes = ReadTextFile(path);
  if (!bytes.ok()) return bytes.error();
  return ParseCheckpoint(bytes.value(), path);
}

}  // namespace coulomb::io
