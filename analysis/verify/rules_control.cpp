// Control flow, terminators and the top-level ops.
#include <algorithm>
#include <array>
#include <optional>

#include "analysis/ir/control_flow.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

using TypeList = std::vector<TypeRef>;

bool isOp(const Operation* op, OpKind k) { return op && op->info && op->info->kind == k; }

std::string label(const Operation& op) { return std::string(op.info ? op.info->name : op.name); }

const Operation* parentOf(const Program& p, const Operation& op) {
  return op.parent == kNoId ? nullptr : &p.op(op.parent);
}

OpId idOf(const Program& p, const Operation& op) { return static_cast<OpId>(&op - p.ops.data()); }

std::string where(const Operation* parent) {
  return parent ? "its parent is '" + label(*parent) + "'" : "it is at the top level of the file";
}

TypeRef typeOfItem(const Program& p, ValueId v) { return p.typeOf(v); }
TypeRef typeOfItem(const Program& p, const Operand* o) { return p.typeOf(o->value); }

// Types of a list of value ids or operand pointers.
template <class Items>
TypeList typesOf(const Program& p, const Items& items) {
  TypeList out;
  for (const auto& item : items) out.push_back(typeOfItem(p, item));
  return out;
}

TypeList operandTypes(const Program& p, const Operation& op) {
  TypeList out;
  for (const Operand& o : op.operands) out.push_back(p.typeOf(o.value));
  return out;
}

bool allKnown(const TypeList& ts) { return std::find(ts.begin(), ts.end(), nullptr) == ts.end(); }

std::string listStr(const TypeList& ts) {
  std::string s = "(";
  for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + quoted(ts[i]);
  return s + ")";
}

std::string symbolName(const Operation& op) {
  const Attr* a = attrs::symName(op);
  return a ? a->s : "the function";
}

TypeRef functionType(const Operation& fn) {
  const Attr* a = attrs::functionType(fn);
  return a && a->type && a->type->kind == TypeKind::Function ? a->type : nullptr;
}

// The first block of region k; nullptr when the region is absent or, in the
// generic form, written without a block (`{}`). Block counts other than one
// are reported by the verifier's region check.
const Block* body(const Operation& op, size_t k) {
  if (k >= op.regions.size() || op.regions[k].blocks.empty()) return nullptr;
  return &op.regions[k].blocks.front();
}

bool isTerminator(const Operation& op) { return op.info && (op.info->traits & kTerminator); }

// How a block ends: `term` is its terminator; neither set means the custom
// form's implicit terminator (no operands) applies; `unknown` is an
// unregistered last op or a misplaced terminator (reported on its own), which
// we do not judge further.
struct BlockEnd {
  const Operation* term = nullptr;
  bool unknown = false;
};

BlockEnd endOf(const Program& p, const Block& b) {
  if (b.ops.empty()) return {};
  const Operation& last = p.op(b.ops.back());
  if (isTerminator(last)) return {&last, false};
  bool misplaced = std::any_of(b.ops.begin(), b.ops.end(), [&](OpId id) { return isTerminator(p.op(id)); });
  return {nullptr, !last.info || misplaced};
}

bool viewKind(TypeRef t) { return t && (t->kind == TypeKind::TensorView || t->isView()); }

std::string viewKindName(TypeRef t) { return t->kind == TypeKind::TensorView ? "a tensor_view" : "a tile view"; }

// A terminator must end its block.
void checkLast(const OpRef& o, DiagSink& d) {
  const Operation* parent = parentOf(o.p, o.op);
  if (!parent) return;
  OpId id = idOf(o.p, o.op);
  for (const auto& r : parent->regions)
    for (const auto& b : r.blocks) {
      auto it = std::find(b.ops.begin(), b.ops.end(), id);
      if (it == b.ops.end() || it + 1 == b.ops.end()) continue;
      auto& diag = fail(d, o, "a terminator must be the last operation of its block, but " +
                                  std::to_string(b.ops.end() - it - 1) + " operation(s) follow it");
      diag.notes.push_back({o.p.op(*(it + 1)).nameRange, "first operation after the terminator"});
    }
}

