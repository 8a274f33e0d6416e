#include "coulomb/io/hdf5_reader.h"

#include <fmt/format.h>
#include <hdf5.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <limits>

#include "coulomb/io/answer_bytes.h"
#include "coulomb/io/isolated_call.h"

namespace coulomb::io {
namespace {

using Kind = Hdf5Object::Kind;

// A read that takes longer than kChildBaseTime plus kChildTimePerMiB for each MiB of the file is
// a hang: libhdf5 reads a sound file at hundreds of MiB/s, and on some damaged files it loops
// for ever (fuzz/regressions/fuzz_fclib/hdf5_loops_on_damaged_file.hdf5, 19 KB, never ends), so
// a fixed minute made a user wait a minute for that file's error.
constexpr std::chrono::milliseconds kChildBaseTime{5000};
constexpr std::chrono::milliseconds kChildTimePerMiB{1000};
constexpr std::int64_t kMostObjects = 100000;    // groups and datasets under the roots
constexpr std::size_t kLongestString = 1 << 20;  // a title or a description, not a payload
constexpr std::uint8_t kErrorRecord = 0xFE, kEndRecord = 0xFF;

// ---- The child: libhdf5 calls only ------------------------------------------------------------

// Closes an HDF5 identifier with its matching close function when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// The values of one dataset, or why they were not read.
Hdf5Object ReadDataset(hid_t set, std::int64_t max_entries) {
  Hdf5Object o;
  const Handle type(H5Dget_type(set), H5Tclose);
  const Handle space(H5Dget_space(set), H5Sclose);
  if (!type.ok() || !space.ok()) {
    o.defect = "HDF5 cannot read its type or shape";
    return o;
  }
  switch (H5Tget_class(type.get())) {
    case H5T_INTEGER:
      o.kind = Kind::kInteger;
      break;
    case H5T_FLOAT:
      o.kind = Kind::kFloat;
      break;
    case H5T_STRING:
      o.kind = Kind::kString;
      break;
    default:
      o.kind = Kind::kOther;
      break;
  }
  o.rank = H5Sget_simple_extent_ndims(space.get());
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  if (o.rank < 0 || points < 0) {
    o.defect = "HDF5 cannot read its shape";
    return o;
  }
  o.count = points;
  if (o.kind == Kind::kOther || o.rank > 1 || points == 0) return o;  // the caller refuses it
  if (points > max_entries) {
    o.defect = fmt::format("claims {} entries, more than a file of this size can hold", points);
    return o;
  }
  // A forged header can declare far more entries than the file stores (HDF5 then returns fill
  // values): refuse a dataset that holds no data, or 1 024 × less than it claims.
  const std::uint64_t stored = H5Dget_storage_size(set);
  const std::uint64_t claimed = static_cast<std::uint64_t>(points) * H5Tget_size(type.get());
  if (stored == 0 || claimed > 1024 * stored + 1024) {
    o.defect = fmt::format("claims {} entries but stores {} bytes", points, stored);
    return o;
  }
  herr_t read = 0;
  if (o.kind == Kind::kInteger) {
    // HDF5 converts any stored width to int64; out-of-range values are refused by range checks.
    o.integers.resize(static_cast<std::size_t>(points));
    read = H5Dread(set, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, o.integers.data());
  } else if (o.kind == Kind::kFloat) {
    o.doubles.resize(static_cast<std::size_t>(points));
    read = H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, o.doubles.data());
  } else if (points == 1) {  // strings: scalars only
    const Handle memory(H5Tcopy(H5T_C_S1), H5Tclose);
    if (H5Tis_variable_str(type.get()) > 0) {
      H5Tset_size(memory.get(), H5T_VARIABLE);
      char* text = nullptr;
      read = H5Dread(set, memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &text);
      if (read >= 0 && text != nullptr) {
        o.text.assign(text, strnlen(text, kLongestString));
        H5Dvlen_reclaim(memory.get(), space.get(), H5P_DEFAULT, &text);
      }
    } else {
      const std::size_t size = H5Tget_size(type.get());
      if (size == 0 || size > kLongestString) {
        o.defect = fmt::format("a string of {} bytes", size);
        return o;
      }
      H5Tset_size(memory.get(), size + 1);  // room for a terminator if the file pads with none
      H5Tset_strpad(memory.get(), H5T_STR_NULLTERM);
      std::string text(size + 1, '\0');
      read = H5Dread(set, memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data());
      o.text.assign(text.data(), strnlen(text.data(), text.size()));
    }
  }
  if (read < 0) {
    o = Hdf5Object{o.kind, o.rank, o.count, {}, {}, {}, "HDF5 cannot read its data (damaged?)"};
  }
  return o;
}

void PutObject(std::string& out, const std::string& name, const Hdf5Object& o) {
  Put(out, static_cast<std::uint8_t>(o.kind));
  PutText(out, name);
  Put(out, static_cast<std::int32_t>(o.rank));
  Put(out, o.count);
  PutText(out, o.defect);
  PutArray(out, o.integers);
  PutArray(out, o.doubles);
  PutText(out, o.text);
}

struct Walk {
  hid_t file;
  std::string root;
  std::int64_t max_entries;
  std::int64_t objects = 0;
  std::string* out;
};

// Records the object at `name` (absolute), reading it if it is a dataset.
void Visit(Walk& walk, const std::string& name) {
  const Handle object(H5Oopen(walk.file, name.c_str(), H5P_DEFAULT), H5Oclose);
  if (!object.ok()) {
    PutObject(*walk.out, name, Hdf5Object{Kind::kOther, 0, 0, {}, {}, {}, "HDF5 cannot open it"});
    return;
  }
  const H5I_type_t type = H5Iget_type(object.get());
  if (type == H5I_GROUP) {
    PutObject(*walk.out, name, Hdf5Object{Kind::kGroup, 0, 0, {}, {}, {}, ""});
  } else if (type == H5I_DATASET) {
    PutObject(*walk.out, name, ReadDataset(object.get(), walk.max_entries));
  } else {
    PutObject(*walk.out, name, Hdf5Object{});
  }
}

herr_t VisitLink(hid_t /*group*/, const char* name, const H5L_info_t* /*info*/, void* data) {
  Walk& walk = *static_cast<Walk*>(data);
  if (++walk.objects > kMostObjects) return 1;  // stop: the parent reports the truncation
  Visit(walk, walk.root + "/" + name);
  return 0;
}

// Whether every link of an absolute path exists (H5Lexists fails on a missing parent).
bool LinksExist(hid_t file, const std::string& object) {
  for (std::size_t slash = object.find('/', 1);; slash = object.find('/', slash + 1)) {
    if (H5Lexists(file, object.substr(0, slash).c_str(), H5P_DEFAULT) <= 0) return false;
    if (slash == std::string::npos) return true;
  }
}

// What the child sends: every object under the roots, then an end record.
std::string ReadInChild(const std::string& path, const std::vector<std::string>& roots,
                        std::int64_t max_entries) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // this process's stderr stays quiet
  std::string out;
  const Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  if (access.ok()) H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG);
  const Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, access.ok() ? access.get() : H5P_DEFAULT),
                    H5Fclose);
  if (!file.ok()) {
    Put(out, kErrorRecord);
    PutText(out, "HDF5 cannot open the file (damaged or truncated)");
    return out;
  }
  for (const std::string& root : roots) {
    if (!LinksExist(file.get(), root)) continue;
    Walk walk{file.get(), root, max_entries, 0, &out};
    Visit(walk, root);
    const Handle object(H5Oopen(file.get(), root.c_str(), H5P_DEFAULT), H5Oclose);
    if (object.ok() && H5Iget_type(object.get()) == H5I_GROUP &&
        H5Lvisit_by_name(file.get(), root.c_str(), H5_INDEX_NAME, H5_ITER_INC, VisitLink, &walk,
                         H5P_DEFAULT) < 0 &&
        walk.objects <= kMostObjects) {
      Put(out, kErrorRecord);
      PutText(out, fmt::format("HDF5 cannot list the objects under {} (damaged file)", root));
      return out;
    }
    if (walk.objects > kMostObjects) {
      Put(out, kErrorRecord);
      PutText(out, fmt::format("more than {} objects under {}", kMostObjects, root));
      return out;
    }
  }
  Put(out, kEndRecord);
  return out;
}

