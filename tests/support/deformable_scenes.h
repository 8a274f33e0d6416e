#pragma once
// Scenes with deformable bodies for the coupling tests: read from YAML text under a chosen
// formulation, stepped while every step converges, and measured (contact impulses, mass, mesh
// health, attachment gaps).

#include <Eigen/Dense>
#include <string>

#include "coulomb/fem/fem_model.h"
#include "coulomb/sim/simulate.h"

namespace coulomb::testing {

// The scene in `yaml`, stepped by `formulation` instead of the SAP its text names.
sim::Scene LoadScene(std::string yaml, const std::string& formulation = "sap");

// Steps the scene, requiring every step to converge; returns the last report.
sim::StepReport StepScene(const sim::Scene& scene, sim::State& state, int steps,
                          double* worst_penetration = nullptr);

// The world-frame impulse on deformable body d from its contacts with `other` (a rigid body
// index, or −1 for static geometry); other_deformable ≥ 0 selects contacts with that body.
Eigen::Vector3d ImpulseOn(const sim::StepReport& r, int d, int rigid_body, int other_deformable);

double Mass(const fem::FemBody& body);  // kg

// Every element of every body keeps a positive volume.
bool NoInvertedElement(const sim::Scene& scene, const sim::State& state);

// The farthest an attached vertex of body 0 is from the body point it is attached to, m.
double WorstAttachmentGap(const sim::Scene& scene, const sim::State& state);

}  // namespace coulomb::testing
