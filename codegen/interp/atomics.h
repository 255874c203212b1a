#pragma once
// The read-modify-write of atomic_rmw_tko and atomic_red_view_tko on one
// element: what the memory holds combined with an operand by the op's mode.
#include "analysis/ir/attr_values.h"
#include "codegen/interp/tile.h"

namespace tilesight::interp {

// cell[0] = cell[0] MODE arg[k] (the caller holds the address's lock and
// stores cell[0] back).
void combineAtomic(AtomicMode mode, Tile& cell, const Tile& arg, int64_t k);

}  // namespace tilesight::interp
