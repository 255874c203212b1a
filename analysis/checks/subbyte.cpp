// subbyte.align (DESIGN §5; seed 001 §5.2 and §5.6.5): sub-byte elements
// (f4E2M1FN, i4) are packed two per byte, element 2k in the low nibble, and a
// load or store must cover whole bytes: contiguous pairs starting on even
// element offsets.
//  - A tensor_view needs a dimension of unit stride (the packed dimension)
//    whose extent is even; and every other dimension must step by an even
//    number of elements, or its rows start inside a byte.
//  - A view must keep whole bytes along the packed dimension: an even tile
//    extent there, tiles starting on even elements (a strided view's
//    traversal stride), and gather/scatter indices along it in aligned pairs.
//  - A pointer tile must be provably base + offsets with a unit stride along
//    one dimension, even strides along the others and an even base; what
//    cannot be proved is rejected by the compiler (§5.2.1), so it is an error.
// The type rules already require an even element count for f4E2M1FN tiles,
// reject ptr<i4>, and check pack/unpack sizes (verify/); they are not repeated.
// Dynamic extents are not reported: their parity is a run-time fact.
#include "analysis/checks/checks.h"
#include "analysis/ir/ir_query.h"
#include "analysis/semantics/view_geometry.h"
#include "analysis/checks/value_facts.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/verify/verify_util.h"

