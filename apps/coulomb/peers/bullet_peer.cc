// Bullet 3.24 (Debian libbullet-dev, the float64 libraries, BT_USE_DOUBLE_PRECISION) as a peer:
// the sequential-impulse solver (10 iterations, split impulse, ERP 0.2, two friction directions)
// and btMLCPSolver with Dantzig's pivoting LCP, which falls back to sequential impulse when
// Dantzig fails: those fallbacks are counted as failures.
//
// Bullet combines friction by multiplying the two objects' coefficients, so every object gets
// √μ and every pair sees μ (rule 3 of docs/notes/peers.md).

#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btMLCPSolver.h>
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <memory>
#include <variant>

#include "apps/coulomb/peers/peer_engine.h"

namespace coulomb::peers {
namespace {

constexpr int kIterations = 10;
constexpr int kStaticGroup = 1, kBodyGroup = 2;

btVector3 ToBt(const Eigen::Vector3d& v) {
  return {v.x(), v.y(), v.z()};
}
Eigen::Vector3d FromBt(const btVector3& v) {
  return {v.x(), v.y(), v.z()};
}

// Owns a world and everything it points to; members are destroyed in reverse order, the world
// (which only references them) first.
struct BulletWorld {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  std::unique_ptr<btDantzigSolver> dantzig;
  std::unique_ptr<btConstraintSolver> solver;
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> statics, bodies;
  std::vector<std::unique_ptr<btTypedConstraint>> joints;
  std::unique_ptr<btDiscreteDynamicsWorld> world;

