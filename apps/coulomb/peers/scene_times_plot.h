#pragma once
// The scenes' µs/step of every engine and solver as one SVG bar chart (log scale), for
// docs/peers/ and the README beside the table.

#include <string>
#include <vector>

#include "apps/coulomb/peers/peers_bench.h"

namespace coulomb::peers {

// One group of bars per scene, one bar per engine × solver that ran; a bar whose run failed the
// scene's figure (or, for Coulomb, left a step uncertified) is drawn pale and marked.
std::string SceneTimesSvg(const std::vector<PeerRow>& rows);

}  // namespace coulomb::peers
