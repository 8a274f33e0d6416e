#include "apps/coulomb/cone_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "apps/coulomb/lcp_report.h"

namespace coulomb::app {
namespace {

nlohmann::json Vector(const Eigen::VectorXd& x) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index i = 0; i < x.size(); ++i) out.push_back(JsonNumber(x[i]));
  return out;
}

}  // namespace

std::string FormatConeTableHeader(const FrictionContactProblem& problem) {
  return fmt::format(
      "problem {} (frictional contact, {} contacts)\n{:<20} {:<16} {:>8} {:>10} "
      "{:>10}\n",
      problem.name, problem.num_contacts(), "solver", "status", "iters", "error", "time");
}

std::string FormatConeTableRow(const FrictionContactResult& r) {
  std::string row =
      fmt::format("{:<20} {:<16} {:>8} {:>10.2e} {:>10}\n", r.solver, ToString(r.status),
                  r.iterations, r.error, FormatDuration(r.seconds));
  if (!r.message.empty()) row += fmt::format("  note: {}\n", r.message);
  return row;
}

std::string FormatConeJson(const FrictionContactProblem& problem, const FrictionContactResult& r) {
  nlohmann::json j;
  j["problem"] = problem.name;
  j["contacts"] = problem.num_contacts();
  j["solver"] = r.solver;
  j["status"] = std::string(ToString(r.status));
  j["iterations"] = r.iterations;
  j["error"] = JsonNumber(r.error);
  j["seconds"] = r.seconds;
  j["message"] = r.message;
  j["r"] = Vector(r.r);
  j["u"] = Vector(r.u);
  return j.dump() + "\n";
}

}  // namespace coulomb::app
