// ODE 0.16 (Debian libode-dev, double precision) as a peer: dWorldQuickStep (projected
// Gauss–Seidel, 20 sweeps) and dWorldStep (Dantzig's pivoting LCP), default ERP 0.2 / CFM 1e-5.
// Contacts use dContactApprox1 so that `mu` is a friction coefficient (a four-sided pyramid
// scaled by the normal force) rather than a constant force bound.

#include <ode/ode.h>

#include <cstdarg>
#include <variant>

#include "apps/coulomb/peers/peer_engine.h"

namespace coulomb::peers {
namespace {

constexpr int kMaxContactsPerPair = 8;
constexpr int kQuickStepIterations = 20;

// ODE reports solver trouble ("LCP internal error") through its message handler, which prints
// to stderr by default: count them as failed steps instead.
int g_ode_messages = 0;  // only touched inside one single-threaded run
void CountMessage(int /*errnum*/, const char* /*msg*/, va_list /*ap*/) {
  ++g_ode_messages;
}

struct OdeWorld {
  dWorldID world = nullptr;
  dSpaceID space = nullptr;
  dJointGroupID contacts = nullptr;
  std::vector<dBodyID> bodies;
  double mu = 0.5;
  bool bodies_collide = true;
  int contact_count = 0;

  OdeWorld() {
    world = dWorldCreate();
    space = dHashSpaceCreate(nullptr);
    contacts = dJointGroupCreate(0);
  }
  ~OdeWorld() {
    dJointGroupDestroy(contacts);
    dSpaceDestroy(space);
    dWorldDestroy(world);
  }
  OdeWorld(const OdeWorld&) = delete;
  OdeWorld& operator=(const OdeWorld&) = delete;
};

void NearCallback(void* data, dGeomID g1, dGeomID g2) {
  auto& ode = *static_cast<OdeWorld*>(data);
  const dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
  if (b1 && b2 && (!ode.bodies_collide || dAreConnectedExcluding(b1, b2, dJointTypeContact))) {
    return;
  }
  dContact contact[kMaxContactsPerPair];
  const int n = dCollide(g1, g2, kMaxContactsPerPair, &contact[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    contact[i].surface.mode = dContactApprox1;
    contact[i].surface.mu = ode.mu;
    const dJointID j = dJointCreateContact(ode.world, ode.contacts, &contact[i]);
    dJointAttach(j, b1, b2);
  }
  ode.contact_count += n;
}

void BuildBodies(const PeerScene& scene, OdeWorld& ode) {
  for (const PeerBody& body : scene.bodies) {
    const dBodyID b = dBodyCreate(ode.world);
    dMass mass;
    dGeomID geom = nullptr;
    if (const auto* box = std::get_if<geometry::Box>(&body.shape)) {
      const Eigen::Vector3d size = 2 * box->half_extents;
      dMassSetBoxTotal(&mass, body.mass, size.x(), size.y(), size.z());
      geom = dCreateBox(ode.space, size.x(), size.y(), size.z());
    } else {
      const double r = std::get<geometry::Sphere>(body.shape).radius;
      dMassSetSphereTotal(&mass, body.mass, r);
      geom = dCreateSphere(ode.space, r);
    }
    dBodySetMass(b, &mass);
    dGeomSetBody(geom, b);
    dBodySetPosition(b, body.position.x(), body.position.y(), body.position.z());
    const Eigen::Quaterniond& q = body.orientation;
    const dQuaternion dq = {q.w(), q.x(), q.y(), q.z()};
    dBodySetQuaternion(b, dq);
    dBodySetLinearVel(b, body.velocity.x(), body.velocity.y(), body.velocity.z());
    dBodySetAngularVel(b, body.angular_velocity.x(), body.angular_velocity.y(),
                       body.angular_velocity.z());
    dBodySetAutoDisableFlag(b, 0);  // no sleeping (rule 2)
    ode.bodies.push_back(b);
  }
  for (const PeerPlane& plane : scene.planes) {
    dCreatePlane(ode.space, plane.normal.x(), plane.normal.y(), plane.normal.z(), plane.offset);
  }
  for (const PeerHinge& hinge : scene.hinges) {
    const dJointID j = dJointCreateHinge(ode.world, nullptr);
    dJointAttach(j, ode.bodies[hinge.child], hinge.parent < 0 ? nullptr : ode.bodies[hinge.parent]);
    dJointSetHingeAnchor(j, hinge.anchor.x(), hinge.anchor.y(), hinge.anchor.z());
    dJointSetHingeAxis(j, hinge.axis.x(), hinge.axis.y(), hinge.axis.z());
  }
}

PeerFrame ReadFrame(double time, const OdeWorld& ode) {
  PeerFrame frame = MakeFrame(time, ode.bodies.size());
  for (std::size_t i = 0; i < ode.bodies.size(); ++i) {
    const dBodyID b = ode.bodies[i];
    const dReal* p = dBodyGetPosition(b);
    const dReal* q = dBodyGetQuaternion(b);
    const dReal* v = dBodyGetLinearVel(b);
    const dReal* w = dBodyGetAngularVel(b);
    frame.position[i] = {p[0], p[1], p[2]};
    frame.orientation[i] = Eigen::Quaterniond(q[0], q[1], q[2], q[3]);
    frame.velocity[i] = {v[0], v[1], v[2]};
    frame.angular_velocity[i] = {w[0], w[1], w[2]};
  }
  return frame;
}

PeerRun RunOde(const PeerScene& scene, bool quick_step) {
  dInitODE2(0);
  dSetMessageHandler(&CountMessage);
  dSetErrorHandler(&CountMessage);
  g_ode_messages = 0;
  PeerRun run;
  {
    OdeWorld ode;
    ode.mu = scene.friction;
    ode.bodies_collide = scene.bodies_collide;
    dWorldSetGravity(ode.world, scene.gravity.x(), scene.gravity.y(), scene.gravity.z());
    dWorldSetQuickStepNumIterations(ode.world, kQuickStepIterations);
    BuildBodies(scene, ode);
    run.frames.push_back(ReadFrame(0, ode));
    const dBodyID torqued = scene.torque ? ode.bodies[scene.torque->body] : nullptr;
    RunSteps(
        scene, run,
        [&](const Eigen::Vector3d& tau) { dBodyAddTorque(torqued, tau.x(), tau.y(), tau.z()); },
        [&] {
          const int messages_before = g_ode_messages;
          ode.contact_count = 0;
          dSpaceCollide(ode.space, &ode, &NearCallback);
          const int ok = quick_step ? dWorldQuickStep(ode.world, scene.time_step)
                                    : dWorldStep(ode.world, scene.time_step);
          dJointGroupEmpty(ode.contacts);
          return StepOutcome{ode.contact_count, 0, !ok || g_ode_messages > messages_before};
        },
        [&](double time) { return ReadFrame(time, ode); });
    run.iterations = quick_step ? kQuickStepIterations : -1;
  }
  dCloseODE();
  return run;
}

}  // namespace

std::vector<PeerEngine> OdeEngines() {
  const std::string common = "ERP 0.2, CFM 1e-5, dContactApprox1 (4-sided pyramid)";
  return {{"ode", "quickstep", "0.16", "20 PGS sweeps, " + common, true,
           [](const PeerScene& s) { return RunOde(s, true); }},
          {"ode", "dantzig", "0.16", "dWorldStep pivoting LCP, " + common, true,
           [](const PeerScene& s) { return RunOde(s, false); }}};
}

}  // namespace coulomb::peers
