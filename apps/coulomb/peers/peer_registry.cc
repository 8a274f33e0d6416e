// Which engines `coulomb bench peers` runs: Coulomb's formulations always; each peer when CMake
// found its Debian package (COULOMB_HAVE_<ENGINE>), otherwise a row that says how to install it.

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
