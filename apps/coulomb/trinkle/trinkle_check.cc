#include "apps/coulomb/trinkle/trinkle_check.h"

#include <fmt/format.h>

#include <cmath>

namespace coulomb::trinkle {

std::string ModelCheck::Summary() const {
  std::string out;
  for (const Violation& v : violations) {
    out += v.contact >= 0 ? fmt::format("eq. {} at contact {}: {} ({:.2e})\n", v.equation,
                                        v.contact, v.what, v.amount)
                          : fmt::format("eq. {}: {} ({:.2e})\n", v.equation, v.what, v.amount);
  }
  return out;
}

namespace {

class Checker {
 public:
  Checker(ModelCheck& out, double tolerance) : out_(out), tol_(tolerance) {}
  // Records a violation when `amount` (already normalized) exceeds the tolerance.
  void Expect(double amount, const char* equation, int contact, const char* what) {
    if (!(amount <= tol_)) {
      out_.ok = false;
      out_.violations.push_back({equation, contact, amount, what});
    }
  }

 private:
  ModelCheck& out_;
  double tol_;
};

double Sign(double x) {
  return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}

}  // namespace

ModelCheck CheckTrinkleSolution(const TrinkleProblem& problem, const TrinkleSystem& s,
                                const TrinkleSolution& sol, const CheckOptions& options) {
  ModelCheck out;
  out.tolerance = options.tolerance;
  Checker check(out, options.tolerance);
  const Eigen::VectorXd& c = sol.forces;
  const Eigen::VectorXd& a = sol.contact_acceleration;
  if (c.size() != s.num_components || a.size() != s.num_components || !c.allFinite() ||
      !a.allFinite()) {
    check.Expect(INFINITY, "(4)", -1, "forces/accelerations missing or not finite");
    return out;
  }
  const double F = 1.0 + c.lpNorm<Eigen::Infinity>();
  const double A = 1.0 + a.lpNorm<Eigen::Infinity>();

  // (4)–(6): M u̇ = G c + f on the dofs whose acceleration is unknown (the others define τ), and
  // a = Gᵀ u̇ + κ. Quasistatic: G c + f = 0 instead.
  const Eigen::VectorXd generalized = s.G * c + s.force;
  Eigen::VectorXd residual = problem.variant == TrinkleVariant::kQuasistatic
                                 ? Eigen::VectorXd(-generalized)
                                 : Eigen::VectorXd(s.mass * sol.acceleration - generalized);
  for (int d : s.prescribed_dofs) residual[d] = 0;
  const double scale = 1.0 + generalized.lpNorm<Eigen::Infinity>() +
                       (s.mass * sol.acceleration).lpNorm<Eigen::Infinity>();
  check.Expect(residual.lpNorm<Eigen::Infinity>() / scale, "(4)-(5)", -1,
               "equations of motion not satisfied");
  check.Expect((a - s.G.transpose() * sol.acceleration - s.bias).lpNorm<Eigen::Infinity>() / A,
               "(6)", -1, "contact accelerations inconsistent with body accelerations");

  for (std::size_t jj = 0; jj < problem.contacts.size(); ++jj) {
    const int j = static_cast<int>(jj);
    const TrinkleContact& contact = problem.contacts[j];
    const int k = s.offset[j];
    const double mu = problem.frictionless ? 0.0 : contact.mu;
    const double cn = c[k], an = a[k];
    const Eigen::Vector2d cT(c[k + 1], c[k + 2]), aT(a[k + 1], a[k + 2]);
    const Eigen::Vector2d vT(s.contact_velocity[k + 1], s.contact_velocity[k + 2]);
    check.Expect(std::abs(s.contact_velocity[k]) / options.velocity_tolerance * options.tolerance,
                 "(7)", j, "normal velocity is not zero (input)");
    check.Expect(-an / A, "(9)", j, "normal acceleration is negative (penetration)");
    check.Expect(-cn / F, "(11)", j, "normal force is tensile");
    check.Expect(std::abs(cn * an) / (F * A), "(16)", j,
                 "normal force and acceleration both nonzero");
    const ContactState& state = sol.states[j];
    if (mu == 0.0) {
      check.Expect(cT.lpNorm<Eigen::Infinity>() / F, "(10)", j, "friction force with mu = 0");
    } else if (state.translation == SlipState::kSliding) {
      const Eigen::Vector2d expected = -mu * cn * state.slip_direction;  // eq. (12)
      check.Expect((cT - expected).lpNorm<Eigen::Infinity>() / F, "(12)", j,
                   "sliding friction does not oppose the slip velocity at mu c_n");
    } else {
      check.Expect(vT.norm() / options.velocity_tolerance * options.tolerance, "(8)", j,
                   "rolling contact has tangential velocity (input)");
      if (options.cone_model) {
        check.Expect((cT.norm() - mu * cn) / F, "(10)", j, "force outside the friction cone");
        for (int d = 0; d < 2; ++d) {  // eq. (13)
          check.Expect(std::abs(mu * cn * aT[d] + cT[d] * aT.norm()) / (F * A), "(13)", j,
                       "friction not opposite to the tangential acceleration");
        }
      } else {
        for (int d = 0; d < 2; ++d) {
          check.Expect((std::abs(cT[d]) - mu * cn) / F, "(17)", j, "force outside the pyramid");
          check.Expect(std::abs(mu * cn * aT[d] + cT[d] * std::abs(aT[d])) / (F * A), "(18)", j,
                       "pyramid friction does not oppose the tangential acceleration");
          if (std::abs(aT[d]) > options.tolerance * A) {  // eq. (20): the corner of the square
            check.Expect(std::abs(cT[d] + mu * Sign(aT[d]) * cn) / F, "(20)", j,
                         "rolling-to-sliding friction is not at the pyramid's bound");
          }
        }
      }
    }
    if (contact.soft_finger()) {
      const double mut = problem.frictionless ? 0.0 : contact.mu_torsion;
      const double ct = c[k + 3], at = a[k + 3];
      check.Expect((std::abs(ct) - mut * cn) / F, "(2.5 soft finger)", j,
                   "torsional moment exceeds mu_torsion c_n");
      if (state.spinning) {
        const double spin = s.contact_velocity[k + 3];
        check.Expect(std::abs(ct + Sign(spin) * mut * cn) / F, "(2.5 soft finger)", j,
                     "spinning contact's moment is not -sgn(spin) mu_torsion c_n");
      } else {
        check.Expect(std::abs(mut * cn * at + ct * std::abs(at)) / (F * A), "(2.5 soft finger)", j,
                     "torsional moment does not oppose the angular acceleration");
      }
    }
  }
  return out;
}

}  // namespace coulomb::trinkle
