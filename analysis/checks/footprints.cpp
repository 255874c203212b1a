#include "analysis/checks/footprints.h"

#include "analysis/ir/ir_query.h"

#include <algorithm>
#include <map>

#include <llvm/ADT/ArrayRef.h>

#include "analysis/checks/executions.h"
#include "analysis/checks/views.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"
#include "analysis/semantics/view_geometry.h"

namespace tilesight {

namespace {

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

// For two boxes of the same dims: whether some difference sum k_i * s_i with
// |k_i| < extent_i lies in [lo, hi] (the elements e = max(k, 0) of one box
// and e' = max(-k, 0) of the other are then that far apart). A search over
// the dims by decreasing stride that keeps only the k_i the remaining dims
// can still make up for; past kSteps steps it gives up (nullopt). `at` gets
// the offset of the element of the first box.
std::optional<bool> differenceHits(llvm::SmallVector<std::pair<int64_t, int64_t>, 4> dims, __int128 lo, __int128 hi,
                                   int64_t& at) {
  constexpr int kSteps = 1 << 16;
  std::sort(dims.begin(), dims.end(), [](const auto& x, const auto& y) {
    return std::abs(__int128(x.second)) > std::abs(__int128(y.second));
  });
  std::vector<__int128> reach(dims.size() + 1, 0);  // what dims i.. can add at most
  for (size_t i = dims.size(); i-- > 0;)
    reach[i] = reach[i + 1] + std::abs(__int128(dims[i].second)) * (dims[i].first - 1);
  int steps = 0;
  __int128 offset = 0;
  auto search = [&](auto& self, size_t i, __int128 sum) -> std::optional<bool> {
    if (++steps > kSteps) return std::nullopt;
    if (sum + reach[i] < lo || sum - reach[i] > hi) return false;
    if (i == dims.size()) return true;
    auto [extent, stride] = dims[i];
    for (int64_t k = -(extent - 1); k <= extent - 1; ++k) {
      __int128 next = sum + __int128(k) * stride;
      if (next + reach[i + 1] < lo || next - reach[i + 1] > hi) continue;
      auto hit = self(self, i + 1, next);
      if (!hit || *hit) {
        if (hit) offset += __int128(std::max<int64_t>(k, 0)) * stride;
        return hit;
      }
    }
    return false;
  };
  auto hit = search(search, 0, 0);
  if (hit && *hit) at = static_cast<int64_t>(offset);
  return hit;
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
  if (a.dims == b.dims && a.width == b.width) {
    // Element x of a and y of b overlap when x - (y + d) lies in (-width, width).
    auto hit = differenceHits(a.dims, __int128(d) - a.width + 1, __int128(d) + a.width - 1, at);
    if (hit) return *hit ? sure : Overlap::No;
  }
  if (!dense(a) || !dense(b)) return Overlap::May;
  at = static_cast<int64_t>(std::max<__int128>(ha.lo, bLo));
  return sure;
}

Footprints::Result result(Overlap o, std::string where, int64_t distance = 0) {
  Footprints::Result r;
  r.kind = o;
  r.where = std::move(where);
  r.distance = distance;
  return r;
}

}  // namespace

Footprints::Footprints(const Program& program, const ValueFacts& facts, const Executions& executions,
                       llvm::ArrayRef<OpId> memoryOps, layout::WorkBudget& layoutBudget)
    : p_(program), facts_(facts), executions_(executions), layoutBudget_(layoutBudget) {
  std::map<std::vector<int64_t>, uint32_t> sources;
  llvm::DenseMap<ValueId, uint32_t> sourceOfView;  // the key is built once per view value
  accesses_.reserve(memoryOps.size());
  for (OpId id : memoryOps) {
    const Operation& op = p_.op(id);
    if (op.broken || !op.info) continue;
    OpKind k = op.info->kind;
    Access& a = accesses_.emplace_back();  // built in place: an Access is large
    a.op = id;
    a.ordering = orderingOf(op).value_or(MemoryOrdering::Weak);
    a.scope = scopeOf(op);
    a.reads = op.info->traits & kReadsMemory;
    a.writes = op.info->traits & kWritesMemory;
    if (isViewAccess(k))
      addView(a, op);
    else if (a.reads || a.writes)
      addPointer(a, op, valueAt(memoryPointers(op), 0), operands::mask(op));
    if (a.root == kNoId) {  // print_tko, memory reached through an unknown pointer, or a mask that is always false
      unknownWrites_ |= a.writes;
      accesses_.pop_back();
      continue;
    }
    const Operation* rootDef = definingOp(p_, a.root);
    a.loose = rootDef && (rootDef->info->kind == OpKind::IntToPtr || rootDef->info->kind == OpKind::If);
    looseWrites_ |= a.loose && a.writes;
    if (a.writes) writtenRoots_.insert(a.root);
    if (a.writes) writtenByPick(a.root, 8);
    if (a.view != kNoId) {
      auto [it, fresh] = sourceOfView.try_emplace(a.view, 0);
      if (fresh)
        it->second = sources.try_emplace(sourceKey(a), static_cast<uint32_t>(sources.size())).first->second;
      a.source = it->second;
    }
  }
  findTwins();
}

Range Footprints::at(const Access& a) const {
  const Operation& op = p_.op(a.op);
  if (a.view == kNoId) {
    const Operand* ptrs = operandAt(memoryPointers(op), 0);
    return ptrs ? ptrs->range : Range{};
  }
  // Computed when a message needs it: the source text is not read otherwise.
  Range r = operands::viewOperand(op)->range;
  auto idx = operands::index(op);
  if (!idx.empty() && idx.back().range.end > r.end && p_.source.substr(idx.back().range.end, 1) == "]")
    r.end = idx.back().range.end + 1;
  return r;
}

// Accesses directly in the two arms of one `if` that touch the same elements
// the same way.
void Footprints::findTwins() {
  std::map<std::pair<OpId, uint32_t>, std::vector<size_t>> byArm;  // (if, region) -> accesses
  for (size_t i = 0; i < accesses_.size(); ++i) {
    const Operation& op = p_.op(accesses_[i].op);
    if (op.parent == kNoId) continue;
    const Operation& parent = p_.op(op.parent);
    if (!is(parent, OpKind::If) || parent.regions.size() != 2) continue;
    uint32_t arm = parent.regions[1].range.begin <= op.range.begin ? 1 : 0;
    byArm[{op.parent, arm}].push_back(i);
  }
  for (const auto& [key, thens] : byArm) {
    if (key.second != 0) continue;
    auto elses = byArm.find({key.first, 1});
    if (elses == byArm.end()) continue;
    for (size_t i : thens)
      for (size_t j : elses->second)
        if (sameElements(accesses_[i], accesses_[j]) && !twins_.count(accesses_[j].op)) {
          twins_[accesses_[i].op] = j;
          twins_[accesses_[j].op] = i;
          break;
        }
  }
}

bool Footprints::sameElements(const Access& a, const Access& b) const {
  if (a.root != b.root || a.reads != b.reads || a.writes != b.writes || a.ordering != b.ordering ||
      a.scope != b.scope)
    return false;
  if (a.source != kNoId)
    return a.source == b.source && a.forms.size() == b.forms.size() &&
           std::equal(a.forms.begin(), a.forms.end(), b.forms.begin(),
                      [](const auto& x, const auto& y) { return x && y && *x == *y; });
  return a.box && b.box && a.box->exact && b.box->exact && a.box->width == b.box->width &&
         a.box->base == b.box->base && a.box->dims == b.box->dims;
}

const Access* Footprints::twin(const Access& a) const {
  auto it = twins_.find(a.op);
  return it == twins_.end() ? nullptr : &accesses_[it->second];
}

// --- building ---------------------------------------------------------------------

void Footprints::addView(Access& a, const Operation& op) {
  a.view = operands::view(op);
  TypeRef vt = p_.typeOf(a.view);
  if (!vt || !vt->isView() || !vt->tensorView) return;
  auto idx = operands::index(op);
  for (const Operand& o : idx) {
    a.indices.push_back(o.value);
    const ScalarFact* f = facts_.scalar(o.value);
    if (f && f->exact())
      a.forms.push_back(Affine::constant(*f->exact()));
    else
      a.forms.push_back(f && f->affine ? f->affine : std::nullopt);
  }
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
  if (t.blockArg || t.owner == kNoId || !is(p_.op(t.owner), OpKind::MakeTensorView)) {
    a.root = tv;
    base = Affine::constant(0);
  } else {
    const TileFact* f = facts_.tile(operands::base(p_.op(t.owner)));
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
std::vector<int64_t> Footprints::sourceKey(const Access& a) const {
  // The view's tiling, not its padding: a padded load and an unpadded store
  // of tile k touch the same elements. Lists are length-prefixed, so keys
  // that differ anywhere differ as vectors.
  const Type& vt = *p_.typeOf(a.view);
  std::vector<int64_t> key{a.root, int64_t(vt.kind), static_cast<int64_t>(reinterpret_cast<uintptr_t>(vt.tensorView)),
                           vt.sparseDim};
  for (const auto* v : {&vt.shape, &vt.strides, &vt.dimMap}) {
    key.push_back(static_cast<int64_t>(v->size()));
    key.insert(key.end(), v->begin(), v->end());
  }
  enum : int64_t { kView, kTensorView, kAffine, kOpaque };
  const Value& v = p_.value(a.view);
  if (v.blockArg || v.owner == kNoId || p_.op(v.owner).operands.empty() || p_.op(v.owner).operands[0].value == kNoId) {
    key.insert(key.end(), {kView, a.view});  // a view argument, or an operand that did not resolve
    return key;
  }
  ValueId tv = p_.op(v.owner).operands[0].value;
  const Value& t = p_.value(tv);
  if (t.blockArg || t.owner == kNoId || !is(p_.op(t.owner), OpKind::MakeTensorView)) {
    key.insert(key.end(), {kTensorView, tv});
    return key;
  }
  const Operation& mtv = p_.op(t.owner);
  const TileFact* f = facts_.tile(operands::base(mtv));
  if (f && f->base.affine) {
    const Affine& b = *f->base.affine;
    key.insert(key.end(), {kAffine, b.c0, int64_t(b.exact), static_cast<int64_t>(b.terms.size())});
    for (const auto& [sym, c] : b.terms) key.insert(key.end(), {sym, c});
  } else {
    key.insert(key.end(), {kOpaque, tv});
  }
  for (size_t i = 1; i < mtv.operands.size(); ++i) key.push_back(mtv.operands[i].value);
  return key;
}

// The elements of the indexed tile: start + e_d * stride_d along each tensor
// dimension, clipped at the tensor's edge when the index is a constant.
std::optional<Box> Footprints::viewBox(const Access& a, const Type& view,
                                       const std::optional<Affine>& base) const {
  const Type& tv = *view.tensorView;
  const auto& space = facts_.indexSpace(a.view);
  std::vector<int64_t> shape = facts_.tensorShape(a.view), strides = facts_.tensorStrides(a.view);
  if (!space || space->dims.size() != a.forms.size() || strides.size() != shape.size()) return std::nullopt;
  for (int64_t d : shape)
    if (d == kDynamic) return std::nullopt;
  for (int64_t s : strides)
    if (s == kDynamic) return std::nullopt;
  Box b;
  b.width = elemBits(tv.elem);
  std::optional<Affine> start = base;
  for (size_t i = 0; i < space->dims.size() && start; ++i) {
    const views::IndexDim& d = space->dims[i];
    if (d.sparse || !a.forms[i] || d.step <= 0 || d.tensorDim >= static_cast<int64_t>(strides.size()))
      return std::nullopt;
    int64_t stride = strides[d.tensorDim], step;
    if (__builtin_mul_overflow(stride, d.step, &step)) return std::nullopt;
    start = addScaled(*start, *a.forms[i], step);
    int64_t extent = d.tile, first;
    if (a.forms[i]->isConstant()) {
      // A tile outside the index space is bounds.index's (and touches nothing defined).
      if (a.forms[i]->c0 < 0 || (d.extent && a.forms[i]->c0 >= *d.extent)) return std::nullopt;
      if (d.tensorSize && !__builtin_mul_overflow(a.forms[i]->c0, d.step, &first))
        extent = semantics::elementsInside(first, d.tile, *d.tensorSize);
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

// A mask the value facts decide (cuTile's `index < shape` bounds masks are
// often true for every lane) is no mask, or no access at all.
void Footprints::addPointer(Access& a, const Operation& op, ValueId pointers, ValueId mask) {
  const TileFact* f = facts_.tile(pointers);
  if (!f || f->root == kNoId || !f->elemBits) return;
  const TileFact* m = mask == kNoId ? nullptr : facts_.tile(mask);
  std::optional<int64_t> decided = m && m->uniform() ? m->base.exact() : std::nullopt;
  if (decided && *decided == 0) return;  // no lane is enabled
  bool masked = mask != kNoId && !decided;
  if (masked) a.mask = mask;
  a.root = f->root;
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

namespace {

// A sufficient test for injectivity that needs no size of the dimension with
// the largest stride (cuTile leaves the outer extent dynamic): with strides
// ascending, each one passes the farthest offset the smaller ones reach.
bool nested(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
  for (size_t i = 0; i < shape.size(); ++i) {
    if (strides[i] == kDynamic || strides[i] <= 0) return false;
    dims.push_back({strides[i], shape[i]});
  }
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;  // the farthest offset of the dimensions so far
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].first <= reach) return false;
    if (i + 1 == dims.size()) break;
    if (dims[i].second == kDynamic || dims[i].second < 1) return false;
    reach = layout::satAdd(reach, layout::satMul(dims[i].first, dims[i].second - 1));
  }
  return true;
}

}  // namespace

bool Footprints::apart(const Access& a, uint32_t fixed) const {
  const auto& space = facts_.indexSpace(a.view);
  if (!space) return false;
  auto [it, fresh] = apart_.try_emplace({a.view, fixed}, false);
  if (!fresh) return it->second;
  // Strides and sizes pinned by the facts count as written (cuTile passes
  // what it cannot specialise as operands).
  std::vector<int64_t> shape = facts_.tensorShape(a.view), strides = facts_.tensorStrides(a.view);
  std::vector<bool> keep(shape.size(), true);
  for (size_t i = 0; i < space->dims.size() && i < 32; ++i) {
    const views::IndexDim& d = space->dims[i];
    if ((fixed >> i & 1) && d.tile == 1 && d.tensorDim >= 0 && static_cast<size_t>(d.tensorDim) < keep.size())
      keep[d.tensorDim] = false;
  }
  Type sub;
  sub.kind = TypeKind::TensorView;
  for (size_t t = 0; t < shape.size() && t < strides.size(); ++t)
    if (keep[t]) sub.shape.push_back(shape[t]), sub.strides.push_back(strides[t]);
  if (nested(sub.shape, sub.strides)) return it->second = true;
  auto l = views::tensorViewLayout(sub, layoutBudget_);
  return it->second = l && l->injective == views::Injectivity::Yes;
}

// --- text ---------------------------------------------------------------------------

std::string Footprints::rootName(ValueId root) const {
  const Value& v = p_.value(root);
  if (!v.blockArg && v.owner != kNoId && is(p_.op(v.owner), OpKind::GetGlobal))
    if (const Attr* a = attrs::name(p_.op(v.owner)); a && a->kind == AttrKind::Symbol) return a->s;
  return std::string(v.name);
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
  return "element " + formText(p_, e) + " of " + rootName(root);
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
  const auto& space = facts_.indexSpace(a.view);
  uint32_t fixed = 0;
  for (size_t i = 0; i < a.forms.size() && i < b.forms.size() && i < 32; ++i)
    if (a.forms[i] && b.forms[i] && a.forms[i]->minus(*b.forms[i]) == 0) fixed |= 1u << i;
  bool apart = space && this->apart(a, fixed);
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
      if (!k->exact() || !ov.blockArg || ov.index != 0 || !is(p_.op(ov.owner), OpKind::For)) continue;
      OpId loop = ov.owner;
      ValueId st = operands::step(p_.op(loop));
      const ScalarFact* sf = st == kNoId ? nullptr : facts_.scalar(st);
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
    da.push_back(a.forms[i] ? formText(p_, *a.forms[i]) : std::string(p_.value(a.indices[i]).name));
  for (size_t i = 0; i < b.indices.size(); ++i)
    db.push_back(b.forms[i] ? formText(p_, *b.forms[i]) : std::string(p_.value(b.indices[i]).name));
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
  if (!is(op, OpKind::For) || op.regions.empty() || op.regions[0].blocks.empty() ||
      op.regions[0].blocks[0].args.empty())
    return kNoId;
  return op.regions[0].blocks[0].args[0];
}

std::optional<int64_t> Footprints::tripCount(OpId loop) const {
  const Operation& op = p_.op(loop);
  if (!is(op, OpKind::For)) return std::nullopt;
  auto exact = [&](ValueId v) -> std::optional<int64_t> {
    const ScalarFact* f = facts_.scalar(v);
    return f ? f->exact() : std::nullopt;
  };
  ForOp loopOp(op);
  auto lb = exact(loopOp.lowerBound()), ub = exact(loopOp.upperBound()), step = exact(loopOp.step());
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
  const ScalarFact* stepFact = iv == kNoId ? nullptr : facts_.scalar(operands::step(p_.op(loop)));
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
    if (sa.coeff != sb.coeff) return Meet::Unknown;
    // coeff * (iv_a - iv_b) = -delta, with iv_a - iv_b = step * distance. The step is
    // positive (spec), so different iterations have different induction variables
    // even when the step is not known (a grid-stride loop's num_tile_blocks).
    if (*delta % sa.coeff) return Meet::Never;
    int64_t div = -*delta / sa.coeff;
    if (div == 0) return Meet::Never;
    if (step <= 0) return Meet::Unknown;
    if (div % step) return Meet::Never;
    distance = div / step;
    if (trips && (distance >= *trips || -distance >= *trips)) return Meet::Never;
    return Meet::At;
  };
  if (a.source != kNoId && a.source == b.source && a.forms.size() == b.forms.size()) {
    const auto& space = facts_.indexSpace(a.view);
    size_t rank = a.forms.size();
    llvm::SmallVector<Meet, 4> meets(rank);
    llvm::SmallVector<int64_t, 4> dists(rank, 0);
    uint32_t fixed = 0;  // equal in every pair of iterations
    for (size_t i = 0; i < rank; ++i) {
      meets[i] = a.forms[i] && b.forms[i] ? meetAt(split(*a.forms[i]), split(*b.forms[i]), dists[i])
                                          : Meet::Unknown;
      if (meets[i] == Meet::Always && i < 32) fixed |= 1u << i;
    }
    bool apart = space && this->apart(a, fixed);
    bool unknown = false;
    std::optional<int64_t> distance;
    std::vector<std::string> dims, others;
    for (size_t i = 0; i < rank; ++i) {
      const views::IndexDim* d = space && i < space->dims.size() ? &space->dims[i] : nullptr;
      bool separable = apart && d && !d->sparse && d->step >= d->tile;
      int64_t dist = dists[i];
      Meet m = meets[i];
      if (describe) {
        dims.push_back(a.forms[i] ? formText(p_, *a.forms[i]) : std::string(p_.value(a.indices[i]).name));
        others.push_back(b.forms[i] ? formText(p_, *b.forms[i]) : std::string(p_.value(b.indices[i]).name));
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

bool Footprints::smallGrid(const CheckOptions& options) {
  const auto& g = options.grid;
  // Each axis is below 2^24, so the product fits in 128 bits.
  return g && gridProblem(*g).empty() && __int128((*g)[0]) * (*g)[1] * (*g)[2] <= kMaxBlocks &&
         (*g)[0] * (*g)[1] * (*g)[2] >= 2;
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
  std::optional<OpKind> n = kindOf(op);
  if (val.blockArg) {
    if (n == OpKind::Entry) return true;
    if (n != OpKind::For || val.index != 0) return false;
    ForOp loop(op);
    for (ValueId bound : {loop.lowerBound(), loop.upperBound(), loop.step()})
      if (!uniform(bound, budget)) return false;
    return true;
  }
  if (n == OpKind::GetNumTileBlocks) return true;
  if (!integerArithmetic(n)) return false;
  for (const Operand& o : op.operands)
    if (!uniform(o.value, budget)) return false;
  return true;
}

// Where an access goes in each execution (executions.h): one entry per
// execution that differs, with the values of `of` (nullopt for one that does
// not follow there). Cached per op and list of values.
const Footprints::Reached& Footprints::reached(const Access& a, const llvm::SmallVector<ValueId, 4>& of,
                                               bool eitherArm) const {
  eitherArm &= twin(a) != nullptr;
  auto [it, fresh] = reached_.try_emplace({a.op, of, eitherArm});
  if (!fresh) return it->second;
  Reached& r = it->second;
  r.complete = executions_.forEach(
      a.op, of,
      [&](const Execution& e) {
    Place place{e.block, e.axes, e.possible, e.eitherArm, {}};
    for (ValueId v : of) place.values.push_back(executions_.value(v, e));
    r.places.push_back(std::move(place));
    return r.places.size() < kMaxPlaces;
  },
      /*branches=*/true, eitherArm ? p_.op(a.op).parent : kNoId);
  return r;
}

// Two tile blocks where a place of `a` and one of `b` are both run, that
// `ordered` does not exempt; nullopt when there are none.
std::optional<std::pair<Footprints::Block, Footprints::Block>> Footprints::distinctBlocks(
    const Place& pa, const Place& pb, llvm::function_ref<bool(const Block&, const Block&)> ordered) const {
  const Block& g = *facts_.options().grid;
  // A place stands for every block that agrees with it on its axes: a few of
  // them are tried.
  auto candidates = [&](const Place& p) {
    llvm::SmallVector<Block, 4> out;
    for (int64_t i = 0, n = g[0] * g[1] * g[2]; i < n && out.size() < 4; ++i) {
      Block b{i % g[0], (i / g[0]) % g[1], i / (g[0] * g[1])};
      bool agrees = true;
      for (int d = 0; d < 3; ++d) agrees &= !(p.axes & (1u << d)) || b[d] == p.block[d];
      if (agrees) out.push_back(b);
    }
    return out;
  };
  for (const Block& y : candidates(pb))
    for (const Block& x : candidates(pa))
      if (x != y && !ordered(x, y)) return std::pair{x, y};
  return std::nullopt;
}

Footprints::BlockResult Footprints::acrossBlocks(const Access& a, const Access& b,
                                                 llvm::function_ref<bool(const Block&, const Block&)> ordered,
                                                 bool eitherA, bool eitherB) const {
  if (!smallGrid(facts_.options())) return {};
  if (a.loose || b.loose) return a.op == b.op && a.writes ? sameAccessAcross(a, ordered, eitherA) : BlockResult{};
  if (a.source != kNoId && a.source == b.source && a.forms.size() == b.forms.size()) {
    BlockResult r = tilesAcross(a, b, ordered, eitherA, eitherB);
    // Different tiles can share elements when the tensor_view's strides
    // alias or tiles start closer than their size: then the elements are
    // compared too. Indices that no execution fixes may still be computed
    // alike in two blocks (sameAccessAcross).
    if (r.kind == Overlap::Must) return r;
    if (tilesDisjoint(a)) {
      if (r.kind == Overlap::No && a.op == b.op && a.writes && !indicesComputable(a))
        r = sameAccessAcross(a, ordered, eitherA);
      return r;
    }
  }
  BlockResult r;
  if (a.root == b.root && a.box && b.box) r = boxesAcross(a, b, ordered, eitherA, eitherB);
  if (r.kind != Overlap::Must && a.op == b.op && a.writes) {
    BlockResult same = sameAccessAcross(a, ordered, eitherA);
    if (same.kind > r.kind) r = std::move(same);
  }
  return r;
}

// A pointer an `if` picks is one of the arrays it yields (through nested
// picks, up to `depth` of them): a write through it may write each of them.
void Footprints::writtenByPick(ValueId root, int depth) {
  const Operation* def = definingOp(p_, root);
  if (!def || !is(*def, OpKind::If)) return;
  for (uint32_t k = 0; k < 2; ++k) {
    const TileFact* f = facts_.tile(yieldedBy(p_, *def, k, p_.value(root).index));
    if (!f || f->root == kNoId) continue;
    writtenRoots_.insert(f->root);
    if (depth > 0) writtenByPick(f->root, depth - 1);
    else unknownWrites_ = true;  // deeper than followed: anything may be written
  }
}

bool Footprints::rootFixedIn(const Access& a, OpId loop) const {
  if (!a.loose) return true;
  for (OpId q = p_.value(a.root).owner; q != kNoId; q = p_.op(q).parent)
    if (q == loop) return false;
  return true;
}

// --- one op, the same access in two blocks ------------------------------------------

const Access* Footprints::accessOf(OpId op) const {
  auto it = std::lower_bound(accesses_.begin(), accesses_.end(), op,
                             [](const Access& x, OpId id) { return x.op < id; });
  return it != accesses_.end() && it->op == op ? &*it : nullptr;
}

// Memory that int_to_ptr reaches is taken to be none that the entry reaches
// through its pointer arguments, as distinct arguments are taken to be
// distinct, unless --assume-aliasing.
bool Footprints::readOnly(const Access& load) const {
  const CheckOptions& o = facts_.options();
  if (unknownWrites_ || (looseWrites_ && (load.loose || o.assumeAliasing || !o.aliasGroup.empty()))) return false;
  if (writtenRoots_.contains(load.root)) return false;
  // A launch's aliasing arguments: a write through one writes the others' memory.
  auto aliasing = [&](ValueId root) {
    const Value& r = p_.value(root);
    return r.blockArg && r.owner != kNoId && p_.op(r.owner).info && p_.op(r.owner).info->kind == OpKind::Entry &&
           std::find(o.aliasGroup.begin(), o.aliasGroup.end(), size_t(r.index)) != o.aliasGroup.end();
  };
  if (!aliasing(load.root)) return true;
  return std::none_of(writtenRoots_.begin(), writtenRoots_.end(), aliasing);
}

// Whether v follows from `leaves` (scalars that executions compute; added as
// found), entry arguments, constants and loads of memory that no op of the
// entry writes (`loads` set when one is on the way), through pure ops.
bool Footprints::determinedBy(ValueId v, llvm::SmallVector<ValueId, 4>& leaves, bool& loads, int& budget,
                              Remainder* remainder) const {
  if (v == kNoId || --budget < 0) return false;
  const ScalarFact* f = facts_.scalar(v);
  if (f && f->exact()) return true;
  const Value& val = p_.value(v);
  if (val.owner == kNoId || !val.type) return false;
  const Operation& op = p_.op(val.owner);
  if (val.blockArg && isFunction(op)) return true;
  if (val.type->isTile() && val.type->shape.empty() && executions_.computable(v)) {
    if (std::find(leaves.begin(), leaves.end(), v) == leaves.end()) leaves.push_back(v);
    return true;
  }
  if (val.blockArg || op.broken || !op.info) return false;
  OpKind n = op.info->kind;
  if (n == OpKind::GetTileBlockId) return false;  // differs between blocks unless computed
  if (n == OpKind::If) {  // the same condition yields the same value (an array picked per block)
    if (!determinedBy(operands::condition(op), leaves, loads, budget, remainder)) return false;
    for (uint32_t r = 0; r < 2; ++r)
      if (!determinedBy(yieldedBy(p_, op, r, val.index), leaves, loads, budget, remainder)) return false;
    return true;
  }
  bool load = n == OpKind::LoadPtrTko || n == OpKind::LoadViewTko;
  if (load) {
    const Access* x = accessOf(val.owner);
    if (val.index != 0 || !x || x->writes || !readOnly(*x)) return false;
    loads = true;
  } else if (!(op.info->traits & kPure) && n != OpKind::Assume) {
    return false;
  }
  if (n == OpKind::Remi && remainder && val.type->isTile() && val.type->shape.empty()) {
    ValueId g = operands::lhs(op), d = operands::rhs(op);
    Remainder here{v, g, d};
    bool first = remainder->rem == kNoId;
    if (!first && remainder->rem == v) return true;  // checked when first met
    if (first && executions_.computable(g)) {
      // The divisor must be the same in both executions without a leaf of
      // its own: a leaf would tie the executions, and the dividend is not one.
      llvm::SmallVector<ValueId, 4> none;
      bool fromMemory = loads;
      if (determinedBy(d, none, fromMemory, budget) && none.empty()) {
        *remainder = here;
        loads = fromMemory;
        return true;
      }
    }
  }
  for (const Operand& o : op.operands)
    if (o.value != kNoId && !(p_.typeOf(o.value) && p_.typeOf(o.value)->isToken()) &&
        !determinedBy(o.value, leaves, loads, budget, remainder))
      return false;
  return true;
}

// Two executions in different blocks with equal leaves run the same
// computation, so the op touches the same memory in both: Must when nothing
// else decides whether it touches any (a mask, a view index not known to lie
// in the index space, a branch or loop exit on the way), else May.
Footprints::BlockResult Footprints::sameAccessAcross(const Access& a,
                                                     llvm::function_ref<bool(const Block&, const Block&)> ordered,
                                                     bool eitherA) const {
  const Operation& op = p_.op(a.op);
  bool view = a.view != kNoId;
  llvm::SmallVector<ValueId, 4> leaves;
  bool loads = false;
  int budget = kMaxNodes * 4;
  Remainder rem;
  for (llvm::ArrayRef<Operand> g : view ? std::array{operands::viewGroup(op), operands::index(op)}
                                         : std::array{memoryPointers(op), operands::maskGroup(op)})
    for (const Operand& o : g)
      if (!determinedBy(o.value, leaves, loads, budget, &rem)) return {};
  // Which leaves are the view's indices: those decide whether the tile is there.
  const auto& space = view ? facts_.indexSpace(a.view) : std::nullopt;
  auto inSpace = [&](const Place& p) {
    if (!view) return true;
    if (!space || space->dims.size() != a.indices.size()) return false;
    for (size_t d = 0; d < a.indices.size(); ++d) {
      if (!space->dims[d].extent) return false;
      std::optional<int64_t> k;
      if (auto at = std::find(leaves.begin(), leaves.end(), a.indices[d]); at != leaves.end())
        k = p.values[at - leaves.begin()];
      else if (const ScalarFact* f = facts_.scalar(a.indices[d]))
        k = f->exact();  // a constant index
      if (!k || *k < 0 || *k >= *space->dims[d].extent) return false;
    }
    return true;
  };
  // The places' values: the leaves, then the remainder's dividend (not part
  // of the key: dividends that differ may still give equal remainders).
  llvm::SmallVector<ValueId, 4> of = leaves;
  if (rem.rem != kNoId) of.push_back(rem.dividend);
  const Reached& r = reached(a, of, eitherA);
  std::map<llvm::SmallVector<int64_t, 4>, llvm::SmallVector<size_t, 2>> byValues;
  for (size_t i = 0; i < r.places.size(); ++i) {
    llvm::SmallVector<int64_t, 4> key;
    bool known = true;
    for (size_t k = 0; k < leaves.size(); ++k) {
      const auto& v = r.places[i].values[k];
      known = known && v, key.push_back(v ? *v : 0);
    }
    if (known) byValues[key].push_back(i);
  }
  auto dividend = [&](size_t i) { return rem.rem == kNoId ? std::optional<int64_t>(0) : r.places[i].values.back(); };
  // A mask whose first lane is set in every execution (cuTile's bounds mask
  // `idx < shape` at a start inside the array) lets the access touch memory.
  const TileFact* maskFact = a.mask == kNoId ? nullptr : facts_.tileAt(a.mask, a.op);
  bool laneZeroSet = maskFact && maskFact->base.exact() && *maskFact->base.exact() != 0;
  BlockResult best;
  // Whether places ia and ib touch the same memory (with `divisor`, when the
  // remainder's divisor takes that value): Must ends the search.
  auto consider = [&](const llvm::SmallVector<int64_t, 4>& key, size_t ia, size_t ib, std::optional<int64_t> divisor) {
    const Place &pa = r.places[ia], &pb = r.places[ib];
    bool reachedBoth = !pa.possible && !pb.possible;
    bool touches = (a.mask == kNoId || laneZeroSet) && inSpace(pa);
    Overlap o = reachedBoth && touches && !divisor ? Overlap::Must : Overlap::May;
    if (o <= best.kind) return false;
    auto blocks = distinctBlocks(pa, pb, ordered);
    if (!blocks) return false;
    auto ga = dividend(ia), gb = dividend(ib);
    bool twinA = pa.eitherArm, twinB = pb.eitherArm;
    if (blocks->second < blocks->first) {  // the text names the lower block first
      std::swap(blocks->first, blocks->second);
      std::swap(ga, gb);
      std::swap(twinA, twinB);
    }
    std::string values;
    for (size_t k = 0; k < leaves.size(); ++k)
      values += (k ? ", " : "") + std::string(p_.value(leaves[k]).name) + " = " + std::to_string(key[k]);
    best = {o, blocks->first, blocks->second, "", twinA, twinB, ""};
    best.divisor = divisor ? rem.divisor : kNoId;
    std::string but = divisor ? " but " + std::string(p_.value(rem.dividend).name) : "";
    best.where = (view ? "the same tile of " + std::string(p_.value(a.view).name)
                       : "the same elements of " + rootName(a.root)) +
                 " (what selects them is computed from the same values in both" + but +
                 (values.empty() ? "" : ": " + values) +
                 (loads ? ", and from memory that no op of the kernel writes" : "") + ")";
    std::string mask = " if any lane of its mask is set (the mask is the same in both, but not known)";
    if (divisor) {
      std::string dn(p_.value(rem.divisor).name), gn(p_.value(rem.dividend).name);
      best.why = " if " + dn + " = " + std::to_string(*divisor) + " (" + std::string(p_.value(rem.rem).name) +
                 " = " + gn + " mod " + dn + " is then " + std::to_string(*ga % *divisor) + " in both, with " + gn +
                 " = " + std::to_string(*ga) + " and " + std::to_string(*gb) + "; the value of " + dn +
                 " is not known here)" + (a.mask != kNoId ? " and" + mask : "");
    } else if (!reachedBoth) {
      best.why = " if both get there (a branch or a loop exit on the way is not known)";
    } else if (a.mask != kNoId) {
      best.why = mask;
    } else if (!touches) {
      best.why = " if that tile lies in the index space";
    }
    return o == Overlap::Must;
  };
  for (auto& [key, at] : byValues) {
    // With a remainder, places in the order of their dividends: equal ones
    // are neighbours.
    if (rem.rem != kNoId)
      std::stable_sort(at.begin(), at.end(), [&](size_t x, size_t y) {
        return dividend(x).value_or(INT64_MIN) < dividend(y).value_or(INT64_MIN);
      });
    for (size_t i = 0; i < at.size(); ++i)
      for (size_t j = i; j < at.size() && j < i + 4; ++j)
        if (dividend(at[i]) && dividend(at[i]) == dividend(at[j]) && consider(key, at[i], at[j], std::nullopt))
          return best;
  }
  if (rem.rem == kNoId || best.kind != Overlap::No) return best;
  // Different dividends g1 < g2 give one remainder when the divisor is a
  // value d with g2 - g1 a multiple of it. Only places that certainly run:
  // a branch or loop bound on the way may relate the dividend to the
  // divisor (`if t < n`, `for t in (bid to n)`), and then no two meet.
  for (int64_t d : divisorValues(rem, a.op, r.places))
    for (auto& [key, at] : byValues)
      for (size_t i = 0, tried = 0; i < at.size() && tried < kRemainderTries; ++i) {
        auto g = dividend(at[i]);
        if (!g || *g < 0 || r.places[at[i]].possible || *g > INT64_MAX - d) continue;
        ++tried;
        auto j = std::lower_bound(at.begin() + i, at.end(), *g + d,
                                  [&](size_t x, int64_t v) { return dividend(x).value_or(INT64_MIN) < v; });
        for (; j != at.end() && dividend(*j) == *g + d; ++j)
          if (!r.places[*j].possible) {
            consider(key, at[i], *j, d);
            if (best.kind != Overlap::No) return best;
          }
      }
  return best;
}

// Values the remainder's divisor may take at `at` that could make two
// dividends of `places` meet: from its facts there (range and multiple),
// ascending from 2, then 1 (which makes every remainder 0); none when the
// facts' range is not evidence of possible values (an interval widened by a
// possible wrap-around) and the divisor is not a free value (an argument, a
// load).
std::vector<int64_t> Footprints::divisorValues(const Remainder& rem, OpId at, const std::vector<Place>& places) const {
  const ScalarFact* f = facts_.scalarAt(rem.divisor, at);
  if (!f || f->divisor == 0) return {};
  if (!f->loKnown && !f->hiKnown) {
    ValueId v = rem.divisor;
    for (const Operation* op = definingOp(p_, v); op && is(*op, OpKind::Assume); op = definingOp(p_, v))
      v = op->operands.empty() ? kNoId : op->operands[0].value;
    const Operation* def = definingOp(p_, v);
    bool argument = v != kNoId && p_.value(v).blockArg && p_.value(v).owner != kNoId &&
                    isFunction(p_.op(p_.value(v).owner));
    bool loaded = def && (is(*def, OpKind::LoadPtrTko) || is(*def, OpKind::LoadViewTko));
    if (!argument && !loaded) return {};
  }
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (const Place& p : places)
    if (!p.possible && !p.values.empty() && p.values.back() && *p.values.back() >= 0) {
      lo = std::min(lo, *p.values.back());
      hi = std::max(hi, *p.values.back());
    }
  if (lo > hi) return {};
  int64_t step = f->divisor < 0 ? -f->divisor : f->divisor;
  std::vector<int64_t> out;
  int64_t first = std::max<int64_t>(f->range.lo, 2);
  first += (step - first % step) % step;
  for (int64_t d = first; d <= std::min(f->range.hi, hi - lo) && out.size() < kRemainderTries; d += step) out.push_back(d);
  if (f->range.contains(1) && step == 1) out.push_back(1);
  return out;
}

bool Footprints::indicesComputable(const Access& a) const {
  return std::all_of(a.indices.begin(), a.indices.end(), [&](ValueId i) { return executions_.computable(i); });
}

bool Footprints::tilesDisjoint(const Access& a) const {
  const auto& space = facts_.indexSpace(a.view);
  if (!space) return false;
  for (const views::IndexDim& d : space->dims)
    if (d.sparse || d.step < d.tile) return false;
  return apart(a, 0);
}

// Whether a's view lays out the same memory in every tile block: its
// tensor_view's base pointer and dynamic strides are uniform (a row slice at
// a loaded offset is a different tensor in each block).
bool Footprints::sameMemoryInEveryBlock(const Access& a) const {
  auto [it, fresh] = sameMemory_.try_emplace(a.view, false);
  if (!fresh) return it->second;
  auto argument = [&](ValueId v) { return v != kNoId && p_.value(v).blockArg; };
  if (argument(a.view)) return it->second = true;
  const Operation* mk = definingOp(p_, a.view);
  ValueId tv = mk && !mk->operands.empty() ? mk->operands[0].value : kNoId;
  if (argument(tv)) return it->second = true;
  const Operation* mtv = definingOp(p_, tv);
  if (!mtv || !is(*mtv, OpKind::MakeTensorView)) return false;
  const TileFact* f = facts_.tile(operands::base(*mtv));
  if (!f || (!f->base.exact() && !f->base.affine)) return false;
  if (!f->base.exact())
    for (const auto& [sym, c] : f->base.affine->terms)
      if (!uniform(sym)) return false;
  for (const Operand& o : operands::dynamicStrides(*mtv))
    if (!uniform(o.value)) return false;
  return it->second = true;
}

// Views of one source: the tile indices in each execution of either side;
// a dimension that no execution fixes must be the same uniform form on both.
Footprints::BlockResult Footprints::tilesAcross(const Access& a, const Access& b,
                                                llvm::function_ref<bool(const Block&, const Block&)> ordered,
                                                bool eitherA, bool eitherB) const {
  if (!sameMemoryInEveryBlock(a)) return {};
  llvm::SmallVector<ValueId, 4> ia, ib;
  std::vector<size_t> computed;
  for (size_t i = 0; i < a.indices.size(); ++i) {
    if (executions_.computable(a.indices[i]) && executions_.computable(b.indices[i])) {
      computed.push_back(i);
      ia.push_back(a.indices[i]);
      ib.push_back(b.indices[i]);
    } else if (!a.forms[i] || !b.forms[i] || !(*a.forms[i] == *b.forms[i]) || !uniform(a.indices[i])) {
      return {};
    }
  }
  const Reached &ra = reached(a, ia, eitherA), &rb = reached(b, ib, eitherB);
  std::map<std::vector<int64_t>, llvm::SmallVector<size_t, 4>> byTile;
  auto key = [](const Place& p, std::vector<int64_t>& out) {
    out.clear();
    for (const auto& v : p.values) {
      if (!v) return false;  // a division by zero there: no tile
      out.push_back(*v);
    }
    return true;
  };
  std::vector<int64_t> k;
  for (size_t i = 0; i < ra.places.size(); ++i)
    if (key(ra.places[i], k) && byTile[k].size() < 4) byTile[k].push_back(i);
  BlockResult best;
  for (const Place& pb : rb.places) {
    if (!key(pb, k)) continue;
    auto it = byTile.find(k);
    if (it == byTile.end()) continue;
    for (size_t i : it->second) {
      Overlap o = ra.places[i].possible || pb.possible ? Overlap::May : Overlap::Must;
      if (o <= best.kind) continue;
      auto blocks = distinctBlocks(ra.places[i], pb, ordered);
      if (!blocks) continue;
      std::vector<std::string> dims;
      for (size_t d = 0, c = 0; d < a.indices.size(); ++d)
        dims.push_back(c < computed.size() && computed[c] == d ? std::to_string(k[c++])
                                                               : std::string(p_.value(a.indices[d]).name));
      best = {o, blocks->first, blocks->second, tileText(a, dims), ra.places[i].eitherArm, pb.eitherArm, ""};
      if (o == Overlap::Must) return best;
    }
  }
  return best;
}

// Pointer accesses of one root: the box offsets in each execution (the terms
// no execution fixes must be the same uniform ones on both sides).
Footprints::BlockResult Footprints::boxesAcross(const Access& a, const Access& b,
                                                llvm::function_ref<bool(const Block&, const Block&)> ordered,
                                                bool eitherA, bool eitherB) const {
  auto split = [&](const Box& box, llvm::SmallVector<ValueId, 4>& computed, Affine& uniformPart) {
    uniformPart = Affine::constant(0);
    for (const auto& t : box.base.terms) {
      if (executions_.computable(t.first))
        computed.push_back(t.first);
      else if (uniform(t.first))
        uniformPart.terms.push_back(t);
      else
        return false;
    }
    return true;
  };
  llvm::SmallVector<ValueId, 4> ca, cb;
  Affine ua, ub;
  if (!split(*a.box, ca, ua) || !split(*b.box, cb, ub) || !(ua.terms == ub.terms)) return {};
  // A view's box is inexact only where its tile may be partial: with the
  // indices computed too, a place whose tile lies inside the tensor is exact.
  size_t na = ca.size(), nb = cb.size();
  auto withIndices = [&](const Access& x, llvm::SmallVector<ValueId, 4>& of) {
    if (x.box->exact || x.view == kNoId) return;
    for (ValueId i : x.indices)
      if (!executions_.computable(i)) return;
    of.append(x.indices.begin(), x.indices.end());
  };
  withIndices(a, ca);
  withIndices(b, cb);
  auto exactAt = [&](const Access& x, size_t n, const llvm::SmallVector<ValueId, 4>& of, const Place& p) {
    if (x.box->exact) return true;
    if (of.size() == n) return false;
    const auto& space = facts_.indexSpace(x.view);
    if (!space || space->dims.size() != of.size() - n) return false;
    for (size_t d = 0; d < space->dims.size(); ++d) {
      const auto& k = p.values[n + d];
      if (!k || *k < 0 || !space->dims[d].firstPartial || *k >= *space->dims[d].firstPartial) return false;
    }
    return true;
  };
  // The computed part of the offset in one place (`computed`: its terms, in order).
  auto offset = [](const Box& box, const llvm::SmallVector<ValueId, 4>& computed,
                   const Place& p) -> std::optional<int64_t> {
    __int128 o = box.base.c0;
    size_t i = 0;
    for (const auto& [sym, c] : box.base.terms) {
      if (i >= computed.size() || computed[i] != sym) continue;
      if (!p.values[i]) return std::nullopt;
      o += __int128(c) * *p.values[i++];
    }
    if (o < INT64_MIN || o > INT64_MAX) return std::nullopt;
    return static_cast<int64_t>(o);
  };
  const Reached &ra = reached(a, ca, eitherA), &rb = reached(b, cb, eitherB);
  BlockResult best;
  std::vector<std::pair<int64_t, size_t>> sorted;
  for (size_t i = 0; i < ra.places.size(); ++i)
    if (auto o = offset(*a.box, ca, ra.places[i])) sorted.push_back({*o, i});
  std::sort(sorted.begin(), sorted.end());
  Hull ha = hullOf(*a.box), hb = hullOf(*b.box);
  if (!ha.ok || !hb.ok) return {};
  for (const Place& pb : rb.places) {
    auto ob = offset(*b.box, cb, pb);
    if (!ob) continue;
    // a's box at offset x meets b's only if x lies within the hulls' reach.
    __int128 lo = __int128(*ob) + hb.lo - ha.hi - a.box->width, hi = __int128(*ob) + hb.hi + b.box->width - ha.lo;
    auto it = std::upper_bound(
        sorted.begin(), sorted.end(),
        std::pair<int64_t, size_t>(static_cast<int64_t>(std::max<__int128>(lo, INT64_MIN)), SIZE_MAX));
    for (int tries = 0; it != sorted.end() && it->first < hi && tries < 4; ++it, ++tries) {
      int64_t at = 0;
      const Place& pa = ra.places[it->second];
      Overlap o = pa.possible || pb.possible ? Overlap::May : Overlap::Must;
      if (o <= best.kind) continue;
      Box xa = *a.box, xb = *b.box;
      xa.exact = exactAt(a, na, ca, pa);
      xb.exact = exactAt(b, nb, cb, pb);
      if (intersect(xa, xb, *ob - it->first, at) != Overlap::Must) continue;
      auto blocks = distinctBlocks(ra.places[it->second], pb, ordered);
      if (!blocks) continue;
      Affine where = a.box->base;
      where.c0 = it->first;
      where.terms = ua.terms;
      best = {o,
              blocks->first,
              blocks->second,
              elementText(a.root, where, at),
              ra.places[it->second].eitherArm,
              pb.eitherArm,
              ""};
      if (o == Overlap::Must) return best;
    }
  }
  return best;
}

}  // namespace tilesight
