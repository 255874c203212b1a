#pragma once
// What a layout expression (DESIGN §4) evaluates to, and the facts every
// front end shows about it (table, properties, picture).
#include <optional>
#include <string>
#include <vector>

#include "analysis/layout/basis.h"
#include "analysis/layout/layout.h"
#include "analysis/layout/swizzle.h"

namespace tilesight::layout {

struct Value {
  enum Kind { Int, LayoutValue, TilerValue, TvValue } kind = LayoutValue;
  int64_t integer = 0;                // Int
  Layout layout;                      // LayoutValue, TvValue (the (thread, value) layout)
  std::optional<Swizzle> swizzle;     // offsets are swizzle(layout(i)) when set
  // Basis strides, one path per leaf (basis.h): layout.stride holds the scales
  // and offsets are coordinates; make_identity_layout gives one. Empty:
  // integer strides.
  std::vector<BasisPath> basis;
  Tiler tiler;                        // TilerValue
  IntTuple tvTiler;                   // TvValue: the tile shape
  std::string note;                   // e.g. why a mode is stride 0 ("replicated across half-waves")

  static Value ofInt(int64_t v) { Value x; x.kind = Int; x.integer = v; return x; }
  static Value ofLayout(Layout l) { Value x; x.layout = std::move(l); return x; }
  bool hasBasis() const { return !basis.empty(); }
};

// The offset of index i of a layout value (swizzle applied); with basis
// strides, the colex index of its coordinate in the codomain.
int64_t valueOffset(const Value& v, int64_t i);
// The coordinate of index i of a value with basis strides.
IntTuple valueCoord(const Value& v, int64_t i);
// Canonical text: `(4,(2,2)):(2,(1,8))`, `Sw<3,4,3> o (8,8):(8,1)`, `12`,
// `[3:1,_]`, basis strides as `1@0`.
std::string valueText(const Value& v);
// Properties of a layout value (swizzles preserve injectivity; see decide.cpp).
Properties valueProperties(const Value& v, double workBudget = kBatchWorkBudget);

}  // namespace tilesight::layout
