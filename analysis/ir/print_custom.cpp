// Hand-written printers for the ops whose format is `custom`, one per
// hand-written parser of syntax/parse_custom.cpp (the comments give the syntax).
#include <algorithm>

#include "analysis/ir/print_writer.h"

namespace tilesight::print {

namespace {

llvm::ArrayRef<Operand> operands(const Operation& op, std::string_view group) {
  return operandGroup(op, op.info->operandGroup(group));
}

llvm::ArrayRef<ValueId> results(const Operation& op, std::string_view group) {
  return resultGroup(op, op.info->resultGroup(group));
}

TypeRef firstType(const Writer& w, llvm::ArrayRef<Operand> os) {
  return os.empty() ? nullptr : w.program().typeOf(os.front().value);
}

TypeRef firstType(const Writer& w, llvm::ArrayRef<ValueId> vs) {
  return vs.empty() ? nullptr : w.program().typeOf(vs.front());
}

const Block* entryBlock(const Operation& op) {
  return op.regions.empty() || op.regions[0].blocks.empty() ? nullptr : &op.regions[0].blocks[0];
}

void keywordAttr(Writer& w, std::string_view keyword, std::string_view kind, const Attr* a) {
  if (!a) return;
  w.word(keyword);
  w.word("=");
  w.word(kindText(kind, keyword, *a));
}

// `%a = %x, %b = %y` of iter_values: block arguments from `first` on, and their initial values.
void assignments(Writer& w, const Block& b, size_t first, llvm::ArrayRef<Operand> inits) {
  w.glue("(");
  for (size_t i = 0; i < inits.size() && first + i < b.args.size(); ++i) {
    if (i) w.glue(",");
    w.word(w.program().value(b.args[first + i]).name);
    w.word("=");
    w.value(inits[i]);
  }
  w.glue(")");
}

// cuda_tile.module @name [attributes {...}] { ... }
void moduleOp(Writer& w, const Operation& op) {
  Claims c(op);
  if (const Attr* sym = c.take("sym_name", "sym")) w.word(sym->s);
  w.attrDict(op, c, true);
  if (!op.regions.empty()) w.region(op.regions[0], EntryArgs::ByLabel);
}

// entry @k(%a: T, ...) [-> R] [optimization_hints = <...>] [attributes {...}] { ... }
// testing$func @f(%a: T) -> (R, ...) { ... }
void functionOp(Writer& w, const Operation& op) {
  Claims c(op);
  const Attr* sym = c.take("sym_name", "sym");
  const Attr* fn = c.take("function_type", "type");
  const Attr* hints = op.info->kind == OpKind::Entry ? c.take("optimization_hints", "hints") : nullptr;
  if (sym) w.word(sym->s);
  const Block* b = entryBlock(op);
  w.glue(b ? w.argList(*b) : "()");
  if (fn && fn->type && !fn->type->results.empty()) {
    w.word("->");
    w.word("(");
    w.types(fn->type->results);
    w.glue(")");
  }
  keywordAttr(w, "optimization_hints", "hints", hints);
  w.attrDict(op, c, true);
  if (!op.regions.empty()) w.region(op.regions[0], EntryArgs::ByOp);
}

// global [public|private] [constant] @sym [alignment = N] [{attrs}] <E: v> : T
void globalOp(Writer& w, const Operation& op) {
  Claims c(op);
  const Attr* vis = c.take("symbol_visibility", "vis");
  const Attr* constant = c.take("constant", "unit");
  const Attr* sym = c.take("sym_name", "sym");
  const Attr* alignment = c.take("alignment", "int");
  const Attr* value = c.take("value", "dense");
  const Attr* type = c.take("type", "type");
  if (vis) w.word(vis->s);
  if (constant) w.word("constant");
  if (sym) w.word(sym->s);
  keywordAttr(w, "alignment", "int", alignment);
  w.attrDict(op, c, false);
  if (value) w.word(denseText(*value));
  w.word(":");
  w.type(type ? type->type : nullptr);
}

// if %c [-> (T, ...)] { ... } [else { ... }] [{attrs}]
void ifOp(Writer& w, const Operation& op) {
  w.values(operands(op, "condition"));
  if (!op.results.empty()) {
    w.word("->");
    w.word("(");
    w.types(w.typesOf(op.results));
    w.glue(")");
  }
  for (size_t i = 0; i < op.regions.size(); ++i) {
    if (i) w.word("else");
    w.region(op.regions[i], EntryArgs::ByLabel);
  }
  w.attrDict(op, Claims(op), false);
}

// for [unsigned] %iv in (%lb to %ub, step %s) : T [iter_values(%a = %x, ...) -> (R, ...)] { ... } [{attrs}]
void forOp(Writer& w, const Operation& op) {
  Claims c(op);
  if (c.take("unsignedCmp", "unit")) w.word("unsigned");
  const Block* b = entryBlock(op);
  ValueId iv = b && !b->args.empty() ? b->args[0] : kNoId;
  if (iv != kNoId) w.word(w.program().value(iv).name);
  w.word("in");
  w.word("(");
  w.values(operands(op, "lowerBound"));
  w.word("to");
  w.values(operands(op, "upperBound"));
  w.glue(",");
  w.word("step");
  w.values(operands(op, "step"));
  w.glue(")");
  w.word(":");
  w.type(w.program().typeOf(iv));
  if (auto inits = operands(op, "initValues"); b && !inits.empty()) {
    w.word("iter_values");
    assignments(w, *b, 1, inits);
    w.word("->");
    w.word("(");
    w.types(w.typesOf(op.results));
    w.glue(")");
  }
  if (!op.regions.empty()) w.region(op.regions[0], EntryArgs::ByOp);
  w.attrDict(op, c, false);
}

// loop [iter_values(%a = %x) : T... [-> R...]] | [: R...] { ... } [{attrs}]
void loopOp(Writer& w, const Operation& op) {
  const Block* b = entryBlock(op);
  if (auto inits = operands(op, "initValues"); b && !inits.empty()) {
    w.word("iter_values");
    assignments(w, *b, 0, inits);
    w.word(":");
    w.types(w.typesOf(b->args));
    if (!op.results.empty()) w.word("->");
  } else if (!op.results.empty()) {
    w.word(":");
  }
  w.types(w.typesOf(op.results));
  if (!op.regions.empty()) w.region(op.regions[0], EntryArgs::ByOp);
  w.attrDict(op, Claims(op), false);
}

// `shape = [8, %n]`: integers, and the group's operands where the list was dynamic (Unit).
void sizeList(Writer& w, std::string_view keyword, const Attr* list, llvm::ArrayRef<Operand> dynamic) {
  w.word(keyword);
  w.word("=");
  w.word("[");
  size_t next = 0;
  for (size_t i = 0; list && i < list->elems.size(); ++i) {
    if (i) w.glue(",");
    const Attr& e = list->elems[i];
    if (e.kind == AttrKind::Unit && next < dynamic.size()) w.value(dynamic[next++]);
    else w.word(kindText("int", keyword, e));
  }
  w.glue("]");
}

// make_tensor_view %base, shape = [8, %n], strides = [%s, 1] [{attrs}] : [I ->] tensor_view<...>
void makeTensorView(Writer& w, const Operation& op) {
  Claims c(op);
  const Attr* shape = c.take("static_shape", "attr");
  const Attr* strides = c.take("static_strides", "attr");
  auto dynShape = operands(op, "dynamicShape"), dynStrides = operands(op, "dynamicStrides");
  w.values(operands(op, "base"));
  w.glue(",");
  sizeList(w, "shape", shape, dynShape);
  w.glue(",");
  sizeList(w, "strides", strides, dynStrides);
  w.attrDict(op, c, false);
  w.word(":");
  if (TypeRef index = firstType(w, dynShape.empty() ? dynStrides : dynShape)) {
    w.type(index);
    w.word("->");
  }
  w.type(firstType(w, results(op, "result")));
}

// make_partition_view %tv [{attrs}] : partition_view<...> (and the other views)
void makeView(Writer& w, const Operation& op) {
  w.values(operands(op, "tensor_view"));
  w.attrDict(op, Claims(op), false);
  w.word(":");
  w.type(firstType(w, results(op, "result")));
}

// get_tensor_shape %tv : tensor_view<...> -> tile<i32> (one result per dimension)
void shapeQuery(Writer& w, const Operation& op) {
  auto src = operandGroup(op, 0);
  w.values(src);
  w.word(":");
  w.type(firstType(w, src));
  w.word("->");
  // A rank-0 source has no result to take the type from; any type reads back as none.
  if (op.results.empty()) w.word("tile<i32>");
  else w.type(firstType(w, llvm::ArrayRef<ValueId>(op.results)));
}

// Index types: one for all indices when they agree, else one per index.
void indexTypes(Writer& w, llvm::ArrayRef<Operand> indices) {
  std::vector<TypeRef> ts = w.typesOf(indices);
  if (ts.empty()) return;
  w.glue(",");
  bool same = std::all_of(ts.begin(), ts.end(), [&](TypeRef t) { return t == ts.front(); });
  w.types(same ? llvm::ArrayRef<TypeRef>(ts.front()) : llvm::ArrayRef<TypeRef>(ts));
}

// load_view_tko ORD [SCOPE] %view[%i, ...] [token = %t] [optimization_hints = <...>] {attrs}
//     : VIEW, IDX... -> TILE, token
// store_view_tko ORD [SCOPE] %tile, %view[%i, ...] ... : TILE, VIEW, IDX... -> token
// atomic_red_view_tko ORD [SCOPE] %view[%i, ...], MODE, %value ... : TILE, VIEW, IDX... -> token
void viewMemoryOp(Writer& w, const Operation& op) {
  bool isLoad = op.info->kind == OpKind::LoadViewTko, isStore = op.info->kind == OpKind::StoreViewTko;
  Claims c(op);
  const Attr* ord = c.take("memory_ordering_semantics", "ord");
  const Attr* scope = c.take("memory_scope", "scope");
  const Attr* mode = isLoad || isStore ? nullptr : c.take("mode", "atomic");
  const Attr* hints = c.take("optimization_hints", "hints");
  if (ord) w.word(kindText("ord", "", *ord));
  if (scope) w.word(kindText("scope", "", *scope));
  auto tile = operands(op, isStore ? "tile" : "value");
  if (isStore) {
    w.values(tile);
    w.glue(",");
  }
  w.values(operands(op, "view"));
  w.word("[");
  w.values(operands(op, "index"));
  w.glue("]");
  if (!isLoad && !isStore) {
    w.glue(",");
    if (mode) w.word(kindText("atomic", "", *mode));
    w.glue(",");
    w.values(tile);
  }
  if (auto token = operands(op, "token"); !token.empty()) {
    w.word("token");
    w.word("=");
    w.values(token);
  }
  keywordAttr(w, "optimization_hints", "hints", hints);
  w.attrDict(op, c, false);
  w.word(":");
  if (!isLoad) {
    w.type(firstType(w, tile));
    w.glue(",");
  }
  w.type(firstType(w, operands(op, "view")));
  indexTypes(w, operands(op, "index"));
  w.word("->");
  if (isLoad) {
    w.type(firstType(w, results(op, "tile")));
    w.glue(",");
  }
  w.type(firstType(w, results(op, "result_token")));
}

}  // namespace

void customOp(Writer& w, const Operation& op) {
  switch (op.info->kind) {
    case OpKind::Module: return moduleOp(w, op);
    case OpKind::Entry:
    case OpKind::TestingFunc: return functionOp(w, op);
    case OpKind::Global: return globalOp(w, op);
    case OpKind::If: return ifOp(w, op);
    case OpKind::For: return forOp(w, op);
    case OpKind::Loop: return loopOp(w, op);
    case OpKind::MakeTensorView: return makeTensorView(w, op);
    case OpKind::MakePartitionView:
    case OpKind::MakeStridedView:
    case OpKind::MakeGatherScatterView: return makeView(w, op);
    case OpKind::GetTensorShape:
    case OpKind::GetIndexSpaceShape: return shapeQuery(w, op);
    default: return viewMemoryOp(w, op);
  }
}

}  // namespace tilesight::print