namespace tilesight {

namespace {

using rules::OpRef;

// Constant tiles up to this many elements are read element by element.
constexpr size_t kMaxEnumerated = size_t{1} << 16;

// Elements per byte of a sub-byte element type, 0 for the others.
int64_t packFactor(Elem e) {
  unsigned bits = elemBits(e);
  return e != Elem::I1 && bits < 8 ? 8 / bits : 0;
}

std::string listText(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + (v[i] == kDynamic ? "?" : std::to_string(v[i]));
  return s + "]";
}

std::string coordText(size_t i, const std::vector<int64_t>& shape) {
  std::vector<int64_t> c(shape.size(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    c[k] = static_cast<int64_t>(i % static_cast<size_t>(shape[k]));
    i /= static_cast<size_t>(shape[k]);
  }
  if (c.size() == 1) return std::to_string(c[0]);
  std::string s = "(";
  for (size_t k = 0; k < c.size(); ++k) s += (k ? ", " : "") + std::to_string(c[k]);
  return s + ")";
}

// Known per-element offsets (row-major, `base` added) whose last dimension
// does not come in aligned pairs: the first pair that breaks it, as text;
// empty when every pair is (o, o + 1) with o even. Pairs along the last
// dimension are the ones a row-major offset table can pack.
std::string pairProblem(const std::vector<int64_t>& offs, const std::vector<int64_t>& shape,
                        const char* what) {
  size_t last = static_cast<size_t>(shape.back());
  for (size_t i = 0; i + 1 < offs.size(); i += 2) {
    if (last % 2 != 0) return std::string("the ") + what + " have an odd extent along their last dimension";
    if (offs[i] % 2 == 0 && offs[i + 1] == offs[i] + 1) continue;
    return std::string("positions ") + coordText(i, shape) + " and " + coordText(i + 1, shape) + " of the " +
           what + " hold " + std::to_string(offs[i]) + " and " + std::to_string(offs[i + 1]) +
           ", not a pair (2k, 2k + 1) sharing one byte";
  }
  return "";
}

// --- tensor_view ------------------------------------------------------------------

// The packed dimension of a sub-byte tensor_view, or the reason it has none
// that keeps whole bytes.
struct Packing {
  int64_t dim = -1;
  std::string problem;  // empty when the tensor_view is aligned
};

Packing packing(const Type& tv, int64_t factor) {
  std::string elem(elemName(tv.elem));
  std::string strides = listText(tv.strides), shape = listText(tv.shape);
  size_t rank = tv.shape.size();
  // Zero and negative strides are type errors the verifier reports.
  for (int64_t st : tv.strides)
    if (st != kDynamic && st <= 0) return {};
  // A unit-stride dimension; one of extent 1 only when no other has unit stride.
  int64_t u = -1;
  bool dynamic = false;
  for (size_t i = 0; i < rank; ++i) {
    dynamic |= tv.strides[i] == kDynamic;
    if (tv.strides[i] == 1 && (u < 0 || tv.shape[u] == 1)) u = static_cast<int64_t>(i);
  }
  std::string pairs = factor == 2 ? "pairs" : "groups of " + std::to_string(factor);
  if (u < 0)
    return {-1, elem + " elements are packed " + std::to_string(factor) +
                    " per byte, so the tensor_view needs a dimension of unit stride, but its strides are " +
                    strides + (dynamic ? " (a dynamic stride cannot be proved to be 1)" : "")};
  int64_t n = tv.shape[u];
  if (n != kDynamic && n % factor != 0)
    return {u, "the unit-stride dimension " + std::to_string(u) + " of the " + elem + " tensor_view (shape " +
                   shape + ", strides " + strides + ") has " + std::to_string(n) +
                   " elements, not a multiple of " + std::to_string(factor) +
                   ": its last byte would be split"};
  for (size_t i = 0; i < rank; ++i) {
    int64_t s = tv.strides[i], extent = tv.shape[i];
    if (static_cast<int64_t>(i) == u || s == kDynamic || extent == kDynamic || extent == 1 || s % factor == 0)
      continue;
    return {u, "dimension " + std::to_string(i) + " of the " + elem + " tensor_view steps by " +
                   std::to_string(s) + " elements (strides " + strides +
                   "), so its index 1 starts inside a byte; " + elem + " data must be addressed in " + pairs +
                   " on byte boundaries"};
  }
  return {u, ""};
}

// --- the check ----------------------------------------------------------------------

class SubbyteCheck final : public CheckPass {
public:
  SubbyteCheck(const CheckContext& cx, DiagSink& diags) : p_(cx.program), facts_(cx.facts), diags_(diags) {}

  void visit(OpId id) override {
    const Operation& op = p_.op(id);
    if (!op.info || op.broken) return;
    OpKind n = op.info->kind;
    OpRef o{p_, op};
    if (makesView(n))  // tensor_views and views
      definition(op.results.empty() ? kNoId : op.results[0], &op);
    else if (isFunction(op))
      arguments(op);
    else if (n == OpKind::LoadPtrTko)
      pointerAccess(o, LoadPtrTkoOp(op).sourceOperand(), "load");
    else if (n == OpKind::StorePtrTko)
      pointerAccess(o, StorePtrTkoOp(op).destinationOperand(), "store");
    else if (n == OpKind::LoadViewTko || n == OpKind::StoreViewTko)
      gatherAccess(o);
  }

private:
  void arguments(const Operation& fn) {
    for (const Region& r : fn.regions)
      for (const Block& b : r.blocks)
        for (ValueId a : b.args) definition(a, nullptr);
  }

  // Where a tensor_view or view value is defined: the strides written on
  // make_tensor_view, else its name.
  Range definitionRange(ValueId v, const Operation* op) const {
    if (!op) return p_.value(v).range;
    OpRef o{p_, *op};
    const Attr* strides = attrs::staticStrides(*op);
    return o.onOpLine(strides ? strides->range : op->nameRange);
  }

  void definition(ValueId v, const Operation* op) {
    TypeRef t = p_.typeOf(v);
    if (!t) return;
    if (t->kind == TypeKind::TensorView)
      tensorView(v, op, *t);
    else if (t->isView() && t->tensorView)
      view(v, op, *t);
  }

  void tensorView(ValueId v, const Operation* op, const Type& tv) {
    int64_t factor = packFactor(tv.elem);
    if (!factor || tv.shape.empty() || tv.shape.size() != tv.strides.size()) return;
    Packing pk = packing(tv, factor);
    if (!pk.problem.empty()) diags_.error(definitionRange(v, op), "subbyte.align", pk.problem);
  }

  // The tile of a view must keep whole bytes along the packed dimension.
  void view(ValueId v, const Operation* op, const Type& view) {
    const Type& tv = *view.tensorView;
    int64_t factor = packFactor(tv.elem);
    size_t rank = view.shape.size();
    if (!factor || rank == 0 || tv.shape.size() != rank || tv.strides.size() != rank) return;
    Packing pk = packing(tv, factor);
    if (!pk.problem.empty() || pk.dim < 0) return;  // reported on the tensor_view
    bool gather = view.kind == TypeKind::GatherScatterView;
    if (!gather && view.dimMap.size() != rank) return;
    int64_t i = -1;  // the tile dimension that walks the packed one
    for (size_t k = 0; k < rank; ++k)
      if (static_cast<int64_t>(semantics::walkedDim(view, k)) == pk.dim) i = static_cast<int64_t>(k);
    if (i < 0) return;
    std::string elem(elemName(tv.elem));
    std::string via =
        gather || view.dimMap[i] == i
            ? ""
            : " (dim_map " + listText(view.dimMap) + " sends tile dimension " + std::to_string(i) + " there)";
    Range at = op ? OpRef{p_, *op}.onOpLine(op->nameRange) : p_.value(v).range;
    int64_t extent = view.shape[i];
    if (extent % factor != 0) {
      diags_.error(at, "subbyte.align",
                   "the view's tile (" + shapeString(view.shape) + ") has " + std::to_string(extent) +
                       " element" + (extent == 1 ? "" : "s") +
                       " along the tensor_view's unit-stride dimension " + std::to_string(pk.dim) + via +
                       ", not a multiple of " + std::to_string(factor) +
                       ": each tile would split the bytes of the packed " + elem + " data");
      return;
    }
    if (view.kind != TypeKind::StridedView || view.strides.size() != rank) return;
    int64_t step = semantics::tileStep(view, static_cast<size_t>(i));
    if (step % factor != 0)
      diags_.error(at, "subbyte.align",
                   "the strided_view's tiles start every " + std::to_string(step) +
                       " elements along the tensor_view's unit-stride dimension " + std::to_string(pk.dim) +
                       via + " (traversal strides " + listText(view.strides) +
                       "), so tile 1 starts inside a byte of the packed " + elem + " data");
  }

  // A gather/scatter along the packed dimension selects single elements:
  // its indices must come in aligned runs (base + j with an even base).
  void gatherAccess(const OpRef& o) {
    TypeRef vt = p_.typeOf(operands::view(o.op));
    if (!vt || vt->kind != TypeKind::GatherScatterView || !vt->tensorView) return;
    const Type& tv = *vt->tensorView;
    int64_t factor = packFactor(tv.elem);
    if (!factor || tv.shape.size() != vt->shape.size() || tv.strides.size() != tv.shape.size()) return;
    Packing pk = packing(tv, factor);
    if (!pk.problem.empty() || pk.dim != vt->sparseDim) return;
    ValueId idx = valueAt(operands::index(o.op), static_cast<size_t>(vt->sparseDim));
    TypeRef it = p_.typeOf(idx);
    auto elems = constantInts(p_, idx, kMaxEnumerated);
    std::string what = "the gather/scatter indices select single elements along the unit-stride dimension " +
                       std::to_string(pk.dim) + " of packed " + std::string(elemName(tv.elem)) + " data";
    std::string problem = elems && it && !it->shape.empty() ? pairProblem(*elems, it->shape, "indices")
                                                            : runProblem(facts_.tile(idx), "indices");
    if (problem.empty()) return;
    const Operand* index = operandAt(operands::index(o.op), static_cast<size_t>(vt->sparseDim));
    Range at = index ? index->range : o.at();
    auto& d = diags_.error(o.onOpLine(at), "subbyte.align", what + "; " + problem);
    noteDefinition(d, idx, "the indices are defined here");
  }

  // Why a 1-d integer tile is not provably base + j with an even base (empty
  // when it is).
  static std::string runProblem(const TileFact* f, const char* what) {
    if (!f || f->pointer || f->shape.size() != 1 || !f->strides[0])
      return std::string("contiguity cannot be proved: the ") + what + " are not known to be consecutive";
    if (*f->strides[0] != 1)
      return std::string("the ") + what + " step by " + std::to_string(*f->strides[0]) + ", not 1";
    return baseProblem(f->base, std::string("the first of the ") + what);
  }

  // `first` names the offset of element 0 ("the first index").
  static std::string baseProblem(const ScalarFact& base, const std::string& first) {
    auto v = base.exact();
    if (base.divisor % 2 == 0 || (v && *v % 2 == 0)) return "";  // divisor 0: the base is 0
    if (v) return first + " is " + std::to_string(*v) + ", odd, so every pair straddles two bytes";
    return "contiguity cannot be proved: " + first +
           " is not known to be even (assume div_by<2> on it would say so)";
  }

  void noteDefinition(Diagnostic& d, ValueId v, const std::string& text) {
    if (v == kNoId) return;
    const Operation* def = definingOp(p_, v);
    d.notes.push_back({def ? def->nameRange : p_.value(v).range, text});
  }

  // load_ptr_tko / store_ptr_tko of sub-byte elements.
  void pointerAccess(const OpRef& o, const Operand* pointers, const char* verb) {
    ValueId ptr = pointers ? pointers->value : kNoId;
    TypeRef t = p_.typeOf(ptr);
    if (!t || !t->isPtrTile() || t->shape.empty()) return;
    Elem e = t->element->elem;
    int64_t factor = packFactor(e);
    if (!factor || e == Elem::I4) return;  // ptr<i4> is a type error already
    std::string problem = pointerProblem(ptr, t->shape, factor);
    if (problem.empty()) return;
    const Operand* at = pointers;
    std::string rule = " through pointers must address whole bytes (consecutive pairs of elements starting on "
                       "even offsets); ";
    auto& d = diags_.error(o.onOpLine(at ? at->range : o.at()), "subbyte.align",
                           "a " + std::string(verb) + " of " + std::string(elemName(e)) + rule + problem);
    noteDefinition(d, ptr, "the pointer tile is built here");
  }

  using Strides = llvm::SmallVector<std::optional<int64_t>, 4>;

  static std::string stridesText(const Strides& strides) {
    std::string s = "[";
    for (size_t k = 0; k < strides.size(); ++k)
      s += (k ? ", " : "") + (strides[k] ? std::to_string(*strides[k]) : std::string("?"));
    return s + "]";
  }

  // Offsets start + sum stride_k * e_k from a byte-aligned base: one
  // dimension must step by 1, the others by even amounts, from an even start.
  static std::string stridesProblem(const Strides& strides, const ScalarFact& start,
                                    const std::vector<int64_t>& shape, int64_t factor,
                                    const std::string& first) {
    std::string text = "the pointer tile's element strides are " + stridesText(strides);
    int64_t u = -1;
    bool unknown = false;
    for (size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] == 1) continue;
      if (!strides[k])
        unknown = true;
      else if (*strides[k] == 1 && u < 0)
        u = static_cast<int64_t>(k);
    }
    if (unknown) return "contiguity cannot be proved: " + text + " (? = not known)";
    if (u < 0) return text + ": no dimension steps by one element, so no two elements share a byte";
    for (size_t k = 0; k < shape.size(); ++k) {
      if (static_cast<int64_t>(k) == u || shape[k] == 1 || *strides[k] % factor == 0) continue;
      return text + ": dimension " + std::to_string(k) + " steps by the odd " + std::to_string(*strides[k]) +
             ", so its index 1 starts inside a byte";
    }
    return baseProblem(start, first);
  }

