// The soundness harness (fact_checker.h): each fact against the values the
// interpreter computed. Numbers are compared in 128 bits, so no comparison
// wraps.
#include "codegen/soundness/fact_checker.h"

#include "analysis/checks/value_facts.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/semantics/int_ops.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/elements.h"
#include "codegen/runtime/element_bits.h"

namespace tilesight::interp {

namespace {

using Wide = __int128;

std::string wideText(Wide v) {
  if (v >= INT64_MIN && v <= INT64_MAX) return std::to_string(static_cast<int64_t>(v));
  return v < 0 ? "below -2^63" : "above 2^63";
}

bool trivialRange(const Interval& r, unsigned bits) { return r.lo <= minOf(bits) && r.hi >= maxOf(bits); }

// The integer tile a value holds, when it is one with the elements of its type.
const Tile* intTile(const BlockExec& x, ValueId v) {
  const auto* ref = std::get_if<TileRef>(&x.value(v));
  if (!ref || !*ref || (*ref)->store != Store::Int) return nullptr;
  TypeRef t = x.typeOf(v);
  return t && (*ref)->n == t->numElements() ? ref->get() : nullptr;
}

// The pointee of a pointer tile type.
Elem pointee(TypeRef t) { return t->element->elem; }

// What element k of an integer or pointer tile is as a number the facts speak
// of: integers as signed values of their width (i1 true is -1), pointers as
// their address in nibbles (4-bit pointees count nibbles, others bytes).
Wide numberAt(const Tile& t, TypeRef type, int64_t k) {
  int64_t raw = t.ints()[k];
  if (!type->isPtrTile()) return signedOf(intBits(t.elem), raw);
  return Wide(static_cast<uint64_t>(raw)) * (runtime::nibblePointers(pointee(type)) ? 1 : 2);
}

// Nibbles per pointee element in memory (an i1 takes a byte).
Wide pointeeNibbles(TypeRef type) { return shadowWidth(pointee(type)); }

// Whether `assume`'s predicate fails for the value it passes on: the
// program's undefined behaviour (bounded<lo, hi>, div_by<n>), not a wrong fact.
bool assumeFails(const BlockExec& x, const Operation& op) {
  const Attr* pred = attrs::predicate(op);
  const Tile* t = op.results.empty() ? nullptr : intTile(x, op.results[0]);
  if (!pred || pred->kind != AttrKind::Keyword || !t || t->type->isPtrTile()) return false;
  const Attr *lb = pred->get("lb"), *ub = pred->get("ub"), *d = pred->get("divisor");
  bool divBy = pred->s == "div_by" && !pred->get("every") && d && d->kind == AttrKind::Int && d->i > 0;
  for (int64_t k = 0; k < t->n; ++k) {
    Wide v = numberAt(*t, t->type, k);
    if (pred->s == "bounded" && ((lb && lb->kind == AttrKind::Int && v < lb->i) || (ub && ub->kind == AttrKind::Int && v > ub->i)))
      return true;
    if (divBy && v % d->i != 0) return true;
  }
  return false;
}

// The value of an affine form on the current values of its symbols; nullopt
// when a symbol holds no integer now or a product leaves 128 bits.
std::optional<Wide> evaluate(const BlockExec& x, const Affine& form) {
  Wide sum = form.c0;
  for (const auto& [sym, coeff] : form.terms) {
    const Tile* t = intTile(x, sym);
    if (!t || t->type->isPtrTile() || t->n < 1) return std::nullopt;
    Wide term;
    if (__builtin_mul_overflow(Wide(coeff), numberAt(*t, t->type, 0), &term) ||
        __builtin_add_overflow(sum, term, &sum))
      return std::nullopt;
  }
  return sum;
}

bool mentions(const Affine& form, ValueId v) {
  for (const auto& term : form.terms)
    if (term.first == v) return true;
  return false;
}

}  // namespace

CheckOptions launchCheckOptions(const Program& program, const Operation& entry, const std::array<int64_t, 3>& grid,
                                const std::vector<RtValue>& args) {
  CheckOptions o;
  o.grid = grid;
  if (entry.regions.empty() || entry.regions[0].blocks.empty()) return o;
  const auto& params = entry.regions[0].blocks[0].args;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    TypeRef t = program.typeOf(params[i]);
    const auto* ref = std::get_if<TileRef>(&args[i]);
    if (!t || !t->isTile() || !t->shape.empty() || t->isPtrTile() || !isIntElem(t->tileElem()) || !ref) continue;
    std::string_view name = program.value(params[i]).name;
    o.args.push_back({name.size() > 1 ? std::string(name.substr(1)) : std::to_string(i),
                      signedOf(elemBits(t->tileElem()), (*ref)->ints()[0])});
  }
  return o;
}

FactChecker::FactChecker(const Program& program, CheckOptions options)
    : program_(program), options_(std::move(options)),
      facts_(std::make_unique<ValueFacts>(program, options_)), text_(std::string(program.source)) {
  for (const CheckUnit& u : checkUnits(program)) facts_->build(u.op, u.end);
}

FactChecker::~FactChecker() = default;

void FactChecker::afterOp(const BlockExec& x, const Operation& op) {
  if (x.lanes() != 1 || !falseAssume_.empty()) return;  // a reduce or scan body: a slice of lanes per value
  OpId id = static_cast<OpId>(&op - program_.ops.data());
  if (op.info->kind == OpKind::Assume && assumeFails(x, op)) {
    falseAssume_ = placeOf(op);
    return;
  }
  for (ValueId r : op.results)
    if (const TileFact* f = facts_->tile(r)) checkValue(x, r, *f, id, "");
  // What an `if` region narrowed holds where the region uses it.
  for (const Operand& o : op.operands) {
    const TileFact* seen = facts_->tileAt(o.value, id);
    if (seen && seen != facts_->tile(o.value)) checkValue(x, o.value, *seen, id, " (as narrowed for this use)");
  }
}

