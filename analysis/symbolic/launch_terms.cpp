#include "analysis/symbolic/launch_terms.h"

#include <algorithm>
#include <set>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/control_flow.h"
#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/semantics/int_ops.h"
#include "analysis/semantics/view_geometry.h"

namespace tilesight::symbolic {

namespace {

// The spec's limit on a grid axis (checks.h's kMaxGridAxis; this layer is below the checks).
constexpr int64_t kGridAxisLimit = (int64_t(1) << 24) - 1;
// Deeper def-use chains than this become unknown values (no stack overflow on generated code).
constexpr unsigned kMaxDepth = 2000;

std::string bigText(__int128 v);

z3::expr power2(z3::context& z, unsigned bits) { return z.int_val(bigText(static_cast<__int128>(1) << bits).c_str()); }

std::string bigText(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  for (; u; u /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
  return neg ? "-" + s : s;
}

std::optional<int64_t> numeral(const Term& t) {
  int64_t v;
  if (t.e.is_int() && t.e.is_numeral() && t.e.is_numeral_i64(v)) return v;
  return std::nullopt;
}

// A quotient by a positive constant c, rounded as divi's `r` says
// (semantics::roundedQuotient): Z3's div on a positive divisor is the floor.
z3::expr quotient(const z3::expr& a, int64_t c, Rounding r) {
  z3::expr d = a.ctx().int_val(c);
  z3::expr floorQ = z3::operator/(a, d), ceilQ = -z3::operator/(-a, d);
  if (r == Rounding::NegativeInf) return floorQ;
  if (r == Rounding::PositiveInf) return ceilQ;
  return z3::ite(a >= 0, floorQ, ceilQ);  // toward zero
}

}  // namespace

void constantsOf(const z3::expr& e, std::vector<z3::expr>& out, std::set<unsigned>& seen) {
  if (!seen.insert(e.id()).second) return;
  if (e.is_const() && !e.is_numeral() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED) out.push_back(e);
  if (e.is_quantifier()) constantsOf(e.body(), out, seen);
  if (e.is_app())
    for (unsigned i = 0; i < e.num_args(); ++i) constantsOf(e.arg(i), out, seen);
}

namespace {

bool leaves(const Program& p, const Region& r) {
  if (r.blocks.empty() || r.blocks[0].ops.empty()) return false;
  const Operation& last = p.op(r.blocks[0].ops.back());
  return is(last, OpKind::Return) || is(last, OpKind::Break) || is(last, OpKind::Continue);
}

}  // namespace

LaunchTerms::LaunchTerms(z3::context& z, const Program& p, OpId entry)
    : z_(z), p_(p), entry_(entry) {
  const char* axes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d)
    symbols_.push_back({Symbol::Grid, std::string("grid.") + axes[d], z_.int_const((std::string("grid.") + axes[d]).c_str())});
  for (int d = 0; d < 3; ++d)
    symbols_.push_back(
        {Symbol::BlockId, std::string("block.") + axes[d], z_.int_const((std::string("block.") + axes[d]).c_str())});
  for (int d = 0; d < 3; ++d) {
    addFact(grid(d), grid(d) >= 1 && grid(d) <= z_.int_val(kGridAxisLimit));
    addFact(blockId(d), blockId(d) >= 0 && blockId(d) < grid(d));
  }
}

void LaunchTerms::addFact(const z3::expr& symbol, const z3::expr& fact) {
  factsOf_[symbol.decl().id()].push_back(fact);
}

void LaunchTerms::addFactOnEach(const z3::expr& x, const z3::expr& fact) {
  std::vector<z3::expr> cs;
  std::set<unsigned> seen;
  constantsOf(x, cs, seen);
  for (const z3::expr& c : cs) addFact(c, fact);
}

z3::expr LaunchTerms::factsFor(const z3::expr& query) const {
  std::vector<z3::expr> out;
  cone(query, &out);
  z3::expr_vector v(z_);
  for (const z3::expr& f : out) v.push_back(f);
  return z3::mk_and(v);
}

// The symbols `query` reaches through the facts (their declaration ids), and
// those facts in `facts`.
std::set<unsigned> LaunchTerms::cone(const z3::expr& query, std::vector<z3::expr>* facts) const {
  std::vector<z3::expr> work;
  std::set<unsigned> seen, done;
  constantsOf(query, work, seen);
  for (size_t i = 0; i < 6; ++i) work.push_back(symbols_[i].e);  // the grid and block: always a launch
  while (!work.empty()) {
    z3::expr c = work.back();
    work.pop_back();
    if (!done.insert(c.decl().id()).second) continue;
    auto it = factsOf_.find(c.decl().id());
    if (it == factsOf_.end()) continue;
    for (const z3::expr& f : it->second) {
      if (facts) facts->push_back(f);
      constantsOf(f, work, seen);
    }
  }
  return done;
}

z3::expr LaunchTerms::noWrapFor(const z3::expr& query) const {
  std::set<unsigned> in = cone(query, nullptr);
  z3::expr_vector v(z_);
  for (const z3::expr& w : noWrap_) {
    std::vector<z3::expr> cs;
    std::set<unsigned> seen;
    constantsOf(w, cs, seen);
    if (std::all_of(cs.begin(), cs.end(), [&](const z3::expr& c) { return in.count(c.decl().id()) > 0; })) v.push_back(w);
  }
  return z3::mk_and(v);
}

z3::expr LaunchTerms::wrap(const z3::expr& m, unsigned bits) {
  if (m.is_numeral()) {
    int64_t v;
    if (m.is_numeral_i64(v) && fitsIn(v, bits)) return m;
  }
  z3::expr lo = z_.int_val(bigText(minOf(bits)).c_str());
  noWrap_.push_back(lo <= m && m <= z_.int_val(bigText(maxOf(bits)).c_str()));
  return z3::mod(m - lo, power2(z_, bits)) + lo;
}

z3::expr LaunchTerms::asUnsigned(const z3::expr& x, unsigned bits) const {
  return z3::ite(x < 0, x + power2(z_, bits), x);
}

Term LaunchTerms::fresh(ValueId v, unsigned bits, Symbol::Kind kind, bool exact) {
  std::string name = v == kNoId ? "?" : std::string(p_.value(v).name);
  z3::expr e = z_.int_const(("v" + std::to_string(symbols_.size()) + "." + name).c_str());
  symbols_.push_back({kind, name, e, v});
  if (bits) addFact(e, e >= z_.int_val(bigText(minOf(bits)).c_str()) &&
                           e <= z_.int_val(bigText(maxOf(bits)).c_str()));
  return {e, exact};
}

std::optional<Term> LaunchTerms::value(ValueId v) {
  if (v == kNoId) return std::nullopt;
  if (auto it = memo_.find(v); it != memo_.end()) return it->second;
  std::optional<Term> t;
  if (depth_ < kMaxDepth) {
    ++depth_;
    t = compute(v);
    --depth_;
  } else if (unsigned bits = intBits(p_.typeOf(v)); bits > 1 && p_.typeOf(v)->numElements() == 1) {
    t = fresh(v, bits, Symbol::Unknown, false);
  }
  memo_.try_emplace(v, t);
  return t;
}

std::optional<Term> LaunchTerms::compute(ValueId v) {
  TypeRef t = p_.typeOf(v);
  unsigned bits = intBits(t);
  if (!bits) return std::nullopt;
  const Value& val = p_.value(v);
  std::optional<Term> out;
  if (val.blockArg) out = blockArgument(val, v);
  else if (val.owner != kNoId && p_.op(val.owner).info && !p_.op(val.owner).broken) out = result(p_.op(val.owner), v);
  if (out || t->numElements() != 1) return out;
  // One element nothing above can write: any value of its type.
  if (bits == 1) return Term{z_.bool_const(("b" + std::to_string(symbols_.size())).c_str()), false};
  return fresh(v, bits, Symbol::Unknown, false);
}

std::optional<Term> LaunchTerms::blockArgument(const Value& val, ValueId v) {
  unsigned bits = intBits(p_.typeOf(v));
  if (val.owner == kNoId || bits <= 1 || p_.typeOf(v)->numElements() != 1) return std::nullopt;
  const Operation& owner = p_.op(val.owner);
  if (val.owner == entry_) return fresh(v, bits, Symbol::Argument, true);
  if (!is(owner, OpKind::For) || val.index != 0) return std::nullopt;  // iter_values, bodies: unknown
  // The induction variable: lb + k * step below ub, for some k >= 0.
  ForOp loop(owner);
  Term iv = fresh(v, bits, Symbol::InductionVariable, true);
  std::optional<Term> lb = value(loop.lowerBound()), ub = value(loop.upperBound()), st = value(loop.step());
  bool isUnsigned = loop.unsignedCmp() != nullptr;
  auto num = [&](const z3::expr& x) { return isUnsigned ? asUnsigned(x, bits) : x; };
  // Facts of the induction variable alone: a loop that never runs makes
  // them false, and with them only the queries about its body.
  if (lb && ub) addFact(iv.e, num(lb->e) <= num(iv.e) && num(iv.e) < num(ub->e));
  std::optional<int64_t> step = st ? numeral(*st) : std::nullopt;
  if (lb && step && *step > 0 && !isUnsigned) addFact(iv.e, z3::mod(iv.e - lb->e, z_.int_val(*step)) == 0);
  iv.exact = lb && ub && lb->exact && ub->exact && (!st || st->exact);
  return iv;
}

std::optional<Term> LaunchTerms::result(const Operation& op, ValueId v) {
  TypeRef t = p_.typeOf(v);
  unsigned bits = intBits(t);
  uint32_t index = p_.value(v).index;
  switch (op.info->kind) {
    case OpKind::Constant: {
      auto ints = constantInts(p_, v, 4096);
      if (!ints || ints->empty() || std::adjacent_find(ints->begin(), ints->end(), std::not_equal_to<>()) != ints->end())
        return std::nullopt;
      if (bits == 1) return Term{z_.bool_val((*ints)[0] != 0)};
      return Term{z_.int_val((*ints)[0])};
    }
    case OpKind::GetTileBlockId: return index < 3 ? std::optional<Term>(Term{blockId(index)}) : std::nullopt;
    case OpKind::GetNumTileBlocks: return index < 3 ? std::optional<Term>(Term{grid(index)}) : std::nullopt;
    case OpKind::Reshape:
    case OpKind::Broadcast: return value(op.operands.empty() ? kNoId : op.operands[0].value);
    case OpKind::Assume: {
      std::optional<Term> x = value(operands::value(op));
      if (x && bits > 1 && op.parent == entry_) assumeFact(op, x->e);
      return x;
    }
    case OpKind::Select: {
      std::optional<Term> c = value(operands::cond(op)), a = value(operands::valIfTrue(op)),
                          b = value(operands::valIfFalse(op));
      if (!c || !a || !b) return std::nullopt;
      return Term{z3::ite(c->e, a->e, b->e), c->exact && a->exact && b->exact};
    }
    case OpKind::If: {
      std::optional<Term> c = value(operands::condition(op));
      std::optional<Term> a = value(yieldedBy(p_, op, 0, index)), b = value(yieldedBy(p_, op, 1, index));
      if (!c || !a || !b) return std::nullopt;
      return Term{z3::ite(c->e, a->e, b->e), c->exact && a->exact && b->exact};
    }
    case OpKind::Exti:
    case OpKind::Trunci: {
      ValueId from = op.operands.empty() ? kNoId : op.operands[0].value;
      std::optional<Term> x = value(from);
      unsigned fromBits = intBits(p_.typeOf(from));
      if (!x || !fromBits) return std::nullopt;
      bool isSigned = signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed;
      if (fromBits == 1 && bits == 1) return x;
      if (fromBits == 1) return Term{z3::ite(x->e, z_.int_val(isSigned && op.info->kind == OpKind::Exti ? -1 : 1),
                                             z_.int_val(0)),
                                     x->exact};
      if (bits == 1) return Term{z3::mod(x->e, 2) != 0, x->exact};
      if (op.info->kind == OpKind::Trunci) return Term{wrap(x->e, bits), x->exact};
      return Term{isSigned ? x->e : asUnsigned(x->e, fromBits), x->exact};
    }
    case OpKind::GetTensorShape: {
      if (op.operands.empty()) return std::nullopt;
      return tensorSize(op.operands[0].value, index);
    }
    case OpKind::GetIndexSpaceShape: {
      TypeRef vt = op.operands.empty() ? nullptr : p_.typeOf(op.operands[0].value);
      if (!vt || !vt->isView() || vt->kind == TypeKind::GatherScatterView || index >= vt->shape.size()) return std::nullopt;
      std::optional<Term> size = tensorSize(op.operands[0].value, semantics::walkedDim(*vt, index));
      int64_t step = semantics::tileStep(*vt, index);
      if (!size || step <= 0) return std::nullopt;
      // semantics::indexExtent: ceildiv(size, step), size >= 0.
      return Term{z3::operator/(size->e + z_.int_val(step - 1), z_.int_val(step)), size->exact};
    }
    default:
      if (integerArithmetic(op.info->kind) && (op.info->traits & kElementwise)) return integerOp(op, bits);
      return std::nullopt;
  }
}

std::optional<Term> LaunchTerms::integerOp(const Operation& op, unsigned bits) {
  OpKind k = op.info->kind;
  if (op.operands.empty()) return std::nullopt;
  ValueId lhs = op.operands[0].value;
  unsigned w = intBits(p_.typeOf(lhs));
  std::optional<Term> a = value(lhs);
  std::optional<Term> b = op.operands.size() > 1 ? value(op.operands[1].value) : std::nullopt;
  if (!a || !w || (op.operands.size() > 1 && !b)) return std::nullopt;
  bool exact = a->exact && (!b || b->exact);
  bool isSigned = signednessOf(op).value_or(Signedness::Signed) == Signedness::Signed;
  auto num = [&](const z3::expr& x) { return isSigned ? x : asUnsigned(x, w); };
  std::optional<int64_t> c = b ? numeral(*b) : std::nullopt;
  if (w == 1) {  // i1 as Bool: the logical ops only
    if (!b) return std::nullopt;
    if (k == OpKind::Andi) return Term{a->e && b->e, exact};
    if (k == OpKind::Ori) return Term{a->e || b->e, exact};
    if (k == OpKind::Xori) return Term{a->e != b->e, exact};
    if (k == OpKind::Cmpi && predicateOf(op) == Predicate::Equal) return Term{a->e == b->e, exact};
    if (k == OpKind::Cmpi && predicateOf(op) == Predicate::NotEqual) return Term{a->e != b->e, exact};
    return std::nullopt;
  }
  switch (k) {
    case OpKind::Addi: return Term{wrap(a->e + b->e, bits), exact};
    case OpKind::Subi: return Term{wrap(a->e - b->e, bits), exact};
    case OpKind::Negi: return Term{wrap(-a->e, bits), exact};
    case OpKind::Absi: return Term{wrap(z3::ite(a->e < 0, -a->e, a->e), bits), exact};
    case OpKind::Muli:
      if (!c && !numeral(*a)) return std::nullopt;  // a product of two unknowns: not linear
      return Term{wrap(a->e * b->e, bits), exact};
    case OpKind::Shli:
      if (!c || *c < 0 || *c >= static_cast<int64_t>(w)) return std::nullopt;
      return Term{wrap(a->e * power2(z_, static_cast<unsigned>(*c)), bits), exact};
    case OpKind::Shri:
      if (!c || *c < 0 || *c >= static_cast<int64_t>(w)) return std::nullopt;
      return Term{wrap(z3::operator/(num(a->e), power2(z_, static_cast<unsigned>(*c))), bits), exact};
    case OpKind::Divi: {
      if (!c || *c <= 0) return std::nullopt;  // an unknown or negative divisor
      Rounding r = roundingOf(op).value_or(Rounding::Zero);
      return Term{wrap(quotient(num(a->e), *c, r), bits), exact};
    }
    case OpKind::Remi:
      if (!c || *c <= 0) return std::nullopt;
      // The remainder of the quotient toward zero: its sign is the dividend's.
      return Term{wrap(num(a->e) - z_.int_val(*c) * quotient(num(a->e), *c, Rounding::Zero), bits), exact};
    case OpKind::Maxi: return Term{z3::ite(num(a->e) >= num(b->e), a->e, b->e), exact};
    case OpKind::Mini: return Term{z3::ite(num(a->e) <= num(b->e), a->e, b->e), exact};
    case OpKind::Cmpi: {
      z3::expr x = num(a->e), y = num(b->e);
      switch (predicateOf(op).value_or(Predicate::Equal)) {
        case Predicate::Equal: return Term{x == y, exact};
        case Predicate::NotEqual: return Term{x != y, exact};
        case Predicate::LessThan: return Term{x < y, exact};
        case Predicate::LessThanOrEqual: return Term{x <= y, exact};
        case Predicate::GreaterThan: return Term{x > y, exact};
        case Predicate::GreaterThanOrEqual: return Term{x >= y, exact};
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

// assume bounded<lb, ub> and div_by<n> at the entry's top level hold from
// there on: wherever the value is used.
void LaunchTerms::assumeFact(const Operation& op, const z3::expr& x) {
  const Attr* pred = attrs::predicate(op);
  if (!pred || pred->kind != AttrKind::Keyword) return;
  if (pred->s == "bounded") {
    const Attr *lb = pred->get("lb"), *ub = pred->get("ub");
    if (lb && lb->kind == AttrKind::Int) addFactOnEach(x, x >= z_.int_val(lb->i));
    if (ub && ub->kind == AttrKind::Int) addFactOnEach(x, x <= z_.int_val(ub->i));
  } else if (pred->s == "div_by" && !pred->get("every")) {
    const Attr* d = pred->get("divisor");
    if (d && d->kind == AttrKind::Int && d->i > 0) addFactOnEach(x, z3::mod(x, z_.int_val(d->i)) == 0);
  }
}

std::optional<z3::expr> LaunchTerms::argument(ValueId v) {
  const Value& val = p_.value(v);
  if (!val.blockArg || val.owner != entry_) return std::nullopt;
  std::optional<Term> t = value(v);
  return t ? std::optional<z3::expr>(t->e) : std::nullopt;
}

std::optional<Term> LaunchTerms::tensorSize(ValueId view, size_t dim) {
  TypeRef tt;
  tensorViewOp(p_, view, tt);
  if (!tt || dim >= tt->shape.size()) return std::nullopt;
  if (tt->shape[dim] != kDynamic) return Term{z_.int_val(tt->shape[dim])};
  std::optional<Term> size = value(tensorDimValue(p_, view, dim));
  if (!size) return std::nullopt;
  addFactOnEach(size->e, size->e >= 0);  // a tensor's size: make_tensor_view's precondition
  return size;
}

// The guards before `op` in its block: an `if` one region of which leaves
// (returns, breaks or continues) lets the ops after it run only on the other.
void LaunchTerms::exitGuards(OpId op, z3::expr& cond, bool& exact) {
  OpId parent = p_.op(op).parent;
  if (parent == kNoId) return;
  const Operation& po = p_.op(parent);
  const Region& r = po.regions[regionHolding(p_, po, op)];
  if (r.blocks.empty()) return;
  for (OpId q : r.blocks[0].ops) {
    if (q == op) return;
    const Operation& g = p_.op(q);
    if (!is(g, OpKind::If) || g.broken) continue;
    bool thenLeaves = !g.regions.empty() && leaves(p_, g.regions[0]);
    bool elseLeaves = g.regions.size() > 1 && leaves(p_, g.regions[1]);
    if (thenLeaves == elseLeaves) continue;
    std::optional<Term> c = value(operands::condition(g));
    if (!c) continue;
    cond = cond && (thenLeaves ? !c->e : c->e);
    exact = exact && c->exact;
  }
}

Term LaunchTerms::reaches(OpId op) {
  z3::expr cond = z_.bool_val(true);
  bool exact = true;
  for (OpId q = op; q != kNoId && q != entry_; q = p_.op(q).parent) {
    exitGuards(q, cond, exact);
    OpId parent = p_.op(q).parent;
    if (parent == kNoId || !is(p_.op(parent), OpKind::If)) continue;
    std::optional<Term> c = value(operands::condition(p_.op(parent)));
    if (!c) continue;  // unknown: either region
    cond = cond && (regionHolding(p_, p_.op(parent), q) == 0 ? c->e : !c->e);
    exact = exact && c->exact;
  }
  return {cond, exact};
}

std::string describeLaunch(const LaunchTerms& t, const z3::model& m, const z3::expr& query) {
  std::vector<z3::expr> cs;
  std::set<unsigned> seen;
  constantsOf(query, cs, seen);
  std::set<unsigned> used;
  for (const z3::expr& c : cs) used.insert(c.decl().id());
  auto val = [&](const z3::expr& e) {
    z3::expr v = m.eval(e, true);
    int64_t i;
    return v.is_numeral_i64(i) ? std::to_string(i) : v.to_string();
  };
  const auto& s = t.symbols();
  std::string out = "grid " + val(s[0].e) + "," + val(s[1].e) + "," + val(s[2].e) + ", block " + val(s[3].e) + "," +
                    val(s[4].e) + "," + val(s[5].e);
  for (size_t i = 6; i < s.size(); ++i)
    if ((s[i].kind == Symbol::Argument || s[i].kind == Symbol::InductionVariable) && used.count(s[i].e.decl().id()))
      out += ", " + s[i].name + " = " + val(s[i].e);
  return out;
}

}  // namespace tilesight::symbolic
