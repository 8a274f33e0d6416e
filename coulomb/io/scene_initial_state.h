#pragma once
// What a scene file's reader does once the model exists (docs/scene-format.md): the initial state
// (joint values and floating poses the file gives; joints whose zero is outside their limits moved
// to the nearest limit; mimic followers placed by their leaders) and the default collision filter
// (welded and neighbouring links, then the links of one robot that overlap at that state). What
// it decides for the user goes to scene.notes.

#include <utility>
#include <vector>

#include "coulomb/io/yaml_fields.h"
#include "coulomb/sim/scene.h"

namespace coulomb::io {

// `values`: (body, field) of the initial values the file gives (a number for a 1-DoF joint, a
// pose map for a floating one); `rates`: (body, field) of 1-DoF initial velocities. A value
// outside its joint's limits, or a follower given a value its leader contradicts, fails the field.
void ApplyInitialState(sim::Scene& scene, const std::vector<std::pair<int, Field>>& values,
                       const std::vector<std::pair<int, Field>>& rates);

// scene.model.world's default filter (ExcludeAdjacentBodies), then ExcludeOverlappingLinks at
// scene.initial, reported in one note.
void FilterSelfCollisions(sim::Scene& scene);

}  // namespace coulomb::io
