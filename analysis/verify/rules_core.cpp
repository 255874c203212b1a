// Core and shape ops, constants, globals.
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

std::string shapeText(const std::vector<int64_t>& shape) { return shape.empty() ? "scalar" : shapeString(shape); }

// "1 operand", "2 operands"; `many` for irregular plurals.
std::string count(size_t n, std::string_view one, std::string_view many = {}) {
  std::string word(n == 1 ? one : many);
  if (n != 1 && many.empty()) word = std::string(one) + "s";
  return std::to_string(n) + " " + word;
}

// The shared "same element type" rule of the shape ops.
void checkSameElement(const OpRef& o, TypeRef src, TypeRef res, DiagSink& d) {
  if (src->element != res->element)
    fail(d, o, "source and result must have the same element type, got " + elemStr(src) + " and " + elemStr(res));
}

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// `tile<8xf32>` for a shape and an element spelling.
std::string tileText(const std::vector<int64_t>& shape, const std::string& elem) {
  return "tile<" + (shape.empty() ? "" : shapeString(shape) + "x") + elem + ">";
}

Range operandRange(const OpRef& o, std::string_view name) {
  const Operand* u = o.operand(name);
  return u ? u->range : o.at();
}

// All known and tiles (types are nullptr after earlier errors: stay silent then).
bool allTiles(std::initializer_list<TypeRef> ts) {
  for (TypeRef t : ts)
    if (!t || !t->isTile()) return false;
  return true;
}

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

const Attr* intAttr(const OpRef& o, std::string_view name) {
  const Attr* a = o.attr(name);
  return a && a->kind == AttrKind::Int ? a : nullptr;
}

// --- dense literals (constant, global) ---------------------------------------------

bool isHexLiteral(std::string_view s) {
  if (s.starts_with("-")) s.remove_prefix(1);
  return s.starts_with("0x") || s.starts_with("0X");
}

// The 64-bit value the dialect's integer parser gives a literal, or nullopt when
// it does not fit. Decimals up to 2^64-1 wrap to negative values like MLIR's do.
std::optional<int64_t> literalInt(const Attr& e) {
  if (!e.wide) return e.i;
  std::string_view s = e.s;
  if (s == "-9223372036854775808") return INT64_MIN;
  if (s.starts_with("-") || isHexLiteral(s)) return std::nullopt;
  if (s.size() < 20 || (s.size() == 20 && s <= "18446744073709551615")) return e.i;
  return std::nullopt;
}

// Integer literals may be written signed or unsigned: the union of both ranges.
std::pair<int64_t, int64_t> literalRange(Elem e) {
  switch (e) {
    case Elem::I1: return {-1, 1};
    case Elem::I8: return {-128, 255};
    case Elem::I16: return {-32768, 65535};
    case Elem::I32: return {INT32_MIN, UINT32_MAX};
    default: return {INT64_MIN, INT64_MAX};
  }
}

// Bits a hexadecimal float bit pattern may use (tf32 patterns are 19 bits wide).
unsigned patternBits(Elem e) { return e == Elem::TF32 ? 19 : elemBits(e); }

bool isLiteralElem(TypeRef t) {
  return t && t->kind == TypeKind::Scalar && t->elem != Elem::I4 && t->elem != Elem::Index &&
         (isIntElem(t->elem) || isFloatElem(t->elem));
}

// Walks a literal: element values against the element type, and the nesting.
// Only the first bad value is reported (with a count of the others).
class LiteralWalk {
 public:
  LiteralWalk(const OpRef& o, DiagSink& d, Elem elem) : o_(o), d_(d), elem_(elem) {}

  // Shape of the literal, [] for a single (splat) value; nullopt if ragged (reported).
  std::optional<std::vector<int64_t>> shape(const Attr& lit) {
    if (lit.i != 1) {
      if (!lit.elems.empty()) value(lit.elems.front());
      return std::vector<int64_t>{};
    }
    return list(lit);
  }

