#pragma once
// From a place in a bytecode file's text form back to the source location
// the debug info gives its op: how `check` and the language server report
// diagnostics on bytecode at Python lines.
#include <cstdint>

#include "analysis/bytecode/reader.h"

namespace tilesight::bytecode {

// The location of the innermost op whose range in the text form holds
// `offset` (`parsed`: Decoded::text parsed); null when no op does or its
// location is unknown.
const OpLocation* locationAt(const Decoded& d, const Program& parsed, uint32_t offset);

}  // namespace tilesight::bytecode
