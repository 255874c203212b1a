// Conversions between element types.
#include <string>

#include "analysis/diag/fixes.h"
#include "analysis/ir/op_accessors.h"
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

// Renames the op to `mnemonic`, keeping the `cuda_tile.` prefix if written.
TextEdit renameOp(const OpRef& o, std::string_view mnemonic) {
  std::string_view written = o.p.source.substr(o.op.nameRange.begin, o.op.nameRange.end - o.op.nameRange.begin);
  return {o.op.nameRange, (written.starts_with("cuda_tile.") ? "cuda_tile." : "") + std::string(mnemonic)};
}

// Deletes an attribute with the blanks before it.
TextEdit dropAttr(const OpRef& o, const Attr& a) {
  return {{blanksBefore(o.p.source, a.range.begin), a.range.end}, ""};
}

// exti that narrows is a trunci (which takes no signedness), and trunci that
// widens is an exti (which needs one: either may be meant).
void offerOppositeConversion(const OpRef& o, bool widen, Diagnostic& diag) {
  if (widen) {
    const Attr* sign = attrs::signedness(o.op);
    if (!sign) return;
    diag.fixes.push_back({"replace with 'trunci'", {renameOp(o, "trunci"), dropAttr(o, *sign)}});
    return;
  }
  const Operand* from = o.operand(group_names::from);
  if (!from) return;
  const Attr* ovf = attrs::overflow(o.op);
  for (std::string_view s : {"signed", "unsigned"}) {
    TextEdit sign = ovf ? dropAttr(o, *ovf) : TextEdit{{from->range.end, from->range.end}, ""};
    sign.newText = " " + std::string(s);
    diag.fixes.push_back({"replace with 'exti' (" + std::string(s) + ")", {renameOp(o, "exti"), sign}});
  }
}

// Integer width change that must go strictly one way.
void checkWidthChange(const OpRef& o, bool widen, DiagSink& d) {
  Conversion c = conversionOf(o);
  if (!c) return;
  Elem from = c.from->tileElem(), to = c.to->tileElem();
  unsigned fb = elemBits(from), tb = elemBits(to);
  if (widen ? tb > fb : tb < fb) return;
  Diagnostic& diag = fail(d, o, std::string(widen ? "extension must widen" : "truncation must narrow") +
                                    " the integers, but " + elemText(from) + " -> " + elemText(to) + " goes from " +
                                    std::to_string(fb) + " to " + std::to_string(tb) + " bits");
  if (fb != tb && !o.op.generic) offerOppositeConversion(o, widen, diag);
}

// `rounding_mode` must be `want` (the op's default when omitted).
void requireRounding(const OpRef& o, std::string_view want, const std::string& why, DiagSink& d) {
  std::string mode = o.keyword(attr_names::roundingMode);
  if (mode == want) return;
  Diagnostic& diag = failAt(d, o, attrRange(o, attr_names::roundingMode),
                            "rounding<" + mode + "> is not supported" + why + "; only rounding<" + std::string(want) +
                                "> is");
  if (!o.op.generic)
    diag.fixes.push_back(replaceWithFix(attrs::roundingMode(o.op)->range, "rounding<" + std::string(want) + ">"));
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
  std::string mode = o.keyword(attr_names::roundingMode);
  if (mode != "zero" && mode != "positive_inf")
    failAt(d, o, attrRange(o, attr_names::roundingMode),
           "conversion to f8E8M0FNU needs rounding<zero> or rounding<positive_inf>, got rounding<" + mode +
               ">" + (attrs::roundingMode(o.op) ? "" : " (the default)"));
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
