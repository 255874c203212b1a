// The functions of DESIGN §4: argument binding (positional or `key = expr`),
// arity and argument-kind checks, then the algebra. Algebra errors pass
// through with the column of the call.
#include <algorithm>
#include <cstdlib>
#include <map>

#include "analysis/layout/expr_call.h"
#include "analysis/layout/render.h"
#include "analysis/layout/swizzled.h"
#include "analysis/layout/tilus.h"
#include "analysis/layout/wmma.h"

namespace tilesight::layout::detail {

namespace {

// A call with its arguments bound to the function's parameters.
struct Call {
  std::string name;
  size_t column = 0;
  std::vector<const char*> params;           // empty when variadic
  std::vector<std::optional<Operand>> args;  // by parameter; all positional when variadic

  bool has(size_t i) const { return i < args.size() && args[i].has_value(); }
  const Operand& operator[](size_t i) const { return *args[i]; }
  // "argument 'b' of composition", for messages.
  std::string what(size_t i) const {
    if (i >= params.size()) return "argument " + std::to_string(i + 1) + " of " + name;
    return "argument '" + std::string(params[i]) + "' of " + name;
  }
  ExprError fail(const LayoutError& e) const { return {column, e.rule, e.message}; }
  ExprResult<Value> wrap(const Expected<Layout>& r) const {
    if (!r.ok()) return fail(r.error());
    if (auto e = checkBounded(r.value(), column)) return *e;
    return Value::ofLayout(r.value());
  }
  ExprResult<Value> wrap(const Expected<Value>& r) const {
    if (!r.ok()) return fail(r.error());
    return r.value();
  }
  ExprResult<Value> wrap(const Expected<TvLayout>& r) const {
    if (!r.ok()) return fail(r.error());
    Value v = Value::ofLayout(r.value().tv);
    v.kind = Value::TvValue;
    v.tvTiler = r.value().tiler;
    return v;
  }
};

using Handler = ExprResult<Value> (*)(const Call&);

struct Spec {
  std::vector<const char*> params;
  size_t required = 0;
  bool variadic = false;
  Handler fn = nullptr;
  const char* hint = "";  // added to arity errors: where an old spelling went
};

ExprError wrongArg(const Operand& op, const std::string& what, const std::string& expectedKind) {
  std::string found = op.word ? "the word '" + *op.word + "'" : valueText(op.value);
  return {op.column, "wrong argument", what + " must be " + expectedKind + ", found " + found};
}

ExprResult<int64_t> intArg(const Operand& op, const std::string& what) {
  if (op.literal && op.literal->isLeaf()) return op.literal->value();
  if (!op.word && op.value.kind == Value::Int) return op.value.integer;
  return wrongArg(op, what, "an integer");
}

ExprResult<IntTuple> tupleArg(const Operand& op, const std::string& what) {
  if (op.literal) return *op.literal;
  if (!op.word && op.value.kind == Value::Int) return IntTuple(op.value.integer);
  return wrongArg(op, what, "a tuple of integers");
}

// Any layout-like value, swizzled, identity or TV included (for size, cosize,
// rank, depth and shared_compose): literals become compact layouts.
ExprResult<Value> valueArg(const Operand& op, const std::string& what) {
  if (op.word || op.literal || op.value.kind == Value::Int) {
    auto l = layoutOf(op, what);
    if (!l.ok()) return l.error();
    return Value::ofLayout(l.value());
  }
  if (op.value.kind == Value::TilerValue) return wrongArg(op, what, "a layout");
  return op.value;
}

// A layout that may carry a swizzle (for composition and the divides).
ExprResult<Value> swizzledArg(const Operand& op, const std::string& what) {
  if (!op.word && op.value.kind == Value::LayoutValue && op.value.swizzle && !op.value.hasBasis()) return op.value;
  auto l = layoutOf(op, what);
  if (!l.ok()) return l.error();
  return Value::ofLayout(l.value());
}

ExprResult<Tiler> tilerArg(const Operand& op, const std::string& what) {
  if (!op.word && op.value.kind == Value::TilerValue) return op.value.tiler;
  if (op.literal && !op.literal->isLeaf()) return tilerOfShape(*op.literal);
  auto l = layoutOf(op, what);
  if (!l.ok()) return l.error();
  return tilerOf(l.value());
}

ExprResult<std::string> wordArg(const Operand& op, const std::string& what, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* w : allowed) {
    if (op.word == w) return *op.word;
    list += (list.empty() ? "" : "|") + std::string(w);
  }
  return wrongArg(op, what, "one of " + list);
}

// composition and the divides: A may be swizzled; the function applies to
// its inner layout and the swizzle stays outside (Sw o (L o B)).
template <Expected<Layout> (*F)(const Layout&, const Tiler&)>
ExprResult<Value> divideFn(const Call& c) {
  auto a = swizzledArg(c[0], c.what(0));
  if (!a.ok()) return a.error();
  auto t = tilerArg(c[1], c.what(1));
  if (!t.ok()) return t.error();
  Expected<Layout> r = F(a.value().layout, t.value());
  if (!r.ok()) return c.fail(r.error());
  if (auto e = checkBounded(r.value(), c.column)) return *e;
  Value v = a.value();
  v.layout = r.value();
  return v;
}

// Reads arguments 0 and 1 with their readers, then applies f.
template <class ReadA, class ReadB, class F>
ExprResult<Value> binary(const Call& c, ReadA readA, ReadB readB, F f) {
  auto a = readA(c[0], c.what(0));
  if (!a.ok()) return a.error();
  auto b = readB(c[1], c.what(1));
  if (!b.ok()) return b.error();
  return c.wrap(f(a.value(), b.value()));
}

Value ofSwizzled(const SwizzledLayout& l) {
  Value v = Value::ofLayout(l.layout);
  v.swizzle = l.swizzle;
  return v;
}

Expected<SwizzledLayout> composeValues(const Value& a, const Value& b) {
  if (!b.hasBasis()) return composition(SwizzledLayout{a.swizzle, a.layout}, {b.swizzle, b.layout});
  auto l = composition(a.layout, b.layout, b.basis);
  if (!l) return l.error();
  return SwizzledLayout{a.swizzle, *l};
}

// composition(A, Sw o L): CuTe's composition(Layout, ComposedLayout), the
// swizzle moved outside (swizzled.h); composition(A, B) with basis strides
// in B (basis.h); other B go through the divides' path. A's swizzle stays
// outside.
ExprResult<Value> compositionFn(const Call& c) {
  const Operand& b = c[1];
  bool layoutB = !b.word && b.value.kind == Value::LayoutValue;
  if (!layoutB || !(b.value.swizzle || b.value.hasBasis())) return divideFn<composition>(c);
  auto a = swizzledArg(c[0], c.what(0));
  if (!a.ok()) return a.error();
  auto r = composeValues(a.value(), b.value);
  if (!r) return c.fail(r.error());
  if (auto e = checkBounded(r->layout, c.column)) return *e;
  return ofSwizzled(*r);
}

// right_inverse and left_inverse of a layout that may be swizzled.
template <Expected<SwizzledLayout> (*F)(const SwizzledLayout&)>
ExprResult<Value> inverseFn(const Call& c) {
  auto l = swizzledArg(c[0], c.what(0));
  if (!l.ok()) return l.error();
  auto r = F({l.value().swizzle, l.value().layout});
  if (!r) return c.fail(r.error());
  return ofSwizzled(*r);
}

// blocked_product and raked_product take two layouts (as C++), and MoYe's
// coalesce_result = true|false: coalesce each mode of the result.
template <Expected<Layout> (*F)(const Layout&, const Layout&)>
ExprResult<Value> rankSensitiveFn(const Call& c) {
  bool coalesced = false;
  if (c.has(2)) {
    auto w = wordArg(c[2], c.what(2), {"true", "false"});
    if (!w.ok()) return w.error();
    coalesced = w.value() == "true";
  }
  return binary(c, layoutOf, layoutOf, [&](const Layout& a, const Layout& b) -> Expected<Layout> {
    Expected<Layout> r = F(a, b);
    if (!r || !coalesced) return r;
    return coalesce(*r, IntTuple::tuple(std::vector<IntTuple>(rank(*r), IntTuple(1))));
  });
}

// logical, zipped, tiled and flat products also take a by-mode tiler; a bare
// shape is one, as C++ takes make_shape(...).
template <Expected<Layout> (*F)(const Layout&, const Tiler&)>
ExprResult<Value> tilerProductFn(const Call& c) {
  return binary(c, layoutOf, tilerArg, F);
}

ExprResult<Value> unary(const Call& c, Layout (*f)(const Layout&)) {
  auto l = layoutOf(c[0], c.what(0));
  if (!l.ok()) return l.error();
  return c.wrap(Expected<Layout>(f(l.value())));
}

// An argument written as a shape: an integer or a tuple, not a layout.
bool isShapeOperand(const Operand& op) { return op.literal || (!op.word && op.value.kind == Value::Int); }

// CuTe's compact row-major strides: the last leaf varies fastest.
IntTuple rowMajorStride(const IntTuple& shape) {
  std::vector<int64_t> s = leaves(shape), d(s.size());
  int64_t acc = 1;
  for (size_t i = s.size(); i-- > 0;) {
    d[i] = acc;
    acc *= s[i];
  }
  return replaceLeaves(shape, d);
}

// Seed 002: make_layout(shape [, stride]) and Layout(shape, stride), the
// stride row-major when omitted; MoYe's GenRowMajor and GenColMajor as the
// stride. Layouts as arguments are the old concatenating spelling: an error
// that names cat.
ExprResult<Value> shapeStrideFn(const Call& c) {
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.has(i) && !isShapeOperand(c[i]) && !(i == 1 && c[i].word))
      return ExprError{c[i].column, "wrong argument",
                       c.what(i) + " must be a " + (i ? "stride" : "shape") + ", found " + valueText(c[i].value) +
                           ": " + c.name + " takes a shape and a stride (seed 002); concatenate layouts with cat(" +
                           "L1, L2, ...)"};
  auto shape = tupleArg(c[0], c.what(0));
  if (!shape.ok()) return shape.error();
  if (!c.has(1)) return c.wrap(makeLayout(shape.value(), rowMajorStride(shape.value())));
  if (c[1].word) {
    auto order = wordArg(c[1], c.what(1), {"GenRowMajor", "GenColMajor"});
    if (!order.ok()) return order.error();
    IntTuple stride = order.value() == "GenRowMajor" ? rowMajorStride(shape.value()) : prefixProduct(shape.value());
    return c.wrap(makeLayout(shape.value(), stride));
  }
  auto stride = tupleArg(c[1], c.what(1));
  if (!stride.ok()) return stride.error();
  return c.wrap(makeLayout(shape.value(), stride.value()));
}

