// Value facts (see value_facts.h): one recursive walk in program order. Each
// op's transfer function reads its operands' facts and sets its results';
// regions are walked before the results of their op are set, so loop and if
// results can join what flows out of the body.
#include "analysis/checks/value_facts.h"

#include "analysis/ir/attr_values.h"

#include "analysis/ir/ir_query.h"

#include <algorithm>
#include <bit>
#include <numeric>

#include <llvm/ADT/DenseMap.h>

#include "analysis/checks/views.h"
#include "analysis/ir/control_flow.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"
#include "analysis/semantics/int_ops.h"
#include "analysis/semantics/lane_maps.h"
#include "analysis/source/source_text.h"
#include "analysis/verify/verify_util.h"

namespace tilesight {

namespace {

// Bounds are computed in 128 bits, so no intermediate overflows; they are
// then fitted to the value's width.
using Wide = __int128;

Interval typeRange(unsigned bits) { return {minOf(bits), maxOf(bits)}; }

unsigned pointeeBits(TypeRef t) { return t && t->isPtrTile() ? elemBits(t->element->elem) : 0; }

// The bit pattern of a literal read as a signed value of `bits` (hex and large
// decimals spell the unsigned pattern).
std::optional<int64_t> asSigned(int64_t v, unsigned bits) {
  if (bits >= 64 || fitsIn(v, bits)) return v;
  if (v < 0 || v > (int64_t(1) << bits) - 1) return std::nullopt;
  return v - (int64_t(1) << bits);
}

int evidenceRank(Evidence e) {
  if (e == Evidence::None) return 0;
  return e == Evidence::Constant ? 1 : 2;
}

const Provenance& strongerBasis(const Provenance& a, const Provenance& b) {
  return evidenceRank(b.kind) > evidenceRank(a.kind) ? b : a;
}

Affine symbol(ValueId v) {
  Affine a;
  a.terms.push_back({v, 1});
  return a;
}



std::optional<Affine> scaled(const Affine& a, int64_t k) { return addScaled(Affine::constant(0), a, k); }

bool noSignedWrap(const Operation& op) {
  Overflow o = overflowOf(op);
  return o == Overflow::NoSignedWrap || o == Overflow::NoWrap;
}

enum class Bin { Add, Sub, Mul, Shl, Div, Rem, Shr, Max, Min, And, Or, Xor };

std::optional<Bin> binaryKind(OpKind n) {
  switch (n) {
    case OpKind::Addi: return Bin::Add;
    case OpKind::Subi: return Bin::Sub;
    case OpKind::Muli: return Bin::Mul;
    case OpKind::Shli: return Bin::Shl;
    case OpKind::Divi: return Bin::Div;
    case OpKind::Remi: return Bin::Rem;
    case OpKind::Shri: return Bin::Shr;
    case OpKind::Maxi: return Bin::Max;
    case OpKind::Mini: return Bin::Min;
    case OpKind::Andi: return Bin::And;
    case OpKind::Ori: return Bin::Or;
    case OpKind::Xori: return Bin::Xor;
    default: return std::nullopt;
  }
}

// Candidate bounds of a result, with which ends are evidence.
struct Bounds {
  Wide lo, hi;
  bool loKnown, hiKnown;
};

// What the result of k is a multiple of (see ScalarFact::divisor).
int64_t divisorOf(Bin k, const ScalarFact& a, const ScalarFact& b) {
  int64_t d;
  auto c = b.exact();
  switch (k) {
    case Bin::Add:
    case Bin::Sub: return std::gcd(a.divisor, b.divisor);
    case Bin::Mul: return __builtin_mul_overflow(a.divisor, b.divisor, &d) ? std::max(a.divisor, b.divisor) : d;
    case Bin::Shl:
      return c && *c >= 0 && *c < 62 && !__builtin_mul_overflow(a.divisor, int64_t(1) << *c, &d) ? d : a.divisor;
    default: return 1;
  }
}

bool exactKnown(const ScalarFact& f) { return f.exact().has_value(); }

Bounds corners(const ScalarFact& a, const ScalarFact& b, Wide (*fn)(Wide, Wide)) {
  Wide c[4] = {fn(a.range.lo, b.range.lo), fn(a.range.lo, b.range.hi), fn(a.range.hi, b.range.lo),
               fn(a.range.hi, b.range.hi)};
  bool all = a.loKnown && a.hiKnown && b.loKnown && b.hiKnown;
  return {*std::min_element(c, c + 4), *std::max_element(c, c + 4), all, all};
}

// Known-ness for a function monotone in `a` when `b` is a known constant:
// increasing keeps a's ends, decreasing swaps them.
void monotoneKnown(Bounds& r, const ScalarFact& a, const ScalarFact& b, bool increasing) {
  if (!exactKnown(b)) return;
  r.loKnown = increasing ? a.loKnown : a.hiKnown;
  r.hiKnown = increasing ? a.hiKnown : a.loKnown;
}

// The integer scalar argument of a function that `--arg name=value` sets:
// the one named %name, else the one at position `name`; kNoId when there is
// none or its type cannot hold the value.
ValueId launchArgument(const Program& p, llvm::ArrayRef<ValueId> args, const std::string& name, int64_t value) {
  ValueId a = kNoId;
  for (ValueId x : args)
    if (p.value(x).name.size() > 1 && p.value(x).name.substr(1) == name) a = x;
  unsigned pos = 0;
  if (a == kNoId && !llvm::StringRef(name).getAsInteger(10, pos) && pos < args.size()) a = args[pos];
  unsigned bits = a == kNoId ? 0 : intBits(p.typeOf(a));
  return bits && p.typeOf(a)->shape.empty() && fitsIn(value, bits) ? a : kNoId;
}

}  // namespace

// --- small types ---------------------------------------------------------------

std::optional<int64_t> Affine::minus(const Affine& other) const {
  if (terms != other.terms) return std::nullopt;
  int64_t d;
  if (__builtin_sub_overflow(c0, other.c0, &d)) return std::nullopt;
  return d;
}

std::optional<int64_t> ScalarFact::exact() const {
  if (loKnown && hiKnown && range.single()) return range.lo;
  return std::nullopt;
}

bool TileFact::affine() const {
  return std::all_of(strides.begin(), strides.end(), [](const auto& s) { return s.has_value(); });
}

bool TileFact::uniform() const {
  return std::all_of(strides.begin(), strides.end(), [](const auto& s) { return s && *s == 0; });
}

std::optional<Interval> TileFact::range() const {
  if (!affine()) return values;
  Wide lo = base.range.lo, hi = base.range.hi;
  for (size_t k = 0; k < strides.size(); ++k) {
    Wide spread = Wide(*strides[k]) * (shape[k] - 1);
    (spread < 0 ? lo : hi) += spread;
  }
  if (!fitsIn(lo, 64) || !fitsIn(hi, 64)) return std::nullopt;
  return Interval{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

// --- the builder -----------------------------------------------------------------

class FactBuilder {
public:
  explicit FactBuilder(ValueFacts& out) : vf_(out), p_(out.program_) {}

  void prepare() {
    vf_.slot_.assign(p_.values.size(), kNoId);
    // One fact per tracked value, reserved up front: TileFact's move may
    // throw, so a growing vector would copy every fact it holds.
    size_t tracked = 0;
    for (ValueId v = 0; v < p_.values.size(); ++v) tracked += FactBuilder::tracked(p_.typeOf(v));
    vf_.facts_.reserve(tracked);
  }

  void build(OpId unit, OpId end) {
    collectExits(unit, end);
    walk(unit);
  }

private:
  ValueFacts& vf_;
  const Program& p_;
  // symbol -> the scalars defined as an exact c0 + k * symbol (narrowed with it).
  llvm::DenseMap<ValueId, llvm::SmallVector<ValueId, 4>> dependents_;
  // Past this many, a symbol's dependents are not narrowed (keeps the walk linear).
  static constexpr size_t kMaxDependents = 64;

  std::optional<OpKind> kindOf(OpId id) const { return tilesight::kindOf(p_.op(id)); }
  bool is(OpId id, OpKind k) const { return tilesight::is(p_.op(id), k); }

  void collectExits(OpId begin, OpId end);
  void walk(OpId id);
  void walkRegion(const Region& r);
  void walkIf(OpId id, const Operation& op);
  void setupFunctionArgs(const Operation& op);
  void setupLoopArgs(OpId id, const Operation& op);
  void transfer(OpId id, const Operation& op);
  void joinExits(OpId id, const Operation& op);

  // --- fact storage ---
  const TileFact* get(ValueId v) const {
    return v < vf_.slot_.size() && vf_.slot_[v] != kNoId ? &vf_.facts_[vf_.slot_[v]] : nullptr;
  }
  void set(ValueId v, TileFact f) {
    if (v >= vf_.slot_.size() || !tracked(p_.typeOf(v))) return;
    // A broken program may give an op operands of other shapes: such a fact
    // does not describe v.
    const auto& shape = p_.typeOf(v)->shape;
    if (!std::equal(f.shape.begin(), f.shape.end(), shape.begin(), shape.end()) || f.strides.size() != shape.size() ||
        f.pointer != p_.typeOf(v)->isPtrTile())
      f = unknown(v);
    if (vf_.slot_[v] == kNoId) {
      vf_.slot_[v] = static_cast<uint32_t>(vf_.facts_.size());
      vf_.facts_.push_back(std::move(f));
    } else {
      vf_.facts_[vf_.slot_[v]] = std::move(f);
    }
  }
  static bool tracked(TypeRef t) { return intBits(t) || pointeeBits(t); }
  TileFact unknown(ValueId v) const;
  TileFact exactTile(ValueId v, int64_t value, Provenance basis) const;
  void setDefault(ValueId v) {
    if (!get(v) && tracked(p_.typeOf(v))) set(v, unknown(v));
  }

  // --- transfer functions ---
  void constant(ValueId r, OpId id, const Operation& op);
  void compare(ValueId r, const Operation& op);
  void select(ValueId r, const Operation& op);
  void gridValues(OpId id, const Operation& op, bool ids);
  void shapeQuery(OpId id, const Operation& op);
  void binary(ValueId r, const Operation& op, Bin k);
  void noteCeilDiv(ValueId r, Bin k, const TileFact& a, const TileFact& b, const Operation& op);
  void extend(ValueId r, const Operation& op, bool ext);
  void assume(ValueId r, OpId id, const Operation& op);
  void structural(ValueId r, const Operation& op, OpKind n);
  void offset(ValueId r, const Operation& op);
  void reshapeStrides(const TileFact& a, TileFact& f) const;
  void ptrToPtr(ValueId r, const Operation& op);
  void rootPointer(ValueId r, OpId id);
  bool armRoots(const Operation& ifOp, size_t i) const;

  // noWrap: wrapping is undefined behaviour (overflow flags, pointer offsets).
  ScalarFact scalarBinary(Bin k, const ScalarFact& a, const ScalarFact& b, const Operation& op, ValueId self,
                          unsigned bits, bool noWrap = false) const;
  std::optional<Bounds> bounds(Bin k, const ScalarFact& a, const ScalarFact& b, const Operation& op,
                               unsigned bits) const;
  ScalarFact finish(Bounds b, bool nsw, unsigned bits) const;
  TileFact join(const TileFact& a, const TileFact& b, ValueId self) const;
  ScalarFact joinScalar(const ScalarFact& a, const ScalarFact& b, ValueId self) const;
  bool checkSpread(TileFact& f, bool nsw) const;
  using Saved = std::vector<std::pair<ValueId, TileFact>>;  // plain facts to restore after a region
  static std::optional<Predicate> negation(std::optional<Predicate> pred);
  void refine(ValueId v, const ScalarFact& bound, Predicate pred, bool lhs, std::pair<OpId, uint32_t> where,
              OpId cmp, Saved& saved);
  void narrowDependent(ValueId d, ValueId v, const ScalarFact& nv, std::pair<OpId, uint32_t> where, Saved& saved);
  void narrow(ValueId v, TileFact f, std::pair<OpId, uint32_t> where, Saved& saved);
  void noteDependent(ValueId v);
};

TileFact FactBuilder::unknown(ValueId v) const {
  TypeRef t = p_.typeOf(v);
  TileFact f;
  f.shape = t->shape;
  f.strides.assign(t->shape.size(), std::nullopt);
  f.pointer = t->isPtrTile();
  f.elemBits = f.pointer ? pointeeBits(t) : intBits(t);
  f.base.bits = f.pointer ? 64 : f.elemBits;
  f.base.range = typeRange(f.base.bits);
  // A scalar integer with nothing known is a symbol of its own.
  if (!f.pointer && t->shape.empty()) f.base.affine = symbol(v);
  return f;
}

TileFact FactBuilder::exactTile(ValueId v, int64_t value, Provenance basis) const {
  TileFact f = unknown(v);
  f.base.range = {value, value};
  f.base.loKnown = f.base.hiKnown = true;
  f.base.evidence = basis.kind;
  f.base.basis = basis;
  f.base.divisor = value == INT64_MIN ? 1 : (value < 0 ? -value : value);
  f.base.affine = Affine::constant(value);
  std::fill(f.strides.begin(), f.strides.end(), int64_t(0));
  return f;
}

// Where each continue, break and yield goes (ir/control_flow.h); reduce and
// scan bodies need no facts.
void FactBuilder::collectExits(OpId begin, OpId end) {
  for (OpId id = begin; id < end && id < p_.ops.size(); ++id) {
    std::optional<OpKind> n = kindOf(id);
    if (n != OpKind::Continue && n != OpKind::Break && n != OpKind::Yield) continue;
    OpId q = exitTarget(p_, id);
    if (q == kNoId) continue;
    std::optional<OpKind> target = kindOf(q);
    if (target && goesTo(*n, *target) && (n != OpKind::Yield || target == OpKind::If)) vf_.exits_[q].push_back(id);
  }
}

void FactBuilder::walk(OpId id) {
  const Operation& op = p_.op(id);
  std::optional<OpKind> n = tilesight::kindOf(op);
  if (n == OpKind::Entry || n == OpKind::TestingFunc) setupFunctionArgs(op);
  else if ((n == OpKind::For || n == OpKind::Loop) && !op.broken) setupLoopArgs(id, op);
  if (n == OpKind::If && !op.broken) walkIf(id, op);
  else
    for (const Region& r : op.regions) walkRegion(r);
  if (op.info && !op.broken) transfer(id, op);
  for (ValueId r : op.results) {
    setDefault(r);
    noteDependent(r);
  }
}

void FactBuilder::noteDependent(ValueId v) {
  const TileFact* f = get(v);
  if (!f || f->pointer || !f->shape.empty() || !f->base.affine) return;
  const Affine& a = *f->base.affine;
  if (a.exact && a.terms.size() == 1 && a.terms[0].first != v) dependents_[a.terms[0].first].push_back(v);
}

void FactBuilder::walkRegion(const Region& r) {
  for (const Block& b : r.blocks) {
    for (ValueId a : b.args) setDefault(a);
    for (OpId id : b.ops) walk(id);
  }
}

void FactBuilder::setupFunctionArgs(const Operation& op) {
  if (op.regions.empty() || op.regions[0].blocks.empty()) return;
  // A scalar pointer argument is a root; a tile of pointers (testing$func) may
  // hold any pointers: nothing is known of it.
  const auto& args = op.regions[0].blocks[0].args;
  for (ValueId a : args) {
    if (!pointeeBits(p_.typeOf(a)) || !p_.typeOf(a)->shape.empty()) continue;
    TileFact f = exactTile(a, 0, {Evidence::Constant, kNoId, a});
    f.root = a;
    set(a, std::move(f));
  }
  // The integer arguments the launch gives (--arg), by name or position.
  for (const auto& [name, value] : vf_.options_.args) {
    ValueId a = launchArgument(p_, args, name, value);
    if (a != kNoId) set(a, exactTile(a, value, {Evidence::Launch, kNoId, a}));
  }
}

// --- control flow -----------------------------------------------------------------

// The induction variable runs over [lb, ub - 1] (the upper bound is exclusive;
// with a constant lb and step, up to the last value lb + k * step below ub).
// Its lower end holds only while the increment cannot wrap.
void FactBuilder::setupLoopArgs(OpId id, const Operation& op) {
  if (op.regions.empty() || op.regions[0].blocks.empty()) return;
  const auto& args = op.regions[0].blocks[0].args;
  bool isFor = op.info->kind == OpKind::For;
  size_t first = isFor ? 1 : 0;
  if (isFor && !args.empty() && intBits(p_.typeOf(args[0]))) {
    const TileFact *lb = get(operands::lowerBound(op)), *ub = get(operands::upperBound(op)),
                   *st = get(operands::step(op));
    TileFact iv = unknown(args[0]);
    if (lb && ub && st) {
      const ScalarFact &l = lb->base, &u = ub->base, &s = st->base;
      unsigned bits = iv.base.bits;
      bool unsignedCmp = attrs::unsignedCmp(op) != nullptr;
      bool comparable = !unsignedCmp || (l.range.lo >= 0 && u.range.lo >= 0);
      Wide hi = Wide(u.range.hi) - 1, lo = l.range.lo;
      if (auto lb0 = l.exact(), s0 = s.exact(); lb0 && s0 && *s0 > 0 && hi >= *lb0)
        hi = *lb0 + (hi - *lb0) / *s0 * *s0;
      bool noWrap = s.range.lo >= 0 && fitsIn(Wide(u.range.hi) - 1 + s.range.hi, bits);
      if (comparable && hi >= lo && fitsIn(hi, bits)) {
        iv.base.range = {noWrap ? static_cast<int64_t>(lo) : minOf(bits), static_cast<int64_t>(hi)};
        iv.base.loKnown = noWrap && l.loKnown && s.loKnown;
        iv.base.hiKnown = u.hiKnown;
        if (iv.base.known()) {
          iv.base.evidence = Evidence::Loop;
          iv.base.basis = {Evidence::Loop, id, args[0]};
        }
        if (noWrap) iv.base.divisor = std::gcd(l.divisor, s.divisor);
      }
    }
    set(args[0], std::move(iv));
  }
  // An iter_value that every continue passes on unchanged keeps its initial value.
  auto it = vf_.exits_.find(id);
  for (size_t i = first; i < args.size(); ++i) {
    const TileFact* init = get(valueAt(operands::initValues(op), i - first));
    bool invariant = init != nullptr;
    if (it != vf_.exits_.end())
      for (OpId e : it->second) {
        const Operation& x = p_.op(e);
        if (x.info->kind == OpKind::Continue && (i - first >= x.operands.size() || x.operands[i - first].value != args[i]))
          invariant = false;
      }
    if (invariant && tracked(p_.typeOf(args[i]))) set(args[i], *init);
  }
}

// `if %c` where %c = cmpi PRED %x, %y: inside the then region %x and %y obey
// PRED, inside the else region its negation.
void FactBuilder::walkIf(OpId id, const Operation& op) {
  ValueId cond = operands::condition(op);
  const Operation* cmp = nullptr;
  if (cond != kNoId && !p_.value(cond).blockArg && p_.value(cond).owner != kNoId) {
    const Operation& def = p_.op(p_.value(cond).owner);
    if (def.info && def.info->kind == OpKind::Cmpi && !def.broken && def.operands.size() == 2) cmp = &def;
  }
  for (size_t ri = 0; ri < op.regions.size(); ++ri) {
    Saved saved;
    if (cmp) {
      std::optional<Predicate> pred = predicateOf(*cmp);
      if (ri == 1) pred = negation(pred);
      ValueId x = cmp->operands[0].value, y = cmp->operands[1].value;
      const TileFact *fx = get(x), *fy = get(y);
      bool usable = fx && fy && fx->uniform() && fy->uniform() &&
                    (signednessOf(*cmp) == Signedness::Signed || (fx->base.range.lo >= 0 && fy->base.range.lo >= 0));
      if (usable && pred) {
        ScalarFact bx = fx->base, by = fy->base;
        std::pair<OpId, uint32_t> where{id, static_cast<uint32_t>(ri)};
        OpId cmpId = p_.value(cond).owner;
        refine(x, by, *pred, true, where, cmpId, saved);
        refine(y, bx, *pred, false, where, cmpId, saved);
      }
    }
    walkRegion(op.regions[ri]);
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) set(it->first, std::move(it->second));
  }
}

// The predicate that holds in the else region (nullopt when none is useful).
std::optional<Predicate> FactBuilder::negation(std::optional<Predicate> pred) {
  if (!pred) return std::nullopt;
  switch (*pred) {
    case Predicate::LessThan: return Predicate::GreaterThanOrEqual;
    case Predicate::GreaterThanOrEqual: return Predicate::LessThan;
    case Predicate::GreaterThan: return Predicate::LessThanOrEqual;
    case Predicate::LessThanOrEqual: return Predicate::GreaterThan;
    case Predicate::Equal:
    case Predicate::NotEqual: return std::nullopt;
  }
  return std::nullopt;
}

// Narrows v (the lhs or rhs of `lhs PRED rhs`) by the other side's bound, and
// the values computed earlier as an exact c0 + k * v with it.
void FactBuilder::refine(ValueId v, const ScalarFact& other, Predicate pred, bool lhs,
                         std::pair<OpId, uint32_t> where, OpId cmp, Saved& saved) {
  const TileFact* cur = get(v);
  if (!cur) return;
  TileFact f = *cur;
  ScalarFact& s = f.base;
  // v < other (as lhs of less_than), or v > other (as rhs of less_than), ...
  bool below = (pred == Predicate::LessThan || pred == Predicate::LessThanOrEqual) == lhs;
  bool strict = pred == Predicate::LessThan || pred == Predicate::GreaterThan;
  if (pred == Predicate::Equal) {
    if (other.range.hi < s.range.hi) s.range.hi = other.range.hi, s.hiKnown = other.hiKnown;
    if (other.range.lo > s.range.lo) s.range.lo = other.range.lo, s.loKnown = other.loKnown;
  } else if (pred != Predicate::NotEqual && below) {
    Wide bound = Wide(other.range.hi) - strict;
    if (bound < s.range.hi) s.range.hi = static_cast<int64_t>(bound), s.hiKnown = other.hiKnown;
  } else if (pred != Predicate::NotEqual) {
    Wide bound = Wide(other.range.lo) + strict;
    if (bound > s.range.lo) s.range.lo = static_cast<int64_t>(bound), s.loKnown = other.loKnown;
  }
  if (s.range == cur->base.range || s.range.lo > s.range.hi) return;  // nothing new, or a dead branch
  if (s.known()) {
    s.basis = strongerBasis(s.basis, other.basis);
    s.evidence = Evidence::Derived;
  }
  s.narrowedBy = cmp;
  narrow(v, std::move(f), where, saved);
  auto deps = dependents_.find(v);
  if (deps == dependents_.end() || deps->second.size() > kMaxDependents) return;
  for (ValueId d : deps->second) narrowDependent(d, v, s, where, saved);
}

// d = c0 + k * v exactly: its range follows v's narrowed one.
void FactBuilder::narrowDependent(ValueId d, ValueId v, const ScalarFact& nv, std::pair<OpId, uint32_t> where,
                                  Saved& saved) {
  const TileFact* cur = get(d);
  if (!cur || !cur->base.affine) return;
  const Affine& form = *cur->base.affine;
  int64_t k = form.terms[0].second;
  Wide lo = form.c0 + Wide(k) * (k > 0 ? nv.range.lo : nv.range.hi);
  Wide hi = form.c0 + Wide(k) * (k > 0 ? nv.range.hi : nv.range.lo);
  TileFact f = *cur;
  ScalarFact& s = f.base;
  bool loFromV = k > 0 ? nv.loKnown : nv.hiKnown, hiFromV = k > 0 ? nv.hiKnown : nv.loKnown;
  if (lo > s.range.lo) s.range.lo = static_cast<int64_t>(lo), s.loKnown = loFromV;
  if (hi < s.range.hi) s.range.hi = static_cast<int64_t>(hi), s.hiKnown = hiFromV;
  if (s.range == cur->base.range || s.range.lo > s.range.hi) return;
  if (s.known()) {
    s.evidence = Evidence::Derived;
    s.basis = strongerBasis(nv.basis, s.basis);
  }
  narrow(d, std::move(f), where, saved);
}

// Records v's narrowed fact for the region and makes it current while the
// region is walked (`saved` restores the plain one).
void FactBuilder::narrow(ValueId v, TileFact f, std::pair<OpId, uint32_t> where, Saved& saved) {
  saved.push_back({v, *get(v)});
  vf_.narrowed_[where].push_back({v, static_cast<uint32_t>(vf_.facts_.size())});
  vf_.facts_.push_back(f);
  set(v, std::move(f));
}

// Loop results: the initial value (no iteration) or what a continue passes
// (for), or what a break passes (loop); if results: what a yield passes.
void FactBuilder::joinExits(OpId id, const Operation& op) {
  bool isFor = op.info->kind == OpKind::For;
  auto it = vf_.exits_.find(id);
  for (size_t i = 0; i < op.results.size(); ++i) {
    ValueId r = op.results[i];
    if (!tracked(p_.typeOf(r))) continue;
    std::optional<TileFact> acc;
    bool complete = true;
    auto add = [&](ValueId v) {
      const TileFact* f = get(v);
      if (!f) complete = false;
      else acc = acc ? join(*acc, *f, r) : *f;
    };
    if (isFor) add(valueAt(operands::initValues(op), i));
    if (it != vf_.exits_.end())
      for (OpId e : it->second) {
        const Operation& x = p_.op(e);
        if (!givesResults(x.info->kind, op.info->kind)) continue;  // a loop's continue
        if (i < x.operands.size()) add(x.operands[i].value);
        else complete = false;
      }
    // One pointer picked among arrays by an `if` (`a = x if c else y`) is a
    // base of its own, as one made by int_to_ptr is.
    if (acc && complete && op.info->kind == OpKind::If && acc->pointer && acc->root == kNoId &&
        p_.typeOf(r)->shape.empty() && armRoots(op, i))
      rootPointer(r, id);
    else if (acc && complete)
      set(r, std::move(*acc));
  }
}

// Whether every arm of `ifOp` yields, as result i, a pointer with a root.
bool FactBuilder::armRoots(const Operation& ifOp, size_t i) const {
  for (uint32_t k = 0; k < 2; ++k) {
    const TileFact* f = get(yieldedBy(p_, ifOp, k, static_cast<uint32_t>(i)));
    if (!f || f->root == kNoId) return false;
  }
  return true;
}

// --- transfer ----------------------------------------------------------------------

void FactBuilder::transfer(OpId id, const Operation& op) {
  OpKind n = op.info->kind;
  ValueId r = op.results.empty() ? kNoId : op.results[0];
  if (n == OpKind::For || n == OpKind::Loop || n == OpKind::If) return joinExits(id, op);
  if (n == OpKind::GetTileBlockId || n == OpKind::GetNumTileBlocks) return gridValues(id, op, n == OpKind::GetTileBlockId);
  if (n == OpKind::GetIndexSpaceShape || n == OpKind::GetTensorShape) return shapeQuery(id, op);
  if (r == kNoId || !tracked(p_.typeOf(r))) return;
  if (n == OpKind::Constant) return constant(r, id, op);
  if (n == OpKind::Iota) {
    TileFact f = exactTile(r, 0, {Evidence::Constant, id, r});
    if (!f.strides.empty()) f.strides[0] = 1;
    return set(r, std::move(f));
  }
  if (auto k = binaryKind(n)) return binary(r, op, *k);
  if (n == OpKind::Exti || n == OpKind::Trunci) return extend(r, op, n == OpKind::Exti);
  if (n == OpKind::Assume) return assume(r, id, op);
  if (n == OpKind::Offset) return offset(r, op);
  if (n == OpKind::PtrToPtr) return ptrToPtr(r, op);
  if (n == OpKind::GetGlobal || n == OpKind::Alloca) return rootPointer(r, id);
  // One pointer made from an integer is a base of its own; a tile of them may point anywhere.
  if (n == OpKind::IntToPtr && p_.typeOf(r)->shape.empty()) return rootPointer(r, id);
  if (n == OpKind::Cmpi) return compare(r, op);
  if (n == OpKind::Select) return select(r, op);
  structural(r, op, n);
}

// Whether `lhs PRED rhs` holds for every pair of values in the two intervals
// (true), for none (false), or neither.
static std::optional<bool> decided(std::optional<Predicate> pred, Interval a, Interval b) {
  if (!pred) return std::nullopt;
  if (pred == Predicate::Equal || pred == Predicate::NotEqual) {
    std::optional<bool> eq;
    if (a.single() && b.single() && a.lo == b.lo) eq = true;
    else if (a.hi < b.lo || b.hi < a.lo) eq = false;
    if (!eq) return std::nullopt;
    return pred == Predicate::Equal ? *eq : !*eq;
  }
  bool lt = pred == Predicate::LessThan || pred == Predicate::LessThanOrEqual;
  if (!lt) std::swap(a, b);  // a > b is b < a
  bool strict = pred == Predicate::LessThan || pred == Predicate::GreaterThan;
  if (strict ? a.hi < b.lo : a.hi <= b.lo) return true;
  if (strict ? a.lo >= b.hi : a.lo > b.hi) return false;
  return std::nullopt;
}

// cmpi whose operands' ranges decide it (a remainder in [0, 3] is never below
// 0; an iota plus an offset that stays below the bound): a constant i1 tile,
// -1 for true as one bit reads signed.
void FactBuilder::compare(ValueId r, const Operation& op) {
  if (op.operands.size() != 2) return;
  const TileFact *a = get(op.operands[0].value), *b = get(op.operands[1].value);
  if (!a || !b || a->pointer || b->pointer) return;
  auto ra = a->range(), rb = b->range();
  if (!ra || !rb) return;
  // Unsigned order agrees with the signed one on non-negative values.
  if (signednessOf(op) == Signedness::Unsigned && (ra->lo < 0 || rb->lo < 0)) return;
  auto v = decided(predicateOf(op), *ra, *rb);
  if (!v) return;
  TileFact f = exactTile(r, *v ? -1 : 0, strongerBasis(a->base.basis, b->base.basis));
  f.base.evidence = Evidence::Derived;
  set(r, std::move(f));
}

// A select whose condition is decided is its live operand; otherwise it joins
// both (cuTile's sign fix-up of `%` has a condition that is false for
// non-negative operands).
void FactBuilder::select(ValueId r, const Operation& op) {
  const TileFact* c = get(operands::cond(op));
  ValueId t = operands::valIfTrue(op), e = operands::valIfFalse(op);
  if (c && c->uniform() && c->base.exact()) {
    if (const TileFact* live = get(*c->base.exact() ? t : e)) set(r, *live);
    return;
  }
  const TileFact *a = get(t), *b = get(e);
  if (a && b) set(r, join(*a, *b, r));
}

void FactBuilder::rootPointer(ValueId r, OpId id) {
  TileFact f = exactTile(r, 0, {Evidence::Constant, id, r});
  f.root = r;
  set(r, std::move(f));
}

// Dense literals: one value (a splat), or a nested list that is affine in the
// element coordinates (strides), or at least bounded (values).
void FactBuilder::constant(ValueId r, OpId id, const Operation& op) {
  const Attr* a = attrs::value(op);
  if (!a || a->kind != AttrKind::Dense) return;
  TypeRef t = p_.typeOf(r);
  unsigned bits = t->isPtrTile() ? pointeeBits(t) : intBits(t);
  llvm::ArrayRef<int64_t> shape = t->shape;
  llvm::SmallVector<int64_t, 8> vals;
  bool ok = true;
  auto flatten = [&](const auto& self, const Attr& e) -> void {
    if (e.kind == AttrKind::Array) {
      for (const Attr& x : e.elems) self(self, x);
    } else if (e.kind == AttrKind::Int || e.kind == AttrKind::Bool) {
      auto lit = e.kind == AttrKind::Bool ? std::optional<int64_t>(e.i) : rules::literalInt(e);
      auto v = lit ? asSigned(*lit, bits) : std::nullopt;
      if (v) vals.push_back(*v);
      else ok = false;
    } else {
      ok = false;
    }
  };
  for (const Attr& e : a->elems) flatten(flatten, e);
  Wide count = 1;
  for (int64_t d : shape) count *= d;  // tile shapes are small: no overflow in 128 bits
  if (!ok || vals.empty() || (vals.size() != 1 && Wide(vals.size()) != count)) return;
  Provenance basis{Evidence::Constant, OpId(id), r};
  TileFact c = exactTile(r, vals[0], basis);
  if (vals.size() == 1) return set(r, std::move(c));
  // Row-major strides of the literal; stride k = value at unit step along k.
  int64_t row = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    Wide step = shape[k] > 1 ? Wide(vals[row]) - vals[0] : 0;
    c.strides[k] = fitsIn(step, 64) ? std::optional<int64_t>(int64_t(step)) : std::nullopt;
    row *= shape[k];
  }
  // A step past int64 makes the literal not affine (checked below).
  bool steps = std::find(c.strides.begin(), c.strides.end(), std::nullopt) == c.strides.end();
  std::vector<int64_t> coord(shape.size(), 0);
  for (size_t lin = 0; steps && lin < vals.size(); ++lin) {
    Wide expect = vals[0];
    for (size_t k = 0; k < coord.size(); ++k) expect += Wide(*c.strides[k]) * coord[k];
    if (expect != vals[lin]) steps = false;
    for (size_t k = coord.size(); k-- > 0 && ++coord[k] == shape[k];) coord[k] = 0;
  }
  if (!steps) std::fill(c.strides.begin(), c.strides.end(), std::nullopt);
  auto [lo, hi] = std::minmax_element(vals.begin(), vals.end());
  c.values = Interval{*lo, *hi};
  if (!c.affine()) c.base.affine.reset();
  set(r, std::move(c));
}

// Block ids lie in [0, grid - 1] and the grid size is the grid; without
// --grid only the spec's limit (2^24 - 1 blocks per axis) is known, which is
// not evidence.
void FactBuilder::gridValues(OpId id, const Operation& op, bool ids) {
  const auto& grid = vf_.options_.grid;
  for (size_t d = 0; d < op.results.size() && d < 3; ++d) {
    ValueId r = op.results[d];
    if (!intBits(p_.typeOf(r))) continue;
    TileFact f = unknown(r);
    ScalarFact& s = f.base;
    int64_t size = grid ? (*grid)[d] : kMaxGridAxis;
    s.range = ids ? Interval{0, size - 1} : Interval{grid ? size : 1, size};
    if (!fitsIn(s.range.hi, s.bits)) s.range.hi = maxOf(s.bits);
    s.loKnown = true;
    s.hiKnown = grid.has_value();
    s.evidence = Evidence::Grid;
    s.basis = {Evidence::Grid, id, r};
    if (!ids && grid) s.affine = Affine::constant(size), s.divisor = size;
    set(r, std::move(f));
  }
}

// Static dimensions of a tensor_view, or extents of a view's index space.
void FactBuilder::shapeQuery(OpId id, const Operation& op) {
  TypeRef src = op.operands.empty() ? nullptr : p_.typeOf(op.operands[0].value);
  if (!src) return;
  std::vector<std::optional<int64_t>> dims;
  if (src->kind == TypeKind::TensorView) {
    for (int64_t d : vf_.tensorShape(op.operands[0].value))
      dims.push_back(d == kDynamic ? std::nullopt : std::optional<int64_t>(d));
  } else if (auto space = vf_.computeIndexSpace(op.operands[0].value)) {
    for (const auto& d : space->dims) dims.push_back(d.extent);
  }
  for (size_t i = 0; i < op.results.size() && i < dims.size(); ++i) {
    ValueId r = op.results[i];
    if (dims[i] && intBits(p_.typeOf(r)) && fitsIn(*dims[i], intBits(p_.typeOf(r))))
      set(r, exactTile(r, *dims[i], {Evidence::Constant, id, r}));
  }
}

// --- integer arithmetic ------------------------------------------------------------

std::optional<Bounds> FactBuilder::bounds(Bin k, const ScalarFact& a, const ScalarFact& b, const Operation& op,
                                          unsigned bits) const {
  Wide alo = a.range.lo, ahi = a.range.hi, blo = b.range.lo, bhi = b.range.hi;
  bool bitwise = k == Bin::And || k == Bin::Or || k == Bin::Xor;
  if (bitwise && a.exact() && b.exact()) {  // e.g. the i1 conditions of Python's `%` fix-up
    OpKind n = k == Bin::And ? OpKind::Andi : k == Bin::Or ? OpKind::Ori : OpKind::Xori;
    Wide v = evalIntOp(n, {bits}, *a.exact(), *b.exact()).value;
    return Bounds{v, v, true, true};
  }
  // Unsigned (or unstated) semantics agree with signed ones on non-negative values.
  bool asSignedOk = signednessOf(op) == Signedness::Signed || (alo >= 0 && blo >= 0);
  switch (k) {
    case Bin::Add: return Bounds{alo + blo, ahi + bhi, a.loKnown && b.loKnown, a.hiKnown && b.hiKnown};
    case Bin::Sub: return Bounds{alo - bhi, ahi - blo, a.loKnown && b.hiKnown, a.hiKnown && b.loKnown};
    case Bin::Mul: {
      Bounds r = corners(a, b, [](Wide x, Wide y) { return x * y; });
      monotoneKnown(r, a, b, b.range.lo >= 0);
      monotoneKnown(r, b, a, a.range.lo >= 0);
      return r;
    }
    case Bin::Shl: {
      if (blo < 0 || bhi >= bits || bhi > 62) return std::nullopt;
      ScalarFact m = b;
      m.range = {int64_t(1) << b.range.lo, int64_t(1) << b.range.hi};
      Bounds r = corners(a, m, [](Wide x, Wide y) { return x * y; });
      monotoneKnown(r, a, b, true);
      return r;
    }
    case Bin::Div: {
      if (blo <= 0 || !asSignedOk) return std::nullopt;
      Rounding mode = roundingOf(op).value_or(Rounding::Zero);
      Wide c[4] = {roundedQuotient(alo, blo, mode), roundedQuotient(alo, bhi, mode), roundedQuotient(ahi, blo, mode),
                   roundedQuotient(ahi, bhi, mode)};
      bool all = a.loKnown && a.hiKnown && b.loKnown && b.hiKnown;
      Bounds r{*std::min_element(c, c + 4), *std::max_element(c, c + 4), all, all};
      monotoneKnown(r, a, b, true);
      return r;
    }
    case Bin::Rem: {
      if (blo <= 0 || !asSignedOk) return std::nullopt;
      // The result has the dividend's sign and is smaller than the divisor.
      Wide lo = alo >= 0 ? 0 : std::max(alo, 1 - bhi), hi = ahi <= 0 ? 0 : std::min(ahi, bhi - 1);
      bool hiKnown = ahi <= 0 ? a.hiKnown : (ahi <= bhi - 1 ? a.hiKnown : b.hiKnown);
      bool loKnown = alo >= 0 ? a.loKnown : (alo >= 1 - bhi ? a.loKnown : b.hiKnown);
      return Bounds{lo, hi, loKnown, hiKnown};
    }
    case Bin::Shr: {
      if (blo < 0 || bhi >= bits || !asSignedOk) return std::nullopt;
      // Floor division by 2^s: the extremes are at the ends of both ranges.
      Wide c[4] = {alo >> blo, alo >> bhi, ahi >> blo, ahi >> bhi};
      bool all = a.loKnown && a.hiKnown && b.loKnown && b.hiKnown;
      Bounds r{*std::min_element(c, c + 4), *std::max_element(c, c + 4), all, all};
      monotoneKnown(r, a, b, true);
      return r;
    }
    case Bin::Max:
    case Bin::Min: {
      if (!asSignedOk) return std::nullopt;
      bool max = k == Bin::Max;
      const ScalarFact& loSide = (alo >= blo) == max ? a : b;  // whose lower end bounds the result
      const ScalarFact& hiSide = (ahi >= bhi) == max ? a : b;
      Wide lo = max ? std::max(alo, blo) : std::min(alo, blo), hi = max ? std::max(ahi, bhi) : std::min(ahi, bhi);
      bool loKnown = max ? loSide.loKnown : a.loKnown && b.loKnown;
      bool hiKnown = max ? a.hiKnown && b.hiKnown : hiSide.hiKnown;
      return Bounds{lo, hi, loKnown, hiKnown};
    }
    case Bin::Or:
    case Bin::Xor: {
      // Non-negative operands below 2^w give a result below 2^w.
      if (alo < 0 || blo < 0) return std::nullopt;
      Wide hi = (Wide(1) << std::bit_width(static_cast<uint64_t>(std::max(ahi, bhi)))) - 1;
      return Bounds{0, hi, a.loKnown && b.loKnown, a.hiKnown && b.hiKnown};
    }
    case Bin::And: {
      // x & m lies in [0, m] for a non-negative m, whatever x is.
      bool aPos = alo >= 0, bPos = blo >= 0;
      if (!aPos && !bPos) return std::nullopt;
      Wide hi = aPos && bPos ? std::min(ahi, bhi) : (aPos ? ahi : bhi);
      bool hiKnown = aPos && bPos ? (ahi <= bhi ? a.hiKnown : b.hiKnown) : (aPos ? a.hiKnown : b.hiKnown);
      return Bounds{0, hi, (aPos && a.loKnown) || (bPos && b.loKnown), hiKnown};
    }
  }
  return std::nullopt;
}

// The fact for bounds computed without wrapping: kept when they fit the width
// (or when an overflow flag makes wrapping undefined: then clamped).
ScalarFact FactBuilder::finish(Bounds b, bool nsw, unsigned bits) const {
  ScalarFact s;
  s.bits = bits;
  s.range = typeRange(bits);
  bool fits = fitsIn(b.lo, bits) && fitsIn(b.hi, bits);
  if (!fits && !nsw) return s;
  Wide lo = std::max<Wide>(b.lo, minOf(bits)), hi = std::min<Wide>(b.hi, maxOf(bits));
  if (lo > hi) return s;
  s.range = {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
  s.loKnown = b.loKnown && (fits || b.lo >= minOf(bits));
  s.hiKnown = b.hiKnown && (fits || b.hi <= maxOf(bits));
  return s;
}

ScalarFact FactBuilder::scalarBinary(Bin k, const ScalarFact& a, const ScalarFact& b, const Operation& op,
                                     ValueId self, unsigned bits, bool noWrap) const {
  std::optional<Bounds> bd = bounds(k, a, b, op, bits);
  bool nsw = noWrap || noSignedWrap(op);
  ScalarFact s = bd ? finish(*bd, nsw, bits) : finish(Bounds{0, -1, false, false}, false, bits);
  // Whether the result may differ from the mathematical one.
  bool wrapped = !bd || (!nsw && !(fitsIn(bd->lo, bits) && fitsIn(bd->hi, bits)));
  if (s.known()) {
    s.evidence = Evidence::Derived;
    s.basis = strongerBasis(a.basis, b.basis);
  }
  // Divisors and affine forms of the exact operations (they hold modulo 2^bits
  // even when the bounds are lost).
  std::optional<Affine> form;
  auto c = b.exact();
  if (a.affine && b.affine) {
    if (k == Bin::Add) form = addScaled(*a.affine, *b.affine, 1);
    else if (k == Bin::Sub) form = addScaled(*a.affine, *b.affine, -1);
    else if (k == Bin::Mul && c) form = scaled(*a.affine, *c);
    else if (k == Bin::Mul && a.exact()) form = scaled(*b.affine, *a.exact());
    else if (k == Bin::Shl && c && *c >= 0 && *c < 63) form = scaled(*a.affine, int64_t(1) << *c);
  }
  s.divisor = divisorOf(k, a, b);
  // Wrapping modulo 2^bits keeps only the power-of-two part of a divisor.
  if (wrapped && s.divisor != 0) s.divisor &= -s.divisor;
  if (form && wrapped) form->exact = false;
  s.affine = form ? *form : symbol(self);
  if (auto v = s.exact()) s.affine = Affine::constant(*v);
  return s;
}

// Element-wise: uniform operands are scalars; affine tiles add (and scale by a
// uniform constant) stride by stride; anything else is unknown.
void FactBuilder::binary(ValueId r, const Operation& op, Bin k) {
  const TileFact *a = get(operands::lhs(op)), *b = get(operands::rhs(op));
  if (!a || !b || a->pointer || b->pointer) return;
  TileFact f = unknown(r);
  if (a->shape != f.shape || b->shape != f.shape) return;
  unsigned bits = f.elemBits;
  f.base = scalarBinary(k, a->base, b->base, op, r, bits);
  if (f.shape.empty()) {
    noteCeilDiv(r, k, *a, *b, op);
    return set(r, std::move(f));
  }
  if (a->uniform() && b->uniform()) {
    std::fill(f.strides.begin(), f.strides.end(), int64_t(0));
    return set(r, std::move(f));
  }
  if (!f.base.affine || !f.base.affine->exact) f.base.affine.reset();
  auto cb = b->uniform() ? b->base.exact() : std::nullopt;
  auto ca = a->uniform() ? a->base.exact() : std::nullopt;
  for (size_t d = 0; d < f.strides.size(); ++d) {
    const auto &sa = a->strides[d], &sb = b->strides[d];
    int64_t v;
    bool ok = false;
    if ((k == Bin::Add || k == Bin::Sub) && sa && sb)
      ok = !(k == Bin::Add ? __builtin_add_overflow(*sa, *sb, &v) : __builtin_sub_overflow(*sa, *sb, &v));
    else if (k == Bin::Mul && sa && cb) ok = !__builtin_mul_overflow(*sa, *cb, &v);
    else if (k == Bin::Mul && sb && ca) ok = !__builtin_mul_overflow(*sb, *ca, &v);
    else if (k == Bin::Shl && sa && cb && *cb >= 0 && *cb < 62)
      ok = !__builtin_mul_overflow(*sa, int64_t(1) << *cb, &v);
    if (ok) f.strides[d] = v;
  }
  if (!checkSpread(f, noSignedWrap(op))) f = unknown(r);
  set(r, std::move(f));
}

void FactBuilder::noteCeilDiv(ValueId r, Bin k, const TileFact& a, const TileFact& b, const Operation& op) {
  auto den = b.base.exact();
  if (k != Bin::Div || !den || *den <= 0 || !a.base.affine || roundingOf(op) != Rounding::PositiveInf) return;
  if (signednessOf(op) != Signedness::Signed && a.base.range.lo < 0) return;  // unsigned: not a ceil of n
  vf_.ceilDivs_[r] = CeilDiv{*a.base.affine, *den, a.base.bits};
}

// Whether every element of an affine tile fits its width (otherwise some
// element wrapped and the structure is wrong).
bool FactBuilder::checkSpread(TileFact& f, bool nsw) const {
  if (!f.affine()) return true;
  auto range = f.range();
  return nsw || (range && fitsIn(range->lo, f.elemBits) && fitsIn(range->hi, f.elemBits));
}

// exti keeps every value (signed, or unsigned on non-negative values); trunci
// keeps them when they fit the narrower type.
void FactBuilder::extend(ValueId r, const Operation& op, bool ext) {
  const TileFact* a = get(operands::from(op));
  if (!a) return;
  TileFact f = *a;
  TileFact u = unknown(r);
  f.elemBits = u.elemBits;
  f.base.bits = u.base.bits;
  auto range = a->range();
  bool keeps = range && (ext ? signednessOf(op) == Signedness::Signed || range->lo >= 0
                             : fitsIn(range->lo, u.elemBits) && fitsIn(range->hi, u.elemBits));
  if (keeps) {
    // A form that held modulo the narrower width does not hold in the wider one.
    if (ext && f.base.affine && !f.base.affine->exact)
      f.base.affine = f.shape.empty() ? std::optional<Affine>(symbol(r)) : std::nullopt;
    return set(r, std::move(f));
  }
  // Unsigned extension of possibly negative values: [0, 2^from - 1], no evidence.
  if (ext && signednessOf(op) == Signedness::Unsigned && a->elemBits < 63)
    u.base.range = {0, (int64_t(1) << a->elemBits) - 1};
  // Truncation keeps an affine form modulo the narrower width.
  if (!ext && a->base.affine && u.base.affine) {
    u.base.affine = a->base.affine;
    u.base.affine->exact = false;
  }
  set(r, std::move(u));
}

// assume bounded<lo, hi> narrows the interval (ends given as `?` stay as they
// were); div_by<n> adds a divisor and rounds the ends to its multiples.
void FactBuilder::assume(ValueId r, OpId id, const Operation& op) {
  const TileFact* a = get(operands::value(op));
  const Attr* pred = attrs::predicate(op);
  if (!a) return;
  TileFact f = *a;
  if (!pred || pred->kind != AttrKind::Keyword || f.pointer || !f.uniform()) return set(r, std::move(f));
  ScalarFact& s = f.base;
  bool narrowed = false;
  if (pred->s == "bounded") {
    const Attr *lb = pred->get("lb"), *ub = pred->get("ub");
    if (lb && lb->kind == AttrKind::Int && lb->i >= s.range.lo) s.range.lo = lb->i, s.loKnown = true, narrowed = true;
    if (ub && ub->kind == AttrKind::Int && ub->i <= s.range.hi) s.range.hi = ub->i, s.hiKnown = true, narrowed = true;
  } else if (pred->s == "div_by" && !pred->get("every")) {
    const Attr* d = pred->get("divisor");
    if (d && d->kind == AttrKind::Int && d->i > 0) {
      // Now a multiple of both: of their lcm (d->i alone if that overflows).
      int64_t l;
      int64_t g = std::gcd(s.divisor, d->i);
      if (s.divisor != 0) s.divisor = __builtin_mul_overflow(s.divisor / g, d->i, &l) ? d->i : l;
      Wide lo = s.range.lo, hi = s.range.hi, m = d->i;
      lo = lo >= 0 ? (lo + m - 1) / m * m : -((-lo) / m * m);
      hi = hi >= 0 ? hi / m * m : -((-hi + m - 1) / m * m);
      if (lo <= hi) s.range = {static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
    }
  }
  if (s.range.lo > s.range.hi) return set(r, unknown(r));  // contradictory: undefined behaviour
  if (narrowed) {
    s.evidence = Evidence::Assume;
    s.basis = {Evidence::Assume, id, r};
  }
  if (auto v = s.exact()) s.affine = Affine::constant(*v);
  set(r, std::move(f));
}

// --- shape ops and pointers ------------------------------------------------------

// The strides of a result whose dimensions carry `a`'s through `dims`
// (semantics/lane_maps.h): 0 along those that read coordinate 0; a source
// dimension past `a`'s rank leaves the stride unknown.
static void carryStrides(const semantics::DimSources& dims, const TileFact& a, TileFact& f) {
  for (size_t d = 0; d < f.strides.size() && d < dims.size(); ++d) {
    if (!dims[d]) f.strides[d] = 0;
    else if (*dims[d] < a.strides.size()) f.strides[d] = a.strides[*dims[d]];
  }
}

void FactBuilder::structural(ValueId r, const Operation& op, OpKind n) {
  if (n != OpKind::Broadcast && n != OpKind::Reshape && n != OpKind::Permute && n != OpKind::Extract) return;
  const TileFact* a = get(operands::source(op));
  if (!a) return;
  TileFact f = unknown(r);
  f.base = a->base;
  f.root = a->root;
  f.values = a->values;
  if (f.shape.empty() && !f.pointer) {  // a rank-0 result of a uniform source keeps its symbol
    if (!a->uniform()) f.base = unknown(r).base;
    return set(r, std::move(f));
  }
  if (a->uniform()) {
    std::fill(f.strides.begin(), f.strides.end(), int64_t(0));
    return set(r, std::move(f));
  }
  if (n == OpKind::Extract) {  // a sub-tile of a non-uniform tile: only the root and bounds are kept
    f.base = unknown(r).base;
  } else if (n == OpKind::Broadcast && a->shape.size() == f.shape.size()) {
    carryStrides(semantics::broadcastDims(a->shape, f.shape), *a, f);
  } else if (n == OpKind::Permute) {
    const Attr* perm = attrs::permutation(op);
    if (perm && perm->elems.size() == f.shape.size())
      carryStrides(semantics::permuteDims(*perm, f.shape.size()), *a, f);
  } else if (n == OpKind::Reshape) {
    reshapeStrides(*a, f);
  }
  set(r, std::move(f));
}

// Adding or dropping size-1 dimensions keeps the other strides in order; a
// tile linear in its row-major index (iota, c * iota) stays linear after any
// reshape.
void FactBuilder::reshapeStrides(const TileFact& a, TileFact& f) const {
  if (auto dims = semantics::reshapeDims(a.shape, f.shape)) return carryStrides(*dims, a, f);
  if (!a.affine()) return;
  std::optional<int64_t> unit;
  int64_t row = 1;
  for (size_t d = a.shape.size(); d-- > 0;) {
    if (a.shape[d] == 1) continue;
    if (!unit) unit = *a.strides[d];
    if (Wide(*a.strides[d]) != Wide(*unit) * row || __builtin_mul_overflow(row, a.shape[d], &row)) return;
  }
  row = 1;
  for (size_t d = f.shape.size(); d-- > 0;) {
    int64_t v;
    if (f.shape[d] != 1 && __builtin_mul_overflow(unit.value_or(0), row, &v)) return;
    f.strides[d] = f.shape[d] == 1 ? 0 : v;
    if (__builtin_mul_overflow(row, f.shape[d], &row)) return;
  }
}

// offset %ptr, %off: the pointers move by the offsets (in pointee elements).
void FactBuilder::offset(ValueId r, const Operation& op) {
  const TileFact *p = get(operands::ptr(op)), *o = get(operands::offset(op));
  if (!p || !o || !p->pointer || o->pointer) return;
  TileFact f = unknown(r);
  f.root = p->root;
  ScalarFact ob = o->base;
  ob.bits = 64;
  f.base = scalarBinary(Bin::Add, p->base, ob, op, r, 64, true);  // pointer overflow is undefined
  for (size_t d = 0; d < f.strides.size() && d < p->strides.size() && d < o->strides.size(); ++d) {
    int64_t v;
    if (p->strides[d] && o->strides[d] && !__builtin_add_overflow(*p->strides[d], *o->strides[d], &v))
      f.strides[d] = v;
  }
  set(r, std::move(f));
}

// ptr_to_ptr: the same addresses counted in the new pointee's elements.
void FactBuilder::ptrToPtr(ValueId r, const Operation& op) {
  const TileFact* p = get(operands::source(op));
  if (!p || !p->pointer) return;
  TileFact f = unknown(r);
  f.root = p->root;
  // Offsets count storage units: an i1 takes a byte in memory (tileir: i1
  // is loaded per byte), 4-bit formats a nibble.
  auto storageBits = [](unsigned bits) { return bits == 1 ? 8u : bits; };
  unsigned from = storageBits(p->elemBits), to = storageBits(f.elemBits);
  if (from == to) {
    f.base = p->base;
    f.strides = p->strides;
  } else if (from > to && from % to == 0) {
    int64_t k = from / to;
    ScalarFact kf;
    kf.bits = 64;
    kf.range = {k, k};
    kf.loKnown = kf.hiKnown = true;
    kf.affine = Affine::constant(k);
    f.base = scalarBinary(Bin::Mul, p->base, kf, op, r, 64, true);
    for (size_t d = 0; d < f.strides.size() && d < p->strides.size(); ++d) {
      int64_t v;
      if (p->strides[d] && !__builtin_mul_overflow(*p->strides[d], k, &v)) f.strides[d] = v;
    }
  }
  set(r, std::move(f));
}

// --- joins ---------------------------------------------------------------------------

ScalarFact FactBuilder::joinScalar(const ScalarFact& a, const ScalarFact& b, ValueId self) const {
  ScalarFact s;
  s.bits = a.bits;
  s.range = {std::min(a.range.lo, b.range.lo), std::max(a.range.hi, b.range.hi)};
  s.loKnown = a.loKnown && b.loKnown;
  s.hiKnown = a.hiKnown && b.hiKnown;
  if (s.known()) {
    s.evidence = a.evidence == b.evidence && a.basis.op == b.basis.op ? a.evidence : Evidence::Derived;
    s.basis = strongerBasis(a.basis, b.basis);
  }
  s.divisor = std::gcd(a.divisor, b.divisor);
  if (a.affine && b.affine && *a.affine == *b.affine) s.affine = a.affine;
  else if (a.affine || b.affine) s.affine = symbol(self);
  return s;
}

TileFact FactBuilder::join(const TileFact& a, const TileFact& b, ValueId self) const {
  TileFact f = unknown(self);
  if (a.shape != f.shape || b.shape != f.shape || a.pointer != b.pointer) return f;
  f.base = joinScalar(a.base, b.base, self);
  if (f.shape.empty() && f.pointer) f.base.affine.reset();
  f.root = a.root == b.root ? a.root : kNoId;
  for (size_t d = 0; d < f.strides.size(); ++d)
    if (a.strides[d] == b.strides[d]) f.strides[d] = a.strides[d];
  if (a.values && b.values)
    f.values = Interval{std::min(a.values->lo, b.values->lo), std::max(a.values->hi, b.values->hi)};
  return f;
}

// --- ValueFacts ------------------------------------------------------------------------

ValueFacts::ValueFacts(const Program& program, const CheckOptions& options)
    : program_(program), builder_(std::make_unique<FactBuilder>(*this)), options_(options) {
  builder_->prepare();
}

ValueFacts::~ValueFacts() = default;

void ValueFacts::build(OpId unit, OpId end) { builder_->build(unit, end); }

const TileFact* ValueFacts::tile(ValueId v) const {
  return v < slot_.size() && slot_[v] != kNoId ? &facts_[slot_[v]] : nullptr;
}

const ScalarFact* ValueFacts::scalar(ValueId v) const { return scalarAt(v, kNoId); }

// The innermost enclosing if region that narrows v, else the plain fact.
const TileFact* ValueFacts::tileAt(ValueId v, OpId user) const {
  for (OpId q = user; !narrowed_.empty() && q < program_.ops.size();) {
    OpId parent = program_.op(q).parent;
    if (parent == kNoId) break;
    const Operation& p = program_.op(parent);
    Range at = program_.op(q).range;
    for (uint32_t ri = 0; p.info && p.info->kind == OpKind::If && ri < p.regions.size(); ++ri) {
      if (at.begin < p.regions[ri].range.begin || at.end > p.regions[ri].range.end) continue;
      auto it = narrowed_.find({parent, ri});
      if (it != narrowed_.end())
        for (const auto& [value, index] : it->second)
          if (value == v) return &facts_[index];
    }
    q = parent;
  }
  return tile(v);
}

// `?` entries of `dims` replaced, in order, by the exact facts of the dynamic
// operands `dyn` (those above `least`).
static std::vector<int64_t> resolved(const ValueFacts& facts, std::vector<int64_t> dims,
                                     llvm::ArrayRef<Operand> dyn, int64_t least) {
  for (size_t i = 0, k = 0; i < dims.size() && k < dyn.size(); ++i) {
    if (dims[i] != kDynamic) continue;
    const ScalarFact* f = facts.scalar(dyn[k++].value);
    if (f && f->exact() && *f->exact() >= least) dims[i] = *f->exact();
  }
  return dims;
}

// The tensor_view's shape with the dynamic sizes the facts pin to at least `least`.
static std::vector<int64_t> resolvedShape(const ValueFacts& facts, ValueId v, int64_t least) {
  TypeRef t;
  const Operation* mtv = tensorViewOp(facts.program(), v, t);
  return t ? resolved(facts, t->shape, mtv ? operands::dynamicShape(*mtv) : llvm::ArrayRef<Operand>(), least) : std::vector<int64_t>{};
}

std::vector<int64_t> ValueFacts::tensorShape(ValueId v) const { return resolvedShape(*this, v, 1); }

ValueId ValueFacts::tensorDimValue(ValueId v, size_t dim) const { return tilesight::tensorDimValue(program_, v, dim); }

llvm::ArrayRef<OpId> ValueFacts::exitsOf(OpId op) const {
  auto it = exits_.find(op);
  return it == exits_.end() ? llvm::ArrayRef<OpId>() : llvm::ArrayRef<OpId>(it->second);
}

const CeilDiv* ValueFacts::ceilDiv(ValueId v) const {
  auto it = ceilDivs_.find(v);
  return it == ceilDivs_.end() ? nullptr : &it->second;
}

std::vector<int64_t> ValueFacts::tensorStrides(ValueId v) const {
  TypeRef t;
  const Operation* mtv = tensorViewOp(program_, v, t);
  return t ? resolved(*this, t->strides, mtv ? operands::dynamicStrides(*mtv) : llvm::ArrayRef<Operand>(), 0) : std::vector<int64_t>{};
}

std::optional<views::IndexSpace> ValueFacts::computeIndexSpace(ValueId view) const {
  TypeRef t = program_.typeOf(view);
  if (!t || !t->isView()) return std::nullopt;
  // A size of 0 (an empty array) counts here: its index space is empty, so
  // every index is outside it. The layout questions (tensorShape) need sizes
  // of at least 1.
  std::vector<int64_t> shape = resolvedShape(*this, view, 0);
  return shape.empty() ? views::indexSpace(*t) : views::indexSpace(*t, shape);
}

const std::optional<views::IndexSpace>& ValueFacts::indexSpace(ValueId view) const {
  auto it = spaces_.find(view);
  if (it == spaces_.end()) it = spaces_.try_emplace(view, computeIndexSpace(view)).first;
  return it->second;
}

const ScalarFact* ValueFacts::scalarAt(ValueId v, OpId user) const {
  const TileFact* t = tileAt(v, user);
  return t && !t->pointer && t->uniform() ? &t->base : nullptr;
}

std::string ValueFacts::place(uint32_t offset) const {
  return options_.placeName ? options_.placeName(program_, offset) : "line " + std::to_string(line(offset));
}

uint32_t ValueFacts::line(uint32_t offset) const {
  if (lineStarts_.empty()) {
    lineStarts_.push_back(0);
    for (size_t i = 0; (i = findLineEnd(program_.source, i)) < program_.source.size(); ++i) {
      if (program_.source.substr(i, 2) == "\r\n") ++i;
      lineStarts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }
  return static_cast<uint32_t>(std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset) - lineStarts_.begin());
}

std::string ValueFacts::rangeText(const ScalarFact& f) {
  if (auto v = f.exact()) return std::to_string(*v);
  return "[" + (f.loKnown ? std::to_string(f.range.lo) : std::string("?")) + ", " +
         (f.hiKnown ? std::to_string(f.range.hi) : std::string("?")) + "]";
}


std::string ValueFacts::describe(ValueId v, OpId user) const {
  std::string p = predicate(v, user);
  return p.empty() ? p : std::string(program_.value(v).name) + p;
}

// What describe() says after the value's name: " ranges over [0, 7] from ...".
std::string ValueFacts::predicate(ValueId v, OpId user) const {
  const TileFact* t = tileAt(v, user);
  if (!t) return "";
  OpId cmp = t->base.narrowedBy;
  if (cmp == kNoId || cmp >= program_.ops.size()) return predicate(v, *t, user);
  TileFact plain = *t;
  plain.base.narrowedBy = kNoId;
  std::string p = predicate(v, plain, user);
  if (p.empty()) return p;
  return p + ", narrowed by the comparison at " + place(program_.op(cmp).range.begin);
}

std::string ValueFacts::predicate(ValueId v, const TileFact& t, OpId user) const {
  if (t.pointer || !t.base.known()) return "";
  const ScalarFact& f = t.base;
  auto exact = f.exact();
  std::string what = exact ? " is " + std::to_string(*exact) : " ranges over " + rangeText(f);
  if (!t.uniform()) {
    auto r = t.range();
    if (!r) return "";
    ScalarFact all = f;
    all.range = *r;
    what = " has elements in " + rangeText(all);
  }
  const Provenance& b = f.basis;
  if (b.kind == Evidence::Launch && b.value == v && exact)
    return what + (options_.argsFrom.empty() ? " (--arg " + std::string(program_.value(v).name.substr(1)) + "=" +
                                                   std::to_string(*exact) + ")"
                                             : " (in the launch of " + options_.argsFrom + ")");
  if (b.kind == Evidence::Launch && b.value != kNoId && b.value != v) {
    std::string leaf = predicate(b.value, user);
    return leaf.empty() ? what : what + ", derived from " + std::string(program_.value(b.value).name) + ", which" + leaf;
  }
  if (b.op == kNoId || b.op >= program_.ops.size()) return what;
  const Operation& op = program_.op(b.op);
  std::string at = " at " + place(op.range.begin);
  if (b.value != v) {
    if (b.kind == Evidence::Constant) return what + ", computed from constants";
    std::string leaf = predicate(b.value, user);
    if (leaf.empty()) return what;
    return what + ", derived from " + std::string(program_.value(b.value).name) + ", which" + leaf;
  }
  std::string_view opName = nameOf(op);
  bool constant = is(op, OpKind::Constant);
  switch (b.kind) {
    case Evidence::Constant:
      if (constant && exact && t.uniform()) return " is the constant " + std::to_string(*exact);
      return what + " (" + (constant ? std::string("the constant") : std::string(opName)) + at + ")";
    case Evidence::Assume: {
      const Attr* pred = attrs::predicate(op);
      std::string text = "assume";
      if (pred) text = program_.source.substr(pred->range.begin, pred->range.end - pred->range.begin);
      return what + " from assume " + text + at;
    }
    case Evidence::Loop: {
      // A bound the launch gives (--arg) is worth naming: it is the user's input.
      std::string bound;
      std::pair<ValueId, const char*> bounds[] = {{operands::lowerBound(op), "lower bound "},
                                                   {operands::upperBound(op), "upper bound "},
                                                   {operands::step(op), "step "}};
      for (auto [x, label] : bounds) {
        const TileFact* bf = x == kNoId ? nullptr : tileAt(x, b.op);
        if (bf && bf->base.basis.kind == Evidence::Launch) bound += ", whose " + std::string(label) + describe(x, b.op);
      }
      return what + " from the loop" + at + bound;
    }
    case Evidence::Grid:
      if (options_.grid) return what + " from the grid (" + gridText(options_) + ")";
      return what + " (" + std::string(opName) + " is never negative)";
    default: return what;
  }
}

std::optional<Range> ValueFacts::evidenceRange(ValueId v, OpId user) const {
  const TileFact* t = tileAt(v, user);
  if (!t || !t->base.known()) return std::nullopt;
  const Provenance& b = t->base.basis;
  if (b.value != kNoId && b.value < program_.values.size()) return program_.value(b.value).range;
  if (b.op != kNoId && b.op < program_.ops.size()) return program_.op(b.op).nameRange;
  return std::nullopt;
}

std::string formText(const Program& p, const Affine& f) {
  std::string s;
  for (bool positive : {true, false})
    for (const auto& [sym, c] : f.terms) {
      if ((c > 0) != positive) continue;
      std::string name(p.value(sym).name);
      if (name.empty()) name = "?";
      s += s.empty() ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
      s += (c == 1 || c == -1 ? "" : std::to_string(c < 0 ? -c : c) + "*") + name;
    }
  if (s.empty()) return std::to_string(f.c0);
  if (f.c0) s += (f.c0 < 0 ? " - " : " + ") + std::to_string(f.c0 < 0 ? -f.c0 : f.c0);
  return s;
}

std::optional<Affine> addScaled(const Affine& a, const Affine& b, int64_t k) {
  Affine r;
  r.exact = a.exact && b.exact;
  int64_t kc;
  if (__builtin_mul_overflow(b.c0, k, &kc) || __builtin_add_overflow(a.c0, kc, &r.c0)) return std::nullopt;
  // Merge the two term lists (both sorted by symbol).
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    bool fromA = j == b.terms.size() || (i < a.terms.size() && a.terms[i].first <= b.terms[j].first);
    bool fromB = i == a.terms.size() || (j < b.terms.size() && b.terms[j].first <= a.terms[i].first);
    ValueId sym = fromA ? a.terms[i].first : b.terms[j].first;
    int64_t coeff = fromA ? a.terms[i++].second : 0, kb;
    if (fromB && (__builtin_mul_overflow(b.terms[j++].second, k, &kb) || __builtin_add_overflow(coeff, kb, &coeff)))
      return std::nullopt;
    if (coeff) r.terms.push_back({sym, coeff});
  }
  if (r.terms.size() > Affine::kMaxTerms) return std::nullopt;
  return r;
}

std::vector<std::string> unusedArgs(const Program& program, const CheckOptions& options) {
  std::vector<std::string> out;
  for (const auto& [name, value] : options.args) {
    bool used = false;
    for (const Operation& op : program.ops) {
      std::optional<OpKind> n = kindOf(op);
      if ((n == OpKind::Entry || n == OpKind::TestingFunc) && !op.regions.empty() && !op.regions[0].blocks.empty())
        used |= launchArgument(program, op.regions[0].blocks[0].args, name, value) != kNoId;
    }
    if (!used) out.push_back(name + "=" + std::to_string(value));
  }
  return out;
}

}  // namespace tilesight
