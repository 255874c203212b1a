// layout.overlap (DESIGN §5): one store that writes an address twice. A tile
// store is one write per element, in an order the memory model leaves open
// (reference/tileir.md §4), so two elements of one store that land on one
// address are a data race when the store is weak ("internal overlap in the
// destination tile", §7.12.2) and leave an unspecified value otherwise.
// Repeats come from:
//  - a view store whose tensor_view layout, restricted to one tile, is not
//    injective (decided exactly by the layout library, with a witness);
//  - a gather/scatter store whose row indices repeat;
//  - a pointer store whose pointer tile repeats an address (value_facts.h:
//    strides that collide, or constant offsets with a duplicate).
// Loads through repeats are fine. Atomic reductions (atomic_red_view_tko,
// atomic_rmw_tko other than xchg) are not reported: combining the elements
// that share an address is what they are for (a histogram, a row sum through
// a zero stride), and the result does not depend on the order. xchg and cas
// keep only one of the values, like a scoped store.
//
// Masks: a repeat is an error only when both elements are certainly written:
// no mask, a constant mask enabling both, or a mask known all-true. A mask
// that is not a constant may turn one of the two off, so the repeat is then a
// warning (a constant all-false mask writes nothing).
#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/checks/checks.h"
#include "analysis/ir/ir_query.h"
#include "analysis/checks/value_facts.h"
#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/layout/layout.h"
#include "analysis/semantics/view_geometry.h"
#include "analysis/verify/verify_util.h"

namespace tilesight {

namespace {

using rules::OpRef;
using Coord = std::vector<int64_t>;

// Enumerating per-element addresses (constant offsets, constant masks) is
// exact but linear in the tile; larger tiles go through the layout decision.
constexpr size_t kMaxEnumerated = size_t{1} << 16;
// How deep an andi tree of mask conjuncts is followed.
constexpr int kMaxMaskDepth = 8;

std::string join(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + (v[i] == kDynamic ? "?" : std::to_string(v[i]));
  return s + "]";
}

std::string coordText(const Coord& c) { return c.size() == 1 ? std::to_string(c[0]) : "(" + join(c) + ")"; }

// Row-major coordinates of flat element `i` of `shape` (the order of dense literals).
Coord coordOf(size_t i, const std::vector<int64_t>& shape) {
  Coord c(shape.size(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    c[k] = static_cast<int64_t>(i % static_cast<size_t>(shape[k]));
    i /= static_cast<size_t>(shape[k]);
  }
  return c;
}

// The op defining `v` (nullptr for block arguments and unknown values).
bool isOp(const Operation* op, OpKind k) { return op && op->info && op->info->kind == k; }

// The first two positions of `v` with one value (nullopt when all differ).
std::optional<std::pair<size_t, size_t>> firstDuplicate(const std::vector<int64_t>& v,
                                                        const std::vector<bool>* enabled = nullptr) {
  std::unordered_map<int64_t, size_t> seen;
  seen.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (enabled && !(*enabled)[i]) continue;
    auto [it, fresh] = seen.emplace(v[i], i);
    if (!fresh) return std::pair{it->second, i};
  }
  return std::nullopt;
}

// --- what a repeat means for the op ----------------------------------------------

enum class MaskState { AllOn, AllOff, Constant, Unknown };

struct Mask {
  MaskState state = MaskState::AllOn;
  std::vector<bool> enabled;  // Constant: per element, row-major
};

Mask maskOf(const Program& p, const OpRef& o) {
  ValueId m = operands::mask(o.op);
  if (m == kNoId) return {};
  auto elems = constantInts(p, m, kMaxEnumerated);
  if (!elems) return {MaskState::Unknown, {}};
  bool any = false, all = true;
  std::vector<bool> on(elems->size());
  for (size_t i = 0; i < on.size(); ++i) {
    on[i] = (*elems)[i] != 0;
    any |= on[i];
    all &= on[i];
  }
  if (all) return {};
  if (!any) return {MaskState::AllOff, {}};
  return {MaskState::Constant, std::move(on)};
}

// The severity and the consequence clause of a repeat on `o`; nullopt when a
// repeat is harmless there (atomic reductions).
struct Consequence {
  Severity severity;
  std::string text;
};

std::optional<Consequence> consequenceOf(const OpRef& o, bool maybeMasked) {
  OpKind name = o.op.info->kind;
  std::optional<Consequence> c;
  if (name == OpKind::AtomicCasTko || (name == OpKind::AtomicRmwTko && attrValue<AtomicMode>(o.op, attr_names::mode) == AtomicMode::Xchg)) {
    c = Consequence{Severity::Warning,
                    "the two atomic operations run in an unspecified order, so which value "
                    "remains (and what each returns) depends on it"};
  } else if (name == OpKind::StoreViewTko || name == OpKind::StorePtrTko) {
    if (orderingOf(o.op) == MemoryOrdering::Weak)
      c = Consequence{Severity::Error,
                      "a weak store that writes one address twice races with itself (memory "
                      "model: internal overlap in the destination tile)"};
    else
      c = Consequence{Severity::Warning,
                      "the element writes of one store are unordered, so which of the two "
                      "values remains is unspecified"};
  }
  if (c && maybeMasked) {
    c->severity = Severity::Warning;
    c->text += ", unless the mask turns one of them off";
  }
  return c;
}

// --- a found repeat --------------------------------------------------------------

struct Repeat {
  Coord a, b;                            // two coordinates of the written tile
  std::string where;                     // the shared address, as text
  std::string why;                       // which facts make them collide
  std::optional<std::string> condition;  // when it holds only for some tensor sizes
  std::vector<RelatedNote> notes;
};

class OverlapCheck final : public CheckPass {
public:
  OverlapCheck(const CheckContext& cx, DiagSink& diags)
      : p_(cx.program), facts_(cx.facts), budget_(cx.layoutBudget), diags_(diags) {}