  void finish() {
    if (badCount_ == 0) return;
    std::string more = badCount_ > 1 ? " (" + std::to_string(badCount_ - 1) + " more invalid values follow)" : "";
    failAt(d_, o_, badRange_, badMsg_ + more);
  }

 private:
  std::optional<std::vector<int64_t>> list(const Attr& l) {
    if (l.elems.empty()) {
      failAt(d_, o_, l.range, "the literal has an empty list; every list needs at least one value");
      return std::nullopt;
    }
    std::optional<std::vector<int64_t>> first;
    for (size_t i = 0; i < l.elems.size(); ++i) {
      const Attr& e = l.elems[i];
      std::vector<int64_t> s;
      if (e.kind == AttrKind::Array) {
        auto sub = list(e);
        if (!sub) return std::nullopt;
        s = std::move(*sub);
      } else {
        value(e);
      }
      if (!first) {
        first = std::move(s);
      } else if (s != *first) {
        failAt(d_, o_, e.range,
               "the literal is ragged: entry " + std::to_string(i) + " of this list has shape " + listText(s) +
                   " but entry 0 has shape " + listText(*first));
        return std::nullopt;
      }
    }
    std::vector<int64_t> out{static_cast<int64_t>(l.elems.size())};
    out.insert(out.end(), first->begin(), first->end());
    return out;
  }

  void value(const Attr& e) {
    if (elem_ == Elem::None) return;
    std::string problem = isIntElem(elem_) ? intProblem(e) : floatProblem(e);
    if (problem.empty()) return;
    if (badCount_++ == 0) badMsg_ = problem, badRange_ = e.range;
  }

  std::string intProblem(const Attr& e) const {
    std::string en(elemName(elem_));
    if (e.kind == AttrKind::Bool)
      return elem_ == Elem::I1
                 ? ""
                 : std::string(e.i ? "true" : "false") + " is not an " + en + " value; true/false are for i1 only";
    if (e.kind != AttrKind::Int) return e.s + " is not an integer, but the literal holds " + en + " values";
    auto v = literalInt(e);
    auto [lo, hi] = literalRange(elem_);
    if (!v || *v < lo || *v > hi)
      return e.s + " does not fit in " + en + " (accepted range " + std::to_string(lo) + " to " + std::to_string(hi) +
             ")";
    return "";
  }

  std::string floatProblem(const Attr& e) const {
    std::string en(elemName(elem_));
    if (e.kind == AttrKind::Bool) return std::string(e.i ? "true" : "false") + " is not a valid " + en + " value";
    if (e.kind != AttrKind::Int) return "";
    if (!isHexLiteral(e.s))
      return "integer literal " + e.s + " for an " + en + " value; write it as a float (" + e.s + ".0)";
    if (e.s.starts_with("-")) return "the hexadecimal bit pattern " + e.s + " cannot be negative";
    unsigned bits = patternBits(elem_);
    if (e.wide || std::bit_width(static_cast<uint64_t>(e.i)) > bits)
      return "the bit pattern " + e.s + " has more than the " + std::to_string(bits) + " bits of " + en;
    return "";
  }

  const OpRef& o_;
  DiagSink& d_;
  Elem elem_;
  size_t badCount_ = 0;
  std::string badMsg_;
  Range badRange_;
};

// `<E: literal>` against the tile it initializes.
void checkLiteral(const OpRef& o, const Attr& lit, TypeRef tile, DiagSink& d) {
  bool elemOk = isLiteralElem(lit.type);
  if (!elemOk)
    failAt(d, o, lit.range,
           "literal element type " + quoted(lit.type) + " is not allowed; use i1, i8, i16, i32, i64 or a float type");
  LiteralWalk walk(o, d, elemOk ? lit.type->elem : Elem::None);
  auto shape = walk.shape(lit);
  walk.finish();
  if (elemOk && lit.type != tile->element)
    failAt(
        d, o, lit.range,
        "the literal holds " + std::string(elemName(lit.type->elem)) + " values but the tile holds " + elemStr(tile));
  if (shape && lit.i == 1 && *shape != tile->shape)
    failAt(d, o, lit.range,
           "the literal has shape " + listText(*shape) + " but the tile shape is " + listText(tile->shape));
}

