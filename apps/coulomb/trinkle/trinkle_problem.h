#pragma once
// Paper 1 (Trinkle, Pang, Sudarsky, Lo) at the level of the paper: passive rigid objects, an
// optional manipulator, and point contacts between them, at one instant. The unknowns are the
// accelerations and contact forces (the acceleration-level contact problem, §2).
//
// Conventions (SI units, world frame):
//  * A contact joins body A and body B; its normal n points into body A (paper: "inward with
//    respect to body i"), t is a unit tangent and o = n × t. Forces c = (c_n, c_t, c_o) act on A,
//    and −c on B (Newton's third law). Relative velocity and acceleration are those of A's
//    material point minus B's, in (n, t, o): v_n > 0 means separating.
//  * Object twists are (linear velocity of the centre of mass, angular velocity); wrenches are
//    (force, moment about the centre of mass).
//  * Manipulator link l moves with the 6 × nθ Jacobian J_l (linear velocity of its reference
//    point p_l, angular velocity) so that a contact point p on it moves with
//    J_l,lin − [p − p_l]× J_l,ang.

#include <Eigen/Dense>
#include <optional>
#include <string>
#include <vector>

namespace coulomb::trinkle {

using Vector6d = Eigen::Matrix<double, 6, 1>;

struct TrinkleObject {
  double mass = 1.0;                                      // kg, > 0
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Identity();  // kg m², about the COM, world axes, SPD
  Eigen::Vector3d com = Eigen::Vector3d::Zero();          // m
  Eigen::Vector3d linear_velocity = Eigen::Vector3d::Zero();   // m/s (q̇, linear part)
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  // rad/s
  Vector6d external_wrench = Vector6d::Zero();  // g_obj: gravity, applied loads (N, N m)
  // h_obj of eq. (2). When absent, the gyroscopic moment −ω × (I ω) is used.
  std::optional<Vector6d> velocity_product_wrench;
};

struct TrinkleLink {
  Eigen::MatrixXd jacobian;  // 6 × nθ: (linear velocity of `origin`, angular velocity)
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  // J̇θ̇ for the link (same 6-vector layout); zero when not given.
  Vector6d bias_acceleration = Vector6d::Zero();
};

struct TrinkleManipulator {
  Eigen::MatrixXd inertia;         // M_man, nθ × nθ, SPD
  Eigen::VectorXd joint_velocity;  // θ̇ (rad/s or m/s)
  Eigen::VectorXd effort;          // τ (N m or N); ignored where the acceleration is known
  Eigen::VectorXd gravity_effort;  // g_man of eq. (5)
  Eigen::VectorXd velocity_product_effort;  // h_man of eq. (5)
  // §2.5 first variant: joints whose acceleration is prescribed and whose effort is unknown.
  // Empty means every effort is known. Entries: the prescribed θ̈_i, or NaN for "effort known".
  Eigen::VectorXd known_acceleration;
  std::vector<TrinkleLink> links;
};

// Which body a contact touches.
struct BodyRef {
  enum class Kind { kGround, kObject, kLink };
  Kind kind = Kind::kGround;
  int index = 0;
  static BodyRef Ground() { return {}; }
  static BodyRef Object(int i) { return {Kind::kObject, i}; }
  static BodyRef Link(int l) { return {Kind::kLink, l}; }
};

struct TrinkleContact {
  BodyRef a;  // normal points into A
  BodyRef b;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();  // m
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  Eigen::Vector3d tangent = Eigen::Vector3d::UnitX();  // o = n × t
  double mu = 0.5;                                     // Coulomb coefficient, ≥ 0
  // Soft-finger contact (§2.5): torsional friction |c_τ| ≤ μ_τ c_n about n. Negative: a point
  // contact that transmits no moment.
  double mu_torsion = -1.0;
  // Extra known relative acceleration (n, t, o) of A w.r.t. B, e.g. curvature terms; added to
  // the point-acceleration bias computed from the body velocities.
  Eigen::Vector3d acceleration_bias = Eigen::Vector3d::Zero();
  bool soft_finger() const { return mu_torsion >= 0.0; }
};

enum class TrinkleVariant {
  kDynamic,      // eqs. (2)–(5): M q̈ = W c + g + h
  kQuasistatic,  // §2.5: the inertial terms M q̈ and M θ̈ are zero; accelerations are free
};

struct TrinkleProblem {
  std::vector<TrinkleObject> objects;
  std::optional<TrinkleManipulator> manipulator;
  std::vector<TrinkleContact> contacts;
  TrinkleVariant variant = TrinkleVariant::kDynamic;
  // Lötstedt's frictionless problem: every μ treated as 0 and friction dropped from the LCP.
  bool frictionless = false;
};

// "" when well formed, else a sentence naming the object/contact/field and why (mass ≤ 0,
// non-SPD inertia, NaN, μ < 0, non-orthonormal frame, bad body index, wrong sizes).
std::string ValidateTrinkleProblem(const TrinkleProblem& problem);

}  // namespace coulomb::trinkle
