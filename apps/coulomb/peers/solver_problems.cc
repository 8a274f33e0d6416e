#include "apps/coulomb/peers/solver_problems.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "apps/coulomb/peers/siconos_fc3d.h"
#include "coulomb/complementarity/cone_solvers.h"
#include "coulomb/io/friction_contact_file.h"

namespace coulomb::peers {
namespace {

constexpr int kSweeps = 2000;           // NSGS sweeps, ours and Siconos'
constexpr int kNewtonIterations = 200;  // Siconos' Newton solvers
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::vector<std::string> SolverOrder(const std::vector<ProblemRun>& runs) {
  std::vector<std::string> order;
  for (const ProblemRun& r : runs) {
    if (std::find(order.begin(), order.end(), r.solver) == order.end()) order.push_back(r.solver);
  }
  return order;
}

// Time of each solver on each problem, ∞ when unsolved: the profile's raw data.
std::map<std::string, std::map<std::string, double>> TimeTable(
    const std::vector<ProblemRun>& runs) {
  std::map<std::string, std::map<std::string, double>> t;  // problem → solver → s
  for (const ProblemRun& r : runs) t[r.problem][r.solver] = r.solved ? r.seconds : kInfinity;
  return t;
}

double Median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 == 1 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace

std::vector<std::string> FrictionProblemFiles(const std::string& data_dir) {
  std::vector<std::string> files;
  for (const char* dir : {"siconos/FrictionContact", "faf", "fclib"}) {
    const std::filesystem::path path = std::filesystem::path(data_dir) / dir;
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
      const std::string ext = entry.path().extension().string();
      if (entry.is_regular_file() && (ext == ".dat" || ext == ".hdf5")) {
        files.push_back(entry.path().string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<ProblemRun> RunFrictionProblems(const std::vector<std::string>& files, double tolerance,
                                            std::vector<std::string>& skipped) {
  std::vector<ProblemRun> runs;
  ConeSolverSettings settings;
  settings.tolerance = tolerance;
  settings.nsgs.max_sweeps = kSweeps;
  for (const std::string& file : files) {
    const Expected<FrictionContactProblem> read = ReadFrictionContactFile(file);
    const std::string name = std::filesystem::path(file).filename().string();
    if (!read.ok()) {
      skipped.push_back(name + ": " + read.error().reason);
      continue;
    }
    const FrictionContactProblem& problem = read.value();
    const auto record = [&](const FrictionContactResult& result) {
      runs.push_back({name, result.solver, problem.num_contacts(),
                      result.error <= tolerance && result.r.allFinite(), result.seconds,
                      result.error, result.iterations});
    };
    for (const ConeSolverKind kind : AllConeSolverKinds()) {
      FrictionContactResult result = SolveFrictionContact(problem, kind, settings);
      result.solver = std::string(ToString(kind));  // "portfolio", not the stage that finished
      record(result);
    }
    for (const SiconosFc3dSolver& solver : SiconosFc3dSolvers()) {
      const bool newton = solver.name.find("nsn") != std::string::npos;
      record(SolveWithSiconos(problem, solver, tolerance, newton ? kNewtonIterations : kSweeps));
    }
  }
  return runs;
}

std::string FormatProblemTables(const std::vector<ProblemRun>& runs, double tolerance) {
  const auto times = TimeTable(runs);
  const std::vector<std::string> solvers = SolverOrder(runs);
  std::string out = fmt::format(
      "Tolerance {:g} on the ABH error (ours, applied to every solver's answer); {} problems.\n\n"
      "| solver | solved | median s (all-solved set) | total s (all-solved set) |\n"
      "|---|---:|---:|---:|\n",
      tolerance, times.size());
  for (const std::string& s : solvers) {
    int solved = 0;
    std::vector<double> common;
    for (const auto& [problem, by_solver] : times) {
      const auto it = by_solver.find(s);
      if (it != by_solver.end() && std::isfinite(it->second)) ++solved;
      const bool all = std::all_of(by_solver.begin(), by_solver.end(),
                                   [](const auto& e) { return std::isfinite(e.second); });
      if (all && it != by_solver.end()) common.push_back(it->second);
    }
    double total = 0;
    for (const double t : common) total += t;
    out += fmt::format("| {} | {}/{} | {:.3g} | {:.3g} |\n", s, solved, times.size(),
                       Median(common), total);
  }
  out +=
      "\n| problem | contacts | solver | solved | error | iterations | time, s |\n"
      "|---|---:|---|---|---:|---:|---:|\n";
  for (const ProblemRun& r : runs) {
    out += fmt::format("| {} | {} | {} | {} | {:.2e} | {} | {:.3g} |\n", r.problem, r.contacts,
                       r.solver, r.solved ? "yes" : "**no**", r.error, r.iterations, r.seconds);
  }
  return out;
}

std::string PerformanceProfileSvg(const std::vector<ProblemRun>& runs) {
  const auto times = TimeTable(runs);
  const std::vector<std::string> solvers = SolverOrder(runs);
  constexpr double kW = 720, kH = 440, kLeft = 60, kRight = 200, kTop = 20, kBottom = 50;
  constexpr double kMaxLog2 = 10;  // τ up to 1024
  const auto x_of = [&](double log2_tau) {
    return kLeft + (kW - kLeft - kRight) * std::min(log2_tau, kMaxLog2) / kMaxLog2;
  };
  const auto y_of = [&](double rho) { return kH - kBottom - (kH - kTop - kBottom) * rho; };
  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" )"
      R"(font-size="12"><rect width="100%" height="100%" fill="white"/>)",
      kW, kH);
  for (int k = 0; k <= kMaxLog2; k += 2) {
    svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#ddd"/>)"
                       R"(<text x="{0}" y="{3}" text-anchor="middle">{4}</text>)",
                       x_of(k), y_of(0), y_of(1), y_of(0) + 16, 1 << k);
  }
  for (int k = 0; k <= 4; ++k) {
    svg += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#ddd"/>)"
                       R"(<text x="{3}" y="{4}" text-anchor="end">{5:.2f}</text>)",
                       x_of(0), y_of(k / 4.0), x_of(kMaxLog2), x_of(0) - 6, y_of(k / 4.0) + 4,
                       k / 4.0);
  }
  svg += fmt::format(
      R"svg(<text x="{}" y="{}" text-anchor="middle">τ: time within a factor τ of the )svg"
      R"svg(fastest solver</text><text x="14" y="{}" transform="rotate(-90 14 {})" )svg"
      R"svg(text-anchor="middle">fraction of problems solved</text>)svg",
      x_of(kMaxLog2 / 2), kH - 12, y_of(0.5), y_of(0.5));
  const char* colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                          "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
  const double n = static_cast<double>(times.size());
  for (std::size_t s = 0; s < solvers.size(); ++s) {
    std::vector<double> ratios;  // log2 of time / best time, per problem solved
    for (const auto& [problem, by_solver] : times) {
      double best = kInfinity;
      for (const auto& e : by_solver) best = std::min(best, e.second);
      const auto it = by_solver.find(solvers[s]);
      if (it != by_solver.end() && std::isfinite(it->second)) {
        ratios.push_back(std::log2(std::max(1.0, it->second / best)));
      }
    }
    std::sort(ratios.begin(), ratios.end());
    std::string path = fmt::format("M{:.1f},{:.1f}", x_of(0), y_of(0));
    for (std::size_t i = 0; i < ratios.size(); ++i) {  // a step up at each problem's ratio
      path += fmt::format(" H{:.1f} V{:.1f}", x_of(ratios[i]), y_of((i + 1) / n));
    }
    path += fmt::format(" H{:.1f}", x_of(kMaxLog2));
    const char* color = colors[s % 8];
    svg += fmt::format(R"(<path d="{}" fill="none" stroke="{}" stroke-width="2"/>)", path, color);
    svg +=
        fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{3}" stroke-width="2"/>)"
                    R"(<text x="{4}" y="{5}">{6}</text>)",
                    kW - kRight + 15, kTop + 10 + 18 * s, kW - kRight + 40, color, kW - kRight + 46,
                    kTop + 14 + 18 * s, solvers[s]);
  }
  return svg + "</svg>\n";
}

}  // namespace coulomb::peers