  void visit(OpId id) override {
    const Operation& op = p_.op(id);
    if (!op.info || op.broken) return;
    OpKind n = op.info->kind;
    OpRef o{p_, op};
    if (n == OpKind::StoreViewTko)
      viewStore(o);
    else if (n == OpKind::StorePtrTko)
      pointerStore(o, operands::destinationOperand(op));
    else if (n == OpKind::AtomicRmwTko || n == OpKind::AtomicCasTko)
      pointerStore(o, operands::pointersOperand(op));
  }

private:
  // `at`: the operand the message points at.
  void report(const OpRef& o, const Operand* at, const std::vector<int64_t>& shape, Repeat r, bool maybeMasked) {
    auto c = consequenceOf(o, maybeMasked);
    if (!c) return;
    if (r.condition) c->severity = Severity::Warning;
    Range range = o.onOpLine(at ? at->range : o.at());
    std::string tile = shape.size() == 1 ? std::to_string(shape[0]) + "-element" : shapeString(shape);
    std::string cond = r.condition ? ", " + *r.condition : "";
    std::string msg = o.name() + " writes elements " + coordText(r.a) + " and " + coordText(r.b) +
                      " of its " + tile + " tile to one address (" + r.where + ")" + cond + ": " + r.why +
                      "; " + c->text;
    Diagnostic& d = diags_.add(c->severity, range, "layout.overlap", std::move(msg));
    d.notes = std::move(r.notes);
  }

  // --- view stores -----------------------------------------------------------------

  // Where a note about the tensor_view's strides points: the strides written
  // on make_tensor_view, else the view or tensor_view declared as an argument.
  std::optional<RelatedNote> stridesNote(ValueId view, const std::vector<int64_t>& known) {
    std::string strides = listText(known);
    const Operation* mk = definingOp(p_, view);
    if (mk && mk->info->category == OpCategory::View && !mk->operands.empty()) {
      ValueId tvValue = mk->operands[0].value;
      const Operation* mtv = definingOp(p_, tvValue);
      const Attr* written = isOp(mtv, OpKind::MakeTensorView) ? attrs::staticStrides(*mtv) : nullptr;
      if (written) return RelatedNote{written->range, "the tensor_view gets strides " + strides + " here"};
      if (tvValue != kNoId)
        return RelatedNote{p_.value(tvValue).range,
                           "the tensor_view (strides " + strides + ") is declared here"};
    }
    if (view != kNoId)
      return RelatedNote{p_.value(view).range,
                         "the view over a tensor_view with strides " + strides + " is declared here"};
    return std::nullopt;
  }

