#include "analysis/checks/token_graph.h"

#include "analysis/ir/control_flow.h"
#include "analysis/ir/ir_query.h"

#include <algorithm>

#include <llvm/ADT/ArrayRef.h>

#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"

namespace tilesight {

namespace {

bool isToken(const Program& p, ValueId v) {
  TypeRef t = p.typeOf(v);
  return t && t->isToken();
}

}  // namespace

TokenGraph::TokenGraph(const Program& program) : p_(program) {
  size_t n = p_.ops.size();
  loopOf_.assign(n, kNoId);
  regionOf_.assign(n, 0);
  chainOf_.assign(n, kNoId);
  posOf_.assign(n, kNoId);
  setOf_.assign(p_.values.size(), kNoId);
}

llvm::ArrayRef<OpId> TokenGraph::addFunction(OpId fn) {
  const Operation& op = p_.op(fn);
  size_t first = memOps_.size();
  if (!is(op, OpKind::Entry) || op.regions.empty()) return {};
  for (const Block& b : op.regions[0].blocks)
    for (ValueId a : b.args)
      if (isToken(p_, a)) setToken(a, {});  // a token from outside orders nothing here
  walkRegion(op.regions[0], kNoId);
  return llvm::ArrayRef<OpId>(memOps_).drop_front(first);
}

ValueId TokenGraph::tokenIn(OpId id) const {
  return operands::token(p_.op(id));
}

ValueId TokenGraph::tokenOut(OpId id) const {
  const Operation& op = p_.op(id);
  if (op.results.empty() || !isToken(p_, op.results.back())) return kNoId;
  return op.results.back();
}

// --- building -----------------------------------------------------------------

void TokenGraph::setToken(ValueId v, DepSet s) {
  if (v == kNoId) return;
  if (s.deps.size() > kMaxChains) {
    s.deps.clear();
    s.all = true;
  }
  setOf_[v] = static_cast<uint32_t>(sets_.size());
  sets_.push_back(std::move(s));
}

// An unknown token (from a broken op) is taken to order everything: silence, not a guess.
const TokenGraph::DepSet& TokenGraph::setOf(ValueId v) const {
  static const DepSet unknown{{}, true};
  if (v == kNoId || v >= setOf_.size() || setOf_[v] == kNoId) return unknown;
  return sets_[setOf_[v]];
}

void TokenGraph::walkRegion(const Region& r, OpId loop) {
  for (const Block& b : r.blocks) {
    bool wasDead = dead_;
    for (OpId id : b.ops) {
      visit(id, loop);
      // The rest of a block after an op that always leaves it never runs
      // (cuTile's `if c { ...; continue } else { break }` is followed by a
      // `continue` only because a block needs a terminator): its
      // terminators pass nothing on.
      dead_ = dead_ || alwaysLeaves(id);
    }
    dead_ = wasDead;
  }
}

// Whether every run of `id` leaves its block through a continue, break or
// return: the op is one, or an `if` each of whose regions holds one that does.
bool TokenGraph::alwaysLeaves(OpId id) const {
  const Operation& op = p_.op(id);
  std::optional<OpKind> k = kindOf(op);
  if (k == OpKind::Continue || k == OpKind::Break || k == OpKind::Return) return true;
  if (k != OpKind::If || op.regions.size() < 2) return false;
  for (const Region& r : op.regions)
    if (!regionLeaves(r)) return false;
  return true;
}

bool TokenGraph::regionLeaves(const Region& r) const {
  if (r.blocks.empty()) return false;
  for (OpId inner : r.blocks[0].ops)
    if (alwaysLeaves(inner)) return true;
  return false;
}

void TokenGraph::visit(OpId id, OpId loop) {
  const Operation& op = p_.op(id);
  loopOf_[id] = loop;
  for (uint32_t i = 0; i < op.regions.size(); ++i)
    for (const Block& b : op.regions[i].blocks)
      for (OpId child : b.ops) regionOf_[child] = i;
  std::optional<OpKind> name = kindOf(op);
  if (op.info && (op.info->traits & kMemory))
    visitMemoryOp(id);
  else if (name == OpKind::If)
    visitIf(id, loop);
  else if (name == OpKind::For || name == OpKind::Loop)
    visitLoop(id, loop);
  else {
    if (name == OpKind::MakeToken && !op.results.empty()) setToken(op.results[0], {});
    if (name == OpKind::JoinTokens && !op.results.empty() && !op.broken) {
      DepSet s;
      for (const Operand& o : op.operands) join(s, setOf(o.value));
      setToken(op.results[0], std::move(s));
    }
    if (name == OpKind::Assume && !op.results.empty() && !op.operands.empty() && isToken(p_, op.results[0]))
      setToken(op.results[0], setOf(op.operands[0].value));
    if (!dead_ && (name == OpKind::Continue || name == OpKind::Break)) noteExit(id, *name);
    for (const Region& r : op.regions) walkRegion(r, loop);
  }
}

// Files a continue or break under the loop it goes to (ir/control_flow);
// one that goes nowhere valid is the verifier's to report.
void TokenGraph::noteExit(OpId id, OpKind kind) {
  OpId target = exitTarget(p_, id);
  if (target == kNoId || !p_.op(target).info || !goesTo(kind, p_.op(target).info->kind)) return;
  auto& lists = loops_[target];
  (kind == OpKind::Continue ? lists.continues : lists.breaks).push_back(id);
}

void TokenGraph::visitMemoryOp(OpId id) {
  memOps_.push_back(id);
  ValueId in = tokenIn(id);
  DepSet s = in == kNoId ? DepSet{} : setOf(in);
  // Extend the chain whose last op produced the consumed token.
  uint32_t c = kNoId;
  if (in != kNoId) {
    const Value& v = p_.value(in);
    if (!v.blockArg && v.owner != kNoId && chainOf_[v.owner] != kNoId &&
        chains_[chainOf_[v.owner]].ops.back() == v.owner)
      c = chainOf_[v.owner];
  }
  if (c == kNoId) {
    c = static_cast<uint32_t>(chains_.size());
    chains_.push_back({});
  }
  chainOf_[id] = c;
  posOf_[id] = static_cast<uint32_t>(chains_[c].ops.size());
  chains_[c].ops.push_back(id);
  extended_.push_back(c);
  join(s, DepSet{{Dep{c, posOf_[id], posOf_[id]}}, false});
  setToken(tokenOut(id), std::move(s));
}

void TokenGraph::visitIf(OpId id, OpId loop) {
  const Operation& op = p_.op(id);
  std::vector<OpId> yields;
  for (const Region& r : op.regions) {
    walkRegion(r, loop);
    // A region that always leaves yields nothing (its yield, if any, never runs).
    if (!dead_ && !r.blocks.empty() && !r.blocks[0].ops.empty() &&
        is(p_.op(r.blocks[0].ops.back()), OpKind::Yield) && !regionLeaves(r))
      yields.push_back(r.blocks[0].ops.back());
  }
  for (uint32_t i = 0; i < op.results.size(); ++i) {
    if (!isToken(p_, op.results[i])) continue;
    std::vector<const DepSet*> sets;
    for (OpId y : yields) {
      const Operation& yo = p_.op(y);
      sets.push_back(i < yo.operands.size() ? &setOf(yo.operands[i].value) : &setOf(kNoId));
    }
    setToken(op.results[i], merge(yields, sets, {}, [&](size_t k, uint32_t c) { return spansOf(*sets[k], c); }));
  }
}

void TokenGraph::visitLoop(OpId id, OpId loop) {
  const Operation& op = p_.op(id);
  bool isFor = is(op, OpKind::For);
  if (op.regions.empty() || op.regions[0].blocks.empty()) return;
  auto inits = operands::initValues(op);
  LoopInfo info;
  for (uint32_t j = 0; iterValueArg(op, j) != kNoId; ++j) {
    ValueId a = iterValueArg(op, j);
    if (!isToken(p_, a)) continue;
    uint32_t c = static_cast<uint32_t>(chains_.size());
    chains_.push_back({{}, a, id, static_cast<uint32_t>(info.args.size())});
    info.args.push_back({a, c, j, j < inits.size() ? setOf(inits[j].value) : setOf(kNoId), {}});
    setToken(a, DepSet{{Dep{c, 0, 0}}, false});
  }
  if (info.args.size() > 64) {  // beyond the iteration masks: iterations are taken to be ordered
    for (LoopArg& a : info.args) setToken(a.arg, DepSet{{}, true});
    info.args.clear();
  }
  info.firstExtended = extended_.size();
  loops_[id] = std::move(info);
  walkRegion(op.regions[0], id);
  resolveArgs(id);
  const LoopInfo& done = loops_[id];
  for (uint32_t i = 0; i < op.results.size(); ++i) {
    if (!isToken(p_, op.results[i])) continue;
    const DepSet* init = isFor && i < inits.size() ? &setOf(inits[i].value) : nullptr;
    setToken(op.results[i], loopResult(id, isFor ? done.continues : done.breaks, i, init));
  }
}

// What each token iter_value waits for outside the loop in every iteration:
// the greatest fixpoint of init ∩ (what every continue passes back).
void TokenGraph::resolveArgs(OpId loop) {
  LoopInfo& info = loops_[loop];
  for (LoopArg& a : info.args) a.resolved = a.init;
  for (size_t round = 0; round < info.args.size() + 2; ++round) {
    bool changed = false;
    for (LoopArg& a : info.args) {
      DepSet acc = a.init;
      for (OpId t : info.continues) {
        const Operation& c = p_.op(t);
        DepSet back =
            outsidePart(a.slot < c.operands.size() ? setOf(c.operands[a.slot].value) : setOf(kNoId), loop);
        acc = meet(acc, back);
      }
      changed |= acc.all != a.resolved.all || acc.deps.size() != a.resolved.deps.size() ||
                 !std::equal(acc.deps.begin(), acc.deps.end(), a.resolved.deps.begin(),
                             [](const Dep& x, const Dep& y) {
                               return x.chain == y.chain && x.lo == y.lo && x.hi == y.hi;
                             });
      a.resolved = std::move(acc);
    }
    if (!changed) break;
  }
}

// The part of a set (taken inside `loop`) that lies outside it, with the
// loop's own iter_values replaced by what they wait for.
TokenGraph::DepSet TokenGraph::outsidePart(const DepSet& s, OpId loop) const {
  if (s.all) return s;
  DepSet out;
  const LoopInfo& info = loops_.find(loop)->second;
  for (const Dep& d : s.deps) {
    const Chain& c = chains_[d.chain];
    if (c.ops.empty()) {
      if (c.loop == loop)
        join(out, info.args[c.argIndex].resolved);
      else if (!strictlyInside(c.loop, loop))
        join(out, DepSet{{d}, false});
      continue;
    }
    uint32_t last = lastBefore(d.chain, loop);
    if (last != kNoId && d.lo <= last) join(out, DepSet{{Dep{d.chain, d.lo, std::min(d.hi, last)}}, false});
  }
  return out;
}

// A loop result: outside the loop, what every exit path (and, for `for`, the
// zero-trip path) waits for; inside, the body ops whose every instance it
// waits for.
TokenGraph::DepSet TokenGraph::loopResult(OpId loop, const std::vector<OpId>& terms, uint32_t slot,
                                          const DepSet* init) const {
  if (terms.empty()) return init ? *init : setOf(kNoId);
  std::vector<const DepSet*> sets;
  for (OpId t : terms) {
    const Operation& o = p_.op(t);
    sets.push_back(slot < o.operands.size() ? &setOf(o.operands[slot].value) : &setOf(kNoId));
  }
  DepSet out = init ? *init : outsidePart(*sets[0], loop);
  for (const DepSet* s : sets) out = meet(out, outsidePart(*s, loop));
  // A terminator that passes on the loop's own iter_values (a `break` of
  // cuTile's while loops does) waits, through them, for body ops of earlier
  // iterations that no dep names: those chains are asked about too.
  std::vector<uint32_t> viaArgs;
  bool passesArgs = false;
  for (const DepSet* s : sets)
    for (const Dep& d : s->deps) passesArgs |= chains_[d.chain].ops.empty() && chains_[d.chain].loop == loop;
  if (passesArgs) {
    // The chains the body extended whose last op is still inside it.
    for (size_t i = loops_.find(loop)->second.firstExtended; i < extended_.size(); ++i)
      if (inside(chains_[extended_[i]].ops.back(), loop)) viaArgs.push_back(extended_[i]);
    std::sort(viaArgs.begin(), viaArgs.end());
    viaArgs.erase(std::unique(viaArgs.begin(), viaArgs.end()), viaArgs.end());
  }
  // The last position in [l, h] that s waits for in every iteration before
  // its own (coverage is prefix-closed along a chain); l - 1 when none is.
  auto lastCovered = [&](const DepSet& s, const Chain& ch, int64_t l, int64_t h) {
    int64_t good = l - 1;
    while (l <= h) {
      int64_t mid = l + (h - l) / 2;
      if (coversAcross(s, ch.ops[mid], loop, 0))
        good = mid, l = mid + 1;
      else
        h = mid - 1;
    }
    return good;
  };
  DepSet body = merge(terms, sets, viaArgs, [&](size_t k, uint32_t c) {
    const DepSet& s = *sets[k];
    Spans none;
    const Chain& ch = chains_[c];
    if (s.all) return spansOf(s, c);
    if (ch.ops.empty() || !inside(ch.ops.back(), loop)) return none;  // outside: `out` has it
    uint32_t hi = highest(s, c), lastOut = lastBefore(c, loop);
    int64_t lo = lastOut == kNoId ? 0 : int64_t(lastOut) + 1;
    Spans out;
    if (hi != kNoId && int64_t(hi) >= lo) {
      // Every instance, earlier iterations included. Ops followed by a
      // `break` in their own iteration (a suffix of the chain: it stays in
      // the block it enters) run only in the iteration that leaves: what the
      // terminator waits for there is every instance.
      auto exitAt = std::partition_point(ch.ops.begin() + lo, ch.ops.begin() + hi + 1,
                                         [&](OpId o) { return !leavesAfter(o, loop); });
      int64_t split = exitAt - ch.ops.begin();
      int64_t good = lastCovered(s, ch, lo, std::min<int64_t>(hi, split - 1));
      for (auto [x, y] : spansOf(s, c)) {
        if (int64_t(y) >= lo && int64_t(x) <= good)
          out.push_back({static_cast<uint32_t>(std::max<int64_t>(x, lo)),
                         static_cast<uint32_t>(std::min<int64_t>(y, good))});
        if (int64_t(y) >= split && int64_t(x) <= int64_t(hi))
          out.push_back({static_cast<uint32_t>(std::max<int64_t>(x, split)),
                         static_cast<uint32_t>(std::min<int64_t>(y, hi))});
      }
    }
    if (std::find(viaArgs.begin(), viaArgs.end(), c) != viaArgs.end()) {
      // Ops the terminator cannot follow in its own iteration ran only in
      // earlier ones: covered when the iter_values wait for all of those.
      auto it = std::partition_point(ch.ops.begin() + lo, ch.ops.end(), [&](OpId o) { return mayPrecede(o, terms[k]); });
      int64_t split = it - ch.ops.begin(), good = lastCovered(s, ch, split, int64_t(ch.ops.size()) - 1);
      if (good >= split) out.push_back({static_cast<uint32_t>(split), static_cast<uint32_t>(good)});
    }
    return out;
  });
  join(out, body);
  out.all = out.all || body.all;
  return out;
}

// Whether every run of `op` is followed, in the same iteration of `loop`,
// by a `break` out of it: `loop` is the innermost loop around op, and a
// block around op ends in a break with no `continue` after op on the way
// (cuTile's `if c: ...; break`).
bool TokenGraph::leavesAfter(OpId op, OpId loop) const {
  if (!is(p_.op(loop), OpKind::Loop)) return false;
  for (OpId q = p_.op(op).parent; q != loop; q = p_.op(q).parent)
    if (q == kNoId || is(p_.op(q), OpKind::For) || is(p_.op(q), OpKind::Loop)) return false;  // breaks leave that one
  OpId breaking = kNoId;  // the op whose block ends in the break
  for (OpId q = op; breaking == kNoId; q = p_.op(q).parent) {
    OpId parent = p_.op(q).parent;
    const std::vector<OpId>* ops = blockOf(q);
    if (ops && !ops->empty() && is(p_.op(ops->back()), OpKind::Break)) breaking = q;
    else if (parent == loop) return false;
  }
  for (OpId q = op;; q = p_.op(q).parent) {
    const std::vector<OpId>* ops = blockOf(q);
    if (!ops) return false;
    for (auto it = std::find(ops->begin(), ops->end(), q) + 1; it < ops->end(); ++it)
      if (holdsAny(p_, *it, {OpKind::Continue})) return false;  // the iteration may go on
    if (q == breaking) return true;
  }
}

// The ops of the block that holds `op`; nullptr when it is not known.
const std::vector<OpId>* TokenGraph::blockOf(OpId op) const {
  OpId parent = p_.op(op).parent;
  if (parent == kNoId) return nullptr;
  const Operation& po = p_.op(parent);
  uint32_t r = regionOf_[op];
  if (r >= po.regions.size() || po.regions[r].blocks.empty()) return nullptr;
  const std::vector<OpId>& ops = po.regions[r].blocks[0].ops;
  return std::find(ops.begin(), ops.end(), op) != ops.end() ? &ops : nullptr;
}

// The set a value joined from several terminators surely has: per chain,
// the positions every terminator waits for, except that a terminator need not
// wait for positions it cannot follow (later in the text, or in the other
// branch of an if). Since a chain never leaves a region it enters, those form
// a suffix of the chain. `spans(k, c)` gives what terminator k waits for.
TokenGraph::DepSet TokenGraph::merge(const std::vector<OpId>& terms, const std::vector<const DepSet*>& sets,
                                     llvm::ArrayRef<uint32_t> extra,
                                     llvm::function_ref<Spans(size_t, uint32_t)> spans) const {
  DepSet out;
  out.all = true;
  for (const DepSet* s : sets) out.all &= s->all;
  if (out.all) return out;
  llvm::SmallVector<uint32_t, 8> chains(extra.begin(), extra.end());
  for (const DepSet* s : sets)
    for (const Dep& d : s->deps) chains.push_back(d.chain);
  std::sort(chains.begin(), chains.end());
  chains.erase(std::unique(chains.begin(), chains.end()), chains.end());
  for (uint32_t c : chains) {
    const Chain& ch = chains_[c];
    uint32_t len = ch.ops.empty() ? 1 : static_cast<uint32_t>(ch.ops.size());
    Spans cur{{0, len - 1}}, any;
    for (size_t k = 0; k < terms.size() && !cur.empty(); ++k) {
      Spans mine = spans(k, c);
      any.append(mine.begin(), mine.end());
      if (!ch.ops.empty()) {
        auto it = std::partition_point(ch.ops.begin(), ch.ops.end(),
                                       [&](OpId o) { return mayPrecede(o, terms[k]); });
        if (it != ch.ops.end()) mine.push_back({static_cast<uint32_t>(it - ch.ops.begin()), len - 1});
      }
      cur = intersect(cur, normalize(mine));
    }
    for (auto [lo, hi] : intersect(cur, normalize(any))) out.deps.push_back({c, lo, hi});
  }
  return out;
}

// --- set algebra --------------------------------------------------------------

void TokenGraph::join(DepSet& into, const DepSet& from) {
  if (into.all) return;
  if (from.all) {
    into.deps.clear();
    into.all = true;
    return;
  }
  if (from.deps.empty()) return;
  llvm::SmallVector<Dep, 8> all(into.deps.begin(), into.deps.end());
  all.append(from.deps.begin(), from.deps.end());
  std::sort(all.begin(), all.end(),
            [](const Dep& x, const Dep& y) { return x.chain != y.chain ? x.chain < y.chain : x.lo < y.lo; });
  into.deps.clear();
  for (const Dep& d : all) {
    Dep* last = into.deps.empty() ? nullptr : &into.deps.back();
    if (last && last->chain == d.chain && d.lo <= last->hi + 1)
      last->hi = std::max(last->hi, d.hi);
    else
      into.deps.push_back(d);
  }
  if (into.deps.size() > kMaxChains) {
    into.deps.clear();
    into.all = true;
  }
}

TokenGraph::DepSet TokenGraph::meet(const DepSet& a, const DepSet& b) const {
  if (a.all) return b;
  if (b.all) return a;
  DepSet out;
  for (size_t i = 0; i < a.deps.size();) {
    uint32_t c = a.deps[i].chain;
    Spans x, y;
    for (; i < a.deps.size() && a.deps[i].chain == c; ++i) x.push_back({a.deps[i].lo, a.deps[i].hi});
    y = spansOf(b, c);
    for (auto [lo, hi] : intersect(x, y)) out.deps.push_back({c, lo, hi});
  }
  return out;
}

TokenGraph::Spans TokenGraph::spansOf(const DepSet& s, uint32_t chain) const {
  Spans out;
  if (s.all) {
    const Chain& ch = chains_[chain];
    out.push_back({0, ch.ops.empty() ? 0 : static_cast<uint32_t>(ch.ops.size() - 1)});
    return out;
  }
  auto it = std::lower_bound(s.deps.begin(), s.deps.end(), chain,
                             [](const Dep& d, uint32_t c) { return d.chain < c; });
  for (; it != s.deps.end() && it->chain == chain; ++it) out.push_back({it->lo, it->hi});
  return out;
}

uint32_t TokenGraph::highest(const DepSet& s, uint32_t chain) const {
  Spans sp = spansOf(s, chain);
  return sp.empty() ? kNoId : sp.back().second;
}

bool TokenGraph::has(const DepSet& s, uint32_t chain, uint32_t pos) const {
  for (auto [lo, hi] : spansOf(s, chain))
    if (lo <= pos && pos <= hi) return true;
  return false;
}

// Sorted, disjoint, not adjacent.
TokenGraph::Spans TokenGraph::normalize(Spans s) {
  std::sort(s.begin(), s.end());
  Spans out;
  for (auto [lo, hi] : s) {
    if (!out.empty() && lo <= out.back().second + 1)
      out.back().second = std::max(out.back().second, hi);
    else
      out.push_back({lo, hi});
  }
  return out;
}

TokenGraph::Spans TokenGraph::intersect(const Spans& a, const Spans& b) {
  Spans out;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    uint32_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (lo <= hi) out.push_back({lo, hi});
    (a[i].second < b[j].second ? i : j)++;
  }
  return out;
}

