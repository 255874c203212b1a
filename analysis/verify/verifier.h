#pragma once
// The verifier: the spec's type rules and every op's rules, run over a
// (possibly partial) parse. Reports all problems, never stops at the first.
#include "analysis/diag/diagnostic.h"
#include "analysis/syntax/parser.h"

namespace tilesight {

void verifyProgram(const ParseResult& parsed, DiagSink& diags);

// Type rules (seed 001 §5): checked once per written type, at its range.
void checkType(TypeRef t, Range r, DiagSink& diags);

}  // namespace tilesight
