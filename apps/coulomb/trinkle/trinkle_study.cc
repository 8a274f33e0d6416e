#include "apps/coulomb/trinkle/trinkle_study.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "apps/coulomb/trinkle/milp_oracle.h"
#include "apps/coulomb/trinkle/trinkle_generator.h"
#include "apps/coulomb/trinkle/trinkle_solver.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/enumeration.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/io/fclib_file.h"
#include "coulomb/io/lcp_file.h"

namespace coulomb::app {
namespace {

using trinkle::GeneratedProblem;
using trinkle::GeneratorRequest;

// Paper 1's Table 1 as printed (for side-by-side display only; nothing is computed from it).
struct PaperRow {
  int size, data_sets;
  const char *lemke_solved, *lemke_starts, *lemke_iter, *fip_solved, *fip_iter;
};
constexpr PaperRow kPaperTable1[] = {
    {2, 20, "1.00", "1.0", "2.0", "0.50", "8.4"},
    {10, 60, "0.92", "1.3", "8.9", "0.35", "10.4"},
    {16, 10, "1.00", "1.4", "20.0", "1.00", "17.2"},
    {30, 26, "0.62", "1.7", "44.1", "0.42", "19.6"},
    {50, 20, "0.35", "2.0", "107.4", "0.30", "61.1"},
    {90, 23, "0.00", "-", "-", "0.35", "30.4"},
    {120, 10, "0.10", "1.0", ">100", "0.70", ">300"},
    {150, 6, "0.00", "-", "-", "0.50", "46.3"},
    {170, 10, "0.00", "-", "-", "0.00", "-"},
};

// Geometries per size (35 in all, ×10 μ = 350 data sets, the paper's histogram scaled to ≥ 328),
// each as (n_S, n_R) with n = n_S + 5 n_R.
struct SizeBin {
  int size;
  std::vector<std::pair<int, int>> shapes;
};
std::vector<SizeBin> PaperBins(bool quick) {
  std::vector<SizeBin> bins = {
      {2, {{2, 0}, {2, 0}, {2, 0}, {2, 0}}},
      {10,
       {{0, 2}, {5, 1}, {10, 0}, {0, 2}, {5, 1}, {10, 0}, {0, 2}, {5, 1}, {0, 2}, {5, 1}, {10, 0}}},
      {16, {{1, 3}, {6, 2}}},
      {30, {{0, 6}, {5, 5}, {10, 4}, {15, 3}, {5, 5}}},
      {50, {{0, 10}, {10, 8}, {5, 9}, {15, 7}}},
      {90, {{15, 15}, {5, 17}, {0, 18}, {10, 16}}},
      {120, {{0, 24}, {20, 20}}},
      {150, {{10, 28}}},
      {170, {{20, 30}, {0, 34}}},
  };
  if (quick) bins.resize(5);
  return bins;
}
std::vector<SizeBin> ExtraBins(bool quick) {
  if (quick) return {};
  return {{300, {{0, 60}, {50, 50}}}, {600, {{0, 120}, {100, 100}}}, {1000, {{0, 200}, {50, 190}}}};
}

enum class Truth { kYes, kNo, kUnknown };

struct DataSet {
  int size = 0, bodies = 0, sliding = 0, rolling = 0, geometry = 0;
  double mu = 0;
  std::string description;
  LcpResult lemke, fip;             // paper settings
  trinkle::TrinkleSolution robust;  // Coulomb's portfolio + model check
  double robust_seconds = 0;
  Truth truth = Truth::kUnknown;
};

LcpSolverSettings PaperSettings() {
  LcpSolverSettings s;
  // Lemke as in paper 1 §6: covering vector e, then up to 3 random restarts, 100 pivots each;
  // a textbook lexicographic rule with exact ties, no scaling, no re-solve polish.
  s.lemke.max_pivots = 100;
  s.lemke.max_restarts = 3;
  s.lemke.scale = false;
  s.lemke.tie_tolerance = 0;
  s.lemke.lexico_tolerance = 0;
  s.lemke.polish = false;
  s.lemke.certify_failed_runs = false;
  s.lemke.acceptance_tolerance = 1e-8;
  // FIP as in Appendix B: 300 iterations, stop at wᵀz ≤ 1e-6, no rounding; success is the
  // paper's own criterion, so the certificate threshold is loose.
  s.fip.max_iterations = 300;
  s.fip.absolute_gap = 1e-6;
  s.fip.relative_gap = 0;
  s.fip.polish = false;
  s.fip.acceptance_tolerance = 1e-3;
  return s;
}

std::optional<GeneratedProblem> Generate(int ns, int nr, int bodies, std::uint64_t seed) {
  GeneratorRequest request;
  request.num_sliding = ns;
  request.num_rolling = nr;
  request.num_bodies = bodies;
  return trinkle::GenerateTrinkleProblem(request, seed, 400);
}

// Writes the three problem files of one data set; reports (does not stop on) write errors.
void Emit(const std::string& dir, const trinkle::TrinkleProblem& problem, const LcpProblem& pyramid,
          int size, int geometry, double mu) {
  const std::string stem = fmt::format("{}/n{:04d}-g{:02d}-mu{:.1f}", dir, size, geometry, mu);
  std::vector<std::optional<InputError>> errors;
  errors.push_back(WriteLcpFile(pyramid, stem + ".pyramid.json", LcpFileFormat::kJson));
  const LcpProblem velocity = trinkle::MakeVelocityLevelLcp(problem, 1e-3, 4);
  errors.push_back(WriteLcpFile(velocity, stem + ".velocity.json", LcpFileFormat::kJson));
  FrictionContactProblem local = trinkle::MakeFrictionContactProblem(problem, 1e-3);
  local.name = stem;
  errors.push_back(WriteFclibLocal(local, stem + ".fclib.hdf5"));
  for (const auto& e : errors) {
    if (e) fmt::print(stderr, "warning: {}\n", e->ToString());
  }
}

DataSet Run(const GeneratedProblem& g, double mu, int geometry, bool paper_solvers,
            const std::string& emit_dir = "") {
  DataSet d;
  d.geometry = geometry;
  d.mu = mu;
  d.bodies = g.num_bodies;
  d.sliding = g.num_sliding;
  d.rolling = g.num_rolling;
  d.size = g.num_sliding + 5 * g.num_rolling;
  d.description = g.description;
  const trinkle::TrinkleProblem problem = trinkle::WithFriction(g.problem, mu);
  const LcpProblem lcp = trinkle::BuildTrinkleLcp(problem).lcp;
  if (!emit_dir.empty()) Emit(emit_dir, problem, lcp, d.size, geometry, mu);
  if (paper_solvers) {
    const LcpSolverSettings paper = PaperSettings();
    d.lemke = SolveLcp(lcp, LcpSolverKind::kLemke, paper);
    d.fip = SolveLcp(lcp, LcpSolverKind::kFeasibleInteriorPoint, paper);
  }
  const Stopwatch clock;
  d.robust = trinkle::SolveTrinkle(problem);
  d.robust_seconds = clock.Seconds();
  // Ground truth of existence: enumeration when small; any certified answer proves existence.
  if (lcp.size() <= 20) {
    const LcpEnumeration all = EnumerateLcpSolutions(lcp);
    d.truth = all.status == LcpStatus::kSolved       ? Truth::kYes
              : all.status == LcpStatus::kNoSolution ? Truth::kNo
                                                     : Truth::kUnknown;
  }
  if (d.truth == Truth::kUnknown && (d.robust.lcp_result.solved() || d.lemke.solved() ||
                                     (d.fip.solved() && d.fip.certificate.Passes()))) {
    d.truth = Truth::kYes;
  }
  if (d.robust.status == LcpStatus::kNoSolution) d.truth = Truth::kNo;
  if (d.truth == Truth::kUnknown) {  // only the hard cases reach the MILP
    // Large instances get a shorter budget: the proof either comes fast or not at all.
    const MilpVerdict milp = DecideLcpExistence(lcp, 1e4, lcp.size() > 200 ? 10.0 : 20.0);
    d.truth = milp.existence == Existence::kYes  ? Truth::kYes
              : milp.existence == Existence::kNo ? Truth::kNo
                                                 : Truth::kUnknown;
  }
  return d;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

std::string Fraction(int a, int b) {
  return b == 0 ? "-" : fmt::format("{:.2f}", double(a) / b);
}
std::string Mean(double sum, int count, int digits = 1) {
  return count == 0 ? "-" : fmt::format("{:.{}f}", sum / count, digits);
}

struct StudyRun {
  std::map<int, std::vector<DataSet>> by_size;
  int generation_failures = 0;
};

const std::vector<double>& FrictionSweep() {
  static const std::vector<double> mus = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  return mus;
}

// Generates every geometry of the paper's histogram (and the extra sizes) and runs each μ.
StudyRun RunSuite(const TrinkleStudyOptions& options) {
  StudyRun run;
  auto& by_size = run.by_size;
  int& generation_failures = run.generation_failures;
  const std::vector<double>& mus = FrictionSweep();
  int geometry = 0;
  std::uint64_t seed = options.seed * 1000003;
  const auto run_bins = [&](const std::vector<SizeBin>& bins, bool paper_solvers) {
    for (const SizeBin& bin : bins) {
      for (const auto& [ns, nr] : bin.shapes) {
        const auto g = Generate(ns, nr, 0, ++seed);
        if (!g) {
          ++generation_failures;
          continue;
        }
        ++geometry;
        const Stopwatch clock;
        for (double mu : mus) {
          by_size[bin.size].push_back(Run(*g, mu, geometry, paper_solvers, options.emit_dir));
        }
        // Progress on stderr, so stdout stays the tables (or the JSON).
        fmt::print(stderr, "size {:>4}: geometry {} ({}) done in {:.1f} s\n", bin.size, geometry,
                   g->description, clock.Seconds());
      }
    }
  };
  run_bins(PaperBins(options.quick), true);
  run_bins(ExtraBins(options.quick), false);

  return run;
}

struct PaperTotals {
  int total = 0, lemke = 0, fip = 0, either = 0;
};

// Table 1 with the paper's settings, beside the paper's own numbers.
PaperTotals PaperTable(const StudyRun& run, bool json, nlohmann::json& out) {
  const auto& by_size = run.by_size;
  PaperTotals totals;
  int& total = totals.total;
  int& lemke_total = totals.lemke;
  int& fip_total = totals.fip;
  int& either_total = totals.either;
  if (!json) {
    fmt::print(
        "Table 1 (paper settings: Lemke 100 pivots, up to 3 restarts; FIP 300 iterations, "
        "w'z <= 1e-6)\n");
    fmt::print(
        "{:>5} {:>5} | {:>7} {:>7} {:>7} | {:>7} {:>7} || paper: {:>5} {:>5} {:>5} {:>6} {:>5} "
        "{:>5}\n",
        "size", "sets", "L frac", "starts", "iter", "F frac", "iter", "sets", "Lfrac", "start",
        "Liter", "Ffrac", "Fiter");
  }
  for (const auto& [size, sets] : by_size) {
    if (sets.empty() || sets.front().lemke.solver.empty()) continue;
    int lemke_solved = 0, fip_solved = 0, either = 0;
    double starts = 0, lemke_iter = 0, fip_iter = 0;
    for (const DataSet& d : sets) {
      if (d.lemke.solved()) {
        ++lemke_solved;
        starts += 1 + d.lemke.restarts;
        lemke_iter += d.lemke.iterations;
      }
      if (d.fip.solved()) {
        ++fip_solved;
        fip_iter += d.fip.iterations;
      }
      either += d.lemke.solved() || d.fip.solved();
    }
    const int n = static_cast<int>(sets.size());
    total += n;
    lemke_total += lemke_solved;
    fip_total += fip_solved;
    either_total += either;
    const PaperRow* paper = nullptr;
    for (const PaperRow& row : kPaperTable1) paper = row.size == size ? &row : paper;
    if (json) {
      out["table1_paper_settings"].push_back(
          {{"size", size},
           {"data_sets", n},
           {"lemke_frac_solved", double(lemke_solved) / n},
           {"lemke_avg_starts", lemke_solved ? starts / lemke_solved : 0.0},
           {"lemke_avg_iterations", lemke_solved ? lemke_iter / lemke_solved : 0.0},
           {"fip_frac_solved", double(fip_solved) / n},
           {"fip_avg_iterations", fip_solved ? fip_iter / fip_solved : 0.0}});
    } else {
      fmt::print(
          "{:>5} {:>5} | {:>7} {:>7} {:>7} | {:>7} {:>7} || paper: {:>5} {:>5} {:>5} {:>6} {:>5} "
          "{:>5}\n",
          size, n, Fraction(lemke_solved, n), Mean(starts, lemke_solved),
          Mean(lemke_iter, lemke_solved), Fraction(fip_solved, n), Mean(fip_iter, fip_solved),
          paper ? std::to_string(paper->data_sets) : "", paper ? paper->lemke_solved : "",
          paper ? paper->lemke_starts : "", paper ? paper->lemke_iter : "",
          paper ? paper->fip_solved : "", paper ? paper->fip_iter : "");
    }
  }
  if (!json) {
    fmt::print(
        "overall: {} data sets; Lemke solved {}, FIP solved {}, either {} ({:.0f} %); "
        "paper: 328, 136 (first start) / ~10 % more than FIP with restarts, 195, 228 (70 %)\n\n",
        total, lemke_total, fip_total, either_total, 100.0 * either_total / std::max(1, total));
  }

  return totals;
}

struct RobustTotals {
  int with_solution = 0, certified = 0;
};

// The same data sets with Coulomb's portfolio, against the ground truth of existence.
RobustTotals RobustTable(const StudyRun& run, bool json, nlohmann::json& out) {
  const auto& by_size = run.by_size;
  const int generation_failures = run.generation_failures;
  RobustTotals totals;
  int& with_solution = totals.with_solution;
  int& certified_with_solution = totals.certified;
  if (!json) {
    fmt::print(
        "Table 1b (Coulomb: portfolio lemke > ipm > newton > fip > enumeration, model-checked)\n");
    fmt::print("{:>5} {:>5} | {:>4} {:>4} {:>7} | {:>9} | {:>10} {:>10}\n", "size", "sets", "yes",
               "no", "unknown", "certified", "median ms", "worst ms");
  }
  for (const auto& [size, sets] : by_size) {
    int yes = 0, no = 0, unknown = 0, certified = 0;
    std::vector<double> ms;
    for (const DataSet& d : sets) {
      yes += d.truth == Truth::kYes;
      no += d.truth == Truth::kNo;
      unknown += d.truth == Truth::kUnknown;
      const bool ok = d.robust.status == LcpStatus::kSolved && d.robust.check.ok;
      certified += ok && d.truth == Truth::kYes;
      ms.push_back(d.robust_seconds * 1e3);
    }
    with_solution += yes;
    certified_with_solution += certified;
    if (json) {
      out["table1_robust"].push_back({{"size", size},
                                      {"data_sets", sets.size()},
                                      {"has_solution", yes},
                                      {"no_solution", no},
                                      {"unknown", unknown},
                                      {"certified", certified},
                                      {"median_ms", Median(ms)},
                                      {"worst_ms", *std::max_element(ms.begin(), ms.end())}});
    } else {
      fmt::print("{:>5} {:>5} | {:>4} {:>4} {:>7} | {:>4}/{:<4} | {:>10.3f} {:>10.3f}\n", size,
                 sets.size(), yes, no, unknown, certified, yes, Median(ms),
                 *std::max_element(ms.begin(), ms.end()));
    }
  }
  if (!json) {
    fmt::print("certified {} of {} data sets that have a solution{}\n\n", certified_with_solution,
               with_solution,
               generation_failures
                   ? fmt::format(" ({} geometries could not be generated)", generation_failures)
                   : "");
  }

  return totals;
}

// Per-μ listings for three problems shaped like the paper's Tables 2–4.
void PerMuTables(const TrinkleStudyOptions& options, nlohmann::json& out) {
  const std::vector<double>& mus = FrictionSweep();
  struct Shape {
    const char* label;
    int bodies, ns, nr;
  };
  const Shape shapes[] = {
      {"Table 2 shape", 4, 6, 4}, {"Table 3 shape", 5, 5, 5}, {"Table 4 shape", 1, 5, 10}};
  for (const Shape& shape : shapes) {
    const auto g = Generate(shape.ns, shape.nr, shape.bodies, options.seed * 31 + shape.nr);
    if (!g) {
      if (!options.json) fmt::print("{}: could not generate\n", shape.label);
      continue;
    }
    if (!options.json) {
      fmt::print("{} ({}): size nb nS nR mu L-starts L-iter FIP-iter | coulomb\n", shape.label,
                 g->description);
    }
    nlohmann::json rows = nlohmann::json::array();
    for (double mu : mus) {
      const DataSet d = Run(*g, mu, 0, true);
      const std::string starts = d.lemke.solved() ? std::to_string(1 + d.lemke.restarts)
                                                  : std::to_string(1 + d.lemke.restarts) + "F";
      const std::string lemke_iter = d.lemke.solved() ? std::to_string(d.lemke.iterations) : "-";
      const std::string fip_iter = d.fip.solved() ? std::to_string(d.fip.iterations)
                                   : d.fip.status == LcpStatus::kNoStrictlyFeasiblePoint ? "NFP"
                                   : d.fip.status == LcpStatus::kIterationLimit
                                       ? "MAX"
                                       : std::string(ToString(d.fip.status));
      const char* truth = d.truth == Truth::kYes  ? "exists"
                          : d.truth == Truth::kNo ? "none"
                                                  : "unknown";
      const std::string robust = fmt::format(
          "{} {:.3f} ms (solution {})", ToString(d.robust.status), d.robust_seconds * 1e3, truth);
      if (options.json) {
        rows.push_back({{"size", d.size},
                        {"nb", d.bodies},
                        {"nS", d.sliding},
                        {"nR", d.rolling},
                        {"mu", mu},
                        {"L_starts", starts},
                        {"L_iter", lemke_iter},
                        {"FIP_iter", fip_iter},
                        {"coulomb_status", ToString(d.robust.status)},
                        {"coulomb_ms", d.robust_seconds * 1e3}});
      } else {
        fmt::print("  {:>4} {:>2} {:>2} {:>2} {:.1f} {:>8} {:>6} {:>8} | {}\n", d.size, d.bodies,
                   d.sliding, d.rolling, mu, starts, lemke_iter, fip_iter, robust);
      }
    }
    if (options.json)
      out["per_mu"].push_back(
          {{"shape", shape.label}, {"description", g->description}, {"rows", rows}});
    if (!options.json) fmt::print("\n");
  }
}

}  // namespace

int RunTrinkleStudy(const TrinkleStudyOptions& options) {
  if (!options.emit_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options.emit_dir, ec);
    if (ec) {
      fmt::print(stderr, "error: --emit {}: {}\n", options.emit_dir, ec.message());
      return 2;
    }
  }
  const StudyRun run = RunSuite(options);
  nlohmann::json out;
  const PaperTotals paper = PaperTable(run, options.json, out);
  const RobustTotals robust = RobustTable(run, options.json, out);
  PerMuTables(options, out);
  if (options.json) {
    out["summary"] = {{"data_sets", paper.total},
                      {"lemke_solved", paper.lemke},
                      {"fip_solved", paper.fip},
                      {"either_solved", paper.either},
                      {"has_solution", robust.with_solution},
                      {"certified_with_solution", robust.certified},
                      {"generation_failures", run.generation_failures}};
    fmt::print("{}\n", out.dump(1));
  }
  return robust.certified == robust.with_solution ? 0 : 1;
}

}  // namespace coulomb::app
