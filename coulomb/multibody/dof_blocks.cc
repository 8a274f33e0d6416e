#include "coulomb/multibody/dof_blocks.h"

#include <algorithm>

#include "coulomb/multibody/joint.h"

namespace coulomb::multibody {

std::vector<DofBlock> FindDofBlocks(const Model& model) {
  // Each tree spans [min v index, max v index]; overlapping spans are merged.
  std::vector<int> root(model.bodies.size());
  std::vector<std::pair<int, int>> span;  // per root body
  std::vector<int> span_of(model.bodies.size(), -1);
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    root[b] = body.parent < 0 ? static_cast<int>(b) : root[body.parent];
    const int nv = VelocitySize(body.joint);
    if (nv == 0) continue;
    if (span_of[root[b]] < 0) {
      span_of[root[b]] = static_cast<int>(span.size());
      span.emplace_back(body.v_index, body.v_index + nv);
    }
    auto& s = span[span_of[root[b]]];
    s.first = std::min(s.first, body.v_index);
    s.second = std::max(s.second, body.v_index + nv);
  }
  std::sort(span.begin(), span.end());
  std::vector<DofBlock> blocks;
  for (const auto& [begin, end] : span) {
    if (!blocks.empty() && begin < blocks.back().start + blocks.back().size) {
      blocks.back().size = std::max(blocks.back().size, end - blocks.back().start);
    } else {
      blocks.push_back({begin, end - begin});
    }
  }
  return blocks;
}

std::vector<int> BlockOfVelocity(const Model& model, const std::vector<DofBlock>& blocks) {
  std::vector<int> block(model.nv, -1);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    for (int i = blocks[k].start; i < blocks[k].start + blocks[k].size; ++i) {
      block[i] = static_cast<int>(k);
    }
  }
  return block;
}

std::vector<int> BlockOfBodies(const Model& model, const std::vector<DofBlock>& blocks) {
  const std::vector<int> of_velocity = BlockOfVelocity(model, blocks);
  std::vector<int> block(model.bodies.size(), -1);
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const Body& body = model.bodies[b];
    if (VelocitySize(body.joint) > 0) {
      block[b] = of_velocity[body.v_index];
    } else if (body.parent >= 0) {
      block[b] = block[body.parent];  // welded to its parent: moves with the parent's block
    }
  }
  return block;
}

}  // namespace coulomb::multibody
