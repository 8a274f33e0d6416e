#pragma once
// Checked reading of the small HDF5 datasets of problem files (FCLib), with libhdf5 kept out of
// the calling process.
//
// Why a child process: Debian 12's libhdf5 (1.10.8) can itself crash on a damaged file — a
// corrupted chunk layout divides by zero inside H5Dopen2 (found by fuzz_fclib, kept as
// fuzz/regressions/fuzz_fclib/hdf5_chunk_divide_by_zero.hdf5) — and can leak on its error paths.
// No check before the call can rule that out, so the file is read in a forked child that walks the
// groups asked for and sends every dataset's class, shape and values back through a pipe. A
// crash, a hang (5 s plus 1 s per MiB of the file) or an oversized answer ends the child, not the
// program, and becomes an InputError. All validation happens here, in the caller's process, on
// plain vectors.
//
// Why not libfclib's reader: it checks each HDF5 call with a macro that prints and calls exit(1),
// so one malformed dataset ends the whole process (docs/fuzzing.md).
//
// Every read checks that the dataset exists, has the expected class (integer, float or string),
// is a scalar or a vector, is of the size asked for, and holds no more entries than its storage
// can (a forged header can declare 10⁹ entries in a 10 kB file); anything else is an InputError
// naming the dataset's path.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "coulomb/base/error.h"

namespace coulomb::io {

// One object of the file as the child saw it.
struct Hdf5Object {
  enum class Kind : std::uint8_t { kGroup, kInteger, kFloat, kString, kOther };
  Kind kind = Kind::kOther;
  int rank = 0;
  std::int64_t count = 0;  // entries (1 for a scalar)
  std::vector<std::int64_t> integers;
  std::vector<double> doubles;
  std::string text;
  std::string defect;  // why its values were not read ("" when they were)
};

class Hdf5Reader {
 public:
  // Reads every group and dataset under the given absolute roots (e.g. "/fclib_local"); roots
  // that are missing are simply absent. Check `error()` before reading.
  Hdf5Reader(const std::string& path, const std::vector<std::string>& roots);

  const std::optional<InputError>& error() const { return error_; }

  // Whether a group or dataset exists at this absolute path, e.g. "/fclib_local/W".
  bool Exists(const std::string& object) const { return objects_.count(object) > 0; }

  // A vector (or scalar, as one entry) of integers or doubles. `expected` ≥ 0 demands exactly
  // that many entries; -1 takes what the dataset holds.
  Expected<std::vector<std::int64_t>> ReadIntegers(const std::string& dataset,
                                                   std::int64_t expected = -1) const;
  Expected<std::vector<double>> ReadDoubles(const std::string& dataset,
                                            std::int64_t expected = -1) const;
  // One integer (a scalar or a one-entry vector).
  Expected<std::int64_t> ReadInteger(const std::string& dataset) const;
  // A scalar string, fixed or variable length.
  Expected<std::string> ReadString(const std::string& dataset) const;

 private:
  InputError Error(const std::string& dataset, const std::string& reason) const {
    return InputError{path_, 0, dataset, reason};
  }
  // The dataset if it is of this kind, a scalar or vector, with `expected` entries (if ≥ 0).
  Expected<const Hdf5Object*> Find(const std::string& dataset, Hdf5Object::Kind kind,
                                   std::int64_t expected) const;

  std::string path_;
  std::map<std::string, Hdf5Object> objects_;
  std::optional<InputError> error_;
};

}  // namespace coulomb::io