// --- reduce / scan -----------------------------------------------------------------

// The element type an identity attribute has; untyped numbers are i64 / f64 as in MLIR.
std::optional<Elem> identityElem(const Attr& a) {
  if (a.type) return a.type->kind == TypeKind::Scalar ? std::optional(a.type->elem) : std::nullopt;
  if (a.kind == AttrKind::Int) return Elem::I64;
  if (a.kind == AttrKind::Float) return Elem::F64;
  if (a.kind == AttrKind::Bool) return Elem::I1;
  return std::nullopt;
}

bool identityMatches(Elem operand, Elem identity) {
  // f16 and bf16 identities are accepted for each other.
  auto half = [](Elem e) { return e == Elem::F16 || e == Elem::BF16; };
  return operand == identity || (half(operand) && half(identity));
}

void checkIdentities(const OpRef& o, const std::vector<TypeRef>& ins, DiagSink& d) {
  const Attr* ids = o.attr("identities");
  if (!ids) return;
  if (ids->kind != AttrKind::Array) {
    failAt(d, o, ids->range, "identities must be a list of typed numbers, one per operand");
    return;
  }
  if (ids->elems.size() != ins.size()) {
    failAt(d, o, ids->range,
           count(ids->elems.size(), "identity", "identities") + " for " + count(ins.size(), "operand") +
               "; give exactly one identity per operand");
    return;
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    const Attr& id = ids->elems[i];
    auto e = identityElem(id);
    if (!e) {
      failAt(d, o, id.range, "identity " + std::to_string(i) + " is not a typed number such as 0.0 : f32");
    } else if (ins[i] && ins[i]->isTile() && !identityMatches(ins[i]->tileElem(), *e)) {
      failAt(d, o, id.range,
             "identity " + std::to_string(i) + " is " + std::string(elemName(*e)) + " but operand " +
                 std::to_string(i) + " holds " + elemStr(ins[i]));
    }
  }
}

// The shape operand i gives a result: reduce drops `dim`, scan keeps it.
std::vector<int64_t> aggregateShape(const std::vector<int64_t>& in, int64_t dim, bool isScan) {
  if (isScan) return in;
  std::vector<int64_t> out;
  for (size_t k = 0; k < in.size(); ++k)
    if (static_cast<int64_t>(k) != dim) out.push_back(in[k]);
  return out;
}

void checkAggregateResults(const OpRef& o, const std::vector<TypeRef>& ins, int64_t dim, bool isScan, DiagSink& d) {
  for (size_t i = 0; i < ins.size(); ++i) {
    TypeRef in = ins[i], res = o.result(i);
    if (!allTiles({in, res})) continue;
    auto want = aggregateShape(in->shape, dim, isScan);
    if (res->shape == want && res->element == in->element) continue;
    std::string how = isScan ? "scanning operand " + std::to_string(i)
                             : "reducing operand " + std::to_string(i) + " along dimension " + std::to_string(dim);
    fail(d, o,
         how + " gives '" + tileText(want, elemStr(in)) + "', but result " + std::to_string(i) + " is " + quoted(res));
  }
}