  void viewStore(const OpRef& o) {
    ValueId view = operands::view(o.op);
    TypeRef vt = p_.typeOf(view);
    if (!vt || !vt->isView() || !vt->tensorView) return;
    const Type& v = *vt;
    const Type& tv = *v.tensorView;
    size_t rank = v.shape.size();
    if (rank == 0 || tv.shape.size() != rank || tv.strides.size() != rank) return;
    bool gather = v.kind == TypeKind::GatherScatterView;
    if (!gather && v.dimMap.size() != rank) return;
    // Zero and negative static strides are type errors the verifier reports.
    if (std::any_of(tv.strides.begin(), tv.strides.end(), [](int64_t s) { return s != kDynamic && s <= 0; }))
      return;
    std::vector<int64_t> strides = facts_.tensorStrides(view), shape = facts_.tensorShape(view);
    if (strides.size() != rank || shape.size() != rank) return;
    if (gather && gatherDuplicate(o, v)) return;
    // One mode per tile dimension: the tile's extent (cut to the tensor's size,
    // past which elements are masked) with the stride of the tensor dim it walks.
    std::vector<int64_t> ext(rank, 1), stride(rank, 0), tdim(rank, 0);
    std::optional<int64_t> indexStep;  // gather/scatter: the step of the indices, when known
    for (size_t i = 0; i < rank; ++i) {
      int64_t t = static_cast<int64_t>(semantics::walkedDim(v, i));
      if (t < 0 || t >= static_cast<int64_t>(rank)) return;
      tdim[i] = t;
      int64_t s = strides[t];
      if (s == kDynamic) continue;  // an unknown stride: leave the dimension out
      ext[i] = shape[t] == kDynamic ? v.shape[i] : semantics::elementsInside(0, v.shape[i], shape[t]);
      stride[i] = s;
      if (gather && static_cast<int64_t>(i) == v.sparseDim) {
        indexStep = sparseMode(o, v, ext[i], stride[i]);
        if (!indexStep) ext[i] = 1;  // unknown indices: leave the dimension out
      }
    }
    auto hit = collision(ext, stride);
    if (!hit) return;
    Repeat r;
    r.a = hit->first;
    r.b = hit->second;
    r.where = "element " + std::to_string(semantics::elementOffset(r.a, stride)) + " from the tile's start";
    r.why = "the tensor_view's strides " + listText(strides) + " map both there";
    if (!isIdentity(tdim)) r.why += " (tile dimensions walk tensor dimensions " + listText(tdim) + ")";
    if (indexStep && *indexStep == 0)
      r.why = "the gather/scatter indices are all equal (they step by 0)";
    else if (indexStep)
      r.why = "the gather/scatter indices step by " + std::to_string(*indexStep) + " and " + r.why;
    r.condition = dynamicCondition(v, shape, tdim, r.a, r.b);
    if (auto n = stridesNote(view, strides)) r.notes.push_back(*n);
    report(o, operands::viewOperand(o.op), v.shape, std::move(r), false);
  }

  static bool isIdentity(const std::vector<int64_t>& m) {
    for (size_t i = 0; i < m.size(); ++i)
      if (m[i] != static_cast<int64_t>(i)) return false;
    return true;
  }

  // A collision needs both coordinates inside the tensor; along a dynamic
  // dimension that the facts do not pin, that is a condition on its size.
  static std::optional<std::string> dynamicCondition(const Type& v, const std::vector<int64_t>& shape,
                                                     const std::vector<int64_t>& tdim, const Coord& a,
                                                     const Coord& b) {
    std::string cond;
    for (size_t i = 0; i < v.shape.size(); ++i) {
      int64_t need = std::max(a[i], b[i]);
      if (shape[tdim[i]] != kDynamic || need == 0) continue;
      cond += std::string(cond.empty() ? "if " : " and ") + "tensor dimension " + std::to_string(tdim[i]) +
              " has at least " + std::to_string(need + 1) + " elements";
    }
    return cond.empty() ? std::nullopt : std::optional(cond);
  }

