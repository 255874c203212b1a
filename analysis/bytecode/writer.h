#pragma once
// A program out as CUDA Tile IR bytecode 13.3, what `tileiras` reads: the
// text parser's IR (or the reader's), interpreted through the same op
// encodings table the reader uses (encodings.def). A pure library: no I/O.
//
// The caller passes a program without errors (VerifiedProgram, or a program
// read from bytecode); what bytecode cannot hold is refused with a message
// naming the op: ops other than Tile IR's, attributes the op has no place
// for, 13.4-only fields (`inbounds`, `saturating`), a module other than one
// `cuda_tile.module` of entries and globals.
#include <string>
#include <string_view>
#include <vector>

#include "analysis/bytecode/encodings.h"
#include "analysis/ir/ir.h"

namespace tilesight::bytecode {

struct WriteOptions {
  // Bytecode this program was read from, unchanged: its string, type and
  // constant tables are taken in its order and its debug section is kept,
  // so the file comes out byte for byte (the text form cannot carry the
  // debug records: scopes, subprograms, cuTile's stub frames). Empty: tables
  // in order of first use (cuTile's order), no debug section.
  std::string_view like;
};

struct Written {
  std::string bytes;                // empty on error
  std::vector<std::string> errors;  // what cannot be written, one per problem (at most a few)
  bool ok() const { return errors.empty(); }
};

// The version written.
constexpr Version kWriteVersion = kV13_3;

Written writeBytecode(const Program& p, const WriteOptions& options = {});

}  // namespace tilesight::bytecode