// Block arguments come in pairs (current, other) per operand, all 0-d tiles.
void checkBodyArgs(const OpRef& o, const Region& r, const std::vector<TypeRef>& ins, DiagSink& d) {
  const Block& body = r.blocks.front();
  size_t n = ins.size();
  if (body.args.size() != 2 * n) {
    failAt(d, o, r.range,
           "the body takes " + count(body.args.size(), "argument") + " but needs " + std::to_string(2 * n) +
               " (a pair of 0-d tiles per operand)");
    return;
  }
  bool allScalar = true;
  for (size_t k = 0; k < body.args.size(); ++k) {
    const Value& v = o.p.value(body.args[k]);
    if (v.type && !v.type->isScalarTile()) {
      failAt(d, o, v.range,
             "body argument " + std::to_string(k) + " (" + std::string(v.name) + ") must be a 0-d tile, got " + quoted(v.type));
      allScalar = false;
    }
  }
  if (!allScalar) return;
  for (size_t i = 0; i < n; ++i) {
    const Value& cur = o.p.value(body.args[2 * i]);
    const Value& other = o.p.value(body.args[2 * i + 1]);
    if (!cur.type || !other.type) continue;
    if (cur.type->element != other.type->element)
      failAt(d, o, other.range,
             "body arguments " + std::to_string(2 * i) + " and " + std::to_string(2 * i + 1) +
                 " form the pair for operand " + std::to_string(i) + " and must share an element type, got " +
                 elemStr(cur.type) + " and " + elemStr(other.type));
    if (ins[i] && ins[i]->isTile() && cur.type->element != ins[i]->element)
      failAt(d, o, cur.range,
             "body argument " + std::to_string(2 * i) + " is " + elemStr(cur.type) + " but operand " +
                 std::to_string(i) + " holds " + elemStr(ins[i]));
  }
}

void checkBodyYield(const OpRef& o, const Operation& term, const std::vector<TypeRef>& ins, DiagSink& d) {
  OpRef y{o.p, term};
  auto vals = y.group("operands");
  if (vals.size() != ins.size()) {
    auto& diag = fail(d, o,
                      "the body yields " + count(vals.size(), "value") + " but the op has " +
                          count(ins.size(), "operand") + "; yield one 0-d tile per operand");
    diag.notes.push_back({term.nameRange, "the yield"});
    return;
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    TypeRef t = o.p.typeOf(vals[i]->value);
    if (!t || !ins[i] || !ins[i]->isTile() || (t->isTile() && t->element == ins[i]->element)) continue;
    auto& diag = fail(d, o,
                      "yielded value " + std::to_string(i) + " is " + quoted(t) + " but operand " + std::to_string(i) +
                          " holds " + elemStr(ins[i]));
    diag.notes.push_back({vals[i]->range, "yielded here"});
  }
}

// Only side-effect-free ops may run inside the combining body.
void checkBodyPurity(const OpRef& o, const Block& body, DiagSink& d) {
  for (OpId id : body.ops) {
    const Operation& inner = o.p.op(id);
    uint32_t traits = inner.info ? inner.info->traits : 0;
    if (traits & (kPure | kTerminator)) continue;
    OpRef in{o.p, inner};
    auto& diag = fail(d, in,
                      "only pure operations may appear in the body of '" + o.name() + "'; '" + in.name() +
                          "' has side effects or may not terminate");
    diag.notes.push_back({o.at(), "the enclosing " + o.name()});
  }
}

void checkBody(const OpRef& o, const std::vector<TypeRef>& ins, DiagSink& d) {
  if (o.op.regions.empty()) return;
  const Region& r = o.op.regions.front();
  if (r.blocks.size() != 1) {
    failAt(d, o, r.range, "the body must be exactly one block, found " + std::to_string(r.blocks.size()));
    return;
  }
  const Block& body = r.blocks.front();
  checkBodyArgs(o, r, ins, d);
  const Operation* last = body.ops.empty() ? nullptr : &o.p.op(body.ops.back());
  if (!last || !last->info || last->info->name != "yield")
    failAt(d, o, r.range, "the body must end with a yield of " + count(ins.size(), "0-d tile"));
  else
    checkBodyYield(o, *last, ins, d);
  checkBodyPurity(o, body, d);
}