  // The sparse dimension of a gather/scatter store as a layout mode: index
  // tiles base + a*j select rows a apart. Returns a; nullopt when unknown.
  std::optional<int64_t> sparseMode(const OpRef& o, const Type& v, int64_t& ext, int64_t& stride) {
    const TileFact* f = facts_.tile(valueAt(operands::index(o.op), static_cast<size_t>(v.sparseDim)));
    if (!f || f->pointer || f->shape.size() != 1 || !f->strides[0]) return std::nullopt;
    int64_t s = layout::satMul(*f->strides[0], stride);
    if (s == INT64_MAX || s == INT64_MIN) return std::nullopt;
    ext = f->shape[0];
    stride = s;
    return f->strides[0];
  }

  // Constant gather/scatter indices with a repeated (in-bounds) value.
  bool gatherDuplicate(const OpRef& o, const Type& v) {
    if (v.sparseDim < 0 || v.sparseDim >= static_cast<int64_t>(v.shape.size())) return false;
    size_t s = static_cast<size_t>(v.sparseDim);
    ValueId idx = valueAt(operands::index(o.op), s);
    auto elems = constantInts(p_, idx, kMaxEnumerated);
    if (!elems) return false;
    int64_t size = v.tensorView->shape[s];
    std::vector<bool> inside(elems->size());
    for (size_t i = 0; i < inside.size(); ++i)
      inside[i] = (*elems)[i] >= 0 && (size == kDynamic || (*elems)[i] < size);
    auto dup = firstDuplicate(*elems, &inside);
    if (!dup) return false;
    int64_t row = (*elems)[dup->first];
    Repeat r;
    r.a = Coord(v.shape.size(), 0);
    r.b = r.a;
    r.a[s] = static_cast<int64_t>(dup->first);
    r.b[s] = static_cast<int64_t>(dup->second);
    r.where = "row " + std::to_string(row) + " of tensor dimension " + std::to_string(s);
    r.why = "the gather/scatter indices hold " + std::to_string(row) + " at positions " +
            std::to_string(dup->first) + " and " + std::to_string(dup->second) +
            (v.shape.size() > 1 ? ", so every element of those two slices goes to one address" : "");
    const Operation* def = definingOp(p_, idx);
    const Attr* lit = def ? attrs::value(*def) : nullptr;
    if (lit) r.notes.push_back({lit->range, "the indices are defined here"});
    report(o, operandAt(operands::index(o.op), 0), v.shape, std::move(r), false);
    return true;
  }

  // Two coordinates of the layout ext:stride with one offset, when there are.
  // Memoized: programs store through the same few layouts many times.
  std::optional<std::pair<Coord, Coord>> collision(const std::vector<int64_t>& ext,
                                                   const std::vector<int64_t>& stride) {
    std::vector<int64_t> key = ext;
    key.insert(key.end(), stride.begin(), stride.end());
    auto [it, fresh] = decided_.try_emplace(std::move(key));
    if (!fresh) return it->second;
    std::vector<layout::IntTuple> s(ext.begin(), ext.end()), d(stride.begin(), stride.end());
    layout::Layout l = ext.size() == 1
                           ? layout::Layout{ext[0], stride[0]}
                           : layout::Layout{layout::IntTuple::tuple(s), layout::IntTuple::tuple(d)};
    layout::Properties props = layout::decide(l, budget_.next());
    budget_.charge(props);
    if (props.decided && !props.injective && props.collision)
      it->second =
          std::pair{layout::leaves(props.collision->coord1), layout::leaves(props.collision->coord2)};
    return it->second;
  }

  // --- pointer stores ----------------------------------------------------------------

