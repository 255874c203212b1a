// Hand-written parsers for the ops whose syntax the format language does not
// cover: module, entry, testing$func, global, if/for/loop, views and the
// view memory ops.
#include "analysis/syntax/parser.h"

namespace tilesight {

namespace {
int group(const Parser::OpState& st, std::string_view n) { return st.info->operandGroup(n); }
int rgroup(const Parser::OpState& st, std::string_view n) { return st.info->resultGroup(n); }
}  // namespace

bool Parser::parseCustom(OpState& st) {
  switch (st.info->kind) {
    case OpKind::Module: return parseModuleOp(st);
    case OpKind::Entry: return parseFunctionOp(st, true);
    case OpKind::TestingFunc: return parseFunctionOp(st, false);
    case OpKind::Global: return parseGlobalOp(st);
    case OpKind::If: return parseIfOp(st);
    case OpKind::For: return parseForOp(st);
    case OpKind::Loop: return parseLoopOp(st);
    case OpKind::MakeTensorView: return parseMakeTensorView(st);
    case OpKind::MakePartitionView:
    case OpKind::MakeStridedView:
    case OpKind::MakeGatherScatterView: return parseMakeView(st);
    case OpKind::GetTensorShape:
    case OpKind::GetIndexSpaceShape: return parseShapeQuery(st);
    default: break;
  }
  return parseViewMemoryOp(st);
}

static void addSymbolDef(Parser& p, Parser::OpState& st, const Token& t) {
  NamedAttr na{"sym_name", {}, t.range()};
  na.attr.kind = AttrKind::Symbol;
  na.attr.s = std::string(t.text);
  na.attr.range = t.range();
  st.attrs.push_back(std::move(na));
  p.side().add({Occurrence::Symbol, true, t.range(), kNoId, st.id, nullptr});
}

bool Parser::parseModuleOp(OpState& st) {
  if (!tok_.is(Tok::AtId)) {
    expectedHere("a module name (@name)");
    return false;
  }
  addSymbolDef(*this, st, tok_);
  consume();
  if (consumeKeyword("attributes") && !parseAttrDict(st.attrs)) return false;
  Region body;
  OpId outer = std::exchange(moduleBody_, st.id);
  bool ok = parseRegion(body, st.id, {}, true);
  moduleBody_ = outer;
  st.regions.push_back(std::move(body));
  return ok;
}

// entry @k(%a: T, ...) [-> R] [optimization_hints=<...>] { ... } [{attrs}]
// testing$func @f(%a: T) -> (R, ...) { ... }
bool Parser::parseFunctionOp(OpState& st, bool isEntry) {
  if (!tok_.is(Tok::AtId)) {
    expectedHere("a function name (@name)");
    return false;
  }
  addSymbolDef(*this, st, tok_);
  consume();
  std::vector<ArgDecl> args;
  if (!parseArgList(args, true)) return false;
  std::vector<TypeRef> results;
  if (consumeIf(Tok::Arrow)) {
    if (consumeIf(Tok::LParen)) {
      if (!tok_.is(Tok::RParen) && !parseTypeList(results)) return false;
      if (!expect(Tok::RParen)) return false;
    } else {
      TypeRef t = parseType();
      if (!t) return false;
      results.push_back(t);
    }
  }
  std::vector<TypeRef> inputs;
  for (const auto& a : args) inputs.push_back(a.type);
  NamedAttr ft{"function_type", {}, {}};
  ft.attr.kind = AttrKind::Type;
  ft.attr.type = program().types.function(inputs, results);
  st.attrs.push_back(std::move(ft));
  if (isEntry && consumeKeyword("optimization_hints")) {
    if (!expect(Tok::Equal) || !parseAttrOfKind("hints", "optimization_hints", st.attrs)) return false;
  }
  if (consumeKeyword("attributes") && !parseAttrDict(st.attrs)) return false;
  Region body;
  bool ok = parseRegion(body, st.id, args, true);
  st.regions.push_back(std::move(body));
  if (ok && tok_.is(Tok::LBrace)) ok = parseAttrDict(st.attrs);
  return ok;
}

// global [public|private] [constant] @sym [alignment = N] {attrs} <E: v> : T
bool Parser::parseGlobalOp(OpState& st) {
  if (!parseAttrOfKind("vis", "symbol_visibility", st.attrs)) return false;
  if (!parseAttrOfKind("unit", "constant", st.attrs)) return false;
  if (!tok_.is(Tok::AtId)) {
    expectedHere("a global name (@name)");
    return false;
  }
  addSymbolDef(*this, st, tok_);
  consume();
  if (consumeKeyword("alignment")) {
    if (!expect(Tok::Equal) || !parseAttrOfKind("int", "alignment", st.attrs)) return false;
  }
  if (tok_.is(Tok::LBrace) && !parseAttrDict(st.attrs)) return false;
  if (!parseAttrOfKind("dense", "value", st.attrs)) return false;
  if (!expect(Tok::Colon)) return false;
  TypeRef t = parseType();
  if (!t) return false;
  NamedAttr ty{"type", {}, {}};
  ty.attr.kind = AttrKind::Type;
  ty.attr.type = t;
  st.attrs.push_back(std::move(ty));
  return true;
}

bool Parser::parseIfOp(OpState& st) {
  ValueUse cond;
  if (!parseValueUse(cond)) return false;
  st.operandGroups[group(st, "condition")].push_back(cond);
  std::vector<TypeRef> results;
  if (consumeIf(Tok::Arrow)) {
    if (!expect(Tok::LParen)) return false;
    if (!tok_.is(Tok::RParen) && !parseTypeList(results)) return false;
    if (!expect(Tok::RParen)) return false;
  }
  st.resultTypes[rgroup(st, "results")].assign(results.begin(), results.end());
  Region thenRegion;
  bool ok = parseRegion(thenRegion, st.id, {}, false);
  st.regions.push_back(std::move(thenRegion));
  if (!ok) return false;
  if (consumeKeyword("else")) {
    Region elseRegion;
    ok = parseRegion(elseRegion, st.id, {}, false);
    st.regions.push_back(std::move(elseRegion));
    if (!ok) return false;
  }
  if (tok_.is(Tok::LBrace)) return parseAttrDict(st.attrs);
  return true;
}

// Parses `(%a = %init, ...)` after iter_values.
static bool parseAssignments(Parser& p, std::vector<Parser::ArgDecl>& args, std::vector<Parser::ValueUse>& inits) {
  if (!p.expect(Tok::LParen)) return false;
  if (p.consumeIf(Tok::RParen)) return true;
  do {
    Parser::ArgDecl a;
    Parser::ValueUse init;
    if (!p.parseValueUse(a.name) || !p.expect(Tok::Equal) || !p.parseValueUse(init)) return false;
    args.push_back(std::move(a));
    inits.push_back(std::move(init));
  } while (p.consumeIf(Tok::Comma));
  return p.expect(Tok::RParen);
}

// for [unsigned] %iv in (%lb to %ub, step %s) : T [iter_values(%a = %x) -> (R...)] { ... }
bool Parser::parseForOp(OpState& st) {
  if (tok_.isKeyword("unsigned")) {
    NamedAttr u{"unsignedCmp", {}, tok_.range()};
    u.attr.range = tok_.range();
    st.attrs.push_back(std::move(u));
    consume();
  }
  ArgDecl iv;
  ValueUse lb, ub, step;
  if (!parseValueUse(iv.name) || !expectKeyword("in") || !expect(Tok::LParen) || !parseValueUse(lb) ||
      !expectKeyword("to") || !parseValueUse(ub) || !expect(Tok::Comma) || !expectKeyword("step") ||
      !parseValueUse(step) || !expect(Tok::RParen) || !expect(Tok::Colon))
    return false;
  iv.type = parseType();
  if (!iv.type) return false;
  st.operandGroups[group(st, "lowerBound")] = {lb};
  st.operandGroups[group(st, "upperBound")] = {ub};
  st.operandGroups[group(st, "step")] = {step};
  for (const char* g : {"lowerBound", "upperBound", "step"}) st.operandTypes[group(st, g)] = {iv.type};
  std::vector<ArgDecl> args{iv};
  std::vector<ValueUse> inits;
  std::vector<TypeRef> results;
  if (consumeKeyword("iter_values")) {
    Range kw{lastEnd_ - 11, lastEnd_};
    std::vector<ArgDecl> iters;
    if (!parseAssignments(*this, iters, inits) || !expect(Tok::Arrow) || !expect(Tok::LParen)) return false;
    if (!tok_.is(Tok::RParen) && !parseTypeList(results)) return false;
    if (!expect(Tok::RParen)) return false;
    if (iters.size() != results.size())
      error(kw, std::to_string(iters.size()) + " iter_values but " + std::to_string(results.size()) +
                    " result types; each loop-carried value needs one type", "type");
    for (size_t i = 0; i < iters.size(); ++i) iters[i].type = i < results.size() ? results[i] : nullptr;
    args.insert(args.end(), iters.begin(), iters.end());
  }
  st.operandGroups[group(st, "initValues")].assign(inits.begin(), inits.end());
  if (inits.size() == results.size()) st.operandTypes[group(st, "initValues")].assign(results.begin(), results.end());
  st.resultTypes[rgroup(st, "results")].assign(results.begin(), results.end());
  Region body;
  bool ok = parseRegion(body, st.id, args, false);
  st.regions.push_back(std::move(body));
  if (ok && tok_.is(Tok::LBrace)) ok = parseAttrDict(st.attrs);
  return ok;
}

// loop [iter_values(%a = %x) : T... [-> R...]] | [: R...] { ... }
bool Parser::parseLoopOp(OpState& st) {
  std::vector<ArgDecl> iters;
  std::vector<ValueUse> inits;
  std::vector<TypeRef> iterTypes, results;
  if (consumeKeyword("iter_values")) {
    Range kw{lastEnd_ - 11, lastEnd_};
    if (!parseAssignments(*this, iters, inits) || !expect(Tok::Colon) || !parseTypeList(iterTypes)) return false;
    if (iters.size() != iterTypes.size())
      error(kw, std::to_string(iters.size()) + " iter_values but " + std::to_string(iterTypes.size()) + " types",
            "type");
    if (consumeIf(Tok::Arrow) && !parseTypeList(results)) return false;
  } else if (consumeIf(Tok::Colon)) {
    if (!parseTypeList(results)) return false;
  }
  for (size_t i = 0; i < iters.size(); ++i) iters[i].type = i < iterTypes.size() ? iterTypes[i] : nullptr;
  st.operandGroups[group(st, "initValues")].assign(inits.begin(), inits.end());
  if (inits.size() == iterTypes.size()) st.operandTypes[group(st, "initValues")].assign(iterTypes.begin(), iterTypes.end());
  st.resultTypes[rgroup(st, "results")].assign(results.begin(), results.end());
  Region body;
  bool ok = parseRegion(body, st.id, iters, false);
  st.regions.push_back(std::move(body));
  if (ok && tok_.is(Tok::LBrace)) ok = parseAttrDict(st.attrs);
  return ok;
}

// make_tensor_view %base, shape = [8, %n], strides = [%s, 1] : tile<i32> -> tensor_view<...>
bool Parser::parseMakeTensorView(OpState& st) {
  ValueUse base;
  if (!parseValueUse(base) || !expect(Tok::Comma)) return false;
  st.operandGroups[group(st, "base")] = {base};
  // Each entry: an integer or an SSA value. Stored as attributes shape/strides
  // (kDynamic for SSA entries) with the written ranges, for the verifier.
  auto list = [&](const char* kw, const char* groupName, const char* attrName) -> bool {
    if (!expectKeyword(kw) || !expect(Tok::Equal)) return false;
    NamedAttr na{attrName, {}, tok_.range()};
    na.attr.kind = AttrKind::Array;
    na.attr.range.begin = tok_.begin;
    if (!expect(Tok::LSquare)) return false;
    if (!tok_.is(Tok::RSquare)) {
      do {
        Attr e;
        e.range = tok_.range();
        if (tok_.is(Tok::PercentId)) {
          ValueUse u;
          parseValueUse(u);
          st.operandGroups[group(st, groupName)].push_back(u);
          e.kind = AttrKind::Unit;  // dynamic
        } else {
          e.kind = AttrKind::Int;
          if (!parseIntValue(e.i)) return false;
        }
        e.range.end = lastEnd_;
        na.attr.elems.push_back(std::move(e));
      } while (consumeIf(Tok::Comma));
    }
    if (!expect(Tok::RSquare)) return false;
    na.attr.range.end = lastEnd_;
    st.attrs.push_back(std::move(na));
    return true;
  };
  if (!list("shape", "dynamicShape", "static_shape") || !expect(Tok::Comma) ||
      !list("strides", "dynamicStrides", "static_strides"))
    return false;
  if (tok_.is(Tok::LBrace) && !parseAttrDict(st.attrs)) return false;
  if (!expect(Tok::Colon)) return false;
  bool dynamic = !st.operandGroups[group(st, "dynamicShape")].empty() ||
                 !st.operandGroups[group(st, "dynamicStrides")].empty();
  TypeRef indexType = nullptr;
  if (dynamic) {
    indexType = parseType();
    if (!indexType || !expect(Tok::Arrow)) return false;
  }
  Range tvRange = tok_.range();
  TypeRef tv = parseType();
  if (!tv) return false;
  if (tv->kind != TypeKind::TensorView) {
    error(tvRange, "make_tensor_view builds a tensor_view, but the result type is " + quoted(tv), "type");
    return false;
  }
  st.resultTypes[0] = {tv};
  st.operandTypes[group(st, "base")] = {program().types.tile({}, program().types.ptr(tv->elem))};
  if (indexType) {
    st.operandTypes[group(st, "dynamicShape")] = {indexType};
    st.operandTypes[group(st, "dynamicStrides")] = {indexType};
  }
  return true;
}

// make_partition_view %tv : partition_view<...> (operand type = the embedded tensor_view)
bool Parser::parseMakeView(OpState& st) {
  ValueUse tv;
  if (!parseValueUse(tv)) return false;
  st.operandGroups[0] = {tv};
  if (tok_.is(Tok::LBrace) && !parseAttrDict(st.attrs)) return false;
  if (!expect(Tok::Colon)) return false;
  Range r = tok_.range();
  TypeRef view = parseType();
  if (!view) return false;
  if (!st.info->results[0].constraint.accepts(view)) {
    error(r, "'" + std::string(st.info->name) + "' builds a " + std::string(st.info->results[0].constraint.description) +
                 ", but the result type is " + quoted(view), "type");
    return false;
  }
  st.resultTypes[0] = {view};
  // The operand's type is checked against the embedded tensor_view by the verifier.
  return true;
}

// get_tensor_shape %tv : tensor_view<...> -> tile<i32>   (one result per dimension)
bool Parser::parseShapeQuery(OpState& st) {
  ValueUse src;
  if (!parseValueUse(src) || !expect(Tok::Colon)) return false;
  st.operandGroups[0] = {src};
  Range r = tok_.range();
  TypeRef srcType = parseType();
  if (!srcType || !expect(Tok::Arrow)) return false;
  TypeRef resultType = parseType();
  if (!resultType) return false;
  bool tensor = st.info->kind == OpKind::GetTensorShape;
  if (!st.info->operands[0].constraint.accepts(srcType)) {
    error(r, std::string(tensor ? "expected a tensor_view" : "expected a tile view") + ", got " + quoted(srcType), "type");
    return false;
  }
  st.operandTypes[0] = {srcType};
  st.resultTypes[0].assign(srcType->shape.size(), resultType);
  return true;
}

bool Parser::parseMemoryOrdering(OpState& st, bool scopeRequired) {
  if (!parseAttrOfKind("ord", "memory_ordering_semantics", st.attrs)) return false;
  return parseAttrOfKind(scopeRequired ? "scope" : "scope?", "memory_scope", st.attrs);
}

// Index types after a view type: one type for all indices, or one per index.
bool Parser::parseIndexTypes(OpState& st, int g) {
  auto& uses = st.operandGroups[g];
  if (!tok_.is(Tok::Comma)) {
    if (!uses.empty()) {
      expectedHere("index types for the " + std::to_string(uses.size()) + " indices");
      return false;
    }
    return true;
  }
  consume();
  std::vector<TypeRef> ts;
  if (!parseTypeList(ts)) return false;
  if (ts.size() == 1) ts.assign(uses.size(), ts[0]);
  st.operandTypes[g].assign(ts.begin(), ts.end());
  return true;
}

// load_view_tko ORD [SCOPE] %view[%i, ...] [token = %t] [optimization_hints = <...>] {attrs}
//     : VIEW, IDX... -> TILE, token
// store_view_tko ORD [SCOPE] %tile, %view[%i, ...] ... : TILE, VIEW, IDX... -> token
// atomic_red_view_tko ORD [SCOPE] %view[%i, ...], MODE, %value ... : TILE, VIEW, IDX... -> token
bool Parser::parseViewMemoryOp(OpState& st) {
  bool isLoad = st.info->kind == OpKind::LoadViewTko, isStore = st.info->kind == OpKind::StoreViewTko;
  if (!parseMemoryOrdering(st, false)) return false;
  ValueUse tile, view, value;
  if (isStore && (!parseValueUse(tile) || !expect(Tok::Comma))) return false;
  if (!parseValueUse(view) || !expect(Tok::LSquare)) return false;
  int gIdx = group(st, "index");
  if (!tok_.is(Tok::RSquare)) {
    do {
      ValueUse u;
      if (!parseValueUse(u)) return false;
      st.operandGroups[gIdx].push_back(u);
    } while (consumeIf(Tok::Comma));
  }
  if (!expect(Tok::RSquare)) return false;
  if (!isLoad && !isStore) {
    if (!expect(Tok::Comma) || !parseAttrOfKind("atomic", "mode", st.attrs) || !expect(Tok::Comma) ||
        !parseValueUse(value))
      return false;
  }
  if (consumeKeyword("token")) {
    ValueUse t;
    if (!expect(Tok::Equal) || !parseValueUse(t)) return false;
    st.operandGroups[group(st, "token")] = {t};
  }
  if (consumeKeyword("optimization_hints")) {
    if (!expect(Tok::Equal) || !parseAttrOfKind("hints", "optimization_hints", st.attrs)) return false;
  }
  if (consumeKeyword("attributes") && !parseAttrDict(st.attrs)) return false;
  if (tok_.is(Tok::LBrace) && !parseAttrDict(st.attrs)) return false;
  if (!expect(Tok::Colon)) return false;
  TypeRef tileType = nullptr;
  if (!isLoad) {
    tileType = parseType();
    if (!tileType || !expect(Tok::Comma)) return false;
  }
  TypeRef viewType = parseType();
  if (!viewType || !parseIndexTypes(st, gIdx) || !expect(Tok::Arrow)) return false;
  if (isLoad) {
    TypeRef result = parseType();
    if (!result || !expect(Tok::Comma)) return false;
    st.resultTypes[rgroup(st, "tile")] = {result};
  }
  TypeRef token = parseType();
  if (!token) return false;
  st.resultTypes[rgroup(st, "result_token")] = {token};
  st.operandGroups[group(st, "view")] = {view};
  st.operandTypes[group(st, "view")] = {viewType};
  if (isStore) {
    st.operandGroups[group(st, "tile")] = {tile};
    st.operandTypes[group(st, "tile")] = {tileType};
  } else if (!isLoad) {
    st.operandGroups[group(st, "value")] = {value};
    st.operandTypes[group(st, "value")] = {tileType};
  }
  return true;
}

}  // namespace tilesight
