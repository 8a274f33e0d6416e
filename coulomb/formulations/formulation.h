#pragma once
// A time-stepping formulation as a plug-in: one descriptor (name, what it supports, its solver
// names, and the functions that select a solver and solve one step's ContactProblem), defined in
// the formulation's own folder and listed once in registry.cc. The stepper, the scene reader, the
// CLI and the summaries ask the descriptor; none of them switches on which formulation it is.
//
// Adding a formulation: its folder (the solve function and `<name>_descriptor.cc`), its params in
// FormulationSettings and its line in registry.cc. A program may also run a descriptor of its own
// that the registry does not list, by pointing FormulationSettings::formulation at it.

#include <Eigen/Core>
#include <span>
#include <string>
#include <string_view>

#include "coulomb/contact/contact_problem.h"
#include "coulomb/formulations/cone/cone_complementarity.h"
#include "coulomb/formulations/contact_solution.h"
#include "coulomb/formulations/coupled_step.h"
#include "coulomb/formulations/sap/sap_formulation.h"
#include "coulomb/formulations/trinkle/acceleration_step.h"
#include "coulomb/formulations/velocity_lcp/velocity_lcp.h"
#include "coulomb/math/sparse_cholesky.h"

namespace coulomb {

struct Formulation;

// The velocity-level pyramid LCP: the default of scenes without deformable bodies.
extern const Formulation kVelocityLcpFormulation;

// Every formulation's settings, each in its own struct; `formulation` says which one runs.
struct FormulationSettings {
  const Formulation* formulation = &kVelocityLcpFormulation;  // never null
  // The per-step accuracy measures of StepReport::metrics (sim/contact_metrics.h): on in runs,
  // off in benchmarks' timing loops, which leave them to the figures they compute from poses.
  bool measure_accuracy = true;
  // StepReport::profile, the wall time of each stage of the step: five clock reads a step, a
  // tenth of a one-contact step's time (~20 ns each), so off in benchmarks' timing loops too.
  bool measure_stage_times = true;
  VelocityLcpParams velocity_lcp;
  ConeParams cone;
  AccelerationStepParams trinkle;
  SapParams sap;
};

// What a formulation keeps from one step to the next besides the state (speed only: an empty
// workspace gives the same answer).
struct FormulationWorkspace {
  // SAP's Hessian factorization, kept so its symbolic analysis is reused while the contact graph
  // is unchanged.
  math::CholeskyFactor sap_factorization;
  // Per deformable body, the factor of its step matrix's eliminated block (the Schur
  // complement's), kept so its symbolic analysis is reused while its contacts touch the same
  // vertices.
  std::vector<math::CholeskyFactor> eliminated_factors;
  SapStepWorkspace sap;  // SAP's problem, rebuilt in place, and its solver's workspace
  // The contact-space problems of the velocity-level formulations, rebuilt in place each step.
  LocalContactProblem local;
  FrictionContactProblem friction;
  NonsmoothNewtonWorkspace newton;  // the cone's Newton block system and its KLU analysis
  ContactSweepWorkspace sweeps;  // the contact rows and Gauss–Seidel iterates on body velocities
  StewartTrinkleWorkspace stewart_trinkle;  // the velocity LCP's dense LCP and Lemke's workspace
  AccelerationStepWorkspace trinkle;  // paper 1's stepper: its local problems and LCP workspaces
  MixedStepWorkspace mixed;           // rigid and FEM bodies as one ContactProblem (mixed_step.h)
};

// What a formulation carries from one step to the next that later answers depend on (not only
// their speed), as a checkpoint stores it (sim/checkpoint.h): SAP's lagged factor, which later
// steps precondition CG with. Empty for the formulations that carry nothing.
struct FormulationCarry {
  math::CholeskySource factor;  // the matrix a factor was made from (0 × 0: none)
};

// What a formulation takes; the scene checks, the stepper and `coulomb info` read these.
struct FormulationSupport {
  // FEM bodies, coupled in the same contact problem: `solve` takes the mixed ContactProblem of
  // rigid trees and deformable blocks (mixed_step.h).
  bool deformable_bodies = false;
  // The default of scenes with deformable bodies (SAP, paper 2's formulation).
  bool preferred_for_deformables = false;
  bool joint_limits = false;  // its own joint limits, joint friction, couplers, welds, distances
  bool implicit_pd_drives = false;  // PD controllers as implicit drives (else explicit torques)
  // PD controllers folded into the step's mass and free motion, implicit like joint damping
  // (contact::BuildContactProblemAtPoses; effort limits held at the free motion): stable for any
  // gains. Without either, PD controllers are explicit torques (paper 1's stepper).
  bool folded_pd_drives = false;
  bool restitution = false;            // Newton restitution at impacts
  bool painleve_reports = false;       // reports an inconsistent (Painlevé) problem per step
  bool contact_velocity_rate = false;  // needs J̇v, from a second contact detection
  // Speculative points only where the pair's relative motion can close the gap in the step
  // (geometry::SpeculativeMotion): SAP, whose every row adds to its Hessian's fill. The cone and
  // velocity LCP keep every point within the reaches: with only those, their bin (δt 1.8–3 ms)
  // sank up to 0.17 and 0.5 mm (against 0.02) and the velocity LCP left 7–12 steps uncertified
  // (against 0–3), while rows they never load cost their sweeps little.
  bool relative_speculative_contacts = false;
};

struct Formulation {
  std::string_view name;     // as in scene files and --formulation: "cone"
  std::string_view summary;  // one line for --help and `coulomb info`
  FormulationSupport supports;
  std::string_view solver_names;  // what `select_solver` takes, for messages: "nsgs, nsn, …"
  // Selects this formulation's solver by name in `settings`; "" or what is wrong.
  std::string (*select_solver)(std::string_view name, FormulationSettings& settings) = nullptr;
  // The solver `settings` selects, as summaries print it ("lemke", "newton/exact");
  // select_solver takes it back (scene_settings.h prints it as solver.name).
  std::string (*solver_name)(const FormulationSettings& settings) = nullptr;
  // One step: ContactProblem → ContactSolution, warm-started from the previous step's impulses
  // of the contacts that persist (zero for new ones). `solution` is last step's, whose storage
  // may be reused; every field is rewritten.
  void (*solve)(const contact::ContactProblem& problem, const FormulationSettings& settings,
                const Eigen::VectorXd& warm_start, FormulationWorkspace& workspace,
                ContactSolution& solution) = nullptr;
  // Makes room in the workspace for steps of up to capacity.contacts contacts, so that they
  // allocate nothing (sim::ReserveContacts); null for a formulation that reserves nothing.
  void (*reserve)(const contact::ContactCapacity& capacity, const FormulationSettings& settings,
                  FormulationWorkspace& workspace) = nullptr;
  // What a checkpoint keeps of the workspace, and how a resumed run takes it back; null for a
  // formulation whose workspace is speed only.
  FormulationCarry (*save_carry)(const FormulationWorkspace& workspace) = nullptr;
  void (*restore_carry)(const FormulationCarry& carry, FormulationWorkspace& workspace) = nullptr;
};

// The registered formulations, in the order messages list them.
std::span<const Formulation* const> Formulations();
// A registered formulation by name, or nullptr.
const Formulation* FindFormulation(std::string_view name);
// "velocity-lcp, cone, trinkle, sap", for messages.
std::string FormulationNames();
// The registered formulations that support something, for messages: "sap" for
// FormulationsSupporting(&FormulationSupport::deformable_bodies).
std::string FormulationsSupporting(bool FormulationSupport::*capability);
// The first registered formulation that supports it (nullptr if none does).
const Formulation* FirstFormulationSupporting(bool FormulationSupport::*capability);

}  // namespace coulomb