  // A pointer value is a byte address, so the pointers a tile derives from
  // (an argument, a global, or any pointer the program did not compute) are
  // aligned; what must be proved is the offsets added to them.
  std::string pointerProblem(ValueId ptr, const std::vector<int64_t>& shape, int64_t factor) const {
    const char* unknown =
        "contiguity cannot be proved: the pointer tile is not built from a base pointer plus "
        "known offsets";
    const TileFact* f = facts_.tile(ptr);
    if (!f || !f->pointer || f->strides.size() != shape.size()) return unknown;
    // offset %uniform, %offsets: one pointer plus offsets.
    const Operation* def = definingOp(p_, ptr);
    const TileFact* inner = nullptr;
    ValueId offsets = kNoId;
    if (def && def->info->kind == OpKind::Offset) {
      inner = facts_.tile(operands::ptr(*def));
      offsets = operands::offset(*def);
      if (inner && !inner->uniform()) inner = nullptr;
    }
    std::string root = f->root != kNoId ? std::string(p_.value(f->root).name) : "";
    if (inner && (inner->root == kNoId || !f->affine())) {
      std::string from = inner->root == kNoId ? "the offset of the base pointer"
                                              : "the offset of the base pointer from " + root;
      if (inner->root != kNoId)
        if (std::string b = baseProblem(inner->base, from); !b.empty()) return b;
      if (auto c = constantInts(p_, offsets, kMaxEnumerated)) return pairProblem(*c, shape, "offsets");
      const TileFact* o = facts_.tile(offsets);
      if (inner->root == kNoId && o && o->strides.size() == shape.size())
        return stridesProblem(o->strides, o->base, shape, factor, "the first offset");
    }
    if (f->root == kNoId) return unknown;
    return stridesProblem(f->strides, f->base, shape, factor, "the offset of element 0 from " + root);
  }

  const Program& p_;
  const ValueFacts& facts_;
  DiagSink& diags_;
};

}  // namespace

std::unique_ptr<CheckPass> subbyteCheck(const CheckContext& cx, DiagSink& diags) {
  return std::make_unique<SubbyteCheck>(cx, diags);
}

}  // namespace tilesight