// MoYe's cat(L1, L2, ...): the layouts as the modes of one.
ExprResult<Value> catFn(const Call& c) {
  std::vector<Layout> modes;
  for (size_t i = 0; i < c.args.size(); ++i) {
    auto l = layoutOf(c[i], c.what(i));
    if (!l.ok()) return l.error();
    modes.push_back(l.value());
  }
  return c.wrap(Expected<Layout>(concat(modes)));
}

ExprResult<Value> coalesceFn(const Call& c) {
  auto l = layoutOf(c[0], c.what(0));
  if (!l.ok()) return l.error();
  if (!c.has(1)) return Value::ofLayout(coalesce(l.value()));
  auto p = tupleArg(c[1], c.what(1));
  if (!p.ok()) return p.error();
  return c.wrap(coalesce(l.value(), p.value()));
}

ExprResult<Value> complementFn(const Call& c) {
  auto a = layoutOf(c[0], c.what(0));
  if (!a.ok()) return a.error();
  if (!c.has(1)) return c.wrap(complement(a.value()));
  auto t = tupleArg(c[1], c.what(1));  // a shape cotarget is divided as logical_divide divides it
  if (!t.ok()) return t.error();
  if (product(t.value()) < 1) return wrongArg(c[1], c.what(1), "a positive size or shape");
  return c.wrap(complement(a.value(), t.value()));
}

