// Dense literals: the constant and global rules.
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

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

}  // namespace

void constant(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* lit = attrs::value(o.op);
  TypeRef res = o.result(0);
  if (!lit || lit->kind != AttrKind::Dense || !allTiles({res})) return;
  checkLiteral(o, *lit, res, d);
}

void global(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Attr* lit = attrs::value(o.op);
  const Attr* ty = attrs::type(o.op);
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
