#include "analysis/checks/executions.h"

#include <algorithm>

#include "analysis/ir/control_flow.h"
#include "analysis/ir/ir_query.h"
#include "analysis/ir/attr_values.h"
#include "analysis/semantics/int_ops.h"
#include "analysis/ir/op_accessors.h"

namespace tilesight {

Executions::Executions(const Program& program, const ValueFacts& facts) : p_(program), facts_(facts) {
  if (facts.options().grid) grid_ = *facts.options().grid;
  // Ops that hold a `return` (the return itself included), and for each op
  // the nearest earlier op of its block that does: after it, the op runs only
  // where that one does not return.
  returns_.assign(p_.ops.size(), false);
  for (OpId id = 0; id < p_.ops.size(); ++id) {
    if (!is(p_.op(id), OpKind::Return)) continue;
    for (OpId q = id; q != kNoId && !isFunction(p_.op(q)) && !returns_[q]; q = p_.op(q).parent) returns_[q] = true;
  }
  returnBefore_.assign(p_.ops.size(), kNoId);
  for (const Operation& op : p_.ops)
    for (const Region& r : op.regions)
      for (const Block& b : r.blocks) {
        OpId prev = kNoId;
        for (OpId o : b.ops) {
          returnBefore_[o] = prev;
          if (returns_[o]) prev = o;
        }
      }
  for (OpId id = 0; id < p_.ops.size(); ++id)
    if (returns_[id]) goesOn_[id] = regionWithoutReturn(id);
}

// The region of `guard` (an op before another in its block that holds a
// return) after which the other runs: the one of an `if` that holds no
// return; nullopt when that is not a single region of an `if`.
std::optional<uint32_t> Executions::regionWithoutReturn(OpId guard) const {
  const Operation& g = p_.op(guard);
  if (!is(g, OpKind::If) || g.regions.empty()) return std::nullopt;
  std::optional<uint32_t> on;
  for (uint32_t r = 0; r < 2; ++r) {  // an absent else region returns nothing
    bool returns = false;
    if (r < g.regions.size())
      for (const Block& b : g.regions[r].blocks)
        for (OpId inner : b.ops) returns = returns || returns_[inner];
    if (!returns) {
      if (on) return std::nullopt;  // neither returns (a return after both: not this one's)
      on = r;
    }
  }
  return on;
}

// Whether `child`, an op of `loop`'s body, comes before every op of the body
// that holds a break, continue or return.
bool Executions::beforeEveryExit(const Operation& loop, OpId child) const {
  if (loop.regions.empty() || loop.regions[0].blocks.size() != 1) return false;
  for (OpId id : loop.regions[0].blocks[0].ops) {
    if (id == child) return true;
    if (holdsExit(id)) return false;
  }
  return false;
}

bool Executions::holdsExit(OpId id) const { return holdsAny(p_, id, {OpKind::Break, OpKind::Continue, OpKind::Return}); }

// Whether the first iteration of `loop` certainly reaches `child`: every op
// before it that can leave is an `if` whose condition, computed in that
// iteration (from constants, --arg values and the loop's initial
// iter_values alone), takes a region that does not leave (`while i < n`
// with n known enters its body).
bool Executions::firstIterationReaches(OpId loopId, OpId child) const {
  const Operation& loop = p_.op(loopId);
  if (loop.regions.empty() || loop.regions[0].blocks.size() != 1) return false;
  for (OpId id : loop.regions[0].blocks[0].ops) {
    if (id == child) return true;
    if (!holdsExit(id)) continue;
    const Operation& op = p_.op(id);
    if (!is(op, OpKind::If)) return false;
    ValueId cond = operands::condition(op);
    Deps d;
    int budget = kMaxNodes;
    collect(cond, d, budget);
    if (!d.computable || d.axes || d.loops.size() > 1 || (d.loops.size() == 1 && d.loops[0] != loopId)) return false;
    Execution e;
    e.iterations.push_back({loopId, 0});
    auto c = value(cond, e);
    size_t taken = c && *c != 0 ? 0 : 1;
    if (!c || taken >= op.regions.size()) return false;
    for (const Block& b : op.regions[taken].blocks)
      for (OpId inner : b.ops)
        if (holdsExit(inner)) return false;
  }
  return false;
}

bool Executions::charge(int64_t n) const {
  work_ -= n;
  return work_ >= 0;
}

// --- values ---------------------------------------------------------------------------

std::optional<int64_t> Executions::value(ValueId v, const Execution& e) const {
  int budget = kMaxNodes;
  auto r = compute(v, e, budget);
  return charge(kMaxNodes - budget) ? r : std::nullopt;
}

std::optional<int64_t> Executions::compute(ValueId v, const Execution& e, int& budget) const {
  if (v == kNoId || --budget < 0) return std::nullopt;
  const ScalarFact* f = facts_.scalar(v);
  if (f && f->exact()) return f->exact();
  const Value& val = p_.value(v);
  if (val.owner == kNoId) return std::nullopt;
  const Operation& op = p_.op(val.owner);
  std::optional<OpKind> n = kindOf(op);
  if (val.blockArg) {
    if (n == OpKind::For && val.index == 0) {
      for (const auto& [loop, iv] : e.iterations)
        if (loop == val.owner) return iv;
      return std::nullopt;
    }
    return n == OpKind::For || n == OpKind::Loop ? iterValue(val, e, budget) : std::nullopt;
  }
  if (n == OpKind::GetTileBlockId && val.index < 3) return e.block[val.index];
  if (n == OpKind::GetNumTileBlocks && val.index < 3 && grid_) return (*grid_)[val.index];
  if (n == OpKind::If) {  // what the region the condition takes yields (`a and b` in cuTile)
    auto c = compute(operands::condition(op), e, budget);
    return c ? compute(yieldedBy(p_, op, *c ? 0 : 1, val.index), e, budget) : std::nullopt;
  }
  unsigned bits = intBits(p_.typeOf(v));
  if (!bits || op.operands.empty() || !integerArithmetic(n)) return std::nullopt;
  auto x = compute(op.operands[0].value, e, budget);
  if (!x) return std::nullopt;
  if (n == OpKind::Assume) return x;
  if (n == OpKind::Select) return op.operands.size() == 3 ? compute(op.operands[*x ? 1 : 2].value, e, budget) : std::nullopt;
  if (n == OpKind::Cmpi) return compare(op, *x, e, budget);
  bool isSigned = signednessOf(op) != Signedness::Unsigned;
  if (n == OpKind::Exti || n == OpKind::Trunci)
    return resizeInt(intBits(p_.typeOf(op.operands[0].value)), bits, isSigned, *x);
  if (n == OpKind::Negi || n == OpKind::Absi) return evalIntOp(*n, {bits, isSigned}, *x).value;
  if (op.operands.size() < 2) return std::nullopt;
  auto y = compute(op.operands[1].value, e, budget);
  if (!y) return std::nullopt;
  // Undefined results (a zero divisor, a shift by the width or more): no execution computes them.
  IntResult r = evalIntOp(*n, {bits, isSigned, roundingOf(op).value_or(Rounding::Zero)}, *x, *y);
  return r.defined ? std::optional<int64_t>(r.value) : std::nullopt;
}

// An iter_value in the iteration that e runs: its initial value in the first,
// init + k * c in iteration k when every continue adds c.
std::optional<int64_t> Executions::iterValue(const Value& arg, const Execution& e, int& budget) const {
  const Operation& loop = p_.op(arg.owner);
  bool counted = is(loop, OpKind::For);
  uint32_t i = arg.index - (counted ? 1 : 0);
  std::optional<int64_t> at;
  for (const auto& [l, x] : e.iterations)
    if (l == arg.owner) at = x;
  unsigned bits = intBits(arg.type);
  if (!at || !bits) return std::nullopt;
  int64_t k = *at;
  if (counted) {  // the iteration number from the induction variable
    auto lb = compute(operands::lowerBound(loop), e, budget), step = compute(operands::step(loop), e, budget);
    if (!lb || !step || *step <= 0) return std::nullopt;
    k = static_cast<int64_t>((__int128(*at) - *lb) / *step);
  }
  auto init = compute(valueAt(operands::initValues(loop), i), e, budget);
  if (!init || k == 0) return init;
  auto c = increment(arg.owner, i);
  if (!c) return std::nullopt;
  return wrapToWidth(bits, __int128(*init) + __int128(k) * *c);
}

std::optional<int64_t> Executions::increment(OpId loopId, uint32_t i) const {
  auto [it, fresh] = increments_.try_emplace({loopId, i});
  if (!fresh) return it->second;
  const Operation& loop = p_.op(loopId);
  if (loop.regions.empty() || loop.regions[0].blocks.size() != 1) return std::nullopt;
  ValueId arg = iterValueArg(loop, i);
  if (arg == kNoId) return std::nullopt;
  std::optional<int64_t> c;
  bool ok = true, any = false;
  for (OpId id : facts_.exitsOf(loopId)) {
    const Operation& op = p_.op(id);
    if (!is(op, OpKind::Continue)) continue;
    any = true;
    std::optional<int64_t> step;
    if (i < op.operands.size()) {
      ValueId next = op.operands[i].value;
      const Operation* add = definingOp(p_, next);
      if (next == arg) step = 0;
      else if (add && is(*add, OpKind::Addi) && add->operands.size() == 2)
        for (int s = 0; s < 2; ++s)
          if (add->operands[s].value == arg) {
            const ScalarFact* f = facts_.scalar(add->operands[1 - s].value);
            if (f && f->exact()) step = f->exact();
          }
    }
    ok &= step && (!c || *c == *step);
    if (step) c = step;
  }
  return it->second = ok && any ? c : std::nullopt;
}

// cmpi given its lhs: -1 (true as one bit reads signed) or 0.
std::optional<int64_t> Executions::compare(const Operation& cmp, int64_t lhs, const Execution& e, int& budget) const {
  if (cmp.operands.size() != 2) return std::nullopt;
  auto rhs = compute(cmp.operands[1].value, e, budget);
  unsigned bits = intBits(p_.typeOf(cmp.operands[0].value));
  if (!rhs || !bits) return std::nullopt;
  std::optional<Predicate> pred = predicateOf(cmp);
  if (!pred) return std::nullopt;
  return evalIntOp(OpKind::Cmpi, {bits, signednessOf(cmp) != Signedness::Unsigned}, lhs, *rhs, *pred).value;
}

bool Executions::computable(ValueId v) const {
  Deps d;
  int budget = kMaxNodes;
  collect(v, d, budget);
  return d.computable && (!d.axes || grid_);
}

// What a value's computation reads: block id axes and induction variables.
void Executions::collect(ValueId v, Deps& d, int& budget) const {
  if (v == kNoId || --budget < 0) {
    d.computable = false;
    return;
  }
  const ScalarFact* f = facts_.scalar(v);
  if (f && f->exact()) return;
  const Value& val = p_.value(v);
  if (val.owner == kNoId) {
    d.computable = false;
    return;
  }
  const Operation& op = p_.op(val.owner);
  std::optional<OpKind> n = kindOf(op);
  if (val.blockArg) {
    bool counted = n == OpKind::For;
    if (!counted && n != OpKind::Loop) {
      d.computable = false;
      return;
    }
    if (std::find(d.loops.begin(), d.loops.end(), val.owner) == d.loops.end()) d.loops.push_back(val.owner);
    if (counted && val.index == 0) return;
    // An iter_value: its initial value, and for a `for` what numbers its iterations.
    uint32_t i = val.index - (counted ? 1 : 0);
    if (!intBits(val.type)) {
      d.computable = false;
      return;
    }
    collect(valueAt(operands::initValues(op), i), d, budget);
    if (counted) {
      collect(operands::lowerBound(op), d, budget);
      collect(operands::step(op), d, budget);
    }
    return;
  }
  if (n == OpKind::GetTileBlockId && val.index < 3) {
    d.axes |= uint8_t(1u << val.index);
    return;
  }
  if (n == OpKind::GetNumTileBlocks && grid_) return;
  if (n == OpKind::If && intBits(p_.typeOf(v))) {
    collect(operands::condition(op), d, budget);
    for (uint32_t r = 0; r < 2 && d.computable; ++r) {
      ValueId y = yieldedBy(p_, op, r, val.index);
      if (y == kNoId) d.computable = false;
      else collect(y, d, budget);
    }
    return;
  }
  if (!intBits(p_.typeOf(v)) || !integerArithmetic(n)) {
    d.computable = false;
    return;
  }
  for (const Operand& o : op.operands) collect(o.value, d, budget);
}

// --- executions -----------------------------------------------------------------------

void Executions::merge(Deps& into, const Deps& d) {
  into.computable &= d.computable;
  into.axes |= d.axes;
  for (OpId l : d.loops)
    if (std::find(into.loops.begin(), into.loops.end(), l) == into.loops.end()) into.loops.push_back(l);
}

bool Executions::forEach(OpId op, llvm::ArrayRef<ValueId> of, llvm::function_ref<bool(const Execution&)> f,
                         bool branches, OpId eitherArm) const {
  // The path from the function body to op, outermost first.
  llvm::SmallVector<Step, 8> path;
  for (OpId child = op, q = p_.op(op).parent;; child = q, q = p_.op(q).parent) {
    if (q == kNoId) return false;
    // Earlier ops of child's block that may return: child runs after them
    // only where they do not.
    for (OpId g = returnBefore_[child]; g != kNoId; g = returnBefore_[g]) {
      std::optional<uint32_t> on = goesOn_.lookup(g);
      if (!on && !branches) return false;
      path.push_back({g, on.value_or(kAnyRegion), true, true});
    }
    const Operation& parent = p_.op(q);
    std::optional<OpKind> n = kindOf(parent);
    if (n == OpKind::Entry) break;
    // The first iteration of a `loop` runs its body up to the first op that
    // can leave it: what comes before that runs at least once.
    if (n == OpKind::Loop) {
      bool certain = beforeEveryExit(parent, child);
      if (!certain && !branches) return false;
      path.push_back({q, 0, certain});
      continue;
    }
    if (n != OpKind::For && n != OpKind::If) return false;  // reduce and scan bodies, test functions
    path.push_back({q, regionHolding(p_, parent, child)});
  }
  std::reverse(path.begin(), path.end());
  // What has to be enumerated: what the values, the bounds and the conditions read.
  Deps need;
  int budget = kMaxNodes * 4;
  for (ValueId v : of) collect(v, need, budget);
  for (const Step& s : path) {
    const Operation& o = p_.op(s.op);
    if (is(o, OpKind::Loop) || (s.guard && s.region == kAnyRegion)) continue;  // no bounds
    if (is(o, OpKind::If)) {
      Deps cond;
      collect(operands::condition(o), cond, budget);
      if (!cond.computable && branches) continue;  // entered as possible, whatever it is
      merge(need, cond);
    } else {
      collect(operands::lowerBound(o), need, budget);
      collect(operands::step(o), need, budget);
      Deps bound;
      collect(operands::upperBound(o), bound, budget);
      if (!bound.computable && branches) continue;  // its first iteration is entered as possible
      merge(need, bound);
    }
  }
  if (!need.computable || !charge(kMaxNodes * 4 - budget)) return false;
  if (need.axes && !grid_) return false;
  BlockId extent{1, 1, 1};
  for (int a = 0; a < 3; ++a)
    if (need.axes & (1u << a)) extent[a] = (*grid_)[a];
  bool complete = true;
  Walk w{path, need, f, branches, eitherArm};
  Execution e;
  e.axes = need.axes;
  e.varied = need.loops;
  for (int64_t z = 0; z < extent[2] && !w.stopped; ++z)
    for (int64_t y = 0; y < extent[1] && !w.stopped; ++y)
      for (int64_t x = 0; x < extent[0] && !w.stopped; ++x) {
        if (!charge(1)) return false;
        e.block = {x, y, z};
        complete &= walk(w, 0, e);
      }
  return complete && !w.stopped;
}

bool Executions::walk(Walk& w, size_t at, Execution& e) const {
  if (at == w.path.size()) {
    w.stopped = !w.f(e);
    return !w.stopped;
  }
  OpId id = w.path[at].op;
  const Operation& op = p_.op(id);
  if (w.path[at].guard && w.path[at].region == kAnyRegion) {  // it may return: op possibly runs
    if (!w.branches) return false;
    bool before = e.possible;
    e.possible = true;
    walk(w, at + 1, e);
    e.possible = before;
    return false;
  }
  if (is(op, OpKind::Loop)) return walkLoop(w, at, e);
  if (is(op, OpKind::If)) {
    auto c = value(operands::condition(op), e);
    if (!c && w.branches) {
      bool before = e.possible, either = e.eitherArm;
      e.possible |= id != w.eitherArm;
      e.eitherArm |= id == w.eitherArm;
      walk(w, at + 1, e);
      e.possible = before;
      e.eitherArm = either;
      return false;
    }
    if (!c) return false;
    // The op runs in the then region when the condition holds, else in the other.
    if ((*c != 0) != (w.path[at].region == 0)) return true;
    return walk(w, at + 1, e);
  }
  auto lb = value(operands::lowerBound(op), e), ub = value(operands::upperBound(op), e),
       step = value(operands::step(op), e);
  if (!ub && lb && step && *step > 0 && w.branches) {
    // An upper bound beyond computing: the first iteration, if the loop runs.
    if (attrs::unsignedCmp(op) && *lb < 0) return false;
    bool before = e.possible;
    e.possible = true;
    e.iterations.push_back({id, *lb});
    walk(w, at + 1, e);
    e.iterations.pop_back();
    e.possible = before;
    return false;
  }
  if (!lb || !ub || !step || *step <= 0) return false;
  if (attrs::unsignedCmp(op) && (*lb < 0 || *ub < 0)) return false;
  bool relevant = std::find(w.need.loops.begin(), w.need.loops.end(), id) != w.need.loops.end();
  bool complete = true;
  for (int64_t iv = *lb; iv < *ub;) {
    if (!charge(1)) return false;
    e.iterations.push_back({id, iv});
    complete &= walk(w, at + 1, e);
    e.iterations.pop_back();
    if (w.stopped || !relevant) break;  // one iteration stands for all when none differs
    if (__builtin_add_overflow(iv, *step, &iv)) return false;
  }
  return complete;
}

// Iteration 0 of a `loop`, certain when no exit comes before the op; the
// later ones only when asked for possible executions and a value asked about
// changes with them (else the first stands for all), as possible: whether the
// loop gets there is not computed.
bool Executions::walkLoop(Walk& w, size_t at, Execution& e) const {
  OpId id = w.path[at].op;
  bool relevant = std::find(w.need.loops.begin(), w.need.loops.end(), id) != w.need.loops.end();
  bool complete = true;
  for (int64_t k = 0; k < kLoopIterations; ++k) {
    bool possible = k > 0 || !w.path[at].certain;
    if ((possible && !w.branches) || !charge(1)) return false;
    bool before = e.possible;
    e.possible |= possible;
    e.iterations.push_back({id, k});
    complete &= walk(w, at + 1, e) && !possible;
    e.iterations.pop_back();
    e.possible = before;
    if (w.stopped || !relevant) return complete;
  }
  return false;  // later iterations not entered
}

OpId Executions::mayNotRun(OpId op) const {
  for (OpId child = op, q = p_.op(op).parent; q != kNoId; child = q, q = p_.op(q).parent) {
    for (OpId g = returnBefore_[child]; g != kNoId; g = returnBefore_[g]) {
      std::optional<uint32_t> on = goesOn_.lookup(g);
      const ScalarFact* c = on ? facts_.scalar(operands::condition(p_.op(g))) : nullptr;
      if (!c || !c->exact() || (*c->exact() != 0) != (*on == 0)) return g;
    }
    const Operation& parent = p_.op(q);
    if (isFunction(parent)) return kNoId;
    if (is(parent, OpKind::Loop)) {
      if (!firstIterationReaches(q, child)) return q;
    } else if (is(parent, OpKind::For)) {
      const ScalarFact *lb = facts_.scalar(operands::lowerBound(parent)),
                       *ub = facts_.scalar(operands::upperBound(parent));
      bool iterates = lb && ub && lb->hiKnown && ub->loKnown && lb->range.hi < ub->range.lo;
      if (!iterates) return q;
    } else if (is(parent, OpKind::If)) {
      const ScalarFact* c = facts_.scalar(operands::condition(parent));
      bool inThen = regionHolding(p_, parent, child) == 0;
      if (!c || !c->exact() || (*c->exact() != 0) != inThen) return q;  // unknown, or the other region runs
    }
  }
  return kNoId;
}

std::string Executions::explain(ValueId v) const {
  if (v == kNoId) return "";
  const Value& val = p_.value(v);
  if (!val.blockArg || val.owner == kNoId) return "";
  const Operation& loop = p_.op(val.owner);
  bool counted = is(loop, OpKind::For);
  if ((!counted && !is(loop, OpKind::Loop)) || (counted && val.index == 0)) return "";
  uint32_t i = val.index - (counted ? 1 : 0);
  ValueId init = valueAt(operands::initValues(loop), i);
  const ScalarFact* f = facts_.scalar(init);
  std::string first = f && f->exact() ? std::to_string(*f->exact()) : std::string(p_.value(init).name);
  std::string s = std::string(val.name) + " is an iter_value of the loop at " +
                  facts_.place(loop.range.begin) + ": " + first + " in the first iteration";
  if (auto c = increment(val.owner, i); c && *c != 0)
    s += ", then " + std::to_string(*c < 0 ? -*c : *c) + (*c < 0 ? " less" : " more") + " in each";
  return s;
}

std::string Executions::describe(const Execution& e) const {
  std::string s = e.axes ? "in tile block (" + std::to_string(e.block[0]) + ", " + std::to_string(e.block[1]) +
                               ", " + std::to_string(e.block[2]) + ")"
                         : "";
  bool first = true;
  for (const auto& [loop, iv] : e.iterations) {
    if (std::find(e.varied.begin(), e.varied.end(), loop) == e.varied.end()) continue;
    const Operation& op = p_.op(loop);
    std::string line = facts_.place(op.range.begin);
    if (is(op, OpKind::Loop)) {
      s += std::string(s.empty() ? "" : " ") + (first ? "" : "and ") +
           (iv == 0 ? "in the first iteration" : "after " + std::to_string(iv) + (iv == 1 ? " iteration" : " iterations")) +
           " of the loop at " + line;
      first = false;
      continue;
    }
    ValueId var = op.regions.empty() || op.regions[0].blocks.empty() || op.regions[0].blocks[0].args.empty()
                      ? kNoId
                      : op.regions[0].blocks[0].args[0];
    std::string name = var == kNoId ? "the induction variable" : std::string(p_.value(var).name);
    s += std::string(s.empty() ? "" : " ") + (first ? "when " : "and ") + name + " = " + std::to_string(iv) +
         " in the loop at " + line;
    first = false;
  }
  return s;
}

}  // namespace tilesight
