#pragma once
// Small questions about the IR that the facts and every check ask: operand
// groups by position (op_accessors.h names them), defining ops, constant
// integer tiles.
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
// load_ptr_tko's source, store_ptr_tko's destination, the atomics' pointers;
// empty for other ops.
llvm::ArrayRef<Operand> memoryPointers(const Operation& op);
// An `entry` or `testing$func` (isolated ops that sit in a module).
bool isFunction(const Operation& op);

// The operands of the op's operand group number g, in its table row (empty
// when the op has no such group or its segments do not match its row). The
// typed accessors (op_accessors.h) read groups by name through it.
llvm::ArrayRef<Operand> operandGroupAt(const Operation& op, size_t g);
// Operand i of a group: nullptr / kNoId when the group is shorter.
const Operand* operandAt(llvm::ArrayRef<Operand> group, size_t i);
ValueId valueAt(llvm::ArrayRef<Operand> group, size_t i);
// Operand `index` of the `yield` that ends region `region` of an `if`;
// kNoId when the region is not one block ending in a yield.
ValueId yieldedBy(const Program& p, const Operation& ifOp, uint32_t region, uint32_t index);
// The op defining `v`: nullptr for block arguments, unknown values, and
// unregistered or broken ops.
const Operation* definingOp(const Program& p, ValueId v);
// The make_tensor_view under `v` (a tensor_view, or a view made of one),
// with the tensor_view's type in `type` (nullptr when v is neither); nullptr
// when the tensor_view is not made by an op of this program (an argument, a
// loop-carried value).
const Operation* tensorViewOp(const Program& p, ValueId v, TypeRef& type);
// The value giving dynamic dimension `dim` of the tensor_view under `v`;
// kNoId when that dimension is static or cannot be followed.
ValueId tensorDimValue(const Program& p, ValueId v, size_t dim);
// Whether a view access promises that its tile along index dimension d lies
// inside the tensor (13.4's `inbounds`, cuTile's check_bounds=False): an
// overhang is then undefined behaviour, not masked.
bool promisedInBounds(const Operation& op, size_t d);
// The elements of a `constant` integer or i1 tile, row-major, a splat
// repeated; nullopt for anything else or a tile of more than `maxElements`.
std::optional<std::vector<int64_t>> constantInts(const Program& p, ValueId v, size_t maxElements);

}  // namespace tilesight
