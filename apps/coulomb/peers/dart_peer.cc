// DART 6.12 (Debian libdart-dev) as a peer: its boxed-LCP constraint solver with Dantzig's
// pivoting method (PGS as DART's own fallback when Dantzig fails) and with PGS alone. Collision
// by DART's ODE detector, which has true planes: DART's default FCL detector has none, and with
// planes as large slabs a resting ball sank 8 mm and touched at 4–5 points. (Not DART's Bullet
// detector: it links single-precision Bullet, whose symbols collide with the float64 Bullet of
// the Bullet adapter in the same process.) Skeletons do not self-collide (DART's default), which is
// what the chain scene asks; free bodies are one skeleton each.

#include <dart/collision/ode/OdeCollisionDetector.hpp>
#include <dart/constraint/BoxedLcpConstraintSolver.hpp>
#include <dart/constraint/DantzigBoxedLcpSolver.hpp>
#include <dart/constraint/PgsBoxedLcpSolver.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/PlaneShape.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/SphereShape.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>
#include <variant>

#include "apps/coulomb/peers/peer_engine.h"

namespace coulomb::peers {
namespace {

namespace dd = dart::dynamics;

dd::ShapePtr MakeShape(const geometry::Shape& shape) {
  if (const auto* box = std::get_if<geometry::Box>(&shape)) {
    return std::make_shared<dd::BoxShape>(2 * box->half_extents);
  }
  return std::make_shared<dd::SphereShape>(std::get<geometry::Sphere>(shape).radius);
}

void Dress(dd::BodyNode* bn, const dd::ShapePtr& shape, double mass, double mu) {
  dd::ShapeNode* node = bn->createShapeNodeWith<dd::CollisionAspect, dd::DynamicsAspect>(shape);
  node->getDynamicsAspect()->setFrictionCoeff(mu);
  node->getDynamicsAspect()->setRestitutionCoeff(0);
  if (mass > 0) {
    dd::Inertia inertia;
    inertia.setMass(mass);
    inertia.setMoment(shape->computeInertia(mass));
    bn->setInertia(inertia);
  }
}

Eigen::Isometry3d Pose(const Eigen::Vector3d& p, const Eigen::Quaterniond& q) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  X.linear() = q.toRotationMatrix();
  X.translation() = p;
  return X;
}

void AddPlanes(const PeerScene& scene, dart::simulation::World& world) {
  for (std::size_t k = 0; k < scene.planes.size(); ++k) {
    const PeerPlane& plane = scene.planes[k];
    auto skel = dd::Skeleton::create("plane" + std::to_string(k));
    auto* bn = skel->createJointAndBodyNodePair<dd::WeldJoint>().second;
    Dress(bn, std::make_shared<dd::PlaneShape>(plane.normal, plane.offset), 0, scene.friction);
    skel->setMobile(false);
    world.addSkeleton(skel);
  }
}

// Free bodies become one skeleton each; hinged bodies join the skeleton of their root.
std::vector<dd::BodyNode*> AddBodies(const PeerScene& scene, dart::simulation::World& world) {
  std::vector<dd::BodyNode*> nodes(scene.bodies.size(), nullptr);
  std::vector<dd::SkeletonPtr> skeletons;
  // Hinges are listed parent before child (peer_scene.h builds them so).
  std::vector<const PeerHinge*> hinge_of(scene.bodies.size(), nullptr);
  for (const PeerHinge& h : scene.hinges) hinge_of[h.child] = &h;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const PeerBody& body = scene.bodies[i];
    const PeerHinge* hinge = hinge_of[i];
    dd::BodyNode* bn = nullptr;
    if (!hinge) {
      auto skel = dd::Skeleton::create("body" + std::to_string(i));
      auto* joint = skel->createJointAndBodyNodePair<dd::FreeJoint>().first;
      bn = skel->getBodyNode(0);
      joint->setTransform(Pose(body.position, body.orientation));
      joint->setLinearVelocity(body.velocity);
      joint->setAngularVelocity(body.angular_velocity);
      skeletons.push_back(skel);
    } else {
      dd::RevoluteJoint::Properties joint;
      const Eigen::Isometry3d X_WC = Pose(body.position, body.orientation);
      const Eigen::Vector3d axis_c = body.orientation.inverse() * hinge->axis;
      joint.mAxis = axis_c;
      joint.mT_ChildBodyToJoint = Eigen::Isometry3d::Identity();
      joint.mT_ChildBodyToJoint.translation() = X_WC.inverse() * hinge->anchor;
      dd::BodyNode* parent = hinge->parent < 0 ? nullptr : nodes[hinge->parent];
      const Eigen::Isometry3d X_WP = parent ? Pose(scene.bodies[hinge->parent].position,
                                                   scene.bodies[hinge->parent].orientation)
                                            : Eigen::Isometry3d::Identity();
      joint.mT_ParentBodyToJoint = X_WP.inverse() * X_WC * joint.mT_ChildBodyToJoint;
      dd::SkeletonPtr skel =
          parent ? parent->getSkeleton() : dd::Skeleton::create("chain" + std::to_string(i));
      // Unique names: DART renames duplicates and says so on stdout.
      joint.mName = "hinge" + std::to_string(i);
      const dd::BodyNode::Properties link(
          dd::BodyNode::AspectProperties("link" + std::to_string(i)));
      bn = skel->createJointAndBodyNodePair<dd::RevoluteJoint>(parent, joint, link).second;
      if (!parent) skeletons.push_back(skel);
    }
    Dress(bn, MakeShape(body.shape), body.mass, scene.friction);
    nodes[i] = bn;
  }
  for (auto& skel : skeletons) world.addSkeleton(skel);
  return nodes;
}

