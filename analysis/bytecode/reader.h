#pragma once
// CUDA Tile IR bytecode (13.1-13.4) in, the same program as the text form
// out: a Program built from registered ops whose attributes have the form the
// text parser gives them, its printed text, and the source location of each
// op from the debug info. A pure library: no I/O, nothing thrown; malformed
// input gives one `syntax` diagnostic "bytecode offset N: expected X".
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/diag/diagnostic.h"
#include "analysis/ir/ir.h"

namespace tilesight::bytecode {

// "\x7fTileIR\0": what makes a file bytecode, whatever its name.
bool isTileIRBytecode(std::string_view bytes);

struct SourceLoc {
  std::string file;
  uint32_t line = 0;    // 1-based; 0: unknown
  uint32_t column = 0;  // 1-based
  bool known() const { return line != 0; }
};

// Where an op comes from: `at`, and for an op of an inlined helper the call
// sites, innermost first. Frames inside cuTile's own `_stub.py` (method
// calls such as `.astype`) are replaced by their caller.
struct OpLocation {
  SourceLoc at;
  std::vector<SourceLoc> callers;
};

struct Decoded {
  Program program;                   // empty on error
  std::string text;                  // printProgram(program); empty on error
  std::string version;               // "13.3"; empty when the header is bad
  std::vector<OpLocation> locations;  // per op, in pre-order of the program (preorder() below)
  bool hasDebugInfo = false;         // some op has a known location
  std::vector<Diagnostic> diagnostics;  // at most one, code `syntax`, empty range
  uint64_t errorOffset = 0;          // where the error is (when there is one)
  bool ok() const { return diagnostics.empty(); }
};

Decoded readBytecode(std::string_view bytes);

// The ops of `p` in pre-order (each op before the ops of its regions), the
// order of Decoded::locations; the same sequence for the printed text parsed again.
std::vector<OpId> preorder(const Program& p);

// The pre-order index of the innermost op of `p` whose range holds `offset`
// (`p` parsed from Decoded::text); nullopt when none does.
std::optional<size_t> opAt(const Program& p, uint32_t offset);

}  // namespace tilesight::bytecode
