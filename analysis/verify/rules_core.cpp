// Assumptions, print_tko, alloca, join_tokens and get_global.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// --- assume ----------------------------------------------------------------------------

bool intOrPtrTile(TypeRef t) { return t->isTile() && (t->isPtrTile() || isIntElem(t->tileElem())); }

const Attr* param(const Attr& pred, std::string_view key) {
  const Attr* a = pred.get(key);
  return a && a->kind == AttrKind::Int ? a : nullptr;
}

void assumeDivBy(const OpRef& o, const Attr& pred, TypeRef t, DiagSink& d) {
  const Attr* div = param(pred, "divisor");
  const Attr* every = param(pred, "every");
  const Attr* along = param(pred, "along");
  // The divisor is unsigned: 2^63 arrives here as INT64_MIN.
  uint64_t divisor = div ? static_cast<uint64_t>(div->i) : 1;
  if (divisor == 0 || (divisor & (divisor - 1)) != 0)
    failAt(d, o, div->range, "div_by divisor " + std::to_string(divisor) + " is not a positive power of two");
  else if (divisor > (uint64_t{1} << 62))
    failAt(d, o, div->range, "div_by divisor " + std::to_string(divisor) + " is larger than 2^62");
  if (t->kind == TypeKind::TensorView) {
    if (every) failAt(d, o, every->range, "div_by cannot use every/along on a tensor_view value");
    return;
  }
  if (!intOrPtrTile(t)) {
    failAt(d, o, operandRange(o, group_names::value),
           "div_by applies to tiles of integers or pointers and to tensor_views, not " + quoted(t));
    return;
  }
  if (!every || !along) return;
  int64_t rank = static_cast<int64_t>(t->shape.size());
  if (rank == 0) {
    failAt(d, o, every->range, "div_by cannot use every/along on a 0-d tile");
    return;
  }
  if (along->i < 0 || along->i >= rank) {
    failAt(d, o, along->range,
           "div_by along " + std::to_string(along->i) + " is not a dimension of the rank-" + std::to_string(rank) +
               " tile");
    return;
  }
  int64_t size = t->shape[along->i];
  if (every->i < 0 || every->i > size)
    failAt(d, o, every->range,
           "div_by every " + std::to_string(every->i) + " must be between 0 and the size of dimension " +
               std::to_string(along->i) + " (" + std::to_string(size) + ")");
}

void assumeSameElements(const OpRef& o, const Attr& pred, TypeRef t, DiagSink& d) {
  if (!intOrPtrTile(t)) {
    failAt(d, o, operandRange(o, group_names::value), "same_elements applies to tiles of integers or pointers, not " + quoted(t));
    return;
  }
  const Attr* vals = pred.get("values");
  if (!vals || vals->kind != AttrKind::Array) return;
  if (vals->elems.size() != t->shape.size()) {
    failAt(d, o, vals->range,
           "same_elements lists " + count(vals->elems.size(), "value") + " but the tile has rank " +
               std::to_string(t->shape.size()) + "; give one per dimension");
    return;
  }
  for (size_t k = 0; k < t->shape.size(); ++k) {
    const Attr& v = vals->elems[k];
    if (v.kind == AttrKind::Int && (v.i < 0 || v.i > t->shape[k]))
      failAt(d, o, v.range,
             "same_elements value " + std::to_string(v.i) + " for dimension " + std::to_string(k) +
                 " must be between 0 and its size (" + std::to_string(t->shape[k]) + ")");
  }
}

void assumeBounded(const OpRef& o, const Attr& pred, TypeRef t, DiagSink& d) {
  if (!t->isTile() || !isIntElem(t->tileElem())) {
    failAt(d, o, operandRange(o, group_names::value), "bounded applies to tiles of integers, not " + quoted(t));
    return;
  }
  unsigned w = elemBits(t->tileElem());
  int64_t lo = w >= 64 ? INT64_MIN : -(int64_t{1} << (w - 1));
  int64_t hi = w >= 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1;
  const Attr* lb = param(pred, "lb");
  const Attr* ub = param(pred, "ub");
  std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  std::string en(elemName(t->tileElem()));
  bool ok = true;
  for (auto [b, what] : {std::pair{lb, "lower"}, std::pair{ub, "upper"}}) {
    if (b && (b->i < lo || b->i > hi)) {
      failAt(d, o, b->range,
             std::string("bounded ") + what + " bound " + std::to_string(b->i) + " is outside the signed " + en +
                 " range " + range);
      ok = false;
    }
  }
  if (ok && lb && ub && lb->i > ub->i)
    failAt(d, o, pred.range,
           "bounded lower bound " + std::to_string(lb->i) + " is greater than upper bound " + std::to_string(ub->i));
}

// --- get_global --------------------------------------------------------------------------

bool isSymbolTable(const Operation& op) {
  return (op.info && op.info->kind == OpKind::Module) || (!op.info && op.name == "builtin.module");
}

