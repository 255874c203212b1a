#include "analysis/ir/dense.h"

namespace tilesight {

namespace {

void flatten(const Attr& e, bool floatElem, DenseValues& out) {
  if (e.kind == AttrKind::Array) {
    for (const Attr& sub : e.elems) flatten(sub, floatElem, out);
    return;
  }
  bool hex = e.kind == AttrKind::Int && (e.s.starts_with("0x") || e.s.starts_with("0X"));
  bool bits = floatElem && hex;
  out.ints.push_back(e.kind == AttrKind::Float ? 0 : e.i);
  out.floats.push_back(e.kind == AttrKind::Float ? e.f : static_cast<double>(e.i));
  if (floatElem) out.isBits.push_back(bits);
}

}  // namespace

std::optional<DenseValues> denseValues(const Attr& a) {
  if (a.kind != AttrKind::Dense || !a.type) return std::nullopt;
  DenseValues out;
  out.elem = a.type->elem;
  out.splat = a.i == 0 && a.elems.size() == 1;
  for (const Attr& e : a.elems) flatten(e, isFloatElem(out.elem), out);
  return out;
}

}  // namespace tilesight