// Direct parent must be one of `allowed`; returns false (after reporting) if not.
bool checkParent(const OpRef& o, std::initializer_list<OpKind> allowed, std::string_view allowedText,
                 DiagSink& d) {
  const Operation* parent = parentOf(o.p, o.op);
  for (OpKind n : allowed)
    if (isOp(parent, n)) return true;
  fail(d, o, "must be directly inside " + std::string(allowedText) + ", but " + where(parent));
  return false;
}

// The construct the terminator hands control to (ir/control_flow); reports
// and returns nullptr when the terminator may not go there (`targetText`
// names the kinds it may go to).
const Operation* checkedExit(const OpRef& o, OpKind terminator, std::string_view targetText, DiagSink& d) {
  OpId at = exitTarget(o.p, idOf(o.p, o.op));
  const Operation* a = at == kNoId ? nullptr : &o.p.op(at);
  if (a && a->info && goesTo(terminator, a->info->kind)) return a;
  auto& diag = fail(d, o, "must be nested in " + std::string(targetText) + " through 'if' operations only, but the " +
                              (a ? "first enclosing operation that is not an 'if' is '" + label(*a) + "'"
                                 : "file's top level is reached first"));
  if (a) diag.notes.push_back({a->nameRange, "this '" + label(*a) + "' stands between"});
  return nullptr;
}

// Compares a terminator's operand types with what its target expects
// (`noun`: "results" or "iter_values").
void checkCarriedTypes(const OpRef& o, const TypeList& want, const Operation& target, const std::string& noun,
                       DiagSink& d) {
  TypeList got = operandTypes(o.p, o.op);
  if (!allKnown(got) || !allKnown(want) || got == want) return;
  auto& diag = fail(d, o, "passes " + (got.empty() ? "no values" : listStr(got)) + ", but the enclosing '" +
                              label(target) + "' has " + (want.empty() ? "no " + noun : noun + " " + listStr(want)));
  diag.notes.push_back({target.nameRange, "the enclosing '" + label(target) + "'"});
}

// Loop-carried values of for/loop: init values against the body's iter_value
// arguments. Returns, per index, whether a view-typed value was reported.
std::vector<bool> checkIterValues(const OpRef& o, const std::vector<const Operand*>& inits,
                                  const TypeList& iters, DiagSink& d) {
  std::vector<bool> viewReported(inits.size(), false);
  if (iters.size() != inits.size()) {
    fail(d, o, "the body has " + std::to_string(iters.size()) + " iter_value argument(s) but there are " +
                   std::to_string(inits.size()) + " init value(s)");
    return viewReported;
  }
  for (size_t i = 0; i < inits.size(); ++i) {
    TypeRef init = o.p.typeOf(inits[i]->value);
    if (viewKind(iters[i])) {
      failAt(d, o, inits[i]->range, "loop-carried value #" + std::to_string(i) + " is " + viewKindName(iters[i]) +
                                        " (" + quoted(iters[i]) + "); loops can only carry tiles and tokens");
      viewReported[i] = true;
    } else if (init && iters[i] && init != iters[i]) {
      failAt(d, o, inits[i]->range, "init value #" + std::to_string(i) + " has type " + quoted(init) +
                                        " but the body's iter_value #" + std::to_string(i) + " has type " +
                                        quoted(iters[i]));
    }
  }
  return viewReported;
}

void checkResultViews(const OpRef& o, const std::vector<bool>& alreadyReported, DiagSink& d) {
  for (size_t i = 0; i < o.op.results.size(); ++i) {
    TypeRef t = o.result(i);
    if (viewKind(t) && !(i < alreadyReported.size() && alreadyReported[i]))
      fail(d, o, "result #" + std::to_string(i) + " is " + viewKindName(t) + " (" + quoted(t) + "); '" + o.name() +
                     "' can only produce tiles and tokens");
  }
}