// --- structure ----------------------------------------------------------------

bool TokenGraph::inside(OpId op, OpId region) const {
  const Range& r = p_.op(region).range;
  uint32_t b = p_.op(op).range.begin;
  return op != region && r.begin <= b && b < r.end;
}

bool TokenGraph::strictlyInside(OpId inner, OpId outer) const {
  if (inner == outer) return false;
  if (outer == kNoId) return inner != kNoId;
  for (OpId l = inner; l != kNoId; l = loopOf_[l])
    if (l == outer) return true;
  return false;
}

OpId TokenGraph::innermostCommonLoop(OpId a, OpId b) const {
  for (OpId la = loopOf_[a]; la != kNoId; la = loopOf_[la])
    for (OpId lb = loopOf_[b]; lb != kNoId; lb = loopOf_[lb])
      if (la == lb) return la;
  return kNoId;
}

bool TokenGraph::exclusive(OpId a, OpId b) const {
  llvm::SmallVector<std::pair<OpId, uint32_t>, 8> up;  // ancestor of a, region holding a's side
  for (OpId x = a; p_.op(x).parent != kNoId; x = p_.op(x).parent)
    up.push_back({p_.op(x).parent, regionOf_[x]});
  for (OpId y = b; p_.op(y).parent != kNoId; y = p_.op(y).parent) {
    OpId anc = p_.op(y).parent;
    auto it = std::find_if(up.begin(), up.end(), [&](const auto& u) { return u.first == anc; });
    if (it == up.end()) continue;
    return is(p_.op(anc), OpKind::If) && it->second != regionOf_[y];
  }
  return false;
}