ExprResult<Value> orderedFn(const Call& c) { return binary(c, tupleArg, tupleArg, makeOrderedLayout); }

ExprResult<Value> tileToShapeFn(const Call& c) {
  auto block = layoutOf(c[0], c.what(0));
  if (!block.ok()) return block.error();
  auto shape = tupleArg(c[1], c.what(1));
  if (!shape.ok()) return shape.error();
  std::optional<IntTuple> order;
  if (c.has(2)) {
    auto o = tupleArg(c[2], c.what(2));
    if (!o.ok()) return o.error();
    order = o.value();
  }
  return c.wrap(tileToShape(block.value(), shape.value(), order));
}

// The place of each leaf of a shape: make_identity_layout's basis paths.
std::vector<BasisPath> leafPaths(const IntTuple& shape, BasisPath at = {}) {
  if (shape.isLeaf()) return {at};
  std::vector<BasisPath> r;
  for (size_t i = 0; i < shape.rank(); ++i) {
    at.push_back(static_cast<int>(i));
    for (BasisPath& p : leafPaths(shape[i], at)) r.push_back(std::move(p));
    at.pop_back();
  }
  return r;
}

ExprResult<Value> identityFn(const Call& c) {
  auto s = tupleArg(c[0], c.what(0));
  if (!s.ok()) return s.error();
  auto l = makeLayout(s.value(), replaceLeaves(s.value(), std::vector<int64_t>(leaves(s.value()).size(), 1)));
  if (!l.ok()) return c.fail(l.error());
  Value v = Value::ofLayout(l.value());
  v.basis = leafPaths(s.value());
  return v;
}