PeerFrame ReadFrame(double time, const std::vector<dd::BodyNode*>& nodes) {
  PeerFrame frame = MakeFrame(time, nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Eigen::Isometry3d& X = nodes[i]->getWorldTransform();
    frame.position[i] = X.translation();
    frame.orientation[i] = Eigen::Quaterniond(X.linear());
    frame.velocity[i] = nodes[i]->getLinearVelocity();
    frame.angular_velocity[i] = nodes[i]->getAngularVelocity();
  }
  return frame;
}

PeerRun RunDart(const PeerScene& scene, bool dantzig) {
  PeerRun run;
  auto world = dart::simulation::World::create();
  world->setGravity(scene.gravity);
  world->setTimeStep(scene.time_step);
  dart::constraint::BoxedLcpSolverPtr primary;
  if (dantzig) {
    primary = std::make_shared<dart::constraint::DantzigBoxedLcpSolver>();
  } else {
    primary = std::make_shared<dart::constraint::PgsBoxedLcpSolver>();
  }
  auto solver = std::make_unique<dart::constraint::BoxedLcpConstraintSolver>(
      primary, dantzig ? std::make_shared<dart::constraint::PgsBoxedLcpSolver>() : nullptr);
  world->setConstraintSolver(std::move(solver));
  auto* constraints = world->getConstraintSolver();
  constraints->setCollisionDetector(dart::collision::OdeCollisionDetector::create());
  constraints->getCollisionOption().maxNumContacts = 100000;
  AddPlanes(scene, *world);
  const std::vector<dd::BodyNode*> nodes = AddBodies(scene, *world);
  run.frames.push_back(ReadFrame(0, nodes));
  dd::BodyNode* torqued = scene.torque ? nodes[scene.torque->body] : nullptr;
  RunSteps(
      scene, run, [&](const Eigen::Vector3d& tau) { torqued->setExtTorque(tau); },
      [&] {
        world->step();
        return StepOutcome{static_cast<int>(world->getLastCollisionResult().getNumContacts()), 0,
                           false};
      },
      [&](double time) { return ReadFrame(time, nodes); });
  run.iterations = dantzig ? -1 : 30;  // PgsBoxedLcpSolver's default sweep cap
  return run;
}

}  // namespace

std::vector<PeerEngine> DartEngines() {
  const std::string common = "boxed LCP, ODE collision, no fallback count";
  return {{"dart", "dantzig", "6.12", "Dantzig (PGS fallback), " + common, true,
           [](const PeerScene& s) { return RunDart(s, true); }},
          {"dart", "pgs", "6.12", "PGS, " + common, true,
           [](const PeerScene& s) { return RunDart(s, false); }}};
}

}  // namespace coulomb::peers