// The op named `sym` in the nearest enclosing module (the file's top level if none).
const Operation* lookupSymbol(const Program& p, const Operation& from, std::string_view sym, const Operation** table) {
  *table = nullptr;
  for (OpId id = from.parent; id != kNoId; id = p.op(id).parent)
    if (isSymbolTable(p.op(id))) {
      *table = &p.op(id);
      break;
    }
  auto named = [&](OpId id) {
    const Attr* s = attrs::symName(p.op(id));
    return s && s->s == sym;
  };
  if (!*table) {
    for (OpId id : p.topLevel)
      if (named(id)) return &p.op(id);
    return nullptr;
  }
  for (const Region& r : (*table)->regions)
    for (const Block& b : r.blocks)
      for (OpId id : b.ops)
        if (named(id)) return &p.op(id);
  return nullptr;
}

// --- print_tko ------------------------------------------------------------------------------

// Counts printf conversions; nullopt when a `%` is never closed by a conversion letter.
std::optional<size_t> formatArgCount(std::string_view s) {
  constexpr std::string_view kEnds = "diuoxXeEfFgGaAcsSpn%";
  size_t n = 0;
  for (size_t pos = 0; pos < s.size(); ++pos) {
    if (s[pos] != '%') continue;
    size_t end = s.find_first_of(kEnds, pos + 1);
    if (end == std::string_view::npos) return std::nullopt;
    if (end == pos + 1 && s[end] == '%') {
      ++pos;  // `%%` prints a percent sign
      continue;
    }
    ++n;
  }
  return n;
}

}  // namespace

void assume(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* pred = attrs::predicate(o.op);
  TypeRef t = o.type(group_names::value);
  if (!pred || !t) return;
  if (pred->s == "div_by")
    assumeDivBy(o, *pred, t, d);
  else if (pred->s == "same_elements")
    assumeSameElements(o, *pred, t, d);
  else if (pred->s == "bounded")
    assumeBounded(o, *pred, t, d);
}

void printTko(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* str = attrs::str(o.op);
  if (!str || str->kind != AttrKind::String) return;
  auto want = formatArgCount(str->s);
  if (!want) {
    failAt(d, o, str->range, "the format string has a '%' without a conversion letter (write %% for a percent sign)");
    return;
  }
  size_t got = o.group(group_names::args).size();
  if (*want != got)
    failAt(d, o, str->range,
           "the format string has " + std::to_string(*want) + " conversion" + (*want == 1 ? "" : "s") + " but " +
               std::to_string(got) + " argument" + (got == 1 ? " is" : "s are") + " given");
}

void allocaOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* num = intAttr(o, attr_names::numElem);
  const Attr* align = intAttr(o, attr_names::alignment);
  if (num && num->i < 0) failAt(d, o, num->range, "num_elem = " + std::to_string(num->i) + " must not be negative");
  if (!align) return;
  if (align->i < 0) {
    failAt(d, o, align->range, "alignment = " + std::to_string(align->i) + " must not be negative");
    return;
  }
  if (!isPowerOfTwo(align->i)) {
    failAt(d, o, align->range, "alignment = " + std::to_string(align->i) + " is not a power of two");
    return;
  }
  TypeRef res = o.result(0);
  if (!res || !res->isPtrTile()) return;
  Elem e = res->element->elem;
  int64_t size = e == Elem::I1 ? 1 : (e == Elem::TF32 ? 19 : elemBits(e)) / 8;
  if (align->i < size)
    failAt(d, o, align->range,
           "alignment = " + std::to_string(align->i) + " is below the " + std::to_string(size) + "-byte size of " +
               std::string(elemName(e)));
}

void joinTokens(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  size_t n = o.group(group_names::tokens).size();
  if (n < 2)
    fail(d, o,
         "joins " + std::to_string(n) + " token" + (n == 1 ? "" : "s") +
             "; it needs two or more (use the token itself, or make_token)");
}

void getGlobal(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* name = attrs::name(o.op);
  TypeRef res = o.result(0);
  if (!name || name->kind != AttrKind::Symbol) return;
  const Operation* table = nullptr;
  const Operation* g = lookupSymbol(p, op, name->s, &table);
  const Attr* tableName = table ? attrs::symName(*table) : nullptr;
  std::string where = tableName ? "module " + tableName->s : "this file";
  if (!g) {
    failAt(d, o, name->range, name->s + " is not defined in " + where + "; declare it with cuda_tile.global");
    return;
  }
  if (!g->info || g->info->kind != OpKind::Global) {
    auto& diag = failAt(d, o, name->range,
                        name->s + " does not name a global (it names a '" +
                            std::string(g->info ? g->info->name : g->name) + "' operation)");
    diag.notes.push_back({attrs::symName(*g)->range, "defined here"});
    return;
  }
  const Attr* gt = attrs::type(*g);
  TypeRef gtile = gt ? gt->type : nullptr;
  if (!res || !res->isPtrTile() || !gtile || !gtile->isTile()) return;
  Elem want = gtile->tileElem(), got = res->element->elem;
  if (want != got) {
    auto& diag = fail(d, o,
                      "the result points to " + std::string(elemName(got)) + " but global " + name->s + " holds " +
                          std::string(elemName(want)) + "; use tile<ptr<" + std::string(elemName(want)) + ">>");
    diag.notes.push_back({attrs::symName(*g)->range, "the global is declared here"});
  }
}

}  // namespace tilesight::rules