ExprResult<Value> recastFn(const Call& c) {
  auto l = layoutOf(c[0], c.what(0));
  if (!l.ok()) return l.error();
  int64_t bits[2];
  for (size_t i = 1; i <= 2; ++i) {
    auto b = intArg(c[i], c.what(i));
    if (!b.ok()) return b.error();
    if (b.value() <= 0) return wrongArg(c[i], c.what(i), "a positive number of bits");
    bits[i - 1] = b.value();
  }
  return c.wrap(recastLayout(l.value(), bits[0], bits[1]));
}

ExprResult<Value> tvFn(const Call& c) { return binary(c, layoutOf, layoutOf, makeLayoutTv); }

// swizzle(B, M, S [, L]): Sw<B,M,S> o L; without L, Sw over its own block.
ExprResult<Value> swizzleFn(const Call& c) {
  int64_t bms[3];
  for (size_t i = 0; i < 3; ++i) {
    auto x = intArg(c[i], c.what(i));
    if (!x.ok()) return x.error();
    bms[i] = x.value();
  }
  auto sw = makeSwizzle(bms[0], bms[1], bms[2]);
  if (!sw.ok()) return c.fail(sw.error());
  const Swizzle& s = sw.value();
  Layout inner = compactColMajor(int64_t(1) << (s.bits + s.base + std::abs(s.shift)));
  if (c.has(3)) {
    auto l = layoutOf(c[3], c.what(3));
    if (!l.ok()) return l.error();
    inner = l.value();
  }
  Value v = Value::ofLayout(inner);
  v.swizzle = s;
  return v;
}

