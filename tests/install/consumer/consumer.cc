// Built against the installed package: runs a scene (every step certified) and solves an LCP
// whose answer is known in closed form, so that a broken install fails here, not quietly.
#include <cmath>
#include <cstdio>

#include "coulomb/complementarity/lcp_solvers.h"
#include "coulomb/io/scene_file.h"
#include "coulomb/sim/simulate.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  coulomb::Expected<coulomb::sim::Scene> scene = coulomb::io::ReadSceneFile(argv[1]);
  if (!scene.ok()) {
    std::printf("error: %s\n", scene.error().ToString().c_str());
    return 1;
  }
  scene.value().duration = 0.5;
  const coulomb::sim::RunSummary run = coulomb::sim::Simulate(scene.value(), nullptr);
  std::printf("steps %d failed %d\n", run.steps, run.failed_steps);
  coulomb::LcpProblem lcp{Eigen::Matrix2d{{2, 1}, {1, 2}}, Eigen::Vector2d(-5, -6), "consumer"};
  const coulomb::LcpResult r = coulomb::SolveLcp(lcp, coulomb::LcpSolverKind::kLemke);
  // Both unknowns positive: z = M⁻¹ (−q) = (4/3, 7/3).
  const bool lcp_ok =
      r.solved() && std::abs(r.z[0] - 4.0 / 3) < 1e-12 && std::abs(r.z[1] - 7.0 / 3) < 1e-12;
  std::printf("lcp %s z = (%.15g, %.15g)\n", lcp_ok ? "ok" : "WRONG", r.z[0], r.z[1]);
  return run.steps == 500 && run.failed_steps == 0 && lcp_ok ? 0 : 1;
}