bool TokenGraph::mayPrecede(OpId a, OpId terminator) const {
  return p_.op(a).range.begin < p_.op(terminator).range.begin && !exclusive(a, terminator);
}

// A chain's positions inside a region form a suffix (values do not leave
// regions): the last position before it.
uint32_t TokenGraph::lastBefore(uint32_t chain, OpId region) const {
  const std::vector<OpId>& ops = chains_[chain].ops;
  auto it = std::partition_point(ops.begin(), ops.end(), [&](OpId o) { return !inside(o, region); });
  return it == ops.begin() ? kNoId : static_cast<uint32_t>(it - ops.begin() - 1);
}

// --- queries ------------------------------------------------------------------

// Whether a token holding `s` waits for `a` in the same iterations of every
// loop enclosing `level`'s body ... i.e. of the loops that hold both: iter
// values of loops strictly inside `level` are followed to what they wait for
// outside their loop; those of `level` and above speak of earlier iterations.
bool TokenGraph::covers(const DepSet& s, OpId a, OpId level) const {
  if (s.all || has(s, chainOf_[a], posOf_[a])) return true;
  for (const Dep& d : s.deps) {
    const Chain& c = chains_[d.chain];
    if (!c.ops.empty() || !strictlyInside(c.loop, level)) continue;
    if (covers(loops_.find(c.loop)->second.args[c.argIndex].resolved, a, level)) return true;
  }
  return false;
}

