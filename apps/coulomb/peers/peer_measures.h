#pragma once
// Engine-independent measures of a peer run (docs/notes/peers.md, rule 1): computed from
// the recorded body poses alone, with the same geometry code for every engine, so that no
// engine is judged by its own contact detection.

#include <string>
#include <vector>

#include "apps/coulomb/peers/peer_engine.h"

namespace coulomb::peers {

struct PeerMeasures {
  double max_penetration = 0;  // m: deepest overlap of any body with a plane or another body
  // J: the largest rise of kinetic + potential energy above its initial value (contact should
  // only dissipate, and the torque of the ball scene does work, so there it is expected).
  double max_energy_gain = 0;
  std::string figure_name;  // what `figure` is, with its unit
  double figure = 0;        // the scene's figure of merit (PeerFigure)
  bool passed = false;      // figure ≤ the scene's tolerance
};

PeerMeasures MeasureRun(const PeerScene& scene, const std::vector<PeerFrame>& frames);

// Deepest overlap (m, ≥ 0) of the bodies in one frame: with the planes and, when the scene lets
// bodies collide, with each other.
double MaxPenetration(const PeerScene& scene, const PeerFrame& frame);

// Largest distance (m) between where the parent and the child carry a hinge's anchor.
double MaxJointGap(const PeerScene& scene, const PeerFrame& frame);

std::string FigureName(PeerFigure figure);

// Kinetic (translation and rotation about the centre) plus gravitational energy of a frame, J.
double FrameEnergy(const PeerScene& scene, const PeerFrame& frame);

}  // namespace coulomb::peers