  // Per-element offsets (row-major) of a pointer tile from its element 0, for
  // tiles small enough to enumerate: affine facts, and `offset` ops adding a
  // constant tile to enumerable pointers.
  std::optional<std::vector<int64_t>> elementOffsets(ValueId ptr, int depth = 0) {
    const TileFact* f = facts_.tile(ptr);
    TypeRef t = p_.typeOf(ptr);
    if (!f || !t || static_cast<size_t>(t->numElements()) > kMaxEnumerated) return std::nullopt;
    size_t n = static_cast<size_t>(t->numElements());
    std::vector<int64_t> out(n, 0);
    if (f->affine()) {
      for (size_t i = 0; i < n; ++i) {
        Coord c = coordOf(i, t->shape);
        for (size_t k = 0; k < c.size(); ++k) out[i] += c[k] * *f->strides[k];
      }
      return out;
    }
    const Operation* def = definingOp(p_, ptr);
    if (!isOp(def, OpKind::Offset) || depth > 8) return std::nullopt;
    auto inner = elementOffsets(operands::ptr(*def), depth + 1);
    auto add = constantInts(p_, operands::offset(*def), kMaxEnumerated);
    if (!inner || !add || inner->size() != n || add->size() != n) return std::nullopt;
    for (size_t i = 0; i < n; ++i) out[i] = (*inner)[i] + (*add)[i] - (*add)[0];
    return out;
  }

  // "%p + 64*%bid + 3" for the pointer tile's element offset `off` from element 0.
  std::string addressText(const TileFact& f, int64_t off) const {
    std::string root = f.root != kNoId ? std::string(p_.value(f.root).name) : "";
    if (!f.base.affine) {
      std::string s = "the address of element 0";
      if (off) s += (off > 0 ? " + " : " - ") + std::to_string(off < 0 ? -off : off);
      return s;
    }
    std::string s = root.empty() ? "base" : root;
    for (const auto& [sym, coeff] : f.base.affine->terms)
      s += (coeff < 0 ? " - " : " + ") +
           (coeff == 1 || coeff == -1 ? "" : std::to_string(coeff < 0 ? -coeff : coeff) + "*") +
           std::string(p_.value(sym).name);
    int64_t c = f.base.affine->c0 + off;
    if (c) s += (c > 0 ? " + " : " - ") + std::to_string(c < 0 ? -c : c);
    return s;
  }

  std::string stridesText(const TileFact& f) const {
    std::string s = "[";
    for (size_t k = 0; k < f.strides.size(); ++k)
      s += (k ? ", " : "") + (f.strides[k] ? std::to_string(*f.strides[k]) : std::string("?"));
    return s + "]";
  }

  // `pointers`: the operand holding the written pointers.
  void pointerStore(const OpRef& o, const Operand* pointers) {
    ValueId ptr = pointers ? pointers->value : kNoId;
    TypeRef t = p_.typeOf(ptr);
    const TileFact* f = facts_.tile(ptr);
    if (!t || !t->isPtrTile() || t->shape.empty() || !f || !f->pointer ||
        f->strides.size() != t->shape.size())
      return;
    Mask mask = maskOf(p_, o);
    if (mask.state == MaskState::AllOff) return;
    // A constant mask needs the element addresses; without them it is as good
    // as an unknown one.
    std::optional<std::vector<int64_t>> offs;
    if (mask.state == MaskState::Constant) offs = elementOffsets(ptr);
    bool maybeMasked = mask.state == MaskState::Unknown || (mask.state == MaskState::Constant && !offs);
    std::optional<Repeat> r;
    if (offs) {
      r = enumeratedRepeat(*offs, *f, t->shape, &mask.enabled);
    } else {
      std::vector<int64_t> limit = t->shape;
      if (mask.state == MaskState::Unknown) maskLimits(operands::mask(o.op), limit);
      r = strideRepeat(*f, limit);
      // Unknown strides: constant offsets may still repeat.
      if (!r && !f->affine()) offs = elementOffsets(ptr);
      if (offs) r = enumeratedRepeat(*offs, *f, t->shape, nullptr);
    }
    if (!r) return;
    const Operation* def = definingOp(p_, ptr);
    if (def)
      r->notes.push_back({def->nameRange, "the pointer tile is built here"});
    else
      r->notes.push_back({p_.value(ptr).range, "the pointer tile is declared here"});
    report(o, pointers, t->shape, std::move(*r), maybeMasked);
  }

