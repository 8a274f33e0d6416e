#pragma once
// How `coulomb solve` shows LCP results: an aligned table for people, JSON lines for programs.

#include <nlohmann/json.hpp>
#include <string>

#include "coulomb/complementarity/lcp_problem.h"
#include "coulomb/complementarity/lcp_result.h"

namespace coulomb::app {

std::string FormatTableHeader(const LcpProblem& problem);
std::string FormatTableRow(const LcpResult& result);
// One JSON object (single line): solver, status, iterations, restarts, residual, certificate,
// seconds, message, n, problem, z.
std::string FormatJson(const LcpProblem& problem, const LcpResult& result);

// Shared by the reports: JSON has no NaN/Inf, so non-finite numbers become null; durations read
// "12.3 us", "4.56 ms" or "1.23 s".
nlohmann::json JsonNumber(double x);
std::string FormatDuration(double seconds);

}  // namespace coulomb::app
