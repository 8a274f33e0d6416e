#pragma once
// The block-diagonal structure of the mass matrix: one block per tree of bodies (docs/DESIGN.md:
// dense per tree). M is factored and solved block by block, and contacts only couple the
// blocks they touch, which is what keeps large scenes sparse.

#include <vector>

#include "coulomb/multibody/model.h"

namespace coulomb::multibody {

// The smallest contiguous blocks such that no tree straddles two of them.
std::vector<DofBlock> FindDofBlocks(const Model& model);

// The block holding each velocity index.
std::vector<int> BlockOfVelocity(const Model& model, const std::vector<DofBlock>& blocks);

// The block holding each body's velocities; a body without any (welded) takes its parent's, and
// one welded to the world −1.
std::vector<int> BlockOfBodies(const Model& model, const std::vector<DofBlock>& blocks);

}  // namespace coulomb::multibody
