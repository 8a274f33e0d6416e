#pragma once
// A tree of rigid bodies (Model, immutable once built) and its mutable state caches (Data), the
// Model/Data split of MuJoCo and Pinocchio: many Datas can share one Model.
//
// Body i has one joint connecting it to its parent (−1: the world). The joint frame is placed in
// the parent's body frame by `placement`; the body frame is the joint's child frame, so body i's
// pose is X_W,parent · placement · JointTransform(q_i). Free bodies are one-body trees with a
// floating joint.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "coulomb/math/spatial.h"
#include "coulomb/multibody/joint.h"

namespace coulomb::multibody {

struct Body {
  std::string name;
  int parent = -1;  // index of the parent body, −1 for the world
  JointType joint = JointType::kFixed;
  std::string joint_name;
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  // revolute/prismatic, joint frame, unit
  Transform placement;                              // joint frame in the parent body frame
  Inertia inertia;
  // Per joint dof (revolute/prismatic only; NaN/inf when absent): N m s/rad, rad or m, N m or N.
  double damping = 0;
  // Coulomb friction of the joint (URDF <dynamics friction>): |τ_f| ≤ friction, opposing motion,
  // holding the joint still below it. N m or N. Enforced by the SAP formulation.
  double friction = 0;
  double armature = 0;  // reflected rotor inertia added to the diagonal of M
  double position_lower = -INFINITY, position_upper = INFINITY;
  double effort_limit = INFINITY;
  int q_index = 0, v_index = 0;  // set by Model::AddBody
};

// q_joint = multiplier · q_mimicked + offset (URDF <mimic>), a holonomic coupler between two
// 1-dof joints. Enforced by the SAP formulation (docs/notes/sap-and-deformables.md §1.3).
struct JointCoupler {
  int body = 0;           // the body whose joint follows
  int mimicked_body = 0;  // the body whose joint leads
  double multiplier = 1, offset = 0;
};

// Holds body B's pose in body A's frame at X_AB (A or B may be −1, the world): a weld between
// bodies of different trees, or one that closes a kinematic loop. Enforced by SAP.
struct WeldConstraint {
  std::string name;
  int body_a = -1, body_b = -1;
  Transform X_AB;
};

// Keeps the points p_A (in A's frame) and p_B (in B's frame) at `distance` (m > 0): a massless
// rod with ball joints at both ends. Enforced by SAP.
struct DistanceConstraint {
  std::string name;
  int body_a = -1, body_b = -1;
  Eigen::Vector3d p_A = Eigen::Vector3d::Zero(), p_B = Eigen::Vector3d::Zero();
  double distance = 0;
};

// A diagonal block of the mass matrix: the velocities [start, start + size) of one or more
// trees. M is block diagonal over these (docs/DESIGN.md: dense per tree), so it is factored and
// solved per block, and W = J M⁻¹ Jᵀ only couples contacts that share a block (dof_blocks.h).
struct DofBlock {
  int start = 0, size = 0;
};

struct Model {
  std::vector<Body> bodies;
  std::vector<JointCoupler> couplers;
  std::vector<WeldConstraint> welds;
  std::vector<DistanceConstraint> distances;
  int nq = 0, nv = 0;
  Eigen::Vector3d gravity = Eigen::Vector3d(0, 0, -9.81);  // m/s², world frame

  // Appends a body (after its parent) and returns its index.
  int AddBody(Body body);
  // "" when consistent (parents before children, unit axes, positive masses where moving,
  // finite values, symmetric PSD inertias), else a sentence naming the body and field.
  std::string Validate() const;
  Eigen::VectorXd NeutralConfiguration() const;
  int FindBody(const std::string& name) const;  // −1 if absent
  double TotalMass() const;
};

struct Data {
  std::vector<Transform> X_world;  // body poses X_WB
  std::vector<Vector6d> velocity;  // spatial velocity of each body, body frame
  std::vector<Vector6d> acceleration;
  std::vector<Vector6d> force;                 // RNEA body forces, body frame
  std::vector<math::OriginInertia> composite;  // CRBA composite inertias, body frame
  // Each body's pose in its parent's frame (the world for a root): the motion transform
  // parent → body is its MotionToChild(), applied without forming it.
  std::vector<Transform> X_parent;
  Eigen::MatrixXd M;  // last dense mass matrix (sized by CalcMassMatrix only)
  // Motion subspaces S (6 × nv) per body, computed once by MakeData: the model is immutable
  // after it is built, and allocating S in the inner loops dominated CRBA's time.
  std::vector<MotionSubspaceMatrix> S;
  // CRBA's workspace: each joint's S and composite momentum I_c S in the world frame.
  std::vector<MotionSubspaceMatrix> S_world, F_world;
  std::vector<char> has_children;  // per body: some body's parent is this one
  // The model's mass-matrix blocks (FindDofBlocks), the block of each velocity index and of each
  // body (−1: no velocities, as the world's welded bodies), fixed by the trees: computed once by
  // MakeData instead of at every step.
  std::vector<DofBlock> dof_blocks;
  std::vector<int> block_of_velocity, block_of_body;
  // Workspaces of the dynamics kernels (dynamics.h), sized by MakeData so a step allocates none.
  Eigen::VectorXd zero_velocity;  // nv zeros: CRBA's kinematics and RNEA's zero acceleration
  Eigen::VectorXd bias_forces;    // CalcBiasForces' result
};

Data MakeData(const Model& model);

// "" when every coupler, weld and distance constraint names valid bodies and finite data.
std::string ValidateConstraints(const Model& model);

}  // namespace coulomb::multibody
