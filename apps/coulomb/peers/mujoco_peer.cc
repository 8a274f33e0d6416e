// MuJoCo 2.2.2 (Debian libmujoco-dev) as a peer: Newton with the elliptic cone (the exact
// Coulomb cone, softened by MuJoCo's default solref 0.02 / solimp 0.9 0.95) and PGS with the
// pyramidal cone. The model is MJCF text written from the PeerScene and loaded through the
// virtual file system (2.2.2 cannot load from a string).

#include <fmt/format.h>
#include <mujoco/mujoco.h>

#include <memory>
#include <variant>

#include "apps/coulomb/peers/peer_engine.h"

namespace coulomb::peers {
namespace {

struct MujocoSolver {
  const char* solver;  // MJCF option names
  const char* cone;
  int iterations;
};

std::string Vec(const Eigen::Vector3d& v) {
  return fmt::format("{} {} {}", v.x(), v.y(), v.z());
}
std::string Quat(const Eigen::Quaterniond& q) {
  return fmt::format("{} {} {} {}", q.w(), q.x(), q.y(), q.z());
}

std::string GeomXml(const PeerScene& scene, const PeerBody& body) {
  // Bodies that must touch only the planes: contype 1 / conaffinity 0 never pairs two bodies,
  // while the planes (contype 0, conaffinity 1) pair with every body.
  const std::string filter = scene.bodies_collide ? "" : R"( contype="1" conaffinity="0")";
  if (const auto* box = std::get_if<geometry::Box>(&body.shape)) {
    return fmt::format(R"(<geom type="box" size="{}" mass="{}" friction="{} 0 0"{}/>)",
                       Vec(box->half_extents), body.mass, scene.friction, filter);
  }
  return fmt::format(R"(<geom type="sphere" size="{}" mass="{}" friction="{} 0 0"{}/>)",
                     std::get<geometry::Sphere>(body.shape).radius, body.mass, scene.friction,
                     filter);
}

// Body `i` and, nested inside it, the bodies hinged to it; poses relative to `parent` (−1: world).
std::string BodyXml(const PeerScene& scene, int i, int parent) {
  const PeerBody& body = scene.bodies[i];
  const PeerHinge* hinge = nullptr;
  for (const PeerHinge& h : scene.hinges) {
    if (h.child == i) hinge = &h;
  }
  Eigen::Vector3d p = body.position;
  Eigen::Quaterniond q = body.orientation;
  if (parent >= 0) {
    const PeerBody& pb = scene.bodies[parent];
    p = pb.orientation.inverse() * (body.position - pb.position);
    q = pb.orientation.inverse() * body.orientation;
  }
  std::string xml = fmt::format(R"(<body name="b{}" pos="{}" quat="{}">)", i, Vec(p), Quat(q));
  if (hinge) {
    const Eigen::Quaterniond inv = body.orientation.inverse();
    xml += fmt::format(R"(<joint type="hinge" pos="{}" axis="{}" damping="0"/>)",
                       Vec(inv * (hinge->anchor - body.position)), Vec(inv * hinge->axis));
  } else {
    xml += "<freejoint/>";
  }
  xml += GeomXml(scene, body);
  for (const PeerHinge& h : scene.hinges) {
    if (h.parent == i) xml += BodyXml(scene, h.child, i);
  }
  return xml + "</body>";
}

std::string SceneXml(const PeerScene& scene, const MujocoSolver& solver) {
  // Room for every contact of the bin (≈ 3 per sphere) or the stack (4 per cube), up to 4 rows
  // each (pyramidal cone). 2.2.2 sizes dense njmax² arrays: a much larger arena fails to allocate.
  const int ncon = 4 * static_cast<int>(scene.bodies.size()) + 100;
  std::string xml = fmt::format(
      R"(<mujoco><option timestep="{}" gravity="{}" solver="{}" cone="{}" iterations="{}" )"
      R"(tolerance="1e-8" integrator="Euler"/><size nconmax="{}" njmax="{}"/><worldbody>)",
      scene.time_step, Vec(scene.gravity), solver.solver, solver.cone, solver.iterations, ncon,
      4 * ncon);
  for (const PeerPlane& plane : scene.planes) {
    xml += fmt::format(
        R"(<geom type="plane" size="0 0 1" pos="{}" zaxis="{}" friction="{} 0 0" contype="0" )"
        R"(conaffinity="1"/>)",
        Vec(plane.offset * plane.normal), Vec(plane.normal), scene.friction);
  }
  for (int i = 0; i < static_cast<int>(scene.bodies.size()); ++i) {
    bool is_child = false;
    for (const PeerHinge& h : scene.hinges) is_child = is_child || (h.child == i && h.parent >= 0);
    if (!is_child) xml += BodyXml(scene, i, -1);
  }
  return xml + "</worldbody></mujoco>";
}

mjModel* LoadFromText(const std::string& xml, std::string& error) {
  // mjVFS holds 2000 file names of 1000 bytes: too large for the stack.
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  const char* name = "peer_scene.xml";
  if (mj_makeEmptyFileVFS(vfs.get(), name, static_cast<int>(xml.size())) != 0) {
    error = "could not create the MJCF file in MuJoCo's virtual file system";
    return nullptr;
  }
  const int index = mj_findFileVFS(vfs.get(), name);
  std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[index]));
  char message[1000] = "";
  mjModel* model = mj_loadXML(name, vfs.get(), message, sizeof(message));
  mj_deleteVFS(vfs.get());
  if (!model) error = std::string("MuJoCo rejected the generated MJCF: ") + message;
  return model;
}