// ---- The parent: the child's answer ----------------------------------------------------------

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kGroup:
      return "a group";
    case Kind::kInteger:
      return "integers";
    case Kind::kFloat:
      return "floating-point numbers";
    case Kind::kString:
      return "a string";
    case Kind::kOther:
      break;
  }
  return "another type";
}

}  // namespace

Hdf5Reader::Hdf5Reader(const std::string& path, const std::vector<std::string>& roots)
    : path_(path) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  if (ec) {
    error_ = Error("", ec.message());
    return;
  }
  constexpr std::int64_t kIndexLimit = std::numeric_limits<int>::max();  // FCLib indices are int
  const std::int64_t max_entries =
      std::min<std::int64_t>(kIndexLimit, 1024 * static_cast<std::int64_t>(bytes));
  // The answer repeats the values at 8 bytes each: 64 × the file and 64 MiB more is plenty.
  const std::size_t limit = 64 * static_cast<std::size_t>(bytes) + (std::size_t{64} << 20);
  const Expected<std::string> isolated =
      RunIsolated([&] { return ReadInChild(path, roots, max_entries); }, limit,
                  kChildBaseTime + kChildTimePerMiB * static_cast<std::int64_t>(bytes >> 20));
  if (!isolated.ok()) {
    error_ = Error("", "libhdf5 " + isolated.error().reason + " reading the file (damaged?)");
    return;
  }
  const std::string& answer = isolated.value();
  AnswerCursor cursor(answer);
  for (;;) {
    std::uint8_t kind = 0;
    if (!cursor.Get(kind)) break;
    if (kind == kEndRecord) return;
    if (kind == kErrorRecord) {
      std::string reason;
      cursor.GetText(reason);
      error_ = Error("", reason);
      return;
    }
    std::string name;
    Hdf5Object o;
    o.kind =
        static_cast<Kind>(std::min<std::uint8_t>(kind, static_cast<std::uint8_t>(Kind::kOther)));
    std::int32_t rank = 0;
    if (!cursor.GetText(name) || !cursor.Get(rank) || !cursor.Get(o.count) ||
        !cursor.GetText(o.defect) || !cursor.GetArray(o.integers) || !cursor.GetArray(o.doubles) ||
        !cursor.GetText(o.text)) {
      break;
    }
    o.rank = rank;
    objects_.emplace(std::move(name), std::move(o));
  }
  objects_.clear();
  error_ = Error("", "the HDF5 reader's answer is cut short");
}