// tilus: shared_row_major(*shape), one integer per dimension.
template <Expected<Value> (*F)(const IntTuple&)>
ExprResult<Value> sharedCompactFn(const Call& c) {
  std::vector<IntTuple> dims;
  for (size_t i = 0; i < c.args.size(); ++i) {
    if (c[i].literal && !c[i].literal->isLeaf())
      return ExprError{c[i].column, "wrong argument",
                       c.name + " takes one integer per dimension as tilus spells it (" + c.name + "(8, 4)), found " +
                           toString(*c[i].literal)};
    auto d = intArg(c[i], c.what(i));
    if (!d.ok()) return d.error();
    dims.emplace_back(d.value());
  }
  return c.wrap(F(IntTuple::tuple(std::move(dims))));
}

// tilus shared_layout(...) drops the modes of size 1 before
// SharedLayout.create(...), which takes the modes as given (as shared(...)).
template <bool DropUnitModes>
ExprResult<Value> sharedFn(const Call& c) {
  IntTuple t[4];
  for (size_t i = 0; i < 4 && c.has(i); ++i) {
    auto x = tupleArg(c[i], c.what(i));
    if (!x.ok()) return x.error();
    t[i] = x.value();
  }
  if (DropUnitModes && !t[1].isLeaf() && !t[2].isLeaf() && t[1].elems().size() == t[2].elems().size()) {
    std::vector<IntTuple> modes, strides;
    for (size_t k = 0; k < t[1].elems().size(); ++k)
      if (!t[1].elems()[k].isLeaf() || t[1].elems()[k].value() > 1)
        modes.push_back(t[1].elems()[k]), strides.push_back(t[2].elems()[k]);
    t[1] = IntTuple::tuple(std::move(modes));
    t[2] = IntTuple::tuple(std::move(strides));
  }
  return c.wrap(tilusShared(t[0], t[1], t[2], c.has(3) ? std::optional<IntTuple>(t[3]) : std::nullopt));
}

ExprResult<Value> sharedComposeFn(const Call& c) { return binary(c, valueArg, valueArg, tilusSharedCompose); }

ExprResult<Value> wmmaFn(const Call& c) {
  auto target = wordArg(c[0], c.what(0), {"gfx11", "gfx12"});
  if (!target.ok()) return target.error();
  auto matrix = wordArg(c[1], c.what(1), {"A", "B", "C"});
  if (!matrix.ok()) return matrix.error();
  if (c.has(2)) {
    auto cm = wordArg(c[2], c.what(2), {"colmajor"});
    if (!cm.ok()) return cm.error();
  }
  return c.wrap(wmmaLayout(target.value(), matrix.value(), c.has(2)));
}

enum class Measure { Size, Cosize, Rank, Depth };

template <Measure M>
ExprResult<Value> measureFn(const Call& c) {
  auto v = valueArg(c[0], c.what(0));
  if (!v.ok()) return v.error();
  const Layout& l = v.value().layout;
  switch (M) {
    case Measure::Size: return Value::ofInt(size(l));
    case Measure::Rank: return Value::ofInt(static_cast<int64_t>(rank(l)));
    case Measure::Depth: return Value::ofInt(depth(l));
    case Measure::Cosize: break;
  }
  auto n = valueCosize(v.value());
  if (!n.ok()) return c.fail(n.error());
  return Value::ofInt(n.value());
}

constexpr const char* kConcatHint = " (seed 002: a shape and a stride; concatenate layouts with cat(L1, L2, ...))";