// The iter_values of `loop` a token holding `s` waits for (bit i: args[i]).
uint64_t TokenGraph::argsAt(const DepSet& s, OpId loop) const {
  if (s.all) return ~uint64_t(0);
  uint64_t out = 0;
  for (const Dep& d : s.deps) {
    const Chain& c = chains_[d.chain];
    if (!c.ops.empty()) continue;
    if (c.loop == loop)
      out |= uint64_t(1) << c.argIndex;
    else if (strictlyInside(c.loop, loop))
      out |= argsAt(loops_.find(c.loop)->second.args[c.argIndex].resolved, loop);
  }
  return out;
}

// Iter values whose value in iteration k waits for `a` in iteration k - 1:
// every continue that can follow `a` passes on a token that waits for it.
uint64_t TokenGraph::coveredAtOne(OpId a, OpId loop) const {
  const LoopInfo& info = loops_.find(loop)->second;
  uint64_t out = 0;
  for (size_t i = 0; i < info.args.size(); ++i) {
    bool ok = true;
    for (OpId t : info.continues) {
      if (!mayPrecede(a, t)) continue;
      const Operation& c = p_.op(t);
      ok = ok && covers(info.args[i].slot < c.operands.size() ? setOf(c.operands[info.args[i].slot].value)
                                                              : setOf(kNoId),
                        a, loop);
    }
    if (ok) out |= uint64_t(1) << i;
  }
  return out;
}

