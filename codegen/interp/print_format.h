#pragma once
// print_tko's text (the interpreter's and a device's): the op's format
// string, unescaped, with each conversion applied to the next tile operand;
// a tile prints nested as its shape, as cuTile prints it.
#include <string>
#include <vector>

#include "analysis/ir/ir.h"
#include "codegen/interp/tile.h"

namespace tilesight::interp {

// `tiles`: the op's tile operands, in order (its token is none).
std::string formatPrinted(const Operation& op, const std::vector<const Tile*>& tiles);

}  // namespace tilesight::interp