const std::map<std::string, Spec>& functions() {
  static const std::map<std::string, Spec> table = {
      {"make_layout", {{"shape", "stride"}, 1, false, shapeStrideFn, kConcatHint}},
      {"Layout", {{"shape", "stride"}, 2, false, shapeStrideFn, kConcatHint}},
      {"cat", {{}, 1, true, catFn}},
      {"coalesce", {{"layout", "profile"}, 1, false, coalesceFn}},
      {"flatten", {{"layout"}, 1, false, [](const Call& c) { return unary(c, flatten); }}},
      {"filter", {{"layout"}, 1, false, [](const Call& c) { return unary(c, filter); }}},
      {"composition", {{"a", "b"}, 2, false, compositionFn}},
      {"complement", {{"a", "cotarget"}, 1, false, complementFn}},
      {"right_inverse", {{"layout"}, 1, false, inverseFn<rightInverse>}},
      {"left_inverse", {{"layout"}, 1, false, inverseFn<leftInverse>}},
      {"logical_divide", {{"a", "tiler"}, 2, false, divideFn<logicalDivide>}},
      {"zipped_divide", {{"a", "tiler"}, 2, false, divideFn<zippedDivide>}},
      {"tiled_divide", {{"a", "tiler"}, 2, false, divideFn<tiledDivide>}},
      {"flat_divide", {{"a", "tiler"}, 2, false, divideFn<flatDivide>}},
      {"logical_product", {{"a", "b"}, 2, false, tilerProductFn<logicalProduct>}},
      {"zipped_product", {{"a", "b"}, 2, false, tilerProductFn<zippedProduct>}},
      {"tiled_product", {{"a", "b"}, 2, false, tilerProductFn<tiledProduct>}},
      {"flat_product", {{"a", "b"}, 2, false, tilerProductFn<flatProduct>}},
      {"blocked_product", {{"a", "b", "coalesce_result"}, 2, false, rankSensitiveFn<blockedProduct>}},
      {"raked_product", {{"a", "b", "coalesce_result"}, 2, false, rankSensitiveFn<rakedProduct>}},
      {"make_ordered_layout", {{"shape", "order"}, 2, false, orderedFn}},
      {"make_identity_layout", {{"shape"}, 1, false, identityFn}},
      {"tile_to_shape", {{"block", "shape", "order"}, 2, false, tileToShapeFn}},
      {"recast_layout", {{"layout", "from", "to"}, 3, false, recastFn}},
      {"make_layout_tv", {{"thr", "val"}, 2, false, tvFn}},
      {"swizzle", {{"bits", "base", "shift", "layout"}, 3, false, swizzleFn}},
      {"shared", {{"shape", "mode_shape", "mode_strides", "swizzle"}, 3, false, sharedFn<false>}},
      {"shared_layout", {{"shape", "mode_shape", "mode_strides", "optional_swizzle"}, 3, false, sharedFn<true>}},
      {"SharedLayout.create",
       {{"shape", "mode_shape", "mode_strides", "optional_swizzle"}, 3, false, sharedFn<false>}},
      {"shared_row_major", {{}, 1, true, sharedCompactFn<tilusSharedRowMajor>}},
      {"shared_column_major", {{}, 1, true, sharedCompactFn<tilusSharedColumnMajor>}},
      {"shared_compose", {{"a", "b"}, 2, false, sharedComposeFn}},
      {"wmma", {{"target", "matrix", "colmajor"}, 2, false, wmmaFn}},
      {"size", {{"layout"}, 1, false, measureFn<Measure::Size>}},
      {"cosize", {{"layout"}, 1, false, measureFn<Measure::Cosize>}},
      {"rank", {{"layout"}, 1, false, measureFn<Measure::Rank>}},
      {"depth", {{"layout"}, 1, false, measureFn<Measure::Depth>}},
  };
  return table;
}

// `composition(a, b)`, `complement(a[, cotarget])`, `cat(layout, ...)`.
std::string signature(const std::string& name, const Spec& s) {
  if (s.variadic) return name + (name.starts_with("shared_") ? "(extent, ...)" : "(layout, ...)");
  std::string out = name + "(";
  for (size_t i = 0; i < s.params.size(); ++i) {
    if (i == s.required) out += "[";
    out += (i ? ", " : "") + std::string(s.params[i]);
  }
  return out + (s.params.size() > s.required ? "])" : ")");
}

