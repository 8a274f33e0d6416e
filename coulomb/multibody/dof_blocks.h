#pragma once
// The block-diagonal structure of the mass matrix: one block per tree of bodies (docs/DESIGN.md:
// dense per tree). M is factored and solved block by block, and contacts only couple the
// blocks they touch, which is what keeps large scenes sparse.

#include <vector>

#include "coulomb/multibody/model.h"

namespace coulomb::multibody {

// A diagonal block of the mass matrix: the velocities [start, start + size) of one or more
// trees. M is block diagonal over these (docs/DESIGN.md: dense per tree), so it is factored and
// solved per block, and W = J M⁻¹ Jᵀ only couples contacts that share a block.
struct DofBlock {
  int start = 0, size = 0;
};

// The smallest contiguous blocks such that no tree straddles two of them.
std::vector<DofBlock> FindDofBlocks(const Model& model);

// The block holding each velocity index.
std::vector<int> BlockOfVelocity(const Model& model, const std::vector<DofBlock>& blocks);

}  // namespace coulomb::multibody
