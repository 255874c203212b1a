#include "analysis/checks/footprints.h"

#include "analysis/checks/ir_query.h"

#include <algorithm>
#include <map>

#include <llvm/ADT/ArrayRef.h>

#include "analysis/checks/views.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

namespace {

std::string_view nameOf(const Operation& op) { return op.info ? op.info->name : std::string_view(); }


// Offsets of a box's elements relative to its base: the extremes, the count.
struct Hull {
  int64_t lo = 0, hi = 0;  // first and last element start
  int64_t count = 1;
  bool ok = true;
};

Hull hullOf(const Box& b) {
  Hull h;
  for (const auto& [extent, stride] : b.dims) {
    int64_t span;
    if (extent <= 0) return {0, 0, 0, true};
    if (__builtin_mul_overflow(extent - 1, stride, &span) ||
        __builtin_add_overflow(span < 0 ? h.lo : h.hi, span, span < 0 ? &h.lo : &h.hi))
      h.ok = false;
    h.count = h.count > INT64_MAX / extent ? INT64_MAX : h.count * extent;
  }
  return h;
}

std::vector<int64_t> enumerate(const Box& b) {
  std::vector<int64_t> out{0};
  for (const auto& [extent, stride] : b.dims) {
    std::vector<int64_t> next;
    next.reserve(out.size() * extent);
    for (int64_t x : out)
      for (int64_t e = 0; e < extent; ++e) next.push_back(x + e * stride);
    out = std::move(next);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Whether the elements fill [lo, hi + width) without a gap.
bool dense(const Box& b) {
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4> dims;
  for (const auto& [extent, stride] : b.dims)
    if (extent > 1 && stride != 0) dims.push_back({stride, extent});
  std::sort(dims.begin(), dims.end());
  int64_t expected = b.width;
  for (const auto& [stride, extent] : dims) {
    if (stride != expected) return false;
    if (__builtin_mul_overflow(stride, extent, &expected)) return false;
  }
  return true;
}

// Whether box b, moved by d bits, shares a bit with box a; `at` gets the first
// shared offset relative to a's base.
Overlap intersect(const Box& a, const Box& b, int64_t d, int64_t& at) {
  Hull ha = hullOf(a), hb = hullOf(b);
  if (!ha.ok || !hb.ok) return Overlap::May;
  if (ha.count == 0 || hb.count == 0) return Overlap::No;
  Overlap sure = a.exact && b.exact ? Overlap::Must : Overlap::May;
  __int128 bLo = __int128(hb.lo) + d, bHi = __int128(hb.hi) + d + b.width;
  if (ha.hi + a.width <= bLo || bHi <= ha.lo) return Overlap::No;
  if (ha.count <= Footprints::kMaxEnumerated && hb.count <= Footprints::kMaxEnumerated) {
    std::vector<int64_t> ea = enumerate(a), eb = enumerate(b);
    size_t i = 0, j = 0;
    while (i < ea.size() && j < eb.size()) {
      __int128 x = ea[i], y = __int128(eb[j]) + d;
      if (x + a.width <= y)
        ++i;
      else if (y + b.width <= x)
        ++j;
      else {
        at = static_cast<int64_t>(std::max(x, y));
        return sure;
      }
    }
    return Overlap::No;
  }
  if (!dense(a) || !dense(b)) return Overlap::May;
  at = static_cast<int64_t>(std::max<__int128>(ha.lo, bLo));
  return sure;
}

// Integer semantics of the ops a block-id computation uses, wrapped to `bits`.
int64_t wrap(__int128 v, unsigned bits) {
  if (bits >= 64 || bits == 0) return static_cast<int64_t>(v);
  uint64_t m = (uint64_t(1) << bits) - 1, u = static_cast<uint64_t>(v) & m;
  return (u >> (bits - 1)) ? static_cast<int64_t>(u | ~m) : static_cast<int64_t>(u);
}

uint64_t unsignedOf(int64_t v, unsigned bits) {
  return bits >= 64 ? uint64_t(v) : uint64_t(v) & ((uint64_t(1) << bits) - 1);
}

Footprints::Result result(Overlap o, std::string where, int64_t distance = 0) {
  Footprints::Result r;
  r.kind = o;
  r.where = std::move(where);
  r.distance = distance;
  return r;
}

}  // namespace

Footprints::Footprints(const Program& program, const ValueFacts& facts, const std::vector<OpId>& memoryOps,
                       layout::WorkBudget& layoutBudget)
    : p_(program), facts_(facts), layoutBudget_(layoutBudget), blocks_(blocks(facts.options())) {
  std::map<std::string, uint32_t> sources;
  llvm::DenseMap<ValueId, uint32_t> sourceOfView;  // the key is built once per view value
  accesses_.reserve(memoryOps.size());
  for (OpId id : memoryOps) {
    const Operation& op = p_.op(id);
    if (op.broken || !op.info) continue;
    std::string_view n = op.info->name;
    Access a;
    a.op = id;
    a.ordering = keywordOf(op, "memory_ordering_semantics");
    a.scope = keywordOf(op, "memory_scope");
    a.reads = n.starts_with("load") || n.starts_with("atomic");
    a.writes = n.starts_with("store") || n.starts_with("atomic");
    if (n.ends_with("view_tko"))
      addView(a, op);
    else if (n == "load_ptr_tko")
      addPointer(a, op, operandValue(op, "source"), false);
    else if (n == "store_ptr_tko")
      addPointer(a, op, operandValue(op, "destination"), operandValue(op, "mask") != kNoId);
    else if (n.starts_with("atomic"))
      addPointer(a, op, operandValue(op, "pointers"), operandValue(op, "mask") != kNoId);
    if (a.root == kNoId)
      continue;  // print_tko, or memory reached through an unknown pointer: nothing to compare
    if (a.view != kNoId) {
      auto [it, fresh] = sourceOfView.try_emplace(a.view, 0);
      if (fresh)
        it->second = sources.try_emplace(sourceKey(a), static_cast<uint32_t>(sources.size())).first->second;
      a.source = it->second;
    }
    accesses_.push_back(std::move(a));
  }
}

// --- building ---------------------------------------------------------------------

void Footprints::addView(Access& a, const Operation& op) {
  a.view = operandValue(op, "view");
  TypeRef vt = p_.typeOf(a.view);
  if (!vt || !vt->isView() || !vt->tensorView) return;
  auto idx = operandGroup(op, "index");
  for (const Operand& o : idx) {
    a.indices.push_back(o.value);
    const ScalarFact* f = facts_.scalar(o.value);
    if (f && f->exact())
      a.forms.push_back(Affine::constant(*f->exact()));
    else
      a.forms.push_back(f && f->affine ? f->affine : std::nullopt);
  }
  a.at = operandGroup(op, "view").front().range;
  if (!idx.empty() && idx.back().range.end > a.at.end && p_.source.substr(idx.back().range.end, 1) == "]")
    a.at.end = idx.back().range.end + 1;
  // The root: the pointer under the tensor view, else the view or tensor view argument itself.
  const Value& v = p_.value(a.view);
  std::optional<Affine> base;
  ValueId tv = kNoId;
  if (!v.blockArg && v.owner != kNoId && !p_.op(v.owner).operands.empty())
    tv = p_.op(v.owner).operands[0].value;
  if (tv == kNoId) {
    a.root = a.view;
    return;
  }
  const Value& t = p_.value(tv);
  if (t.blockArg || t.owner == kNoId || nameOf(p_.op(t.owner)) != "make_tensor_view") {
    a.root = tv;
    base = Affine::constant(0);
  } else {
    const TileFact* f = facts_.tile(operandValue(p_.op(t.owner), "base"));
    if (!f || f->root == kNoId) return;
    a.root = f->root;
    if (f->base.exact())
      base = Affine::constant(*f->base.exact());
    else if (f->base.affine)
      base = f->base.affine;
  }
  if (base) a.box = viewBox(a, *vt, base);
}

// The source of a view access: the root, the tensor view's offset from it and
// its dynamic sizes, and the view type; equal sources tile the same memory alike.
std::string Footprints::sourceKey(const Access& a) const {
  std::string key =
      std::to_string(a.root) + "|" + std::to_string(reinterpret_cast<uintptr_t>(p_.typeOf(a.view)));
  const Value& v = p_.value(a.view);
  if (v.blockArg || v.owner == kNoId || p_.op(v.owner).operands.empty())
    return key + "|" + std::to_string(a.view);
  ValueId tv = p_.op(v.owner).operands[0].value;
  if (tv == kNoId) return key + "|" + std::to_string(a.view);  // an operand that did not resolve
  const Value& t = p_.value(tv);
  if (t.blockArg || t.owner == kNoId || nameOf(p_.op(t.owner)) != "make_tensor_view")
    return key + "|" + std::to_string(tv);
  const Operation& mtv = p_.op(t.owner);
  const TileFact* f = facts_.tile(operandValue(mtv, "base"));
  key += "|" + (f && f->base.affine ? formText(*f->base.affine) : "tv" + std::to_string(tv));
  for (size_t i = 1; i < mtv.operands.size(); ++i) key += "," + std::to_string(mtv.operands[i].value);
  return key;
}

// The elements of the indexed tile: start + e_d * stride_d along each tensor
// dimension, clipped at the tensor's edge when the index is a constant.
std::optional<Box> Footprints::viewBox(const Access& a, const Type& view,
                                       const std::optional<Affine>& base) const {
  const Type& tv = *view.tensorView;
  auto space = views::indexSpace(view);
  if (!space || space->dims.size() != a.forms.size()) return std::nullopt;
  for (int64_t d : tv.shape)
    if (d == kDynamic) return std::nullopt;
  for (int64_t s : tv.strides)
    if (s == kDynamic) return std::nullopt;
  Box b;
  b.width = elemBits(tv.elem);
  std::optional<Affine> start = base;
  for (size_t i = 0; i < space->dims.size() && start; ++i) {
    const views::IndexDim& d = space->dims[i];
    if (d.sparse || !a.forms[i] || d.step <= 0 || d.tensorDim >= static_cast<int64_t>(tv.strides.size()))
      return std::nullopt;
    int64_t stride = tv.strides[d.tensorDim], step;
    if (__builtin_mul_overflow(stride, d.step, &step)) return std::nullopt;
    start = addScaled(*start, *a.forms[i], step);
    int64_t extent = d.tile, first;
    if (a.forms[i]->isConstant()) {
      // A tile outside the index space is bounds.index's (and touches nothing defined).
      if (a.forms[i]->c0 < 0 || (d.extent && a.forms[i]->c0 >= *d.extent)) return std::nullopt;
      if (d.tensorSize && !__builtin_mul_overflow(a.forms[i]->c0, d.step, &first))
        extent = std::clamp(*d.tensorSize - first, int64_t(0), d.tile);
    } else if (!d.firstPartial || d.firstPartial != d.extent) {
      b.exact = false;
    }
    int64_t bits;
    if (__builtin_mul_overflow(stride, b.width, &bits)) return std::nullopt;
    b.dims.push_back({extent, bits});
  }
  if (!start) return std::nullopt;
  auto scaledStart = addScaled(Affine::constant(0), *start, b.width);
  if (!scaledStart) return std::nullopt;
  b.base = *scaledStart;
  return b;
}

void Footprints::addPointer(Access& a, const Operation& op, ValueId pointers, bool masked) {
  const TileFact* f = facts_.tile(pointers);
  if (!f || f->root == kNoId || !f->elemBits) return;
  a.root = f->root;
  auto ptrs = operandGroup(op, nameOf(op) == "load_ptr_tko"    ? "source"
                        : nameOf(op) == "store_ptr_tko" ? "destination"
                                                        : "pointers");
  if (!ptrs.empty()) a.at = ptrs.front().range;
  std::optional<Affine> base = f->base.exact() ? Affine::constant(*f->base.exact()) : f->base.affine;
  if (!base || !f->affine()) return;
  Box b;
  b.width = f->elemBits;
  b.exact = !masked;
  auto bits = addScaled(Affine::constant(0), *base, b.width);
  if (!bits) return;
  b.base = *bits;
  for (size_t k = 0; k < f->shape.size(); ++k) {
    int64_t s;
    if (__builtin_mul_overflow(*f->strides[k], b.width, &s)) return;
    b.dims.push_back({f->shape[k], s});
  }
  a.box = std::move(b);
}

bool Footprints::injective(TypeRef tv) const {
  auto [it, inserted] = injective_.try_emplace(tv, false);
  if (inserted) {
    auto l = views::tensorViewLayout(*tv, layoutBudget_);
    it->second = l && l->injective == views::Injectivity::Yes;
  }
  return it->second;
}

// --- text ---------------------------------------------------------------------------

std::string Footprints::rootName(ValueId root) const {
  const Value& v = p_.value(root);
  if (!v.blockArg && v.owner != kNoId && nameOf(p_.op(v.owner)) == "get_global")
    if (const Attr* a = p_.op(v.owner).attr("name"); a && a->kind == AttrKind::Symbol) return a->s;
  return std::string(v.name);
}

std::string Footprints::formText(const Affine& f) const {
  std::string s;
  for (const auto& [sym, c] : f.terms) {
    std::string name(p_.value(sym).name);
    if (name.empty()) name = "?";
    s += s.empty() ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
    s += (c == 1 || c == -1 ? "" : std::to_string(c < 0 ? -c : c) + "*") + name;
  }
  if (s.empty()) return std::to_string(f.c0);
  if (f.c0) s += (f.c0 < 0 ? " - " : " + ") + std::to_string(f.c0 < 0 ? -f.c0 : f.c0);
  return s;
}

std::string Footprints::tileText(const Access& a, const std::vector<std::string>& dims) const {
  std::string s = "tile (";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
  return s + ") of " + std::string(p_.value(a.view).name);
}

// "element 3 of %p", in elements of the root's type.
std::string Footprints::elementText(ValueId root, const Affine& base, int64_t bits) const {
  TypeRef t = p_.typeOf(root);
  int64_t unit = 0;
  if (t && t->isPtrTile())
    unit = elemBits(t->element->elem);
  else if (t && t->kind == TypeKind::TensorView)
    unit = elemBits(t->elem);
  else if (t && t->isView() && t->tensorView)
    unit = elemBits(t->tensorView->elem);
  auto at = addScaled(base, Affine::constant(bits), 1);
  if (!at || unit <= 0 || at->c0 % unit) return "the same memory of " + rootName(root);
  Affine e;
  e.c0 = at->c0 / unit;
  for (const auto& [sym, c] : at->terms) {
    if (c % unit) return "the same memory of " + rootName(root);
    e.terms.push_back({sym, c / unit});
  }
  return "element " + formText(e) + " of " + rootName(root);
}

// --- in one run -------------------------------------------------------------------

Footprints::Result Footprints::same(const Access& a, const Access& b, bool describe) const {
  if (a.source != kNoId && a.source == b.source) return sameTiles(a, b, describe);
  if (a.root == b.root && a.box && b.box) return boxes(*a.box, *b.box, a.root, describe);
  if (!describe) return result(Overlap::May, {});
  if (a.root != b.root)
    return result(Overlap::May,
                  rootName(a.root) + " and " + rootName(b.root) + ", which may point to the same memory");
  return result(Overlap::May, "memory of " + rootName(a.root));
}

// Two indices of one view: the same tile, tiles that cannot share an element
// (an index differs by at least a tile's length along a dimension of an
// injective tensor view), or, failing both, the element boxes.
Footprints::Result Footprints::sameTiles(const Access& a, const Access& b, bool describe) const {
  TypeRef vt = p_.typeOf(a.view);
  auto space = views::indexSpace(*vt);
  bool apart = space && injective(vt->tensorView);
  std::vector<std::string> dims;
  bool must = a.forms.size() == b.forms.size();
  int ranged = 0;  // dimensions matched by some value of a step-1 induction variable
  for (size_t i = 0; i < a.forms.size() && i < b.forms.size(); ++i) {
    const views::IndexDim* d = space && i < space->dims.size() ? &space->dims[i] : nullptr;
    bool separable = apart && d && !d->sparse && d->step >= d->tile;
    std::optional<int64_t> diff = a.forms[i] && b.forms[i] ? a.forms[i]->minus(*b.forms[i]) : std::nullopt;
    if (diff && *diff == 0) {
      dims.push_back(a.forms[i]->isConstant() ? std::to_string(a.forms[i]->c0)
                                              : std::string(p_.value(a.indices[i]).name));
      continue;
    }
    if (diff && separable) return {};
    const ScalarFact* fa = facts_.scalar(a.indices[i]);
    const ScalarFact* fb = facts_.scalar(b.indices[i]);
    if (fa && fb && separable && (fa->range.hi < fb->range.lo || fb->range.hi < fa->range.lo)) return {};
    // A constant against a step-1 induction variable whose range holds it.
    bool hit = false;
    for (int side = 0; side < 2 && fa && fb && !hit; ++side) {
      const ScalarFact* k = side ? fb : fa;
      ValueId other = side ? a.indices[i] : b.indices[i];
      const ScalarFact* o = side ? fa : fb;
      const Value& ov = p_.value(other);
      if (!k->exact() || !ov.blockArg || ov.index != 0 || nameOf(p_.op(ov.owner)) != "for") continue;
      OpId loop = ov.owner;
      auto st = operandGroup(p_.op(loop), "step");
      const ScalarFact* sf = st.empty() ? nullptr : facts_.scalar(st.front().value);
      hit = sf && sf->exact() == 1 && o->loKnown && o->hiKnown && o->range.contains(*k->exact());
      if (hit) dims.push_back(std::to_string(*k->exact()));
    }
    if (hit && ++ranged == 1) continue;
    must = false;
    dims.push_back("?");
  }
  if (must) return result(Overlap::Must, describe ? tileText(a, dims) : std::string());
  if (a.box && b.box) {
    Result r = boxes(*a.box, *b.box, a.root, describe);
    if (r.kind != Overlap::May) return r;
  }
  if (!describe) return result(Overlap::May, {});
  std::vector<std::string> da, db;
  for (size_t i = 0; i < a.indices.size(); ++i)
    da.push_back(a.forms[i] ? formText(*a.forms[i]) : std::string(p_.value(a.indices[i]).name));
  for (size_t i = 0; i < b.indices.size(); ++i)
    db.push_back(b.forms[i] ? formText(*b.forms[i]) : std::string(p_.value(b.indices[i]).name));
  std::string ta = tileText(a, da), tb = tileText(b, db);
  return result(Overlap::May, ta == tb ? ta : ta.substr(0, ta.find(" of ")) + " and " + tb);
}

Footprints::Result Footprints::boxes(const Box& a, const Box& b, ValueId root, bool describe) const {
  std::optional<int64_t> d = b.base.minus(a.base);
  if (!d)
    return result(Overlap::May, describe ? "memory of " + rootName(root) + " at offsets not known to differ"
                                         : std::string());
  int64_t at = 0;
  Overlap o = intersect(a, b, *d, at);
  if (o == Overlap::No || !describe) return result(o, {});
  return result(o, o == Overlap::Must ? elementText(root, a.base, at) : "memory of " + rootName(root));
}

// --- across iterations --------------------------------------------------------------

bool Footprints::varies(ValueId symbol, OpId loop) const {
  const Value& s = p_.value(symbol);
  if (s.owner == kNoId) return false;
  if (s.owner == loop) return true;
  const Range& r = p_.op(loop).range;
  uint32_t b = p_.op(s.owner).range.begin;
  return r.begin <= b && b < r.end;
}

ValueId Footprints::inductionVar(OpId loop) const {
  const Operation& op = p_.op(loop);
  if (nameOf(op) != "for" || op.regions.empty() || op.regions[0].blocks.empty() ||
      op.regions[0].blocks[0].args.empty())
    return kNoId;
  return op.regions[0].blocks[0].args[0];
}

std::optional<int64_t> Footprints::tripCount(OpId loop) const {
  const Operation& op = p_.op(loop);
  if (nameOf(op) != "for") return std::nullopt;
  auto exact = [&](std::string_view g) -> std::optional<int64_t> {
    const ScalarFact* f = facts_.scalar(operandValue(op, g));
    return f ? f->exact() : std::nullopt;
  };
  auto lb = exact("lowerBound"), ub = exact("upperBound"), step = exact("step");
  if (!lb || !ub || !step || *step <= 0) return std::nullopt;
  return *ub <= *lb ? 0 : (__int128(*ub) - *lb + *step - 1) / *step;
}

namespace {

// f = coeff * iv + rest, with `rest` free of symbols that vary in the loop.
struct Split {
  int64_t coeff = 0;
  Affine rest;
  bool ok = true;
};

}  // namespace

Footprints::Result Footprints::acrossIterations(const Access& a, const Access& b, OpId loop,
                                                bool describe) const {
  auto trips = tripCount(loop);
  if (trips && *trips <= 1) return {};
  ValueId iv = inductionVar(loop);
  const ScalarFact* stepFact = iv == kNoId ? nullptr : facts_.scalar(operandValue(p_.op(loop), "step"));
  int64_t step = stepFact && stepFact->exact() ? *stepFact->exact() : 0;  // 0: unknown
  auto split = [&](const Affine& f) {
    Split s;
    s.rest.c0 = f.c0;
    s.rest.exact = f.exact;
    for (const auto& t : f.terms) {
      if (t.first == iv)
        s.coeff = t.second;
      else if (varies(t.first, loop))
        s.ok = false;
      else
        s.rest.terms.push_back(t);
    }
    return s;
  };
  // Iteration differences (a's minus b's) at which offsets da (for a) and db
  // differing by `delta` when the induction variables are equal meet: none,
  // every one (nullopt), or one.
  enum class Meet { Never, Always, At, Unknown };
  auto meetAt = [&](const Split& sa, const Split& sb, int64_t& distance) {
    if (!sa.ok || !sb.ok) return Meet::Unknown;
    std::optional<int64_t> delta = sa.rest.minus(sb.rest);
    if (!delta) return Meet::Unknown;
    if (sa.coeff == 0 && sb.coeff == 0) return *delta == 0 ? Meet::Always : Meet::Never;
    if (sa.coeff != sb.coeff || step <= 0) return Meet::Unknown;
    // coeff * (iv_a - iv_b) = -delta, with iv_a - iv_b = step * distance.
    if (*delta % sa.coeff) return Meet::Never;
    int64_t div = -*delta / sa.coeff;
    if (div == 0 || div % step) return Meet::Never;
    distance = div / step;
    if (trips && (distance >= *trips || -distance >= *trips)) return Meet::Never;
    return Meet::At;
  };
  if (a.source != kNoId && a.source == b.source && a.forms.size() == b.forms.size()) {
    TypeRef vt = p_.typeOf(a.view);
    auto space = views::indexSpace(*vt);
    bool apart = space && injective(vt->tensorView);
    bool unknown = false;
    std::optional<int64_t> distance;
    std::vector<std::string> dims, others;
    for (size_t i = 0; i < a.forms.size(); ++i) {
      const views::IndexDim* d = space && i < space->dims.size() ? &space->dims[i] : nullptr;
      bool separable = apart && d && !d->sparse && d->step >= d->tile;
      int64_t dist = 0;
      Meet m =
          a.forms[i] && b.forms[i] ? meetAt(split(*a.forms[i]), split(*b.forms[i]), dist) : Meet::Unknown;
      if (describe) {
        dims.push_back(a.forms[i] ? formText(*a.forms[i]) : std::string(p_.value(a.indices[i]).name));
        others.push_back(b.forms[i] ? formText(*b.forms[i]) : std::string(p_.value(b.indices[i]).name));
      }
      if (m == Meet::Never && separable) return {};
      if (m == Meet::At && separable) {
        if (distance && *distance != dist) return {};
        distance = dist;
      }
      unknown |= m == Meet::Unknown || ((m == Meet::Never || m == Meet::At) && !separable);
    }
    std::string ta = describe ? tileText(a, dims) : std::string(),
                tb = describe ? tileText(b, others) : std::string();
    Result r = result(unknown ? Overlap::May : Overlap::Must, ta, distance.value_or(0));
    if (ta != tb) r.whereOther = tb;
    return r;
  }
  if (a.root != b.root || !a.box || !b.box)
    return result(Overlap::May, describe ? "memory of " + rootName(a.root) : std::string());
  Split sa = split(a.box->base), sb = split(b.box->base);
  if (!sa.ok || !sb.ok)
    return result(Overlap::May, describe ? "memory of " + rootName(a.root) : std::string());
  if (sa.coeff == 0 && sb.coeff == 0) return boxes(*a.box, *b.box, a.root, describe);
  std::optional<int64_t> delta = sb.rest.minus(sa.rest);
  if (sa.coeff != sb.coeff || !delta || step <= 0)
    return result(Overlap::May, describe ? "memory of " + rootName(a.root) : std::string());
  // b's box sits at delta - coeff * step * D from a's when a runs D iterations after b.
  int64_t shift;
  if (__builtin_mul_overflow(sa.coeff, step, &shift))
    return result(Overlap::May, describe ? "memory of " + rootName(a.root) : std::string());
  Result best;
  int found = 0;
  int64_t limit = std::min<int64_t>(trips ? *trips - 1 : 64, 64);
  for (int64_t dist = -limit; dist <= limit; ++dist) {
    if (dist == 0) continue;
    int64_t at = 0;
    Overlap o = intersect(*a.box, *b.box, static_cast<int64_t>(*delta - __int128(shift) * dist), at);
    if (o == Overlap::No) continue;
    ++found;
    if (o >= best.kind)
      best = result(o,
                    !describe            ? std::string()
                    : o == Overlap::Must ? elementText(a.root, a.box->base, at)
                                         : "memory of " + rootName(a.root),
                    dist);
  }
  if (found > 1) best.distance = 0;
  if (found && !trips && limit == 64)
    best.kind = Overlap::May, best.distance = 0;  // farther iterations unchecked
  return best;
}

// --- across tile blocks -------------------------------------------------------------

std::vector<Footprints::Block> Footprints::blocks(const CheckOptions& options) {
  const auto& g = options.grid;
  std::vector<Block> out;
  if (!g || !gridProblem(*g).empty()) return out;
  // Each axis is below 2^24, so the product fits in 128 bits.
  if (__int128((*g)[0]) * (*g)[1] * (*g)[2] > kMaxBlocks) return out;
  for (int64_t z = 0; z < (*g)[2]; ++z)
    for (int64_t y = 0; y < (*g)[1]; ++y)
      for (int64_t x = 0; x < (*g)[0]; ++x) out.push_back({x, y, z});
  return out;
}

// The value in tile block `b`, when it follows from block ids, the grid and constants.
std::optional<int64_t> Footprints::inBlock(ValueId v, const Block& b, int& budget) const {
  if (v == kNoId || --budget < 0) return std::nullopt;
  const ScalarFact* f = facts_.scalar(v);
  if (f && f->exact()) return f->exact();
  const Value& val = p_.value(v);
  if (val.blockArg || val.owner == kNoId) return std::nullopt;
  const Operation& op = p_.op(val.owner);
  std::string_view n = nameOf(op);
  if (n == "get_tile_block_id" && val.index < 3) return b[val.index];
  if (n == "get_num_tile_blocks" && val.index < 3 && facts_.options().grid)
    return (*facts_.options().grid)[val.index];
  TypeRef t = p_.typeOf(v);
  unsigned bits = t && t->isTile() && isIntElem(t->tileElem()) ? elemBits(t->tileElem()) : 0;
  if (!bits || op.operands.empty()) return std::nullopt;
  auto x = inBlock(op.operands[0].value, b, budget);
  if (!x) return std::nullopt;
  if (n == "assume") return x;
  if (n == "select") return op.operands.size() == 3 ? inBlock(op.operands[*x ? 1 : 2].value, b, budget) : std::nullopt;
  if (n == "cmpi") return compareInBlock(op, *x, b, budget);
  if (n == "exti" || n == "trunci") {
    TypeRef from = p_.typeOf(op.operands[0].value);
    unsigned fb = from && from->isTile() ? elemBits(from->tileElem()) : 64;
    return wrap(keywordOf(op, "signedness") == "unsigned" ? __int128(unsignedOf(*x, fb)) : __int128(*x),
                bits);
  }
  if (n == "negi") return wrap(-__int128(*x), bits);
  if (n == "absi") return wrap(*x < 0 ? -__int128(*x) : __int128(*x), bits);
  if (op.operands.size() < 2) return std::nullopt;
  auto y = inBlock(op.operands[1].value, b, budget);
  if (!y) return std::nullopt;
  bool uns = keywordOf(op, "signedness") == "unsigned";
  __int128 l = uns ? __int128(unsignedOf(*x, bits)) : __int128(*x),
           r = uns ? __int128(unsignedOf(*y, bits)) : __int128(*y);
  if (n == "addi") return wrap(l + r, bits);
  if (n == "subi") return wrap(l - r, bits);
  if (n == "muli") return wrap(l * r, bits);
  if (n == "maxi") return wrap(std::max(l, r), bits);
  if (n == "mini") return wrap(std::min(l, r), bits);
  if (n == "andi") return wrap(l & r, bits);
  if (n == "ori") return wrap(l | r, bits);
  if (n == "xori") return wrap(l ^ r, bits);
  if (n == "shli" && r >= 0 && r < bits) return wrap(l << int(r), bits);
  if (n == "shri" && r >= 0 && r < bits) return wrap(l >> int(r), bits);
  if (r == 0) return std::nullopt;
  if (n == "remi") return wrap(l % r, bits);
  if (n != "divi") return std::nullopt;
  __int128 q = l / r, m = l % r;
  std::string_view mode = keywordOf(op, "rounding");
  if (mode == "negative_inf" && m != 0 && ((m < 0) != (r < 0))) --q;
  if (mode == "positive_inf" && m != 0 && ((m < 0) == (r < 0))) ++q;
  return wrap(q, bits);
}

// cmpi in tile block `b`, given its lhs there: -1 (true as one bit reads
// signed) or 0.
std::optional<int64_t> Footprints::compareInBlock(const Operation& op, int64_t lhs, const Block& b,
                                                  int& budget) const {
  if (op.operands.size() != 2) return std::nullopt;
  auto rhs = inBlock(op.operands[1].value, b, budget);
  TypeRef t = p_.typeOf(op.operands[0].value);
  if (!rhs || !t || !t->isTile() || !isIntElem(t->tileElem())) return std::nullopt;
  unsigned bits = elemBits(t->tileElem());
  bool uns = keywordOf(op, "signedness") == "unsigned";
  __int128 l = uns ? __int128(unsignedOf(lhs, bits)) : __int128(lhs),
           r = uns ? __int128(unsignedOf(*rhs, bits)) : __int128(*rhs);
  std::string_view pred = keywordOf(op, "comparison_predicate");
  bool v;
  if (pred == "equal") v = l == r;
  else if (pred == "not_equal") v = l != r;
  else if (pred == "less_than") v = l < r;
  else if (pred == "less_than_or_equal") v = l <= r;
  else if (pred == "greater_than") v = l > r;
  else if (pred == "greater_than_or_equal") v = l >= r;
  else return std::nullopt;
  return v ? -1 : 0;
}

// Whether a value is the same function of the iteration in every tile block:
// constants, entry arguments, the grid size, induction variables of loops with
// such bounds, and integer arithmetic on them.
bool Footprints::uniform(ValueId v, int& budget) const {
  if (v == kNoId || --budget < 0) return false;
  const ScalarFact* f = facts_.scalar(v);
  if (f && f->exact()) return true;
  const Value& val = p_.value(v);
  if (val.owner == kNoId) return false;
  const Operation& op = p_.op(val.owner);
  std::string_view n = nameOf(op);
  if (val.blockArg) {
    if (n == "entry") return true;
    if (n != "for" || val.index != 0) return false;
    for (std::string_view g : {"lowerBound", "upperBound", "step"})
      if (!uniform(operandValue(op, g), budget)) return false;
    return true;
  }
  if (n == "get_num_tile_blocks") return true;
  static constexpr std::string_view kArith[] = {"addi", "subi",  "muli", "divi",   "remi",   "maxi",
                                                "mini", "andi",  "ori",  "xori",   "shli",   "shri",
                                                "negi", "absi",  "exti", "trunci", "assume", "cmpi",
                                                "select"};
  if (std::find(std::begin(kArith), std::end(kArith), n) == std::end(kArith)) return false;
  for (const Operand& o : op.operands)
    if (!uniform(o.value, budget)) return false;
  return true;
}

Footprints::BlockResult Footprints::acrossBlocks(const Access& a, const Access& b) const {
  const std::vector<Block>& bs = blocks_;
  int64_t cost = static_cast<int64_t>(bs.size()) * static_cast<int64_t>(1 + a.indices.size() + b.indices.size());
  if (bs.size() < 2 || blockWork_ < cost) return {};
  blockWork_ -= cost;
  if (a.source != kNoId && a.source == b.source && a.forms.size() == b.forms.size()) {
    // Per dimension: computed in each block, or the same uniform form on both sides.
    std::vector<size_t> computed;
    for (size_t i = 0; i < a.indices.size(); ++i) {
      if (inBlock(a.indices[i], bs[0]) && inBlock(b.indices[i], bs[0]))
        computed.push_back(i);
      else if (!a.forms[i] || !b.forms[i] || !(*a.forms[i] == *b.forms[i]) || !uniform(a.indices[i]))
        return {};
    }
    // Each side's tile in each block; a block where an index cannot be
    // computed (a division by zero) ends the search.
    std::vector<std::vector<int64_t>> ta(bs.size()), tb(bs.size());
    for (size_t k = 0; k < bs.size(); ++k)
      for (size_t i : computed) {
        auto x = inBlock(a.indices[i], bs[k]), y = inBlock(b.indices[i], bs[k]);
        if (!x || !y) return {};
        ta[k].push_back(*x);
        tb[k].push_back(*y);
      }
    std::map<std::vector<int64_t>, llvm::SmallVector<size_t, 2>> seen;
    for (size_t k = 0; k < bs.size(); ++k) {
      auto& v = seen[ta[k]];
      if (v.size() < 2) v.push_back(k);
    }
    for (size_t k = 0; k < bs.size(); ++k) {
      const std::vector<int64_t>& t = tb[k];
      auto it = seen.find(t);
      if (it == seen.end()) continue;
      for (size_t other : it->second) {
        if (other == k) continue;
        std::vector<std::string> dims;
        for (size_t i = 0, c = 0; i < a.indices.size(); ++i)
          dims.push_back(c < computed.size() && computed[c] == i ? std::to_string(t[c++])
                                                                 : std::string(p_.value(a.indices[i]).name));
        return {Overlap::Must, bs[other], bs[k], tileText(a, dims)};
      }
    }
    return {};
  }
  if (a.root != b.root || !a.box || !b.box) return {};
  // Box offsets: the block-computed terms per block; uniform terms must match.
  auto offsets = [&](const Box& box, Affine& uniformPart, std::vector<int64_t>& out) {
    uniformPart = Affine::constant(0);
    Affine computedPart = Affine::constant(box.base.c0);
    for (const auto& t : box.base.terms) {
      if (inBlock(t.first, bs[0]))
        computedPart.terms.push_back(t);
      else if (uniform(t.first))
        uniformPart.terms.push_back(t);
      else
        return false;
    }
    for (const Block& blk : bs) {
      __int128 o = computedPart.c0;
      for (const auto& [sym, c] : computedPart.terms) {
        std::optional<int64_t> x = inBlock(sym, blk);  // may fail in some block (a division by zero)
        if (!x) return false;
        o += __int128(c) * *x;
      }
      if (o < INT64_MIN || o > INT64_MAX) return false;
      out.push_back(static_cast<int64_t>(o));
    }
    return true;
  };
  Affine ua, ub;
  std::vector<int64_t> oa, ob;
  if (!offsets(*a.box, ua, oa) || !offsets(*b.box, ub, ob) || !(ua.terms == ub.terms)) return {};
  std::vector<std::pair<int64_t, size_t>> sorted;
  for (size_t k = 0; k < oa.size(); ++k) sorted.push_back({oa[k], k});
  std::sort(sorted.begin(), sorted.end());
  Hull ha = hullOf(*a.box), hb = hullOf(*b.box);
  if (!ha.ok || !hb.ok) return {};
  for (size_t k = 0; k < ob.size(); ++k) {
    // a's box in block j meets b's in block k only if oa[j] lies within the hulls' reach.
    __int128 lo = __int128(ob[k]) + hb.lo - ha.hi - a.box->width,
             hi = __int128(ob[k]) + hb.hi + b.box->width - ha.lo;
    auto it = std::upper_bound(
        sorted.begin(), sorted.end(),
        std::pair<int64_t, size_t>(static_cast<int64_t>(std::max<__int128>(lo, INT64_MIN)), SIZE_MAX));
    for (int tries = 0; it != sorted.end() && it->first < hi && tries < 4; ++it) {
      if (it->second == k) continue;
      ++tries;
      int64_t at = 0;
      if (intersect(*a.box, *b.box, ob[k] - it->first, at) != Overlap::Must) continue;
      Affine where = a.box->base;
      where.c0 = it->first;
      where.terms = ua.terms;
      return {Overlap::Must, bs[it->second], bs[k], elementText(a.root, where, at)};
    }
  }
  return {};
}

}  // namespace tilesight