// From the iter values that wait for `a` d iterations back to those that wait
// for it d + 1 back: every continue passes on a token that waits for one of them.
uint64_t TokenGraph::step(uint64_t covered, OpId loop) const {
  const LoopInfo& info = loops_.find(loop)->second;
  uint64_t out = 0;
  for (size_t i = 0; i < info.args.size(); ++i) {
    bool ok = true;
    for (OpId t : info.continues) {
      const Operation& c = p_.op(t);
      const DepSet& s =
          info.args[i].slot < c.operands.size() ? setOf(c.operands[info.args[i].slot].value) : setOf(kNoId);
      ok = ok && (argsAt(s, loop) & covered) != 0;
    }
    if (ok) out |= uint64_t(1) << i;
  }
  return out;
}

// Whether a token holding `s` in iteration k of `loop` waits for `a` in
// iteration k - distance (0: in every earlier iteration). The sets of iter
// values that cover `a` d iterations back follow each other by `step`, so the
// sequence repeats within 2^args steps; past 128 steps it is taken as covered.
bool TokenGraph::coversAcross(const DepSet& s, OpId a, OpId loop, uint32_t distance) const {
  if (s.all || loops_.find(loop) == loops_.end()) return true;
  uint64_t reach = argsAt(s, loop);
  uint64_t cov = coveredAtOne(a, loop);
  if (distance > 0) {
    if (distance > 128) return true;
    for (uint32_t d = 1; d < distance; ++d) cov = step(cov, loop);
    return (reach & cov) != 0;
  }
  llvm::SmallVector<uint64_t, 8> seen;
  while (seen.size() < 128) {
    if ((reach & cov) == 0) return false;
    if (std::find(seen.begin(), seen.end(), cov) != seen.end()) return true;
    seen.push_back(cov);
    cov = step(cov, loop);
  }
  return true;
}

bool TokenGraph::waitsFor(OpId later, OpId earlier) const {
  ValueId in = tokenIn(later);
  return in != kNoId && covers(setOf(in), earlier, innermostCommonLoop(later, earlier));
}

bool TokenGraph::waitsAcross(OpId later, OpId earlier, OpId loop, uint32_t distance) const {
  ValueId in = tokenIn(later);
  return in != kNoId && coversAcross(setOf(in), earlier, loop, distance);
}

}  // namespace tilesight
