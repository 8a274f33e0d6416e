// Times every LCP solver on random contact-structured LCPs and, in the same run, Siconos
// numerics' lexicographic Lemke, PGS and Fischer–Burmeister Newton on the same instances.
//
//   lcp_bench [--sizes 10,50,100,170,300,600] [--repeats 3] [--json]
//
// Two structures: the velocity-level Stewart–Trinkle LCP (d = 4, μ ∈ [0.1, 1]) and paper 1's
// acceleration-level pyramid LCP (20 % sliding contacts). Times are medians over instances of
// the median over repeats; "cert" counts answers passing our certificate at 1e-10, applied to
// Siconos' z as well; "residual" is the median of the certificate's worst measure.

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/siconos_lcp.h"
#include "coulomb/base/guarded_main.h"
#include "coulomb/base/numerics_threads.h"
#include "coulomb/base/random.h"
#include "coulomb/base/stopwatch.h"
#include "coulomb/complementarity/lcp_solvers.h"
#include "tests/support/random_lcp.h"

namespace coulomb::bench {
namespace {

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

struct Row {
  std::string structure, solver;
  int n = 0, instances = 0, certified = 0;
  double median_ms = 0, worst_ms = 0, median_iterations = 0, median_residual = 0;
};

LcpProblem MakeInstance(const std::string& structure, int target_n, std::uint64_t seed) {
  SplitMix64 rng(seed);
  const double mu = 0.1 * (1 + static_cast<int>(rng.Below(10)));
  if (structure == "stewart-trinkle") {
    const int contacts = std::max(1, (target_n + 3) / 6);
    return testing::MakeStewartTrinkleLcp(testing::MakeRandomContactSystem(contacts, seed), 4, mu);
  }
  // n = n_S + 5 n_R with about 20 % of the contacts sliding.
  const int rolling = std::max(1, target_n / 6);
  const int sliding = std::max(0, target_n - 5 * rolling);
  return testing::MakeTrinklePyramidLcp(testing::MakeRandomContactSystem(rolling + sliding, seed),
                                        sliding, mu, seed);
}

}  // namespace
}  // namespace coulomb::bench

namespace {

int Run(int argc, char** argv) {
  using namespace coulomb;
  using namespace coulomb::bench;
  std::vector<int> sizes = {10, 50, 100, 170, 300, 600};
  int repeats = 3;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json")) {
      json = true;
    } else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) {
      sizes.clear();
      for (char* tok = std::strtok(argv[++i], ","); tok; tok = std::strtok(nullptr, ",")) {
        sizes.push_back(std::atoi(tok));
      }
    } else {
      fmt::print(stderr, "usage: lcp_bench [--sizes 10,50,...] [--repeats R] [--json]\n");
      return 2;
    }
  }
  const std::vector<LcpSolverKind> solvers = {
      LcpSolverKind::kLemke, LcpSolverKind::kMehrotra, LcpSolverKind::kFischerBurmeister,
      LcpSolverKind::kFeasibleInteriorPoint, LcpSolverKind::kPortfolio};
  std::vector<Row> rows;
  nlohmann::json out = nlohmann::json::array();
  if (!json) {
    fmt::print("{:<16} {:>5} {:>4} {:<16} {:>10} {:>10} {:>8} {:>7} {:>10} {:>12}\n", "structure",
               "n", "inst", "solver", "median ms", "worst ms", "iters", "cert", "residual",
               "vs siconos");
  }
  for (const std::string structure : {"stewart-trinkle", "trinkle-pyramid"}) {
    for (const int target : sizes) {
      const int instances = target <= 170 ? 10 : (target <= 300 ? 5 : 3);
      std::map<std::string, std::vector<double>> ms, iters, residual;
      std::map<std::string, int> certified;
      int n = 0;
      for (int k = 0; k < instances; ++k) {
        const LcpProblem p = MakeInstance(structure, target, 1000 * target + k + 1);
        n = p.size();
        for (const LcpSolverKind kind : solvers) {
          if (kind == LcpSolverKind::kFeasibleInteriorPoint && n > 300)
            continue;  // Phase I is O(n³) per pivot sweep
          std::vector<double> times;
          LcpResult r;
          for (int rep = 0; rep < repeats; ++rep) {
            r = SolveLcp(p, kind);
            times.push_back(r.seconds * 1e3);
          }
          const std::string name(ToString(kind));
          ms[name].push_back(Median(times));
          iters[name].push_back(r.iterations);
          certified[name] += CertifyLcp(p, r.z).Passes(1e-10) && r.solved();
          residual[name].push_back(CertifyLcp(p, r.z).Worst());
        }
        const int cap = std::max(1000, 20 * n);
        for (const SiconosLcpSolver solver :
             {SiconosLcpSolver::kLemke, SiconosLcpSolver::kPgs, SiconosLcpSolver::kNewtonFb}) {
          std::vector<double> times;
          PeerLcpResult peer;
          for (int rep = 0; rep < repeats; ++rep) {
            peer = SolveWithSiconos(p, solver, cap, 1e-12);
            times.push_back(peer.seconds * 1e3);
          }
          if (!peer.available) continue;
          const std::string name = SiconosLcpName(solver);
          ms[name].push_back(Median(times));
          iters[name].push_back(peer.iterations);
          certified[name] += CertifyLcp(p, peer.z).Passes(1e-10);
          residual[name].push_back(CertifyLcp(p, peer.z).Worst());
        }
      }
      const double siconos_ms = ms.count("siconos-lemke") ? Median(ms["siconos-lemke"]) : 0;
      for (const auto& [name, times] : ms) {
        Row row{structure,
                name,
                n,
                instances,
                certified[name],
                Median(times),
                *std::max_element(times.begin(), times.end()),
                Median(iters[name]),
                Median(residual[name])};
        const double ratio = siconos_ms > 0 ? row.median_ms / siconos_ms : 0;
        if (json) {
          out.push_back({{"structure", structure},
                         {"n", n},
                         {"instances", instances},
                         {"solver", name},
                         {"median_ms", row.median_ms},
                         {"worst_ms", row.worst_ms},
                         {"median_iterations", row.median_iterations},
                         {"certified", row.certified},
                         {"median_residual", row.median_residual},
                         {"ratio_to_siconos_lemke", ratio}});
        } else {
          fmt::print(
              "{:<16} {:>5} {:>4} {:<16} {:>10.3f} {:>10.3f} {:>8.0f} {:>3}/{:<3} {:>10.1e} "
              "{:>12}\n",
              structure, n, instances, name, row.median_ms, row.worst_ms, row.median_iterations,
              row.certified, instances, row.median_residual,
              ratio > 0 ? fmt::format("{:.2f}x", ratio) : std::string("-"));
        }
        std::fflush(stdout);
      }
    }
  }
  if (json) fmt::print("{}\n", out.dump(1));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  coulomb::UseSingleThreadedNumerics();  // every solver, ours and Siconos', on one thread
  return coulomb::GuardedMain([&] { return Run(argc, argv); });
}
