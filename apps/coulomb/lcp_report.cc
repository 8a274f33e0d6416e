#include "apps/coulomb/lcp_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace coulomb::app {
namespace {

// JSON has no NaN/Inf: report non-finite numbers as null rather than emit invalid JSON.
nlohmann::json Number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

std::string Duration(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.1f} us", seconds * 1e6);
  if (seconds < 1.0) return fmt::format("{:.2f} ms", seconds * 1e3);
  return fmt::format("{:.2f} s", seconds);
}

}  // namespace

std::string FormatTableHeader(const LcpProblem& problem) {
  return fmt::format("problem {} (n = {})\n{:<20} {:<27} {:>8} {:>8} {:>10} {:>10}\n", problem.name,
                     problem.size(), "solver", "status", "iters", "restarts", "residual", "time");
}

std::string FormatTableRow(const LcpResult& r) {
  const std::string residual =
      r.certificate.finite ? fmt::format("{:.2e}", r.certificate.Worst()) : std::string("-");
  std::string row =
      fmt::format("{:<20} {:<27} {:>8} {:>8} {:>10} {:>10}\n", r.solver, ToString(r.status),
                  r.iterations, r.restarts, residual, Duration(r.seconds));
  if (!r.message.empty()) row += fmt::format("  note: {}\n", r.message);
  return row;
}

std::string FormatJson(const LcpProblem& problem, const LcpResult& r) {
  nlohmann::json j;
  j["problem"] = problem.name;
  j["n"] = problem.size();
  j["solver"] = r.solver;
  j["status"] = std::string(ToString(r.status));
  j["iterations"] = r.iterations;
  j["restarts"] = r.restarts;
  j["residual"] = r.certificate.finite ? Number(r.certificate.Worst()) : nlohmann::json();
  j["certificate"] = {
      {"natural_residual", Number(r.certificate.natural_residual)},
      {"z_infeasibility", Number(r.certificate.z_infeasibility)},
      {"w_infeasibility", Number(r.certificate.w_infeasibility)},
      {"complementarity", Number(r.certificate.complementarity)},
      {"mean_gap", Number(r.certificate.mean_gap)},
      {"finite", r.certificate.finite},
  };
  j["seconds"] = r.seconds;
  j["message"] = r.message;
  nlohmann::json z = nlohmann::json::array();
  for (Eigen::Index i = 0; i < r.z.size(); ++i) z.push_back(Number(r.z[i]));
  j["z"] = z;
  return j.dump() + "\n";
}

}  // namespace coulomb::app
