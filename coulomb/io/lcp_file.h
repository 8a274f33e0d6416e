#pragma once
// Reading and writing LCP problem files.
//
// Two formats (docs/lcp-format.md):
//  * Siconos numerics `.dat`: n, a NumericsMatrix (dense column-major, storage 0, or sparse
//    block, storage 1), then q; anything after q is a free-text comment and is ignored.
//  * Coulomb JSON: {"format": "coulomb-lcp", "version": 1, "name": "...", "M": [[...], ...]
//    (row-major), "q": [...]}.
// The reader detects the format from the first non-blank character ('{' means JSON).
// Every defect (truncation, NaN/Inf, non-square M, wrong sizes, unknown storage) is returned as
// an InputError naming the file, line and field.

#include <optional>
#include <string>

#include "coulomb/base/error.h"
#include "coulomb/complementarity/lcp_problem.h"

namespace coulomb {

enum class LcpFileFormat { kSiconosDat, kJson };

// Largest n accepted for dense storage (n² doubles; 20000 is 3.2 GB).
inline constexpr int kMaxLcpFileSize = 20000;

Expected<LcpProblem> ReadLcpFile(const std::string& path);
// Parses file contents; `origin` names the source in error messages.
Expected<LcpProblem> ParseLcp(const std::string& text, const std::string& origin);

// Writes `problem`; refuses to replace an existing file unless `overwrite` (returns the error).
std::optional<InputError> WriteLcpFile(const LcpProblem& problem, const std::string& path,
                                       LcpFileFormat format, bool overwrite = false);
std::string FormatLcp(const LcpProblem& problem, LcpFileFormat format);

}  // namespace coulomb