ExprResult<Call> bind(const std::string& name, size_t column, const Spec& s, std::vector<CallArg> args) {
  Call c{name, column, s.params, {}};
  auto arity = [&](const std::string& got) {
    return ExprError{column, "wrong arity", signature(name, s) + " " + got + s.hint};
  };
  if (s.variadic) {
    for (CallArg& a : args) {
      if (!a.key.empty()) return ExprError{a.keyColumn, "unknown argument", name + " takes no named arguments"};
      c.args.emplace_back(std::move(a.value));
    }
    if (c.args.size() < s.required) return arity("needs at least one argument");
    return c;
  }
  c.args.resize(s.params.size());
  size_t next = 0;
  for (CallArg& a : args) {
    size_t i = next++;
    if (!a.key.empty()) {
      auto it = std::find_if(s.params.begin(), s.params.end(), [&](const char* p) { return a.key == p; });
      if (it == s.params.end())
        return ExprError{a.keyColumn, "unknown argument", signature(name, s) + " has no argument '" + a.key + "'"};
      i = static_cast<size_t>(it - s.params.begin());
    }
    if (i >= s.params.size()) return arity("takes at most " + std::to_string(s.params.size()) + " arguments, got " +
                                            std::to_string(args.size()));
    if (c.args[i]) return ExprError{a.value.column, "unknown argument", "argument '" + std::string(s.params[i]) +
                                                                          "' of " + name + " is given twice"};
    c.args[i] = std::move(a.value);
  }
  for (size_t i = 0; i < s.required; ++i)
    if (!c.args[i]) return arity("is missing argument '" + std::string(s.params[i]) + "'");
  return c;
}

}  // namespace

ExprResult<Value> callFunction(const std::string& name, size_t column, std::vector<CallArg> args) {
  auto it = functions().find(name);
  if (it == functions().end())
    return ExprError{column, "unknown function", "'" + name + "' is not a layout function (see docs/layouts.md)"};
  auto call = bind(name, column, it->second, std::move(args));
  if (!call.ok()) return call.error();
  return it->second.fn(call.value());
}

ExprResult<Layout> layoutOf(const Operand& op, const std::string& what) {
  if (op.word) return wrongArg(op, what, "a layout");
  Expected<Layout> l = Layout{};
  if (op.literal) {
    l = makeLayout(*op.literal, prefixProduct(*op.literal));
  } else if (op.value.kind == Value::Int) {
    l = makeLayout(op.value.integer, 1);
  } else if (op.value.kind == Value::TilerValue || op.value.hasBasis() || op.value.swizzle) {
    return wrongArg(op, what, "a plain layout (no tiler, basis strides or swizzle)");
  } else {
    l = op.value.layout;
  }
  if (!l.ok()) return ExprError{op.column, l.error().rule, l.error().message};
  if (auto e = checkBounded(l.value(), op.column)) return *e;
  return l.value();
}

std::optional<ExprError> checkBounded(const Layout& l, size_t column) {
  // 2^31 keeps every intermediate product of two operands (size(A)·cosize(B),
  // stride·stride) inside 64 bits; real tile layouts are far smaller.
  constexpr int64_t kMax = int64_t(1) << 31;
  std::vector<int64_t> s = leaves(l.shape), d = leaves(l.stride);
  int64_t n = 1, co = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    int64_t term = 0;
    if (s[i] < 1)
      return ExprError{column, "shape entries must be positive", toString(l) + " has a mode of size " +
                                                                     std::to_string(s[i])};
    bool over = d[i] == INT64_MIN || __builtin_mul_overflow(n, s[i], &n) ||
                __builtin_mul_overflow(s[i] - 1, std::llabs(d[i]), &term) ||
                __builtin_add_overflow(co, term, &co);
    if (over || n > kMax || co > kMax)
      return ExprError{column, "layout too large",
                       toString(l) + " has a size or cosize above 2^31, the limit for layout expressions"};
  }
  return std::nullopt;
}

}  // namespace tilesight::layout::detail

namespace tilesight::layout {

std::vector<FunctionSignature> layoutFunctions() {
  std::vector<FunctionSignature> out;
  for (const auto& [name, spec] : detail::functions()) out.push_back({name, detail::signature(name, spec)});
  return out;
}

}  // namespace tilesight::layout
