#include "coulomb/io/friction_contact_file.h"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "coulomb/io/fclib_file.h"
#include "coulomb/io/numerics_matrix.h"
#include "coulomb/io/text_file.h"
#include "coulomb/io/token_reader.h"

namespace coulomb {

bool IsHdf5File(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  return in.gcount() == 8 && std::memcmp(magic, "\x89HDF\r\n\x1a\n", 8) == 0;
}

ProblemFileKind DetectProblemFileKind(const std::string& path) {
  if (IsHdf5File(path)) return ProblemFileKind::kFrictionContact;
  std::ifstream in(path);
  long long header[5] = {};
  for (long long& value : header) {
    if (!(in >> value)) return ProblemFileKind::kLcp;
  }
  // Dimension 2 is recognized too, so that the reader can say 2D is unsupported; so is a square
  // matrix larger than dim · n_c (Siconos' global GFC3D files), so that it can say those are not
  // read, rather than the LCP reader reporting a confusing defect.
  const long long dim = header[0];
  const bool frictional = (dim == 2 || dim == 3) && header[1] >= 1 && header[2] >= 0 &&
                          header[2] <= 2 && header[3] >= dim * header[1] && header[4] == header[3];
  return frictional ? ProblemFileKind::kFrictionContact : ProblemFileKind::kLcp;
}

namespace {

// The row count of the first matrix (the fourth number of the file), without consuming it.
Expected<long long> PeekMatrixRows(const std::string& text) {
  std::istringstream in(text);
  long long v[4] = {};
  for (long long& x : v) {
    if (!(in >> x)) return InputError{"", 0, "", "short header"};
  }
  return v[3];
}

}  // namespace

Expected<FrictionContactProblem> ParseSiconosFrictionContact(const std::string& text,
                                                             const std::string& origin) {
  using io::ParseFailure;
  return io::CatchParseFailures<FrictionContactProblem>(origin, [&] {
    io::TokenReader in(text);
    const auto dimension = in.NextInt("dimension", 2, 3);
    if (dimension != 3) {
      throw ParseFailure(in.line(), "dimension",
                         "2D frictional contact problems are not supported (3 expected)");
    }
    constexpr std::int64_t kMaxContacts = 6000;  // W dense: (3 n_c)² doubles
    const int nc = static_cast<int>(in.NextInt("number of contacts", 1, kMaxContacts));
    if (Expected<long long> rows = PeekMatrixRows(text); rows.ok() && rows.value() != 3 * nc) {
      throw ParseFailure(in.line(), "W",
                         fmt::format("{} rows for {} contacts: a global (GFC3D) problem; "
                                     "Siconos' global .dat files are not read (FCLib global "
                                     "HDF5 files are)",
                                     rows.value(), nc));
    }
    FrictionContactProblem p;
    Eigen::MatrixXd W;
    io::ReadNumericsMatrix(in, 3 * nc, "W", W);
    p.W = W.sparseView();
    p.q.resize(3 * nc);
    for (int i = 0; i < 3 * nc; ++i) p.q[i] = in.NextDouble(fmt::format("q[{}]", i));
    p.mu.resize(nc);
    for (int i = 0; i < nc; ++i) p.mu[i] = in.NextDouble(fmt::format("mu[{}]", i));
    // Siconos may end the file with one 0/1 flag; anything more is a global problem whose M
    // happens to be 3 n_c square and so read as local up to here.
    bool complete = in.AtEnd();
    if (!complete) {
      const double flag = in.NextDouble("trailing flag");
      complete = in.AtEnd() && (flag == 0 || flag == 1);
    }
    if (!complete) {
      throw ParseFailure(in.line(), "",
                         "data after μ: a global (GFC3D) problem? Siconos' global .dat files "
                         "are not read (FCLib global HDF5 files are)");
    }
    p.name = std::filesystem::path(origin).filename().string();
    if (const std::string defect = ValidateFrictionContactProblem(p); !defect.empty()) {
      throw ParseFailure(0, "", defect);
    }
    return p;
  });
}

Expected<FrictionContactProblem> ReadFrictionContactFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec) && IsHdf5File(path)) return ReadFclibFile(path);
  Expected<std::string> text = io::ReadTextFile(path);
  if (!text.ok()) return text.error();
  return ParseSiconosFrictionContact(text.value(), path);
}

}  // namespace coulomb