void checkAggregate(const OpRef& o, bool isScan, DiagSink& d) {
  auto operands = o.group("operands");
  std::vector<TypeRef> ins;
  for (const Operand* u : operands) ins.push_back(o.p.typeOf(u->value));
  if (ins.empty()) {
    fail(d, o, "needs at least one operand");
    return;
  }
  bool countsMatch = o.op.results.size() == ins.size();
  if (!countsMatch)
    fail(d, o,
         count(ins.size(), "operand") + " but " + count(o.op.results.size(), "result") +
             "; there is one result per operand");
  checkIdentities(o, ins, d);
  for (size_t i = 1; i < ins.size(); ++i)
    if (allTiles({ins[0], ins[i]}) && ins[i]->shape != ins[0]->shape)
      failAt(d, o, operands[i]->range,
             "operand " + std::to_string(i) + " has shape " + shapeText(ins[i]->shape) + " but operand 0 has " +
                 shapeText(ins[0]->shape) + "; all operands must have the same shape");
  const Attr* dim = intAttr(o, "dim");
  bool dimOk = false;
  if (dim && ins[0] && ins[0]->isTile()) {
    int64_t rank = static_cast<int64_t>(ins[0]->shape.size());
    dimOk = dim->i >= 0 && dim->i < rank;
    if (!dimOk)
      failAt(d, o, dim->range,
             "dim = " + std::to_string(dim->i) + " is not a dimension of the operands (rank " + std::to_string(rank) +
                 ", valid 0 to " + std::to_string(rank - 1) + ")");
  }
  if (countsMatch && dimOk) checkAggregateResults(o, ins, dim->i, isScan, d);
  checkBody(o, ins, d);
}

// --- pack / unpack -------------------------------------------------------------------

// Bits a packed tile occupies (tf32 is stored in 32 bits).
int64_t storageBits(TypeRef t) {
  Elem e = t->tileElem();
  int64_t w = e == Elem::TF32 ? 32 : elemBits(e);
  return w * t->numElements();
}

