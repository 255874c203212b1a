#pragma once
// The verifier: the spec's type rules and every op's rules, run over a
// (possibly partial) parse. Reports all problems, never stops at the first.
#include "analysis/diag/diagnostic.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

// The verifier's three passes, which analyze() runs per module item: the
// written types of side table entries [begin, end), the symbols of every
// module, the rules of ops [begin, end).
void verifyWrittenTypes(const SideTable& side, size_t begin, size_t end, DiagSink& diags);
void verifySymbols(const Program& p, DiagSink& diags);
void verifyOps(const Program& p, OpId begin, OpId end, DiagSink& diags);

// Type rules (seed 001 §5): checked once per written type, at its range.
void checkType(TypeRef t, Range r, DiagSink& diags);

}  // namespace tilesight
