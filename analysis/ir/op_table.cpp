#include "analysis/ir/op_table.h"

#include <initializer_list>

#include "analysis/verify/op_rules.h"

namespace tilesight {

namespace {

constexpr uint32_t bit(Elem e) { return 1u << static_cast<unsigned>(e); }
constexpr uint32_t bits(std::initializer_list<Elem> es) {
  uint32_t m = 0;
  for (Elem e : es) m |= bit(e);
  return m;
}
constexpr uint32_t kInt = bits({Elem::I1, Elem::I8, Elem::I16, Elem::I32, Elem::I64});
constexpr uint32_t kBaseFloat = bits({Elem::F16, Elem::BF16, Elem::F32, Elem::F64});
constexpr uint32_t kFloat = kBaseFloat | bits({Elem::TF32, Elem::F8E4M3FN, Elem::F8E5M2, Elem::F8E8M0FNU, Elem::F4E2M1FN});
constexpr uint32_t kNumber = kInt | kFloat;

// Constraint codes used in the table below.
Constraint constraintFor(std::string_view code) {
  using K = Constraint::Kind;
  auto tile = [](uint32_t elems, std::string_view d, bool scalar = false) {
    Constraint c;
    c.kind = K::Tile;
    c.elems = elems;
    c.scalar = scalar;
    c.description = d;
    return c;
  };
  if (code == "Int") return tile(kInt, "tile of i1, i8, i16, i32 or i64");
  if (code == "Int4") return tile(kInt | bit(Elem::I4), "tile of i1, i4, i8, i16, i32 or i64");
  if (code == "BF") return tile(kBaseFloat, "tile of f16, bf16, f32 or f64");
  if (code == "F") return tile(kFloat, "tile of a float type");
  if (code == "Num") return tile(kNumber, "tile of a number type");
  if (code == "Num4") return tile(kNumber | bit(Elem::I4), "tile of a number type or i4");
  if (code == "I1") return tile(bit(Elem::I1), "tile of i1");
  if (code == "sI1") return tile(bit(Elem::I1), "scalar tile of i1", true);
  if (code == "I8") return tile(bit(Elem::I8), "tile of i8");
  if (code == "I64") return tile(bit(Elem::I64), "tile of i64");
  if (code == "sI32") return tile(bit(Elem::I32), "scalar tile of i32", true);
  if (code == "sInt") return tile(kInt, "scalar integer tile", true);
  if (code == "F32") return tile(bit(Elem::F32), "tile of f32");
  if (code == "MmaIn") return tile(kBaseFloat | bits({Elem::TF32, Elem::F8E4M3FN, Elem::F8E5M2}),
                                   "tile of f16, bf16, f32, f64, tf32, f8E4M3FN or f8E5M2");
  if (code == "MmaAcc") return tile(bits({Elem::F16, Elem::F32, Elem::F64}), "tile of f16, f32 or f64");
  if (code == "MmaSIn") return tile(bits({Elem::F8E4M3FN, Elem::F8E5M2, Elem::F4E2M1FN}),
                                    "tile of f8E4M3FN, f8E5M2 or f4E2M1FN");
  if (code == "MmaSScale") return tile(bits({Elem::F8E4M3FN, Elem::F8E8M0FNU}), "tile of f8E4M3FN or f8E8M0FNU");
  if (code == "Ptr" || code == "sPtr") {
    Constraint c = tile(0, code == "Ptr" ? "tile of pointers" : "scalar tile of a pointer", code == "sPtr");
    c.ptrElem = c.ptrOnly = true;
    return c;
  }
  if (code == "T") {
    Constraint c = tile(0, "tile");
    c.ptrElem = true;
    return c;
  }
  Constraint c;
  if (code == "Tok") { c.kind = K::Token; c.description = "token"; }
  else if (code == "TV") { c.kind = K::TensorView; c.description = "tensor_view"; }
  else if (code == "View") { c.kind = K::View; c.description = "tile view (partition, strided or gather/scatter)"; }
  else if (code == "PV") { c.kind = K::PartitionView; c.description = "partition_view"; }
  else if (code == "SV") { c.kind = K::StridedView; c.description = "strided_view"; }
  else if (code == "GV") { c.kind = K::GatherScatterView; c.description = "gather_scatter_view"; }
  else { c.kind = K::Any; c.description = "any type"; }
  return c;
}

// "lhs:Int rhs:Int mask:I1? idx:sInt*"
std::vector<GroupDecl> groups(std::string_view spec) {
  std::vector<GroupDecl> out;
  while (!spec.empty()) {
    size_t sp = spec.find(' ');
    std::string_view item = spec.substr(0, sp);
    spec = sp == std::string_view::npos ? std::string_view() : spec.substr(sp + 1);
    if (item.empty()) continue;
    GroupDecl g;
    if (item.back() == '?') { g.arity = Arity::Optional; item.remove_suffix(1); }
    else if (item.back() == '*') { g.arity = Arity::Variadic; item.remove_suffix(1); }
    size_t colon = item.find(':');
    g.name = std::string(item.substr(0, colon));
    g.constraint = constraintFor(colon == std::string_view::npos ? "Any" : item.substr(colon + 1));
    out.push_back(std::move(g));
  }
  return out;
}

struct Row {
  std::string_view name, category, since, format, operands, results;
  uint32_t traits;
  VerifyFn verify;
  std::string_view doc;
};

// Shared formats.
constexpr std::string_view kUnary = "%source {} ':' t(result=source)";
constexpr std::string_view kBinary = "%lhs ',' %rhs {} ':' t(result=lhs=rhs)";
constexpr std::string_view kBinaryOvf = "%lhs ',' %rhs @overflow:ovf {} ':' t(result=lhs=rhs)";
constexpr std::string_view kBinarySign = "%lhs ',' %rhs @signedness:sign {} ':' t(result=lhs=rhs)";
constexpr std::string_view kBinaryIeee =
    "%lhs ',' %rhs @rounding_mode:rnd_ieee @flush_to_zero:unit {} ':' t(result=lhs=rhs)";
constexpr std::string_view kCast = "%source {} ':' t(source) '->' t(result)";
constexpr std::string_view kTerm = "{} [ %operands* ':' t(operands*) ]";
constexpr std::string_view kMemLoadPtr =
    "@memory_ordering_semantics:ord @memory_scope:scope? %source [ ',' %mask ] [ ',' %paddingValue ] "
    "[ 'token' '=' %token ] [ 'optimization_hints' '=' @optimization_hints:hints ] {} ':' t(source) "
    "[?mask ',' t(mask) ] [?paddingValue ',' t(paddingValue) ] '->' t(result) ',' t(result_token)";
constexpr std::string_view kMemStorePtr =
    "@memory_ordering_semantics:ord @memory_scope:scope? %destination ',' %value [ ',' %mask ] "
    "[ 'token' '=' %token ] [ 'optimization_hints' '=' @optimization_hints:hints ] {} ':' t(destination) ',' "
    "t(value) [?mask ',' t(mask) ] '->' t(result_token)";

using namespace rules;

const Row kRows[] = {
    // --- integer -----------------------------------------------------------
    {"absi", "integer", "13.1", kUnary, "source:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise absolute value of an integer tile."},
    {"addi", "integer", "13.1", kBinaryOvf, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise integer addition (wraps unless an overflow flag says otherwise)."},
    {"subi", "integer", "13.1", kBinaryOvf, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise integer subtraction."},
    {"muli", "integer", "13.1", kBinaryOvf, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise integer multiplication (low half)."},
    {"shli", "integer", "13.1", kBinaryOvf, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise shift left."},
    {"divi", "integer", "13.1", "%lhs ',' %rhs @signedness:sign @rounding:rnd_divi {} ':' t(result=lhs=rhs)", "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, divi, "Element-wise integer division with a rounding mode (default toward zero)."},
    {"remi", "integer", "13.1", kBinarySign, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise integer remainder."},
    {"maxi", "integer", "13.1", kBinarySign, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise integer maximum."},
    {"mini", "integer", "13.1", kBinarySign, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise integer minimum."},
    {"shri", "integer", "13.1", kBinarySign, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise shift right (arithmetic when signed)."},
    {"mulhii", "integer", "13.1", "%x ',' %y {} ':' t(result=x=y)", "x:Int y:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise high half of the integer product."},
    {"andi", "integer", "13.1", kBinary, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise bitwise and."},
    {"ori", "integer", "13.1", kBinary, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise bitwise or."},
    {"xori", "integer", "13.1", kBinary, "lhs:Int rhs:Int", "result:Int", kPure | kElementwise, nullptr, "Element-wise bitwise exclusive or."},
    {"negi", "integer", "13.1", "%source @overflow:ovf {} ':' t(result=source)", "source:Int", "result:Int", kPure | kElementwise, negi, "Element-wise integer negation."},
    {"cmpi", "integer", "13.1", "@comparison_predicate:pred %lhs ',' %rhs ',' @signedness:sign {} ':' t(lhs=rhs) '->' t(result)", "lhs:Int rhs:Int", "result:I1", kPure | kElementwise, cmpResult, "Element-wise integer comparison; the result is an i1 tile of the same shape."},
    {"mmai", "integer", "13.1", "%lhs ',' %rhs ',' %acc @signedness_lhs:sign @signedness_rhs:sign {} ':' t(lhs) ',' t(rhs) ',' t(acc=result)", "lhs:I8 rhs:I8 acc:Int", "result:Int", kPure, mmai, "Integer matrix multiply-accumulate: i8 x i8 -> i32, 2-D or batched 3-D."},
    // --- float -------------------------------------------------------------
    {"addf", "float", "13.1", kBinaryIeee, "lhs:BF rhs:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise float addition with an IEEE rounding mode."},
    {"subf", "float", "13.1", kBinaryIeee, "lhs:BF rhs:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise float subtraction."},
    {"mulf", "float", "13.1", kBinaryIeee, "lhs:BF rhs:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise float multiplication."},
    {"divf", "float", "13.1", "%lhs ',' %rhs @rounding_mode:rnd_divf @flush_to_zero:unit {} ':' t(result=lhs=rhs)", "lhs:BF rhs:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise float division (IEEE, approx or full)."},
    {"fma", "float", "13.1", "%lhs ',' %rhs ',' %acc @rounding_mode:rnd_ieee @flush_to_zero:unit {} ':' t(result=lhs=rhs=acc)", "lhs:BF rhs:BF acc:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise fused multiply-add lhs * rhs + acc."},
    {"maxf", "float", "13.1", "%lhs ',' %rhs @flush_to_zero,propagate_nan:units {} ':' t(result=lhs=rhs)", "lhs:BF rhs:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise float maximum."},
    {"minf", "float", "13.1", "%lhs ',' %rhs @flush_to_zero,propagate_nan:units {} ':' t(result=lhs=rhs)", "lhs:BF rhs:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise float minimum."},
    {"remf", "float", "13.1", kBinary, "lhs:BF rhs:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise float remainder."},
    {"pow", "float", "13.1", "%source ',' %exponent {} ':' t(result=source=exponent)", "source:BF exponent:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise power."},
    {"atan2", "float", "13.2", "%x ',' %y {} ':' t(result=x=y)", "x:BF y:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise two-argument arctangent."},
    {"absf", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise float absolute value."},
    {"negf", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise float negation."},
    {"ceil", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise ceiling."},
    {"floor", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise floor."},
    {"cos", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise cosine."},
    {"cosh", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise hyperbolic cosine."},
    {"sin", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise sine."},
    {"sinh", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise hyperbolic sine."},
    {"tan", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise tangent."},
    {"log", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise natural logarithm."},
    {"log2", "float", "13.1", kUnary, "source:BF", "result:BF", kPure | kElementwise, nullptr, "Element-wise base-2 logarithm."},
    {"tanh", "float", "13.1", "%source @rounding_mode:rnd_tanh {} ':' t(result=source)", "source:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise hyperbolic tangent (rounding approx or full)."},
    {"exp", "float", "13.1", "%source @rounding_mode:rnd_exp {} ':' t(result=source)", "source:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise base-e exponential (rounding approx or full)."},
    {"exp2", "float", "13.1", "%source @flush_to_zero:unit {} ':' t(result=source)", "source:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise base-2 exponential."},
    {"sqrt", "float", "13.1", "%source @rounding_mode:rnd_sqrt @flush_to_zero:unit {} ':' t(result=source)", "source:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise square root."},
    {"rsqrt", "float", "13.1", "%source @flush_to_zero:unit {} ':' t(result=source)", "source:BF", "result:BF", kPure | kElementwise, floatModifiers, "Element-wise reciprocal square root."},
    {"cmpf", "float", "13.1", "@comparison_predicate:pred @comparison_ordering:cmpord %lhs ',' %rhs {} ':' t(lhs=rhs) '->' t(result)", "lhs:BF rhs:BF", "result:I1", kPure | kElementwise, cmpResult, "Element-wise float comparison, ordered or unordered."},
    {"mmaf", "float", "13.1", "%lhs ',' %rhs ',' %acc @fast_acc:unit {} ':' t(lhs) ',' t(rhs) ',' t(acc=result)", "lhs:MmaIn rhs:MmaIn acc:MmaAcc", "result:MmaAcc", kPure, mmaf, "Float matrix multiply-accumulate (M x K) * (K x N) + (M x N), optionally batched."},
    {"mmaf_scaled", "float", "13.3", "%lhs ',' %rhs ',' %acc ',' %lhs_scale ',' %rhs_scale {} ':' t(lhs) ',' t(rhs) ',' t(acc=result) ',' t(lhs_scale) ',' t(rhs_scale)", "lhs:MmaSIn rhs:MmaSIn acc:F32 lhs_scale:MmaSScale rhs_scale:MmaSScale", "result:F32", kPure, mmafScaled, "Block-scaled matrix multiply-accumulate for f8/f4 inputs."},
    // --- conversions ---------------------------------------------------------
    {"exti", "conversion", "13.1", "%from @signedness:sign {} ':' t(from) '->' t(to)", "from:Int4", "to:Int4", kPure | kElementwise, exti, "Widen integers (sign or zero extension)."},
    {"trunci", "conversion", "13.1", "%from @overflow:ovf {} ':' t(from) '->' t(to)", "from:Int4", "to:Int4", kPure | kElementwise, trunci, "Narrow integers."},
    {"ftof", "conversion", "13.1", "%from @rounding_mode:rnd_ieee {} ':' t(from) '->' t(to)", "from:F", "to:F", kPure | kElementwise, ftof, "Convert between float formats."},
    {"ftoi", "conversion", "13.1", "%from @signedness:sign @rounding_mode:rnd_int {} ':' t(from) '->' t(to)", "from:F", "to:Int", kPure | kElementwise, ftoi, "Convert floats to integers (toward zero)."},
    {"itof", "conversion", "13.1", "%from @signedness:sign @rounding_mode:rnd_ieee {} ':' t(from) '->' t(to)", "from:Int", "to:F", kPure | kElementwise, itof, "Convert integers to floats."},
    {"bitcast", "conversion", "13.1", kCast, "source:Num", "result:Num", kPure | kElementwise, bitcast, "Reinterpret the bits of each element as another type of the same width."},
    {"ptr_to_int", "conversion", "13.1", kCast, "source:Ptr", "result:I64", kPure, ptrToInt, "Pointer tile to i64 tile."},
    {"int_to_ptr", "conversion", "13.1", kCast, "source:I64", "result:Ptr", kPure, intToPtr, "i64 tile to pointer tile."},
    {"ptr_to_ptr", "conversion", "13.1", kCast, "source:Ptr", "result:Ptr", kPure, ptrToPtr, "Change the pointee type of a pointer tile."},
    // --- core ----------------------------------------------------------------
    {"constant", "core", "13.1", "@value:dense ':' t(result) {}", "", "result:Num", kPure, constant, "A constant tile from a dense literal (one value is splatted)."},
    {"iota", "core", "13.1", "{} ':' t(result)", "", "result:Int", kPure, iota, "The 1-D tile [0, 1, ..., N-1]."},
    {"offset", "core", "13.1", "%ptr ',' %offset {} ':' t(ptr) ',' t(offset) '->' t(result)", "ptr:Ptr offset:Int", "result:Ptr", kPure, offset, "Advance each pointer by an element offset."},
    {"broadcast", "core", "13.1", kCast, "source:T", "result:T", kPure, broadcast, "Broadcast size-1 dimensions to the result shape."},
    {"reshape", "core", "13.1", kCast, "source:T", "result:T", kPure, reshape, "Reshape a tile (row-major), keeping the element count."},
    {"permute", "core", "13.1", "%source @permutation:arr {} ':' t(source) '->' t(result)", "source:T", "result:T", kPure, permute, "Permute the dimensions of a tile."},
    {"cat", "core", "13.1", "%lhs ',' %rhs 'dim' '=' @dim:int {} ':' t(lhs) ',' t(rhs) '->' t(result)", "lhs:T rhs:T", "result:T", kPure, cat, "Concatenate two tiles along a dimension."},
    {"extract", "core", "13.1", "%source '[' %indices* ']' {} ':' t(source) '->' t(result)", "source:T indices:sI32*", "result:T", kPure, extract, "Extract the sub-tile at the given sub-tile indices."},
    {"select", "core", "13.1", "%cond ',' %val_if_true ',' %val_if_false {} ':' t(cond) ',' t(result=val_if_true=val_if_false)", "cond:I1 val_if_true:T val_if_false:T", "result:T", kPure | kElementwise, select, "Element-wise choice between two tiles."},
    {"pack", "core", "13.3", kCast, "source:Num4", "result:I8", kPure, pack, "Pack a 1-D tile into bytes."},
    {"unpack", "core", "13.3", kCast, "source:I8", "result:Num4", kPure, unpack, "Unpack bytes into a 1-D tile of another element type."},
    {"reduce", "core", "13.1", "%operands* {} 'dim' '=' @dim:int 'identities' '=' @identities:attr ':' t(operands*) '->' t(results*) ^body:args", "operands:T*", "results:T*", 0, reduce, "Reduce tiles along a dimension with a pure body."},
    {"scan", "core", "13.1", "%operands* {} 'dim' '=' @dim:int 'reverse' '=' @reverse:bool 'identities' '=' @identities:attr ':' t(operands*) '->' t(results*) ^body:args", "operands:T*", "results:T*", 0, scan, "Inclusive scan along a dimension with a pure body."},
    {"get_tile_block_id", "core", "13.1", "{} ':' t(blockId_x=blockId_y=blockId_z)", "", "blockId_x:sI32 blockId_y:sI32 blockId_z:sI32", kPure, nullptr, "The (x, y, z) index of this tile block in the grid."},
    {"get_num_tile_blocks", "core", "13.1", "{} ':' t(gridSize_x=gridSize_y=gridSize_z)", "", "gridSize_x:sI32 gridSize_y:sI32 gridSize_z:sI32", kPure, nullptr, "The (x, y, z) size of the grid."},
    {"get_global", "core", "13.1", "@name:sym {} ':' t(result)", "", "result:sPtr", kPure, getGlobal, "A pointer to a module global."},
    {"assume", "core", "13.1", "@predicate:assume ',' %value {} ':' t(result=value)", "value:Any", "result:Any", kElementwise, assume, "Attach a predicate (div_by, same_elements, bounded) the compiler may assume."},
    {"assert", "core", "13.1", "%condition ',' @message:str {} ':' t(condition)", "condition:I1", "", 0, nullptr, "Abort with a message when any element of the condition is false."},
    {"print_tko", "core", "13.1", "@str:str [ ',' %args* ] [ 'token' '=' %token ] {} [?args ':' t(args*) ] '->' t(result_token)", "args:T* token:Tok?", "result_token:Tok", kMemory, printTko, "Print a formatted message (token-ordered)."},
    {"alloca", "memory", "13.3", "'num_elem' '=' @num_elem:int ',' 'alignment' '=' @alignment:int @global:unit {} ':' t(result)", "", "result:sPtr", 0, allocaOp, "Allocate scratch memory; returns a pointer."},
    // --- tokens and memory ------------------------------------------------------
    {"make_token", "memory", "13.1", "{} ':' t(result)", "", "result:Tok", kPure, nullptr, "A fresh token with no dependencies."},
    {"join_tokens", "memory", "13.1", "%tokens* {} ':' t(result)", "tokens:Tok*", "result:Tok", kPure, joinTokens, "A token that waits for all input tokens."},
    {"load_ptr_tko", "memory", "13.1", kMemLoadPtr, "source:Ptr mask:I1? paddingValue:T? token:Tok?", "result:T result_token:Tok", kMemory, loadPtr, "Load a tile through a tile of pointers, optionally masked."},
    {"store_ptr_tko", "memory", "13.1", kMemStorePtr, "destination:Ptr value:T mask:I1? token:Tok?", "result_token:Tok", kMemory, storePtr, "Store a tile through a tile of pointers, optionally masked."},
    {"atomic_rmw_tko", "memory", "13.1", "@memory_ordering_semantics:ord @memory_scope:scope %pointers ',' @mode:atomic ',' %arg [ ',' %mask ] [ 'token' '=' %token ] {} ':' t(pointers) ',' t(arg) [?mask ',' t(mask) ] '->' t(result) ',' t(result_token)", "pointers:Ptr arg:T mask:I1? token:Tok?", "result:T result_token:Tok", kMemory, atomicRmw, "Atomic read-modify-write through pointers."},
    {"atomic_cas_tko", "memory", "13.1", "@memory_ordering_semantics:ord @memory_scope:scope %pointers ',' %cmp ',' %val [ ',' %mask ] [ 'token' '=' %token ] {} ':' t(pointers) ',' t(val=cmp) [?mask ',' t(mask) ] '->' t(result) ',' t(result_token)", "pointers:Ptr cmp:T val:T mask:I1? token:Tok?", "result:T result_token:Tok", kMemory, atomicCas, "Atomic compare-and-swap through pointers."},
    // --- views ------------------------------------------------------------------
    {"make_tensor_view", "view", "13.1", "custom", "base:sPtr dynamicShape:sInt* dynamicStrides:sInt*", "result:TV", kPure, makeTensorView, "A global-memory tensor from a base pointer, shape and strides."},
    {"make_partition_view", "view", "13.1", "custom", "tensor_view:TV", "result:PV", kPure, makeView, "Partition a tensor_view into a grid of non-overlapping tiles."},
    {"make_strided_view", "view", "13.3", "custom", "tensor_view:TV", "result:SV", kPure, makeView, "A view whose tiles start at multiples of traversal strides."},
    {"make_gather_scatter_view", "view", "13.3", "custom", "tensor_view:TV", "result:GV", kPure, makeView, "A view indexed by a tile of indices along one sparse dimension."},
    {"get_tensor_shape", "view", "13.1", "custom", "src:TV", "result:sInt*", kPure, getTensorShape, "The shape of a tensor_view, one scalar per dimension."},
    {"get_index_space_shape", "view", "13.1", "custom", "src:View", "result:sInt*", kPure, getIndexSpaceShape, "The shape of a view's index space (number of tiles per dimension)."},
    {"load_view_tko", "view", "13.1", "custom", "view:View index:Int* token:Tok?", "tile:T result_token:Tok", kMemory, loadView, "Load the tile at an index of a view."},
    {"store_view_tko", "view", "13.1", "custom", "tile:T view:View index:Int* token:Tok?", "result_token:Tok", kMemory, storeView, "Store a tile at an index of a view (out-of-bounds elements are masked)."},
    {"atomic_red_view_tko", "view", "13.3", "custom", "view:View index:Int* value:T token:Tok?", "result_token:Tok", kMemory, atomicRedView, "Atomic element-wise reduction into the tile at an index of a view."},
    // --- control flow -------------------------------------------------------------
    {"if", "control", "13.1", "custom", "condition:sI1", "results:Any*", 0, ifOp, "Run the then or else region; results come from yield."},
    {"for", "control", "13.1", "custom", "lowerBound:sInt upperBound:sInt step:sInt initValues:Any*", "results:Any*", 0, forOp, "Counted loop from lb to ub (exclusive) by step, carrying iter_values."},
    {"loop", "control", "13.1", "custom", "initValues:Any*", "results:Any*", 0, loopOp, "Loop until break; continue carries iter_values."},
    {"continue", "control", "13.1", kTerm, "operands:Any*", "", kTerminator, continueOp, "Next iteration of the enclosing for/loop with new iter_values."},
    {"break", "control", "13.1", kTerm, "operands:Any*", "", kTerminator, breakOp, "Leave the enclosing loop with its results."},
    {"yield", "control", "13.1", kTerm, "operands:Any*", "", kTerminator, yieldOp, "Results of an if branch or a reduce/scan body."},
    {"return", "control", "13.1", kTerm, "operands:Any*", "", kTerminator, returnOp, "Return from an entry (no values) or a test function."},
    // --- top level ------------------------------------------------------------------
    {"module", "top", "13.1", "custom", "", "", kIsolated, module, "A Tile IR module: entries and globals."},
    {"entry", "top", "13.1", "custom", "", "", kIsolated | kTopLevel, entry, "A kernel entry point; arguments are scalar tiles (or views)."},
    {"global", "top", "13.1", "custom", "", "", kTopLevel, global, "A module-level rank-1 buffer with an initial value."},
    {"testing$func", "top", "250.0", "custom", "", "", kIsolated | kTopLevel, func, "Test-only function with results (cuda-tile's lit tests)."},
};

}  // namespace

bool Constraint::accepts(TypeRef t) const {
  if (!t) return true;  // unknown after an error: stay silent
  switch (kind) {
    case Any: return true;
    case Token: return t->isToken();
    case TensorView: return t->kind == TypeKind::TensorView;
    case View: return t->isView();
    case PartitionView: return t->kind == TypeKind::PartitionView;
    case StridedView: return t->kind == TypeKind::StridedView;
    case GatherScatterView: return t->kind == TypeKind::GatherScatterView;
    case Tile: break;
  }
  if (!t->isTile()) return false;
  if (scalar && !t->shape.empty()) return false;
  if (t->isPtrTile()) return ptrElem;
  if (ptrOnly) return false;
  return elems == 0 || (elems & (1u << static_cast<unsigned>(t->tileElem())));
}

TypeRef Constraint::buildable(TypeContext& ctx) const {
  if (kind == Token) return ctx.token();
  if (kind == Tile && scalar && !ptrElem && elems && (elems & (elems - 1)) == 0) {
    for (unsigned e = 0; e < 32; ++e)
      if (elems == (1u << e)) return ctx.tile({}, static_cast<Elem>(e));
  }
  return nullptr;
}

// Format elements name operand/result groups; the parser wants indices.
void OpTable::resolveGroups(const OpInfo& op, std::vector<FormatElem>& elems) {
  for (FormatElem& e : elems) {
    for (const auto& n : e.names) {
      e.operandIdx.push_back(op.operandGroup(n));
      e.resultIdx.push_back(op.resultGroup(n));
    }
    resolveGroups(op, e.children);
  }
}

int OpInfo::operandGroup(std::string_view n) const {
  for (size_t i = 0; i < operands.size(); ++i)
    if (operands[i].name == n) return static_cast<int>(i);
  return -1;
}

int OpInfo::resultGroup(std::string_view n) const {
  for (size_t i = 0; i < results.size(); ++i)
    if (results[i].name == n) return static_cast<int>(i);
  return -1;
}

OpTable::OpTable() {
  for (const Row& r : kRows)
    ops_.push_back({r.name, "cuda_tile." + std::string(r.name), r.category, r.since, r.format, groups(r.operands),
                    groups(r.results), r.traits, r.verify, r.doc, compileFormat(r.format)});
  for (OpInfo& op : ops_) {
    resolveGroups(op, op.syntax);
    byName_[op.name] = &op;
  }
}

const OpTable& OpTable::get() {
  static const OpTable table;
  return table;
}

const OpInfo* OpTable::lookup(std::string_view name) const {
  if (name.starts_with("cuda_tile.")) name.remove_prefix(10);
  auto it = byName_.find(llvm::StringRef(name.data(), name.size()));
  return it == byName_.end() ? nullptr : it->second;
}

}  // namespace tilesight