Expected<const Hdf5Object*> Hdf5Reader::Find(const std::string& dataset, Kind kind,
                                             std::int64_t expected) const {
  if (error_) return *error_;
  const auto found = objects_.find(dataset);
  if (found == objects_.end()) return Error(dataset, "missing");
  const Hdf5Object& o = found->second;
  if (o.kind != kind) {
    return Error(dataset, fmt::format("holds {}, expected {}", KindName(o.kind), KindName(kind)));
  }
  if (o.rank > 1) {
    return Error(dataset, fmt::format("has {} dimensions, expected a scalar or a vector", o.rank));
  }
  if (!o.defect.empty()) return Error(dataset, o.defect);
  if (expected >= 0 && o.count != expected) {
    return Error(dataset, fmt::format("has {} entries, expected {}", o.count, expected));
  }
  return &o;
}

Expected<std::vector<std::int64_t>> Hdf5Reader::ReadIntegers(const std::string& dataset,
                                                             std::int64_t expected) const {
  const Expected<const Hdf5Object*> o = Find(dataset, Kind::kInteger, expected);
  if (!o.ok()) return o.error();
  return o.value()->integers;
}

Expected<std::vector<double>> Hdf5Reader::ReadDoubles(const std::string& dataset,
                                                      std::int64_t expected) const {
  const Expected<const Hdf5Object*> o = Find(dataset, Kind::kFloat, expected);
  if (!o.ok()) return o.error();
  return o.value()->doubles;
}

Expected<std::int64_t> Hdf5Reader::ReadInteger(const std::string& dataset) const {
  const Expected<std::vector<std::int64_t>> values = ReadIntegers(dataset, 1);
  if (!values.ok()) return values.error();
  return values.value()[0];
}

Expected<std::string> Hdf5Reader::ReadString(const std::string& dataset) const {
  const Expected<const Hdf5Object*> o = Find(dataset, Kind::kString, 1);
  if (!o.ok()) return o.error();
  return o.value()->text;
}

}  // namespace coulomb::io
