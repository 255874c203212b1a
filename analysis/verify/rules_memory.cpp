// Views, view and pointer memory ops, atomics.
#include <cstdint>

#include "analysis/diag/fixes.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/verify/op_rules.h"
#include "analysis/verify/verify_util.h"

namespace tilesight::rules {

namespace {

std::string dims(const std::vector<int64_t>& shape) { return shape.empty() ? "0-d" : shapeString(shape); }

std::string tileText(const std::vector<int64_t>& shape, Elem e) {
  return "'!cuda_tile.tile<" + shapeString(shape) + (shape.empty() ? "" : "x") + std::string(elemName(e)) + ">'";
}

// The scalar element of a tile, Elem::None for pointer tiles and non-tiles.
Elem scalarElem(TypeRef t) { return t && t->isTile() ? t->tileElem() : Elem::None; }

// The pointee of a pointer tile.
Elem pointee(TypeRef t) { return t && t->isPtrTile() ? t->element->elem : Elem::None; }

Range rangeOf(const OpRef& o, std::string_view group) {
  const Operand* x = o.operand(group);
  return x ? x->range : o.at();
}

// --- memory ordering and scope -------------------------------------------------

enum class Access { Load, Store };

// One fix per ordering that may replace the written one (a keyword of the
// custom form; the generic form spells a whole attribute there).
void offerOrderings(const OpRef& o, Diagnostic& diag, const Attr& ord,
                    std::initializer_list<std::string_view> orderings) {
  if (o.op.generic) return;
  for (std::string_view w : orderings) diag.fixes.push_back(replaceWithFix(ord.range, std::string(w)));
}

// Loads allow weak/relaxed/acquire, stores weak/relaxed/release; a weak access
// takes no scope and the others need one.
void checkOrdering(DiagSink& d, const OpRef& o, Access access) {
  const Attr* ord = attrs::memoryOrderingSemantics(o.op);
  if (!ord || ord->kind != AttrKind::Keyword) return;
  bool load = access == Access::Load;
  const char* what = load ? "load" : "store";
  const std::string& s = ord->s;
  const char* strong = load ? "acquire" : "release";
  const Attr* scope = attrs::memoryScope(o.op);
  if (s != "weak" && s != "relaxed" && s != strong) {
    Diagnostic& diag = failAt(d, o, ord->range,
                              std::string("a ") + what + " cannot have '" + s + "' ordering; use weak, relaxed or " +
                                  strong);
    // Only the orderings that agree with the scope written (or its absence).
    if (scope) offerOrderings(o, diag, *ord, {"relaxed", strong});
    else offerOrderings(o, diag, *ord, {"weak"});
    return;
  }
  if (s == "weak" && scope) {
    Diagnostic& diag = failAt(d, o, scope->range,
                              std::string("a weak ") + what + " takes no memory scope, but '" + scope->s +
                                  "' is given; drop the scope or use a stronger ordering");
    if (!o.op.generic)
      diag.fixes.push_back(replaceFix({ord->range.end, scope->range.end}, "", "remove the memory scope"));
  } else if (s != "weak" && !scope) {
    failAt(d, o, ord->range,
           "'" + s + "' " + what + "s need a memory scope after the ordering (tl_blk, device or sys)");
  }
}

// Pointer atomics: any ordering but weak; the scope is required by the syntax.
void checkAtomicOrdering(DiagSink& d, const OpRef& o) {
  const Attr* ord = attrs::memoryOrderingSemantics(o.op);
  if (ord && ord->isKeyword("weak"))
    offerOrderings(o, failAt(d, o, ord->range, "atomics cannot be weak; use relaxed, acquire, release or acq_rel"),
                   *ord, {"relaxed", "acquire", "release", "acq_rel"});
}

// The element types each atomic mode works on.
void checkAtomicMode(DiagSink& d, const OpRef& o, Elem e, TypeRef valueType) {
  const Attr* mode = attrs::mode(o.op);
  if (!mode || mode->kind != AttrKind::Keyword || e == Elem::None) return;
  const std::string& m = mode->s;
  bool ok = m == "addf"   ? isBaseFloatElem(e)
            : m == "xchg" ? (e == Elem::I32 || e == Elem::I64 || e == Elem::F32 || e == Elem::F64)
                          : (e == Elem::I32 || e == Elem::I64);
  if (ok) return;
  std::string allowed = m == "addf" ? "f16, bf16, f32 or f64" : m == "xchg" ? "i32, i64, f32 or f64" : "i32 or i64";
  failAt(d, o, mode->range,
         "atomic mode '" + m + "' works on " + allowed + " elements, but the value is " + quoted(valueType));
}

// --- optimization hints -------------------------------------------------------

// Each architecture entry is a dictionary of hints (sm_100 = {latency = 3}).
void checkHints(DiagSink& d, const OpRef& o) {
  const Attr* h = attrs::optimizationHints(o.op);
  if (!h || h->kind != AttrKind::Dict) return;
  for (const auto& [arch, v] : h->dict)
    if (v.kind != AttrKind::Dict)
      failAt(d, o, v.range.empty() ? h->range : v.range,
             "optimization_hints entry '" + arch + "' must be a dictionary of hints, such as " + arch +
                 " = {latency = 2}");
}

// --- views --------------------------------------------------------------------

const char* viewName(const Type& v) {
  switch (v.kind) {
    case TypeKind::PartitionView:
      return "partition_view";
    case TypeKind::StridedView:
      return "strided_view";
    default:
      return "gather_scatter_view";
  }
}

// The tile a view reads or writes: its tile shape of the tensor_view's element.
bool isViewTile(TypeRef t, const Type& view) {
  return t && t->isTile() && t->shape == view.shape && scalarElem(t) == view.elem;
}

void checkViewTile(DiagSink& d, const OpRef& o, const Type& view, TypeRef tile, Range r, const char* role) {
  if (!tile || isViewTile(tile, view)) return;
  failAt(d, o, r,
         std::string(role) + " must be " + tileText(view.shape, view.elem) + " (the " + viewName(view) +
             "'s tile shape " + dims(view.shape) + " of " + std::string(elemName(view.elem)) + "), got " +
             quoted(tile));
}

bool checkIndexCount(DiagSink& d, const OpRef& o, const Type& view) {
  size_t n = o.group(group_names::index).size(), rank = view.viewIndexRank();
  if (n == rank) return true;
  fail(d, o,
       "the " + std::string(viewName(view)) + " has a " + std::to_string(rank) + "-d index space (tile " +
           dims(view.shape) + "), so it takes " + count(rank, "index", "indices") + ", got " + std::to_string(n));
  return false;
}

// Indices that must be scalar tiles; with `sameType`, all of one type.
void checkScalarIndices(DiagSink& d, const OpRef& o, const std::vector<const Operand*>& idx, bool sameType,
                        size_t skip = SIZE_MAX) {
  TypeRef first = nullptr;
  size_t firstAt = 0;
  bool allScalar = true;
  for (size_t i = 0; i < idx.size(); ++i) {
    if (i == skip) continue;
    TypeRef t = o.p.typeOf(idx[i]->value);
    if (!t) continue;
    if (!t->isScalarTile()) {
      failAt(d, o, idx[i]->range, "index " + std::to_string(i) + " must be a scalar (0-d) tile, got " + quoted(t));
      allScalar = false;
    } else if (!first) {
      first = t, firstAt = i;
    }
  }
  if (!sameType || !allScalar || !first) return;
  for (size_t i = 0; i < idx.size(); ++i) {
    TypeRef t = o.p.typeOf(idx[i]->value);
    if (i == skip || !t || t == first) continue;
    failAt(d, o, idx[i]->range,
           "index " + std::to_string(i) + " is " + quoted(t) + " but index " + std::to_string(firstAt) + " is " +
               quoted(first) + "; all indices must have the same type");
  }
}

// gather_scatter_view: the index at sparse_dim is a 1-d tile of tile_shape[sparse_dim]
// offsets, the others are scalars of one type.
void checkGatherIndices(DiagSink& d, const OpRef& o, const Type& view, const std::vector<const Operand*>& idx) {
  if (view.sparseDim < 0 || static_cast<size_t>(view.sparseDim) >= idx.size()) return;
  size_t s = static_cast<size_t>(view.sparseDim);
  TypeRef t = o.p.typeOf(idx[s]->value);
  int64_t want = view.shape[s];
  if (t && (t->shape.size() != 1 || t->shape[0] != want))
    failAt(d, o, idx[s]->range,
           "index " + std::to_string(s) + " (sparse_dim) must be a 1-d tile of " + std::to_string(want) +
               " offsets (the tile size along dimension " + std::to_string(s) + "), got " + quoted(t));
  checkScalarIndices(d, o, idx, true, s);
}

void checkViewIndices(DiagSink& d, const OpRef& o, const Type& view) {
  bool countOk = checkIndexCount(d, o, view);
  auto idx = o.group(group_names::index);
  if (view.kind != TypeKind::GatherScatterView)
    checkScalarIndices(d, o, idx, true);
  else if (countOk)
    checkGatherIndices(d, o, view, idx);
}

const Type* viewOf(const OpRef& o) {
  TypeRef v = o.type(group_names::view);
  return v && v->isView() ? v : nullptr;
}

// --- make_tensor_view ---------------------------------------------------------

// One of the op's written shape/strides lists against the tensor_view type.
void checkWrittenList(DiagSink& d, const OpRef& o, const Attr& list, const std::vector<int64_t>& want,
                      const char* what) {
  if (list.elems.size() != want.size()) {
    failAt(d, o, list.range,
           std::string(what) + " lists " + count(list.elems.size(), "entry", "entries") +
               " but the tensor_view has rank " + std::to_string(want.size()));
    return;
  }
  auto spell = [](int64_t v) { return v == kDynamic ? std::string("dynamic (?)") : std::to_string(v); };
  for (size_t i = 0; i < want.size(); ++i) {
    const Attr& e = list.elems[i];
    int64_t got = e.kind == AttrKind::Int ? e.i : kDynamic;
    if (got == want[i]) continue;
    std::string gotText = e.kind == AttrKind::Int ? std::to_string(e.i) : "an SSA value (dynamic)";
    failAt(d, o, e.range,
           std::string(what) + " entry " + std::to_string(i) + " is " + gotText + " but the tensor_view type says " +
               spell(want[i]));
  }
}

size_t dynamicCount(const std::vector<int64_t>& v) {
  size_t n = 0;
  for (int64_t x : v) n += x == kDynamic;
  return n;
}

// Generic form: no written lists, so the dynamic operand counts carry the shape.
void checkDynamicCount(DiagSink& d, const OpRef& o, std::string_view group, size_t want, const char* what) {
  size_t got = o.group(group).size();
  if (got != want)
    fail(d, o,
         "the tensor_view type has " +
             count(want, std::string("dynamic (?) ") + what, std::string("dynamic (?) ") + what + "s") +
             " but the op passes " + count(got, std::string(what) + " operand", std::string(what) + " operands"));
}

void checkDynamicTypes(DiagSink& d, const OpRef& o) {
  auto vals = o.group(group_names::dynamicShape);
  auto strides = o.group(group_names::dynamicStrides);
  vals.insert(vals.end(), strides.begin(), strides.end());
  TypeRef first = vals.empty() ? nullptr : o.p.typeOf(vals[0]->value);
  for (const Operand* v : vals) {
    TypeRef t = o.p.typeOf(v->value);
    if (t && first && t != first)
      failAt(d, o, v->range,
             "dynamic sizes and strides must all have one type; this one is " + quoted(t) + " but the first is " +
                 quoted(first));
  }
}

// --- pointer loads and stores -------------------------------------------------

// `data` must have the shape of the pointer tile and its pointee as element.
void checkPointee(DiagSink& d, const OpRef& o, TypeRef ptrs, TypeRef data, Range r, const std::string& role) {
  if (!ptrs || !data || !ptrs->isPtrTile() || !data->isTile()) return;
  if (data->shape == ptrs->shape && scalarElem(data) == pointee(ptrs)) return;
  failAt(d, o, r,
         role + " must be " + tileText(ptrs->shape, pointee(ptrs)) + " to match the pointers " + quoted(ptrs) +
             ", got " + quoted(data));
}

void checkMaskShape(DiagSink& d, const OpRef& o, TypeRef ref, const char* refName) {
  TypeRef mask = o.type(group_names::mask);
  if (!mask || !ref || mask->shape == ref->shape) return;
  failAt(d, o, rangeOf(o, group_names::mask),
         "mask shape " + dims(mask->shape) + " differs from the " + refName + " shape " + dims(ref->shape));
}

void checkSameShape(DiagSink& d, const OpRef& o, TypeRef ref, const char* refName, TypeRef t, Range r,
                    const char* name) {
  if (!ref || !t || ref->shape == t->shape) return;
  failAt(
      d, o, r,
      std::string(name) + " shape " + dims(t->shape) + " differs from the " + refName + " shape " + dims(ref->shape));
}

}  // namespace

void makeTensorView(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef tv = o.result(0);
  if (!tv || tv->kind != TypeKind::TensorView) return;
  TypeRef base = o.type(group_names::base);
  if (base && base->isPtrTile() && pointee(base) != tv->elem)
    failAt(d, o, rangeOf(o, group_names::base),
           "a " + quoted(tv) + " needs a base pointer to " + std::string(elemName(tv->elem)) + ", got " + quoted(base));
  const Attr* shape = attrs::staticShape(o.op);
  const Attr* strides = attrs::staticStrides(o.op);
  if (shape && strides) {
    checkWrittenList(d, o, *shape, tv->shape, "shape");
    checkWrittenList(d, o, *strides, tv->strides, "strides");
  } else {
    checkDynamicCount(d, o, group_names::dynamicShape, dynamicCount(tv->shape), "size");
    checkDynamicCount(d, o, group_names::dynamicStrides, dynamicCount(tv->strides), "stride");
  }
  checkDynamicTypes(d, o);
}

void makeView(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef view = o.result(0);
  TypeRef tv = o.type(group_names::tensorView);
  if (!view || !tv || !view->tensorView || tv == view->tensorView) return;
  auto& diag = failAt(d, o, rangeOf(o, group_names::tensorView),
                      "the operand is " + quoted(tv) + " but the view is built over " + quoted(view->tensorView));
  const Operand* src = o.operand(group_names::tensorView);
  if (src && src->value != kNoId) diag.notes.push_back({p.value(src->value).range, "defined here"});
}

// In the custom form the parser gives one result per dimension and reports a
// binding of another count itself, so only the generic form can disagree here.
void getTensorShape(const Program& p, const Operation& op, DiagSink& d) {
  if (!op.generic) return;
  OpRef o{p, op};
  TypeRef src = o.type(group_names::src);
  if (!src) return;
  size_t rank = src->shape.size();
  if (op.results.size() != rank)
    fail(d, o,
         "a rank-" + std::to_string(rank) + " tensor_view has " + count(rank, "dimension", "dimensions") +
             ", so the op returns " + count(rank, "result", "results") + ", got " + std::to_string(op.results.size()));
}

void getIndexSpaceShape(const Program& p, const Operation& op, DiagSink& d) {
  if (!op.generic) return;  // as for get_tensor_shape
  OpRef o{p, op};
  TypeRef src = o.type(group_names::src);
  if (!src || !src->isView()) return;
  size_t rank = src->viewIndexRank();
  if (op.results.size() != rank)
    fail(d, o,
         "the " + std::string(viewName(*src)) + " has a " + std::to_string(rank) +
             "-d index space, so the op returns " + count(rank, "result", "results") + ", got " +
             std::to_string(op.results.size()));
}

void loadView(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  if (const Type* view = viewOf(o)) {
    checkViewIndices(d, o, *view);
    checkViewTile(d, o, *view, o.result(0), o.at(), "the loaded tile");
  }
  checkOrdering(d, o, Access::Load);
  checkHints(d, o);
}

void storeView(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  if (const Type* view = viewOf(o)) {
    checkViewIndices(d, o, *view);
    checkViewTile(d, o, *view, o.type(group_names::tile), rangeOf(o, group_names::tile), "the stored tile");
  }
  checkOrdering(d, o, Access::Store);
  checkHints(d, o);
}

void atomicRedView(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  const Type* view = viewOf(o);
  TypeRef value = o.type(group_names::value);
  if (view) {
    Range vr = rangeOf(o, group_names::view);
    if (view->kind == TypeKind::GatherScatterView)
      failAt(d, o, vr, "atomic reductions do not support gather_scatter_view; use a partition_view or strided_view");
    if (view->padding != Padding::None)
      failAt(d, o, vr,
             "atomic reductions do not support views with a padding_value (this one pads with " +
                 std::string(paddingName(view->padding)) + ")");
    if (value && value->isTile() && scalarElem(value) != view->elem)
      failAt(d, o, rangeOf(o, group_names::value),
             "the value's element type " + elemStr(value) + " differs from the view's element type " +
                 std::string(elemName(view->elem)));
    if (value && value->isTile() && value->shape != view->shape)
      failAt(d, o, rangeOf(o, group_names::value),
             "the value's shape " + dims(value->shape) + " differs from the view's tile shape " + dims(view->shape));
    if (checkIndexCount(d, o, *view)) checkScalarIndices(d, o, o.group(group_names::index), false);
  }
  const Attr* mode = attrs::mode(o.op);
  if (mode && mode->isKeyword("xchg"))
    failAt(d, o, mode->range, "atomic reductions cannot use 'xchg'; use atomic_rmw_tko for an exchange");
  else if (value)
    checkAtomicMode(d, o, scalarElem(value), value);
  const Attr* ord = attrs::memoryOrderingSemantics(o.op);
  if (ord && ord->kind == AttrKind::Keyword && ord->s != "relaxed")
    offerOrderings(
        o, failAt(d, o, ord->range, "atomic reductions on views support only 'relaxed' ordering, got '" + ord->s + "'"),
        *ord, {"relaxed"});
  const Attr* scope = attrs::memoryScope(o.op);
  if (!scope)
    failAt(d, o, ord ? ord->range : o.at(), "atomic reductions need a memory scope (tl_blk or device)");
  else if (scope->isKeyword("sys"))
    failAt(d, o, scope->range, "atomic reductions on views do not support 'sys' scope; use tl_blk or device");
}

void loadPtr(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef src = o.type(group_names::source);
  TypeRef result = o.result(0);
  checkPointee(d, o, src, result, o.at(), "the result");
  checkMaskShape(d, o, src, "source");
  TypeRef pad = o.type(group_names::paddingValue);
  if (pad && result && pad != result)
    failAt(d, o, rangeOf(o, group_names::paddingValue),
           "the padding value must have the result type " + quoted(result) + ", got " + quoted(pad));
  checkOrdering(d, o, Access::Load);
  checkHints(d, o);
}

void storePtr(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef dst = o.type(group_names::destination);
  checkPointee(d, o, dst, o.type(group_names::value), rangeOf(o, group_names::value), "the stored value");
  checkMaskShape(d, o, dst, "destination");
  checkOrdering(d, o, Access::Store);
  checkHints(d, o);
}

void atomicRmw(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef ptrs = o.type(group_names::pointers);
  TypeRef arg = o.type(group_names::arg);
  TypeRef result = o.result(0);
  Range argRange = rangeOf(o, group_names::arg);
  if (ptrs && arg && ptrs->isPtrTile() && scalarElem(arg) != pointee(ptrs))
    failAt(d, o, argRange,
           "the pointers point to " + std::string(elemName(pointee(ptrs))) + " but the value is " + quoted(arg));
  checkSameShape(d, o, ptrs, "pointers", arg, argRange, "value");
  if (arg && result && arg != result)
    fail(d, o, "the result must have the value's type " + quoted(arg) + ", got " + quoted(result));
  checkMaskShape(d, o, arg, "value");
  checkAtomicMode(d, o, scalarElem(arg), arg);
  checkAtomicOrdering(d, o);
}

void atomicCas(const Program& p, const Operation& op, DiagSink& d) {
  OpRef o{p, op};
  TypeRef ptrs = o.type(group_names::pointers);
  TypeRef val = o.type(group_names::val);
  TypeRef result = o.result(0);
  Range valRange = rangeOf(o, group_names::val);
  Elem e = scalarElem(val);
  if (ptrs && val && ptrs->isPtrTile() && e != pointee(ptrs))
    failAt(d, o, valRange,
           "the pointers point to " + std::string(elemName(pointee(ptrs))) + " but the value is " + quoted(val));
  if (val && e != Elem::I32 && e != Elem::I64 && e != Elem::F32 && e != Elem::F64)
    failAt(d, o, valRange, "compare-and-swap works on i32, i64, f32 or f64 elements, got " + quoted(val));
  checkSameShape(d, o, ptrs, "pointers", val, valRange, "value");
  if (val && result && val != result)
    fail(d, o, "the result must have the value's type " + quoted(val) + ", got " + quoted(result));
  checkMaskShape(d, o, val, "value");
  checkAtomicOrdering(d, o);
}

}  // namespace tilesight::rules
