#include "apps/coulomb/lcp_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace coulomb::app {
nlohmann::json JsonNumber(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

std::string FormatDuration(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.1f} us", seconds * 1e6);
  if (seconds < 1.0) return fmt::format("{:.2f} ms", seconds * 1e3);
  return fmt::format("{:.2f} s", seconds);
}

std::string FormatTableHeader(const LcpProblem& problem) {
  return fmt::format("problem {} (n = {})\n{:<20} {:<27} {:>8} {:>8} {:>10} {:>10}\n", problem.name,
                     problem.size(), "solver", "status", "iters", "restarts", "residual", "time");
}

std::string FormatTableRow(const LcpResult& r) {
  const std::string residual =
      r.certificate.finite ? fmt::format("{:.2e}", r.certificate.Worst()) : std::string("-");
  std::string row =
      fmt::format("{:<20} {:<27} {:>8} {:>8} {:>10} {:>10}\n", r.solver, ToString(r.status),
                  r.iterations, r.restarts, residual, FormatDuration(r.seconds));
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
  j["residual"] = r.certificate.finite ? JsonNumber(r.certificate.Worst()) : nlohmann::json();
  j["certificate"] = {
      {"natural_residual", JsonNumber(r.certificate.natural_residual)},
      {"z_infeasibility", JsonNumber(r.certificate.z_infeasibility)},
      {"w_infeasibility", JsonNumber(r.certificate.w_infeasibility)},
      {"complementarity", JsonNumber(r.certificate.complementarity)},
      {"mean_gap", JsonNumber(r.certificate.mean_gap)},
      {"finite", r.certificate.finite},
  };
  j["seconds"] = r.seconds;
  j["message"] = r.message;
  nlohmann::json z = nlohmann::json::array();
  for (Eigen::Index i = 0; i < r.z.size(); ++i) z.push_back(JsonNumber(r.z[i]));
  j["z"] = z;
  return j.dump() + "\n";
}

}  // namespace coulomb::app
