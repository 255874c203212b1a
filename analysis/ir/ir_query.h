#pragma once
// Small questions about the IR that the facts and every check ask: operands
// by group name, defining ops, keyword attributes, constant integer tiles.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <llvm/ADT/ArrayRef.h>

#include "analysis/ir/ir.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

// The op's mnemonic from the op table ("for"), for messages; empty for an
// unregistered op. Code asks kindOf / is.
std::string_view nameOf(const Operation& op);
// The op's kind; nullopt for an unregistered op.
std::optional<OpKind> kindOf(const Operation& op);
// Whether op is a registered op of kind k.
bool is(const Operation& op, OpKind k);
// The integer ops whose result follows from their operands' values (and
// assume, which passes its value on): what executions compute.
bool integerArithmetic(std::optional<OpKind> k);
// make_tensor_view and the make_*_view ops.
bool makesView(OpKind k);
// Loads, stores and atomic reductions through a view; the other memory ops
// (gathers, scatters, atomics) go through a tile of pointers.
bool isViewAccess(OpKind k);
// The operand group holding the pointers of a memory op through pointers:
// load_ptr_tko's source, store_ptr_tko's destination, the atomics' pointers.
std::string_view pointerGroup(OpKind k);
// An `entry` or `testing$func` (isolated ops that sit in a module).
bool isFunction(const Operation& op);

// The operands of declared group `group` (empty when absent, or when the op
// does not match its table entry).
llvm::ArrayRef<Operand> operandGroup(const Operation& op, std::string_view group);
// The operand of group `group` at position i (nullptr when absent, or when
// the op does not match its table entry).
const Operand* operandOf(const Operation& op, std::string_view group, size_t i = 0);
ValueId operandValue(const Operation& op, std::string_view group, size_t i = 0);
// Operand `index` of the `yield` that ends region `region` of an `if`;
// kNoId when the region is not one block ending in a yield.
ValueId yieldedBy(const Program& p, const Operation& ifOp, uint32_t region, uint32_t index);
// The op defining `v`: nullptr for block arguments, unknown values, and
// unregistered or broken ops.
const Operation* definingOp(const Program& p, ValueId v);
// Whether a view access promises that its tile along index dimension d lies
// inside the tensor (13.4's `inbounds`, cuTile's check_bounds=False): an
// overhang is then undefined behaviour, not masked.
bool promisedInBounds(const Operation& op, size_t d);
// The elements of a `constant` integer or i1 tile, row-major, a splat
// repeated; nullopt for anything else or a tile of more than `maxElements`.
std::optional<std::vector<int64_t>> constantInts(const Program& p, ValueId v, size_t maxElements);

}  // namespace tilesight