PeerFrame ReadFrame(const mjModel* m, const mjData* d, const std::vector<int>& ids) {
  PeerFrame frame = MakeFrame(d->time, ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const int b = ids[i];
    frame.position[i] = Eigen::Map<const Eigen::Vector3d>(d->xpos + 3 * b);
    frame.orientation[i] = Eigen::Quaterniond(d->xquat[4 * b], d->xquat[4 * b + 1],
                                              d->xquat[4 * b + 2], d->xquat[4 * b + 3]);
    mjtNum v[6];
    mj_objectVelocity(m, d, mjOBJ_BODY, b, v, 0);  // (ω, v), world orientation
    frame.angular_velocity[i] = {v[0], v[1], v[2]};
    frame.velocity[i] = {v[3], v[4], v[5]};
  }
  return frame;
}

int WarningCount(const mjData* d) {
  int count = 0;
  for (int w = 0; w < mjNWARNING; ++w) count += d->warning[w].number;
  return count;
}

PeerRun RunMujoco(const PeerScene& scene, const MujocoSolver& solver) {
  PeerRun run;
  mjModel* m = LoadFromText(SceneXml(scene, solver), run.message);
  if (!m) {
    run.ok = false;
    return run;
  }
  mjData* d = mj_makeData(m);
  std::vector<int> ids;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    ids.push_back(mj_name2id(m, mjOBJ_BODY, fmt::format("b{}", i).c_str()));
  }
  // The scenes start at rest or with free-body velocities: (v world, ω body) per free joint.
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const int jnt = m->body_jntadr[ids[i]];
    if (jnt < 0 || m->jnt_type[jnt] != mjJNT_FREE) continue;
    mjtNum* qvel = d->qvel + m->jnt_dofadr[jnt];
    const PeerBody& body = scene.bodies[i];
    Eigen::Map<Eigen::Vector3d>{qvel} = body.velocity;
    Eigen::Map<Eigen::Vector3d>{qvel + 3} = body.orientation.inverse() * body.angular_velocity;
  }
  mj_forward(m, d);
  run.frames.push_back(ReadFrame(m, d, ids));
  mjtNum* torque = scene.torque ? d->xfrc_applied + 6 * ids[scene.torque->body] + 3 : nullptr;
  RunSteps(
      scene, run, [&](const Eigen::Vector3d& tau) { Eigen::Map<Eigen::Vector3d>{torque} = tau; },
      [&] {
        const int warnings_before = WarningCount(d);
        mj_step(m, d);
        return StepOutcome{d->ncon, static_cast<double>(d->solver_iter),
                           WarningCount(d) > warnings_before};
      },
      [&](double /*time: MuJoCo keeps its own*/) { return ReadFrame(m, d, ids); });
  mj_deleteData(d);
  mj_deleteModel(m);
  return run;
}

}  // namespace

std::vector<PeerEngine> MujocoEngines() {
  const std::string version = mj_versionString();
  const std::string soft = "solref 0.02 1, solimp 0.9 0.95 0.001 (defaults)";
  return {{"mujoco", "newton-elliptic", version, "≤ 100 iterations, tolerance 1e-8, " + soft, true,
           [](const PeerScene& s) {
             return RunMujoco(s, {"Newton", "elliptic", 100});
           }},
          {"mujoco", "pgs-pyramidal", version, "≤ 100 sweeps, tolerance 1e-8, " + soft, true,
           [](const PeerScene& s) {
             return RunMujoco(s, {"PGS", "pyramidal", 100});
           }}};
}

}  // namespace coulomb::peers
