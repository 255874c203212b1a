#pragma once
// The IR printer: a Program back to text that the parser reads as the same
// Program (ir_equal.h). Registered ops print in their custom form, driven by
// the op table's compiled formats (op_format.h) or, for the ops whose format
// is `custom`, by hand-written printers mirroring syntax/parse_custom.cpp.
// Ops parsed in MLIR's generic form print in the generic form again, so
// unregistered ops and their attributes keep their spelling.
#include <string>

#include "analysis/ir/ir.h"

namespace tilesight {

// Every top-level op of `p`, one op per line, 2 spaces of indentation per
// region level, ending with a newline.
std::string printProgram(const Program& p);

// One op with its regions; nested lines are indented from `indent` levels.
std::string printOp(const Program& p, OpId id, unsigned indent = 0);

// An attribute in the builtin syntax that an attribute dictionary reads.
std::string printAttr(const Attr& a);

// A type in its short spelling (`tile<4xf32>`; other dialects' types as written).
std::string printType(TypeRef t);

}  // namespace tilesight
