// Which engines `coulomb bench peers` runs: Coulomb's formulations always; each peer when CMake
// found its Debian package (COULOMB_HAVE_<ENGINE>), otherwise a row that says how to install it.

#include <chrono>

#include "apps/coulomb/peers/peer_engine.h"

namespace coulomb::peers {
namespace {

[[maybe_unused]] PeerEngine NotInstalled(std::string engine, const std::string& package) {
  PeerEngine e;
  e.engine = std::move(engine);
  e.solver = "-";
  e.installed = false;
  e.settings = "not installed (apt-get install " + package + ", then rebuild)";
  return e;
}

void Append(std::vector<PeerEngine>& all, std::vector<PeerEngine> more) {
  for (PeerEngine& e : more) all.push_back(std::move(e));
}

}  // namespace

PeerFrame MakeFrame(double time, std::size_t num_bodies) {
  PeerFrame frame;
  frame.time = time;
  frame.position.resize(num_bodies);
  frame.orientation.resize(num_bodies);
  frame.velocity.resize(num_bodies);
  frame.angular_velocity.resize(num_bodies);
  return frame;
}

double PerStep(const PeerRun& run, double total) {
  return run.step_seconds.empty() ? 0 : total / static_cast<double>(run.step_seconds.size());
}

bool BudgetSpent(const PeerScene& scene, PeerRun& run) {
  double spent = 0;
  for (const double s : run.step_seconds) spent += s;
  run.stopped = spent > scene.wall_budget;
  return run.stopped;
}

void RunSteps(const PeerScene& scene, PeerRun& run,
              const std::function<void(const Eigen::Vector3d&)>& push,
              const std::function<StepOutcome()>& step,
              const std::function<PeerFrame(double)>& read) {
  double contacts = 0, iterations = 0;
  for (int k = 0; k < scene.NumSteps(); ++k) {
    if (scene.torque) push(scene.torque->rate * k * scene.time_step * scene.torque->axis);
    const auto start = std::chrono::steady_clock::now();
    const StepOutcome outcome = step();
    run.step_seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    contacts += outcome.contacts;
    iterations += outcome.iterations;
    if (outcome.failed) ++run.failures;
    run.frames.push_back(read((k + 1) * scene.time_step));
    if (BudgetSpent(scene, run)) break;
  }
  run.contacts = PerStep(run, contacts);
  run.iterations = PerStep(run, iterations);
}

std::vector<PeerEngine> AllPeerEngines() {
  std::vector<PeerEngine> all = CoulombEngines();
#ifdef COULOMB_HAVE_MUJOCO
  Append(all, MujocoEngines());
#else
  all.push_back(NotInstalled("mujoco", "libmujoco-dev"));
#endif
#ifdef COULOMB_HAVE_BULLET
  Append(all, BulletEngines());
#else
  all.push_back(NotInstalled("bullet", "libbullet-dev"));
#endif
#ifdef COULOMB_HAVE_DART
  Append(all, DartEngines());
#else
  all.push_back(NotInstalled("dart", "libdart-dev libdart-external-ikfast-dev"));
#endif
#ifdef COULOMB_HAVE_ODE
  Append(all, OdeEngines());
#else
  all.push_back(NotInstalled("ode", "libode-dev"));
#endif
  return all;
}

}  // namespace coulomb::peers
