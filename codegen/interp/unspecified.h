#pragma once
// The sanitizer's twin of bounds.partial-tile: which lanes of a tile hold
// unspecified values (read past the tensor's edge through a view without
// padding_value), followed op by op like poison, and where they reach
// something observable: a store or atomic that writes them, a pointer, view
// index, mask, loop bound or branch condition, a print or an assert.
//
// Lane-wise ops keep them in their lanes (select takes the chosen arm's);
// shape ops move them as they move values (they are re-run on 0/1 tiles);
// reduce and scan spread them along their slices; an mma spreads them along
// rows of lhs and columns of rhs. A store through a view writes only the
// lanes inside the tensor, so the lanes a partial load left unspecified are
// masked again by a store of the same tile (checked in ops_view.cpp).
#include <cstdint>
#include <vector>

#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"
#include "codegen/interp/tile.h"

namespace tilesight::interp {

class BlockExec;

// Per lane: the partial load whose unspecified value it holds (null: a
// specified value). A lane that combines several holds the first one's.
struct Unspecified {
  std::vector<const Operation*> from;
};

// Marks lanes [k0, k0 + count) of t, read by `load`, unspecified.
void markUnspecified(const Tile& t, int64_t k0, int64_t count, const Operation& load);

// After op ran (under the sanitizer): its results' unspecified lanes, or a
// finding where its operands' unspecified lanes become observable. The
// stored values of store_view_tko and atomic_red_view_tko are checked where
// their lanes are written (reachesMemory).
void followUnspecified(BlockExec& x, const Operation& op, OpKind k);
// Before a control op runs: a condition or loop bound that is unspecified.
void unspecifiedControl(BlockExec& x, const Operation& op, OpKind k);

// Lanes [k0, k0 + count) of t are written to memory by op.
void reachesMemory(BlockExec& x, const Operation& op, const Tile& t, int64_t k0, int64_t count);

}  // namespace tilesight::interp
