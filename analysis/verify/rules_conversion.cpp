// Conversions between element types.
#include <string>

#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

// A conversion's source and result tiles, or nulls when either is unknown.
struct Conversion {
  TypeRef from = nullptr;
  TypeRef to = nullptr;
  explicit operator bool() const { return from && to && from->isTile() && to->isTile(); }
};

Conversion conversionOf(const OpRef& o) {
  if (o.op.operands.empty()) return {};
  return {o.p.typeOf(o.op.operands.front().value), o.result(0)};
}

std::string tileText(const std::vector<int64_t>& shape) {
  return shape.empty() ? "a scalar tile" : "a " + shapeString(shape) + " tile";
}

std::string elemText(Elem e) { return std::string(elemName(e)); }

Range attrRange(const OpRef& o, std::string_view name) {
  const Attr* a = o.attr(name);
  return a ? a->range : o.at();
}

// Integer width change that must go strictly one way.
void checkWidthChange(const OpRef& o, bool widen, DiagSink& d) {
  Conversion c = conversionOf(o);
  if (!c) return;
  Elem from = c.from->tileElem(), to = c.to->tileElem();
  unsigned fb = elemBits(from), tb = elemBits(to);
  if (widen ? tb > fb : tb < fb) return;
  fail(d, o, std::string(widen ? "extension must widen" : "truncation must narrow") + " the integers, but " +
                 elemText(from) + " -> " + elemText(to) + " goes from " + std::to_string(fb) + " to " +
                 std::to_string(tb) + " bits");
}

// `rounding_mode` must be `want` (the op's default when omitted).
void requireRounding(const OpRef& o, std::string_view want, const std::string& why, DiagSink& d) {
  std::string mode = o.keyword("rounding_mode", want);
  if (mode != want)
    failAt(d, o, attrRange(o, "rounding_mode"),
           "rounding<" + mode + "> is not supported" + why + "; only rounding<" + std::string(want) + "> is");
}

}  // namespace

// Every conversion keeps the tile shape; the other conversion rules call this first.
static void sameShapeConversion(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  Conversion c = conversionOf(o);
  if (!c || c.from->shape == c.to->shape) return;
  fail(d, o, "a conversion keeps the shape, but the source is " + tileText(c.from->shape) + " and the result " +
                 tileText(c.to->shape));
}

void exti(const Program& p, const Operation& op, DiagSink& d) {
  sameShapeConversion(p, op, d);
  checkWidthChange(OpRef{p, op}, true, d);
}

void trunci(const Program& p, const Operation& op, DiagSink& d) {
  sameShapeConversion(p, op, d);
  checkWidthChange(OpRef{p, op}, false, d);
}

void ftof(const Program& p, const Operation& op, DiagSink& d) {
  sameShapeConversion(p, op, d);
  OpRef o{p, op};
  Conversion c = conversionOf(o);
  if (!c) return;
  if (c.from == c.to) fail(d, o, "converting " + quoted(c.from) + " to itself does nothing; the types must differ");
  if (c.to->tileElem() != Elem::F8E8M0FNU) {
    requireRounding(o, "nearest_even", " for float conversions", d);
    return;
  }
  std::string mode = o.keyword("rounding_mode", "nearest_even");
  if (mode != "zero" && mode != "positive_inf")
    failAt(d, o, attrRange(o, "rounding_mode"),
           "conversion to f8E8M0FNU needs rounding<zero> or rounding<positive_inf>, got rounding<" + mode +
               ">" + (o.attr("rounding_mode") ? "" : " (the default)"));
}

void ftoi(const Program& p, const Operation& op, DiagSink& d) {
  sameShapeConversion(p, op, d);
  requireRounding(OpRef{p, op}, "nearest_int_to_zero", " for float to integer conversions", d);
}

void itof(const Program& p, const Operation& op, DiagSink& d) {
  sameShapeConversion(p, op, d);
  OpRef o{p, op};
  Conversion c = conversionOf(o);
  if (c && c.to->tileElem() == Elem::F8E8M0FNU)
    fail(d, o, "integers cannot be converted to f8E8M0FNU directly; convert to another float type first");
  requireRounding(o, "nearest_even", " for integer to float conversions", d);
}

void bitcast(const Program& p, const Operation& op, DiagSink& d) {
  sameShapeConversion(p, op, d);
  OpRef o{p, op};
  Conversion c = conversionOf(o);
  if (!c) return;
  Elem from = c.from->tileElem(), to = c.to->tileElem();
  if (elemBits(from) != elemBits(to))
    fail(d, o, "a bitcast keeps the element width, but " + elemText(from) + " has " + std::to_string(elemBits(from)) +
                   " bits and " + elemText(to) + " has " + std::to_string(elemBits(to)));
}

void ptrToInt(const Program& p, const Operation& op, DiagSink& d) { sameShapeConversion(p, op, d); }

void intToPtr(const Program& p, const Operation& op, DiagSink& d) { sameShapeConversion(p, op, d); }

void ptrToPtr(const Program& p, const Operation& op, DiagSink& d) { sameShapeConversion(p, op, d); }

}  // namespace tilesight::rules