TypeList blockArgTypes(const Program& p, const Block* b, size_t from) {
  TypeList out;
  if (b)
    for (size_t i = from; i < b->args.size(); ++i) out.push_back(p.typeOf(b->args[i]));
  return out;
}

// One branch of an `if`: only a `yield` end (explicit or implicit) is compared
// with the results; break/continue/return leave the `if` instead.
void checkBranch(const OpRef& o, const Block& b, const char* name, DiagSink& d) {
  BlockEnd end = endOf(o.p, b);
  if (end.unknown || (end.term && !isOp(end.term, OpKind::Yield))) return;
  TypeList results = typesOf(o.p, o.op.results);
  TypeList yielded = end.term ? operandTypes(o.p, *end.term) : TypeList{};
  if (!allKnown(results) || !allKnown(yielded) || results == yielded) return;
  std::string msg;
  if (yielded.empty())
    msg = "has results " + listStr(results) + " but the " + name + " branch " +
          (end.term ? "yields nothing" : "ends without a yield");
  else if (results.empty())
    msg = "has no results, but the " + std::string(name) + " branch yields " + listStr(yielded);
  else
    msg = "the " + std::string(name) + " branch yields " + listStr(yielded) + " but the results are " + listStr(results);
  auto& diag = fail(d, o, msg);
  if (end.term) diag.notes.push_back({end.term->nameRange, std::string("the ") + name + " branch's yield"});
}

// --- optimization_hints ---------------------------------------------------

constexpr std::array<std::string_view, 12> kHintArchs = {"sm_80",  "sm_86",  "sm_87",  "sm_88",  "sm_89",  "sm_90",
                                                         "sm_100", "sm_103", "sm_110", "sm_120", "sm_121", "default"};

std::optional<int64_t> hintInt(const Attr& v) {
  if (v.kind == AttrKind::Bool) return v.i;
  if (v.kind == AttrKind::Int && !v.wide) return v.i;
  return std::nullopt;
}

bool powerOfTwoUpTo(int64_t v, int64_t max) { return v >= 1 && v <= max && (v & (v - 1)) == 0; }

// What is wrong with one `key = value` of an entry's hints for `arch`; empty if nothing.
std::string hintProblem(const std::string& arch, const std::string& key, const Attr& value) {
  std::string name = arch + "." + key;
  if (key != "num_cta_in_cga" && key != "num_worker_warps_per_cta" && key != "occupancy")
    return "'" + key + "' is not a hint an entry takes (num_cta_in_cga, num_worker_warps_per_cta, occupancy)";
  std::optional<int64_t> v = hintInt(value);
  if (!v) return name + " must be an integer" + (value.kind == AttrKind::String ? ", got \"" + value.s + "\"" : "");
  std::string got = ", got " + std::to_string(*v);
  if (key == "num_cta_in_cga") {
    bool ampereOrAda = arch.starts_with("sm_8");
    if (ampereOrAda && *v != 1) return name + " must be 1 (" + arch + " has no multi-CTA clusters)" + got;
    if (!powerOfTwoUpTo(*v, 16)) return name + " must be a power of two from 1 to 16" + got;
  } else if (key == "num_worker_warps_per_cta") {
    if (!powerOfTwoUpTo(*v, 32)) return name + " must be a power of two from 1 to 32" + got;
  } else if (*v < 1 || *v > 32) {
    return name + " must be in [1, 32]" + got;
  }
  return {};
}