  explicit BulletWorld(bool mlcp) {
    if (mlcp) {
      dantzig = std::make_unique<btDantzigSolver>();
      solver = std::make_unique<btMLCPSolver>(dantzig.get());
    } else {
      solver = std::make_unique<btSequentialImpulseConstraintSolver>();
    }
    world =
        std::make_unique<btDiscreteDynamicsWorld>(&dispatcher, &broadphase, solver.get(), &config);
  }
  ~BulletWorld() {
    for (auto& joint : joints) world->removeConstraint(joint.get());
    for (auto& body : bodies) world->removeRigidBody(body.get());
    for (auto& body : statics) world->removeRigidBody(body.get());
  }
  BulletWorld(const BulletWorld&) = delete;
  BulletWorld& operator=(const BulletWorld&) = delete;
};

btCollisionShape* MakeShape(const PeerBody& body, BulletWorld& bullet) {
  if (const auto* box = std::get_if<geometry::Box>(&body.shape)) {
    bullet.shapes.push_back(std::make_unique<btBoxShape>(ToBt(box->half_extents)));
  } else {
    bullet.shapes.push_back(
        std::make_unique<btSphereShape>(std::get<geometry::Sphere>(body.shape).radius));
  }
  return bullet.shapes.back().get();
}

void BuildBodies(const PeerScene& scene, BulletWorld& bullet) {
  const double friction = std::sqrt(scene.friction);
  for (const PeerBody& body : scene.bodies) {
    btCollisionShape* shape = MakeShape(body, bullet);
    btVector3 inertia;
    shape->calculateLocalInertia(body.mass, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(body.mass, nullptr, shape, inertia);
    const Eigen::Quaterniond& q = body.orientation;
    info.m_startWorldTransform =
        btTransform(btQuaternion(q.x(), q.y(), q.z(), q.w()), ToBt(body.position));
    info.m_friction = friction;
    info.m_restitution = 0;
    auto rb = std::make_unique<btRigidBody>(info);
    rb->setLinearVelocity(ToBt(body.velocity));
    rb->setAngularVelocity(ToBt(body.angular_velocity));
    rb->setActivationState(DISABLE_DEACTIVATION);  // no sleeping (rule 2)
    const int mask = scene.bodies_collide ? (kStaticGroup | kBodyGroup) : kStaticGroup;
    bullet.world->addRigidBody(rb.get(), kBodyGroup, mask);
    bullet.bodies.push_back(std::move(rb));
  }
  for (const PeerPlane& plane : scene.planes) {
    bullet.shapes.push_back(std::make_unique<btStaticPlaneShape>(ToBt(plane.normal), plane.offset));
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, bullet.shapes.back().get());
    info.m_friction = friction;
    auto rb = std::make_unique<btRigidBody>(info);
    bullet.world->addRigidBody(rb.get(), kStaticGroup, kBodyGroup);
    bullet.statics.push_back(std::move(rb));
  }
  for (const PeerHinge& hinge : scene.hinges) {
    btRigidBody& child = *bullet.bodies[hinge.child];
    const btTransform child_inv = child.getWorldTransform().inverse();
    const btVector3 pivot_child = child_inv * ToBt(hinge.anchor);
    const btVector3 axis_child = child_inv.getBasis() * ToBt(hinge.axis);
    std::unique_ptr<btHingeConstraint> joint;
    if (hinge.parent < 0) {
      joint = std::make_unique<btHingeConstraint>(child, pivot_child, axis_child);
    } else {
      btRigidBody& parent = *bullet.bodies[hinge.parent];
      const btTransform parent_inv = parent.getWorldTransform().inverse();
      joint = std::make_unique<btHingeConstraint>(
          parent, child, parent_inv * ToBt(hinge.anchor), pivot_child,
          parent_inv.getBasis() * ToBt(hinge.axis), axis_child);
    }
    bullet.world->addConstraint(joint.get(), /*disableCollisionsBetweenLinkedBodies=*/true);
    bullet.joints.push_back(std::move(joint));
  }
}

PeerFrame ReadFrame(double time, const BulletWorld& bullet) {
  PeerFrame frame = MakeFrame(time, bullet.bodies.size());
  for (std::size_t i = 0; i < bullet.bodies.size(); ++i) {
    const btRigidBody& rb = *bullet.bodies[i];
    const btTransform& X = rb.getWorldTransform();
    const btQuaternion q = X.getRotation();
    frame.position[i] = FromBt(X.getOrigin());
    frame.orientation[i] = Eigen::Quaterniond(q.w(), q.x(), q.y(), q.z());
    frame.velocity[i] = FromBt(rb.getLinearVelocity());
    frame.angular_velocity[i] = FromBt(rb.getAngularVelocity());
  }
  return frame;
}

int CountContacts(BulletWorld& bullet) {
  int count = 0;
  for (int i = 0; i < bullet.dispatcher.getNumManifolds(); ++i) {
    count += bullet.dispatcher.getManifoldByIndexInternal(i)->getNumContacts();
  }
  return count;
}

PeerRun RunBullet(const PeerScene& scene, bool mlcp) {
  PeerRun run;
  BulletWorld bullet(mlcp);
  bullet.world->setGravity(ToBt(scene.gravity));
  btContactSolverInfo& info = bullet.world->getSolverInfo();
  info.m_numIterations = kIterations;
  info.m_solverMode |= SOLVER_USE_2_FRICTION_DIRECTIONS;
  BuildBodies(scene, bullet);
  run.frames.push_back(ReadFrame(0, bullet));
  btRigidBody* torqued = scene.torque ? bullet.bodies[scene.torque->body].get() : nullptr;
  RunSteps(
      scene, run, [&](const Eigen::Vector3d& tau) { torqued->applyTorque(ToBt(tau)); },
      [&] {
        // maxSubSteps = 0: exactly one step of the given length, no interpolation (rule 2).
        bullet.world->stepSimulation(scene.time_step, 0);
        return StepOutcome{CountContacts(bullet), 0, false};
      },
      [&](double time) { return ReadFrame(time, bullet); });
  if (mlcp) {
    run.failures = static_cast<btMLCPSolver*>(bullet.solver.get())->getNumFallbacks();
    run.iterations = -1;
  } else {
    run.iterations = kIterations;
  }
  return run;
}

}  // namespace

std::vector<PeerEngine> BulletEngines() {
  const std::string common = "ERP 0.2, split impulse, 2 friction directions";
  return {{"bullet", "sequential-impulse", "3.24", "10 iterations, " + common, true,
           [](const PeerScene& s) { return RunBullet(s, false); }},
          {"bullet", "mlcp-dantzig", "3.24", "falls back to SI on failure, " + common, true,
           [](const PeerScene& s) { return RunBullet(s, true); }}};
}

}  // namespace coulomb::peers