void checkPackUnpack(const OpRef& o, DiagSink& d) {
  TypeRef src = o.type("source"), res = o.result(0);
  if (!allTiles({src, res})) return;
  if (src->shape.size() != res->shape.size()) {
    fail(d, o,
         "source and result must have the same rank, got " + std::to_string(src->shape.size()) + " and " +
             std::to_string(res->shape.size()));
    return;
  }
  if (src->shape.size() != 1) {
    fail(d, o, "source and result must be 1-d tiles, got " + quoted(src) + " and " + quoted(res));
    return;
  }
  if (elemBits(src->tileElem()) == elemBits(res->tileElem())) {
    fail(d, o,
         "the element types must differ in width, but " + elemStr(src) + " and " + elemStr(res) + " both have " +
             std::to_string(elemBits(src->tileElem())) + " bits");
    return;
  }
  int64_t sb = storageBits(src), rb = storageBits(res);
  for (auto [bits, what] : {std::pair{sb, "source"}, std::pair{rb, "result"}})
    if (bits % 8 != 0) {
      fail(d, o,
           std::string("the ") + what + " tile is " + std::to_string(bits) + " bits, not a whole number of bytes");
      return;
    }
  if (sb != rb)
    fail(d, o,
         "source and result must be the same size: " + quoted(src) + " is " + std::to_string(sb / 8) + " bytes but " +
             quoted(res) + " is " + std::to_string(rb / 8) + " bytes");
}

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
    failAt(d, o, operandRange(o, "value"),
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
    failAt(d, o, operandRange(o, "value"), "same_elements applies to tiles of integers or pointers, not " + quoted(t));
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
    failAt(d, o, operandRange(o, "value"), "bounded applies to tiles of integers, not " + quoted(t));
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
  return (op.info && op.info->name == "module") || (!op.info && op.name == "builtin.module");
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
    const Attr* s = p.op(id).attr("sym_name");
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

void constant(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* lit = o.attr("value");
  TypeRef res = o.result(0);
  if (!lit || lit->kind != AttrKind::Dense || !allTiles({res})) return;
  checkLiteral(o, *lit, res, d);
}

void iota(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef res = o.result(0);
  if (!allTiles({res})) return;
  if (res->shape.size() != 1) {
    fail(d, o, "the result must be a 1-d tile, got " + quoted(res));
    return;
  }
  unsigned bits = elemBits(res->tileElem());
  int64_t n = res->shape[0];
  if (bits < 63 && n > (int64_t{1} << bits))
    fail(d, o,
         std::to_string(n) + " elements cannot be numbered with " + elemStr(res) + " (at most " +
             std::to_string(int64_t{1} << bits) + " distinct values)");
}

void offset(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef ptr = o.type("ptr"), off = o.type("offset"), res = o.result(0);
  if (!allTiles({ptr, off, res})) return;
  if (off->shape != ptr->shape)
    failAt(d, o, operandRange(o, "offset"),
           "the offset tile has shape " + shapeText(off->shape) + " but the pointer tile has shape " +
               shapeText(ptr->shape) + "; they must match");
  if (res != ptr)
    fail(d, o, "the result type " + quoted(res) + " must equal the pointer operand's type " + quoted(ptr));
}

void broadcast(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type("source"), res = o.result(0);
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  if (src->shape.size() != res->shape.size()) {
    fail(d, o,
         "source and result must have the same rank, got " + std::to_string(src->shape.size()) + " and " +
             std::to_string(res->shape.size()) + "; reshape first to add size-1 dimensions");
    return;
  }
  for (size_t k = 0; k < src->shape.size(); ++k) {
    if (src->shape[k] == res->shape[k] || src->shape[k] == 1) continue;
    fail(d, o,
         "source dimension " + std::to_string(k) + " (" + std::to_string(src->shape[k]) + ") cannot broadcast to " +
             std::to_string(res->shape[k]) + "; only size-1 dimensions grow (" + shapeText(src->shape) + " -> " +
             shapeText(res->shape) + ")");
    return;
  }
}

void reshape(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type("source"), res = o.result(0);
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  if (src->numElements() != res->numElements())
    fail(d, o,
         quoted(src) + " has " + count(src->numElements(), "element") + " but " + quoted(res) + " has " +
             std::to_string(res->numElements()) + "; reshape must keep the element count");
}

void permute(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type("source"), res = o.result(0);
  const Attr* perm = o.attr("permutation");
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  size_t rank = src->shape.size();
  bool sameRank = res->shape.size() == rank;
  if (!sameRank)
    fail(d, o,
         "source and result must have the same rank, got " + std::to_string(rank) + " and " +
             std::to_string(res->shape.size()));
  if (rank < 2) {
    fail(d, o, "permute needs a source of rank 2 or more, got " + quoted(src));
    return;
  }
  if (!perm) return;
  std::vector<int64_t> ps;
  for (const Attr& e : perm->elems) ps.push_back(e.i);
  if (ps.size() != rank) {
    failAt(d, o, perm->range,
           "the permutation has " + std::to_string(ps.size()) + " entries but the source has rank " +
               std::to_string(rank));
    return;
  }
  for (size_t i = 0; i < ps.size(); ++i)
    if (ps[i] < 0 || ps[i] >= static_cast<int64_t>(rank)) {
      failAt(d, o, perm->elems[i].range,
             "permutation entry " + std::to_string(i) + " (" + std::to_string(ps[i]) +
                 ") is not a dimension; valid 0 to " + std::to_string(rank - 1));
      return;
    }
  if (std::set<int64_t>(ps.begin(), ps.end()).size() != ps.size()) {
    failAt(d, o, perm->range, "the permutation " + listText(ps) + " repeats a dimension");
    return;
  }
  if (!sameRank) return;
  std::vector<int64_t> want;
  for (int64_t k : ps) want.push_back(src->shape[k]);
  if (want != res->shape)
    fail(d, o,
         "permuting " + shapeText(src->shape) + " by " + listText(ps) + " gives " + shapeText(want) +
             ", but the result shape is " + shapeText(res->shape));
}

void cat(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef lhs = o.type("lhs"), rhs = o.type("rhs"), res = o.result(0);
  if (!allTiles({lhs, rhs, res})) return;
  if (lhs->element != rhs->element || lhs->element != res->element)
    fail(d, o,
         "lhs, rhs and result must share an element type, got " + elemStr(lhs) + ", " + elemStr(rhs) + " and " +
             elemStr(res));
  size_t rank = lhs->shape.size();
  if (rhs->shape.size() != rank || res->shape.size() != rank) {
    fail(d, o,
         "lhs, rhs and result must have the same rank, got " + std::to_string(rank) + ", " +
             std::to_string(rhs->shape.size()) + " and " + std::to_string(res->shape.size()));
    return;
  }
  const Attr* dimAttr = intAttr(o, "dim");
  if (!dimAttr) return;
  int64_t dim = dimAttr->i;
  if (dim < 0 || dim >= static_cast<int64_t>(rank)) {
    failAt(d, o, dimAttr->range,
           "dim = " + std::to_string(dim) + " is not a dimension of rank-" + std::to_string(rank) +
               " tiles (valid 0 to " + std::to_string(static_cast<int64_t>(rank) - 1) + ")");
    return;
  }
  for (size_t k = 0; k < rank; ++k) {
    if (static_cast<int64_t>(k) == dim) continue;
    if (lhs->shape[k] != rhs->shape[k])
      fail(d, o,
           "lhs and rhs differ in dimension " + std::to_string(k) + " (" + std::to_string(lhs->shape[k]) + " vs " +
               std::to_string(rhs->shape[k]) + "); only dimension " + std::to_string(dim) + " may differ");
    else if (lhs->shape[k] != res->shape[k])
      fail(d, o,
           "result dimension " + std::to_string(k) + " is " + std::to_string(res->shape[k]) + " but the inputs have " +
               std::to_string(lhs->shape[k]));
  }
  int64_t sum = lhs->shape[dim] + rhs->shape[dim];
  if (res->shape[dim] != sum)
    fail(d, o,
         "concatenating along dimension " + std::to_string(dim) + " gives " + std::to_string(lhs->shape[dim]) + " + " +
             std::to_string(rhs->shape[dim]) + " = " + std::to_string(sum) + ", but the result has " +
             std::to_string(res->shape[dim]));
}

void extract(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type("source"), res = o.result(0);
  if (!allTiles({src, res})) return;
  checkSameElement(o, src, res, d);
  size_t rank = src->shape.size();
  if (res->shape.size() != rank) {
    fail(d, o,
         "source and result must have the same rank, got " + std::to_string(rank) + " and " +
             std::to_string(res->shape.size()));
    return;
  }
  bool divisible = true;
  for (size_t k = 0; k < rank; ++k)
    if (res->shape[k] <= 0 || src->shape[k] % res->shape[k] != 0) {
      fail(d, o,
           "source dimension " + std::to_string(k) + " (" + std::to_string(src->shape[k]) +
               ") is not a multiple of result dimension " + std::to_string(k) + " (" + std::to_string(res->shape[k]) +
               ")");
      divisible = false;
    }
  auto indices = o.group("indices");
  if (indices.size() != rank) {
    fail(d, o,
         "expected one index per source dimension (" + std::to_string(rank) + "), got " +
             std::to_string(indices.size()));
    return;
  }
  if (!divisible) return;
  for (size_t k = 0; k < rank; ++k) {
    const Value& v = p.value(indices[k]->value);
    if (v.blockArg || v.owner == kNoId) continue;
    const Operation& def = p.op(v.owner);
    const Attr* lit = def.info && def.info->name == "constant" ? def.attr("value") : nullptr;
    if (!lit || lit->kind != AttrKind::Dense || lit->elems.size() != 1 || lit->elems[0].kind != AttrKind::Int) continue;
    auto raw = literalInt(lit->elems[0]);
    if (!raw) continue;
    int64_t idx = static_cast<int32_t>(*raw);  // an i32 index, read as signed
    int64_t subTiles = src->shape[k] / res->shape[k];
    if (idx >= 0 && idx < subTiles) continue;
    std::string msg = "'extract': index " + std::to_string(k) + " is " + std::to_string(idx) + ", outside the " +
                      count(subTiles, "sub-tile") + " along dimension " + std::to_string(k) + " (valid 0 to " +
                      std::to_string(subTiles - 1) + ")";
    auto& w = d.warning(o.onOpLine(indices[k]->range), "type", msg);
    w.notes.push_back({v.range, "the constant index is defined here"});
  }
}

void select(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef cond = o.type("cond"), val = o.type("val_if_true");
  if (!allTiles({cond, val})) return;
  if (cond->shape != val->shape)
    failAt(d, o, operandRange(o, "cond"),
           "the condition has shape " + shapeText(cond->shape) + " but the values have shape " + shapeText(val->shape) +
               "; they must match");
  if (val->tileElem() == Elem::F4E2M1FN) fail(d, o, "f4E2M1FN values are not supported (a sub-byte element type)");
}

void pack(const Program& p, const Operation& op, DiagSink& d) { checkPackUnpack(OpRef{p, op}, d); }

void unpack(const Program& p, const Operation& op, DiagSink& d) { checkPackUnpack(OpRef{p, op}, d); }

void reduce(const Program& p, const Operation& op, DiagSink& d) { checkAggregate(OpRef{p, op}, false, d); }

void scan(const Program& p, const Operation& op, DiagSink& d) { checkAggregate(OpRef{p, op}, true, d); }

void assume(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* pred = o.attr("predicate");
  TypeRef t = o.type("value");
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
  const Attr* str = o.attr("str");
  if (!str || str->kind != AttrKind::String) return;
  auto want = formatArgCount(str->s);
  if (!want) {
    failAt(d, o, str->range, "the format string has a '%' without a conversion letter (write %% for a percent sign)");
    return;
  }
  size_t got = o.group("args").size();
  if (*want != got)
    failAt(d, o, str->range,
           "the format string has " + std::to_string(*want) + " conversion" + (*want == 1 ? "" : "s") + " but " +
               std::to_string(got) + " argument" + (got == 1 ? " is" : "s are") + " given");
}

void allocaOp(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* num = intAttr(o, "num_elem");
  const Attr* align = intAttr(o, "alignment");
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
  size_t n = o.group("tokens").size();
  if (n < 2)
    fail(d, o,
         "joins " + std::to_string(n) + " token" + (n == 1 ? "" : "s") +
             "; it needs two or more (use the token itself, or make_token)");
}

void getGlobal(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* name = o.attr("name");
  TypeRef res = o.result(0);
  if (!name || name->kind != AttrKind::Symbol) return;
  const Operation* table = nullptr;
  const Operation* g = lookupSymbol(p, op, name->s, &table);
  const Attr* tableName = table ? table->attr("sym_name") : nullptr;
  std::string where = tableName ? "module " + tableName->s : "this file";
  if (!g) {
    failAt(d, o, name->range, name->s + " is not defined in " + where + "; declare it with cuda_tile.global");
    return;
  }
  if (!g->info || g->info->name != "global") {
    auto& diag = failAt(d, o, name->range,
                        name->s + " does not name a global (it names a '" +
                            std::string(g->info ? g->info->name : g->name) + "' operation)");
    diag.notes.push_back({g->attr("sym_name")->range, "defined here"});
    return;
  }
  const Attr* gt = g->attr("type");
  TypeRef gtile = gt ? gt->type : nullptr;
  if (!res || !res->isPtrTile() || !gtile || !gtile->isTile()) return;
  Elem want = gtile->tileElem(), got = res->element->elem;
  if (want != got) {
    auto& diag = fail(d, o,
                      "the result points to " + std::string(elemName(got)) + " but global " + name->s + " holds " +
                          std::string(elemName(want)) + "; use tile<ptr<" + std::string(elemName(want)) + ">>");
    diag.notes.push_back({g->attr("sym_name")->range, "the global is declared here"});
  }
}

void global(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* lit = o.attr("value");
  const Attr* ty = o.attr("type");
  TypeRef t = ty ? ty->type : nullptr;
  if (!lit || lit->kind != AttrKind::Dense || !t) return;
  if (!t->isTile() || t->isPtrTile()) {
    fail(d, o, "a global's type must be a 1-d tile of numbers, got " + quoted(t));
    return;
  }
  if (t->shape.size() != 1)
    fail(d, o, "a global must be a 1-d tile, got " + quoted(t) + " (rank " + std::to_string(t->shape.size()) + ")");
  checkLiteral(o, *lit, t, d);
}

}  // namespace tilesight::rules