// Non-dictionary entries are errors; unknown or out-of-range hints are
// warnings, as NVIDIA's tools ignore them unless asked to report them.
void checkHints(const OpRef& o, DiagSink& d) {
  const Attr* hints = attrs::optimizationHints(o.op);
  if (!hints || hints->kind != AttrKind::Dict) return;
  auto warn = [&](Range r, const std::string& msg) {
    d.warning(o.onOpLine(r), "type", "'" + o.name() + "': " + msg + "; the compiler ignores it");
  };
  for (const auto& [arch, entry] : hints->dict) {
    if (entry.kind != AttrKind::Dict) {
      failAt(d, o, entry.range, "optimization_hints entry '" + arch + "' must be a dictionary such as {occupancy = 2}" +
                                    (entry.s.empty() ? std::string() : ", got " + entry.s));
      continue;
    }
    if (std::find(kHintArchs.begin(), kHintArchs.end(), arch) == kHintArchs.end()) {
      warn(entry.range, "unknown architecture '" + arch + "' in optimization_hints (sm_80 ... sm_121 or default)");
      continue;
    }
    for (const auto& [key, value] : entry.dict) {
      std::string problem = hintProblem(arch, key, value);
      if (!problem.empty()) warn(value.range, problem);
    }
  }
}

}  // namespace

void ifOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  checkResultViews(o, {}, d);
  const Block* thenBlock = body(op, 0);
  if (!thenBlock) return;
  checkBranch(o, *thenBlock, "then", d);
  if (const Block* elseBlock = body(op, 1))
    checkBranch(o, *elseBlock, "else", d);
  else if (!op.results.empty())
    fail(d, o, "has results " + listStr(typesOf(p, op.results)) + " but no else branch to produce them");
}

void forOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeList bounds{o.type(group_names::lowerBound), o.type(group_names::upperBound), o.type(group_names::step)};
  if (allKnown(bounds) && (bounds[0] != bounds[1] || bounds[0] != bounds[2]))
    fail(d, o, "lower bound, upper bound and step must have one type, got " + listStr(bounds));
  const Block* b = body(op, 0);
  if (!b) return;
  if (b->args.empty()) {
    fail(d, o, "the body has no induction variable argument");
    return;
  }
  TypeRef iv = p.typeOf(b->args[0]);
  if (iv && bounds[0] && iv != bounds[0])
    failAt(d, o, p.value(b->args[0]).range, "induction variable " + std::string(p.value(b->args[0]).name) + " has type " +
                                                quoted(iv) + " but the bounds have type " + quoted(bounds[0]));
  auto inits = o.group(group_names::initValues);
  std::vector<bool> viewReported = checkIterValues(o, inits, blockArgTypes(p, b, 1), d);
  TypeList results = typesOf(p, op.results), initTypes = typesOf(p, inits);
  if (results.size() != initTypes.size()) {
    fail(d, o, std::to_string(initTypes.size()) + " init value(s) but " + std::to_string(results.size()) +
                   " result(s); each loop-carried value is also a result");
  } else {
    for (size_t i = 0; i < results.size(); ++i)
      if (!viewReported[i] && results[i] && initTypes[i] && results[i] != initTypes[i])
        fail(d, o, "result #" + std::to_string(i) + " has type " + quoted(results[i]) + " but init value #" +
                       std::to_string(i) + " has type " + quoted(initTypes[i]));
  }
  checkResultViews(o, viewReported, d);
  BlockEnd end = endOf(p, *b);
  if (!end.term && !end.unknown && !results.empty())
    fail(d, o, "the body ends without a 'continue', so nothing produces the results " + listStr(results));
}

void loopOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  auto inits = o.group(group_names::initValues);
  const Block* b = body(op, 0);
  checkIterValues(o, inits, blockArgTypes(p, b, 0), d);
  checkResultViews(o, {}, d);
  if (!b) return;
  BlockEnd end = endOf(p, *b);
  if (!end.term && !end.unknown && !inits.empty())
    fail(d, o, "the body ends without a 'continue' or 'break'; the implicit 'continue' passes no values but the loop "
               "carries " + listStr(typesOf(p, inits)));
}

void continueOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  if (!checkParent(o, {OpKind::For, OpKind::Loop, OpKind::If}, "a 'for', 'loop' or 'if'", d)) return;
  checkLast(o, d);
  const Operation* loop = checkedExit(o, OpKind::Continue, "a 'for' or 'loop'", d);
  if (!loop) return;
  if (isOp(loop, OpKind::Loop))
    checkCarriedTypes(o, typesOf(p, OpRef{p, *loop}.group(group_names::initValues)), *loop, "iter_values", d);
  else
    checkCarriedTypes(o, typesOf(p, loop->results), *loop, "results", d);
}

void breakOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  if (!checkParent(o, {OpKind::Loop, OpKind::If}, "a 'loop' or 'if'", d)) return;
  checkLast(o, d);
  if (const Operation* loop = checkedExit(o, OpKind::Break, "a 'loop'", d))
    checkCarriedTypes(o, typesOf(p, loop->results), *loop, "results", d);
}

// Yielded types are compared by the parent: `if` here, reduce/scan in their rules.
void yieldOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  if (checkParent(o, {OpKind::If, OpKind::Reduce, OpKind::Scan}, "an 'if', 'reduce' or 'scan'", d)) checkLast(o, d);
}

void returnOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  if (!checkParent(o, {OpKind::Entry, OpKind::TestingFunc, OpKind::If}, "an 'entry', 'testing$func' or 'if'", d)) return;
  checkLast(o, d);
  const Operation* fn = checkedExit(o, OpKind::Return, "an 'entry' or 'testing$func'", d);
  TypeRef ft = fn ? functionType(*fn) : nullptr;
  if (!ft) return;
  TypeList got = operandTypes(p, op);
  std::string name = symbolName(*fn);
  if (isOp(fn, OpKind::Entry)) {
    // An entry that declares results is reported by the entry rule.
    if (ft->results.empty() && !got.empty())
      fail(d, o, "returns " + listStr(got) + ", but entry " + name + " returns nothing");
    return;
  }
  if (got.size() != ft->results.size()) {
    std::string declared = ft->results.empty() ? "no results" : "results " + listStr(ft->results);
    auto& diag = fail(d, o, "returns " + std::to_string(got.size()) + " value(s), but " + name + " declares " + declared);
    diag.notes.push_back({fn->nameRange, "the enclosing function"});
    return;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] && got[i] != ft->results[i])
      failAt(d, o, op.operands[i].range, "return value #" + std::to_string(i) + " has type " + quoted(got[i]) +
                                             " but result #" + std::to_string(i) + " of " + name + " has type " +
                                             quoted(ft->results[i]));
}

void entry(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef ft = functionType(op);
  if (ft && !ft->results.empty())
    fail(d, o, "entry " + symbolName(op) + " declares results " + listStr(ft->results) +
                   "; an entry returns nothing (write outputs through pointers or views)");
  if (const Block* b = body(op, 0))
    for (ValueId a : b->args) {
      TypeRef t = p.typeOf(a);
      if (t && t->isTile() && !t->shape.empty())
        failAt(d, o, p.value(a).range, "argument " + std::string(p.value(a).name) + " has type " + quoted(t) +
                                           "; tile arguments of an entry must be scalars (rank 0)");
    }
  checkHints(o, d);
}

void func(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef ft = functionType(op);
  const Block* b = body(op, 0);
  if (!ft || ft->results.empty() || !b) return;
  BlockEnd end = endOf(p, *b);
  if (!end.term && !end.unknown)
    fail(d, o, symbolName(op) + " declares results " + listStr(ft->results) +
                   " but its body ends without a 'return', which then returns nothing");
}

// Which ops a module may hold, its single block and symbol uniqueness are
// checked in verifier.cpp; what is left is the producer string.
void module(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* producer = attrs::producer(o.op);
  if (producer && producer->kind != AttrKind::String)
    failAt(d, o, producer->range, "attribute 'producer' must be a string naming the tool that wrote the module");
}

}  // namespace tilesight::rules
