#pragma once
// Where control goes (the spec's 13.1), described once for every walker of
// the IR: value facts, executions, the token graph and unspecified lanes.
//   yield     ends a region of an `if`, `reduce` or `scan`: the op's results
//             (an if's from the region its condition takes);
//   continue  goes, through `if`s, to a `for` or `loop`: the next iteration's
//             iter_values (after a for's last iteration, its results);
//   break     goes, through `if`s, to a `loop`: its results;
//   return    goes, through `if`s, to the function.
// A `for` that never iterates gives its initial values as results.
#include <cstdint>
#include <initializer_list>

#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

// The op that `terminator` hands control to: a yield's parent; for the
// others the first enclosing op that is not an `if`. kNoId at the top level.
// The kinds are not checked (the verifier reports a wrong one).
OpId exitTarget(const Program& p, OpId terminator);

// Whether a well-formed `terminator` may go to an op of kind `target`.
bool goesTo(OpKind terminator, OpKind target);

// Whether the operands of `terminator` become results of the `target` it
// goes to (else they start the next iteration): yield, break, and continue
// of a `for` (its last iteration's).
bool givesResults(OpKind terminator, OpKind target);

// The body argument that holds iter_value i of a `for` or `loop` (a for's
// first argument is its induction variable); kNoId when there is none.
ValueId iterValueArg(const Operation& loop, size_t i);

// Which region of `parent` holds `child` (by their text ranges; 0 when none does).
uint32_t regionHolding(const Program& p, const Operation& parent, OpId child);

// Whether op `id` is of one of `kinds` or holds one in its regions.
bool holdsAny(const Program& p, OpId id, std::initializer_list<OpKind> kinds);

}  // namespace tilesight