void FactChecker::afterBlockArgs(const BlockExec& x, const Block& block) {
  if (x.lanes() != 1 || !falseAssume_.empty()) return;
  for (ValueId a : block.args)
    if (const TileFact* f = facts_->tile(a)) checkValue(x, a, *f, program_.value(a).owner, "");
}

void FactChecker::checkValue(const BlockExec& x, ValueId v, const TileFact& f, OpId at, const char* how) {
  const Tile* t = intTile(x, v);  // the fact's shape is the value type's
  if (!t || t->type->isPtrTile() != f.pointer) return;
  checkStrides(v, f, *t, at, how);
  checkScalar(x, v, f, *t, at, how);
}

// Strides: element e differs from e - unit_k by stride_k (in bits for pointers).
void FactChecker::checkStrides(ValueId v, const TileFact& f, const Tile& t, OpId at, const char* how) {
  size_t rank = f.shape.size();
  Wide scale = f.pointer ? pointeeNibbles(t.type) : 1;
  bool any = false;
  for (size_t k = 0; k < rank; ++k) any |= f.strides[k].has_value() && f.shape[k] > 1;
  if (!any) return;
  ++counts_.strides;
  std::vector<int64_t> row(rank, 1), coord(rank, 0);
  for (size_t k = rank; k-- > 1;) row[k - 1] = row[k] * f.shape[k];
  for (int64_t lin = 0; lin < t.n; ++lin) {
    for (size_t k = 0; k < rank; ++k) {
      if (!f.strides[k] || coord[k] == 0) continue;
      Wide step = numberAt(t, t.type, lin) - numberAt(t, t.type, lin - row[k]);
      if (step == Wide(*f.strides[k]) * scale) continue;
      std::string what = "element " + std::to_string(lin) + " minus the one before it along dimension " +
                        std::to_string(k) + " is " + wideText(step / scale) + ", not the fact's stride " +
                        std::to_string(*f.strides[k]);
      return violation(at, v, what, how);
    }
    for (size_t k = rank; k-- > 0 && ++coord[k] == f.shape[k];) coord[k] = 0;
  }
}

// The base (element 0), and the interval every element lies in. Pointers are
// compared as offsets from their root in pointee elements.
void FactChecker::checkScalar(const BlockExec& x, ValueId v, const TileFact& f, const Tile& t, OpId at,
                              const char* how) {
  std::vector<Wide> values(static_cast<size_t>(t.n));
  for (int64_t k = 0; k < t.n; ++k) values[k] = numberAt(t, t.type, k);
  unsigned bits = f.base.bits;
  if (f.pointer) {
    const Tile* root = f.root == kNoId || f.root == v ? nullptr : intTile(x, f.root);
    if (!root || !root->type->isPtrTile()) return;  // no root, or the root itself (offset 0 by definition)
    Wide from = numberAt(*root, root->type, 0);
    Wide unit = pointeeNibbles(t.type);
    for (Wide& value : values) {
      Wide nibbles = value - from;
      if (nibbles % unit != 0) {
        ++counts_.interval;
        return violation(at, v, "lies " + wideText(nibbles) + " nibbles from its root, not a whole number of elements",
                         how);
      }
      value = nibbles / unit;
    }
  }
  bool uniform = f.uniform();
  std::optional<Interval> range = uniform ? std::optional<Interval>(f.base.range) : f.range();
  if (range && !trivialRange(*range, bits)) {
    ++counts_.interval;
    for (Wide value : values)
      if (value < range->lo || value > range->hi)
        return violation(at, v,
                         "= " + wideText(value) + ", outside the fact's interval [" + std::to_string(range->lo) + ", " +
                             std::to_string(range->hi) + "]",
                         how);
  }
  const ScalarFact& base = f.base;
  if (base.divisor != 1 && base.divisor != -1) {
    ++counts_.divisor;
    Wide d = base.divisor;
    for (size_t k = 0; k < (uniform ? values.size() : 1); ++k)
      if (d == 0 ? values[k] != 0 : values[k] % d != 0)
        return violation(at, v,
                         "= " + wideText(values[k]) + ", not a multiple of the fact's divisor " + std::to_string(base.divisor),
                         how);
  }
  if (!base.affine || mentions(*base.affine, v)) return;
  std::optional<Wide> form = evaluate(x, *base.affine);
  if (!form) return;
  ++counts_.affine;
  // An inexact form holds modulo 2^bits of the value.
  Wide diff = values[0] - *form;
  bool holds = base.affine->exact ? diff == 0 : (static_cast<unsigned __int128>(diff) & ((Wide(1) << bits) - 1)) == 0;
  if (!holds)
    violation(at, v,
              "= " + wideText(values[0]) + ", but the fact's " + (base.affine->exact ? "exact" : "modular") + " form " +
                  formText(program_, *base.affine) + " is " + wideText(*form),
              how);
}

void FactChecker::violation(OpId at, ValueId v, const std::string& what, const char* how) {
  ++violationCount_;
  if (violations_.size() >= kMaxKept) return;
  std::string name(program_.value(v).name);
  violations_.push_back({at, placeOf(program_.op(at)) + ": " + (name.empty() ? "a value" : name) + " " + what + how});
}

std::string FactChecker::placeOf(const Operation& op) const {
  LineCol lc = text_.lineCol(op.range.begin);
  return "'" + std::string(op.info ? op.info->name : "?") + "' at " + std::to_string(lc.line + 1) + ":" +
         std::to_string(lc.col + 1);
}

}  // namespace tilesight::interp