  // Per dimension of the written tile, how many leading coordinates `mask` can
  // enable (`limit` starts at the tile's shape and only shrinks). cuTile's
  // bounds mask of gather/scatter is an andi of `cmpi less_than %i, %n` with
  // %i = base + e_k (stride 1 along one dimension k, 0 along the others) and
  // %n equal in every element: it enables only e_k < max(%n) - min(base), so
  // the columns past a row's end, which alias the next row, are never written.
  void maskLimits(ValueId mask, std::vector<int64_t>& limit, int depth = 0) const {
    const Operation* def = definingOp(p_, mask);
    if (!def || !def->info || def->operands.size() != 2 || depth > kMaxMaskDepth) return;
    if (def->info->kind == OpKind::Andi) {
      for (const Operand& x : def->operands) maskLimits(x.value, limit, depth + 1);
      return;
    }
    if (def->info->kind != OpKind::Cmpi || predicateOf(*def) != Predicate::LessThan) return;
    const TileFact* i = facts_.tile(def->operands[0].value);
    const TileFact* n = facts_.tile(def->operands[1].value);
    if (!i || !n || i->pointer || !n->uniform() || i->strides.size() != limit.size()) return;
    // Unsigned, a negative %n is a huge bound; a non-negative one also keeps %i >= 0.
    if (signednessOf(*def) == Signedness::Unsigned && n->base.range.lo < 0) return;
    std::optional<size_t> dim;
    for (size_t k = 0; k < i->strides.size(); ++k) {
      if (!i->strides[k] || (*i->strides[k] != 0 && (*i->strides[k] != 1 || dim))) return;
      if (*i->strides[k] == 1) dim = k;
    }
    if (!dim) return;
    __int128 room = static_cast<__int128>(n->base.range.hi) - i->base.range.lo;
    limit[*dim] = static_cast<int64_t>(std::clamp<__int128>(room, 0, limit[*dim]));
  }

  // Known strides that collide: decided on the layout shape:strides of the
  // dimensions whose stride is known (the others held at 0), over the leading
  // `shape` coordinates of each (the tile's shape, or less where a mask limits it).
  std::optional<Repeat> strideRepeat(const TileFact& f, const std::vector<int64_t>& shape) {
    std::vector<int64_t> ext(shape.size(), 1), stride(shape.size(), 0);
    for (size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] == 0) return std::nullopt;  // the mask enables no element
      if (f.strides[k]) ext[k] = shape[k], stride[k] = *f.strides[k];
    }
    auto hit = collision(ext, stride);
    if (!hit) return std::nullopt;
    Repeat r;
    r.a = hit->first;
    r.b = hit->second;
    int64_t off = 0;
    for (size_t k = 0; k < shape.size(); ++k) off += r.a[k] * stride[k];
    r.where = addressText(f, off);
    r.why = "the pointer tile's element strides are " + stridesText(f);
    for (size_t k = 0; k < shape.size(); ++k)
      if (f.strides[k] == 0 && shape[k] > 1) {
        r.why += ", so it repeats every address along dimension " + std::to_string(k);
        break;
      }
    return r;
  }

  std::optional<Repeat> enumeratedRepeat(const std::vector<int64_t>& offs, const TileFact& f,
                                         const std::vector<int64_t>& shape,
                                         const std::vector<bool>* enabled) {
    if (enabled && enabled->size() != offs.size()) return std::nullopt;
    auto dup = firstDuplicate(offs, enabled);
    if (!dup) return std::nullopt;
    Repeat r;
    r.a = coordOf(dup->first, shape);
    r.b = coordOf(dup->second, shape);
    r.where = addressText(f, offs[dup->first]);
    r.why = f.affine() ? "the pointer tile's element strides are " + stridesText(f)
                       : "the pointer offsets repeat element offset " + std::to_string(offs[dup->first]) +
                             " from element 0";
    if (enabled) r.why += ", and the constant mask enables both";
    return r;
  }

  const Program& p_;
  const ValueFacts& facts_;
  layout::WorkBudget& budget_;
  DiagSink& diags_;
  std::map<std::vector<int64_t>, std::optional<std::pair<Coord, Coord>>> decided_;
};

}  // namespace

std::unique_ptr<CheckPass> overlapCheck(const CheckContext& cx, DiagSink& diags) {
  return std::make_unique<OverlapCheck>(cx, diags);
}

}  // namespace tilesight
