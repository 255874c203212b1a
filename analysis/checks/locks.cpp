#include "analysis/checks/locks.h"

#include <algorithm>
#include <set>

#include "analysis/ir/ir_query.h"
#include "analysis/ir/attr_values.h"
#include "analysis/semantics/int_ops.h"
#include "analysis/ir/op_accessors.h"

namespace tilesight {

namespace {


// One element, reached through a pointer: a lock word.
bool lockWord(const Access& a) {
  if (!a.box || a.view != kNoId) return false;
  for (const auto& [extent, stride] : a.box->dims)
    if (extent > 1 && stride != 0) return false;
  return true;
}

// One element, reached through a pointer or a view of one-element tiles: a flag.
bool flagWord(const Access& a) {
  if (!a.box || a.loose) return false;
  for (const auto& [extent, stride] : a.box->dims)
    if (extent > 1 && stride != 0) return false;
  return true;
}

}  // namespace

Locks::Locks(const Program& program, const TokenGraph& tokens, const Footprints& footprints,
             const Executions& executions, const std::optional<BlockId>& grid)
    : p_(program), tokens_(tokens), executions_(executions), grid_(grid) {
  for (const Access& a : footprints.accesses()) {
    if (!lockWord(a) || a.loose) continue;
    std::optional<OpKind> n = kindOf(p_.op(a.op));
    if ((n == OpKind::AtomicCasTko || n == OpKind::AtomicRmwTko) && spins(a.op)) takes_.push_back(&a);
    if (a.writes) gives_.push_back(&a);  // a plain store counts: as a release that does not release
  }
  for (const Access& a : footprints.accesses()) {
    if (!flagWord(a)) continue;
    if (a.writes && releases(a)) posts_.push_back(&a);
    std::optional<OpKind> n = kindOf(p_.op(a.op));
    bool load = n == OpKind::LoadViewTko || n == OpKind::LoadPtrTko;
    if (load && acquires(a) && spins(a.op)) waits_.push_back(&a);
  }
}

bool Locks::acquires(const Access& op) {
  return op.coversBlocks() && (op.ordering == MemoryOrdering::Acquire || op.ordering == MemoryOrdering::AcqRel);
}

bool Locks::releases(const Access& op) {
  return op.coversBlocks() && (op.ordering == MemoryOrdering::Release || op.ordering == MemoryOrdering::AcqRel);
}

bool Locks::spins(OpId op) const {
  for (OpId q = p_.op(op).parent; q != kNoId; q = p_.op(q).parent)
    if (is(p_.op(q), OpKind::Loop)) return true;
  return false;
}

// The sections of x: proper ones, or (broken) those x would lie in (see the
// header).
const std::vector<Locks::Section>& Locks::sectionsOf(const Access& x, bool broken) const {
  auto [it, fresh] = sections_.try_emplace({x.op, unsigned(broken)});
  if (!fresh) return it->second;
  for (const Access* acq : takes_) {
    if (acq->op == x.op) continue;
    bool after = tokens_.waitsFor(x.op, acq->op);
    if (!after && (!broken || p_.op(acq->op).range.begin > p_.op(x.op).range.begin)) continue;
    for (const Access* rel : gives_) {
      if (rel->root != acq->root || !(rel->box->base == acq->box->base) || rel->op == x.op || rel->op == acq->op)
        continue;
      bool before = tokens_.waitsFor(rel->op, x.op);
      if (!before && (!broken || p_.op(rel->op).range.begin < p_.op(x.op).range.begin)) continue;
      bool proper = after && before && acquires(*acq) && releases(*rel);
      if (proper != broken) it->second.push_back({acq, rel});
    }
  }
  return it->second;
}

// The lock word's offset from its root in tile block `block`; nullopt when
// not known, or when the lock op's mask is off there (cuTile's `index <
// shape` bounds mask: a lock array too short takes no lock at all).
std::optional<int64_t> Locks::lockOffset(const Access& lock, const BlockId& block) const {
  if (maskedOffIn(lock, block)) return std::nullopt;
  Execution e;
  e.block = block;
  __int128 o = lock.box->base.c0;
  for (const auto& [sym, c] : lock.box->base.terms) {
    auto v = executions_.value(sym, e);
    if (!v) return std::nullopt;
    o += __int128(c) * *v;
  }
  if (o < INT64_MIN || o > INT64_MAX) return std::nullopt;
  return static_cast<int64_t>(o);
}

bool Locks::ordered(const Access& a, const BlockId& ba, const Access& b, const BlockId& bb) const {
  if (!waits_.empty() && !posts_.empty() && (handedOver(a, ba, b, bb) || handedOver(b, bb, a, ba))) return true;
  if (takes_.empty()) return false;
  for (const Section& sa : sectionsOf(a, false))
    for (const Section& sb : sectionsOf(b, false)) {
      if (sa.acquire->root != sb.acquire->root) continue;
      auto la = lockOffset(*sa.acquire, ba), lb = lockOffset(*sb.acquire, bb);
      if (la && lb && *la == *lb) return true;
    }
  return false;
}

const Locks::Handover& Locks::handoverOf(const Access& x) const {
  auto [it, fresh] = handovers_.try_emplace(x.op);
  if (!fresh) return it->second;
  for (const Access* w : posts_)
    if (w->op != x.op && tokens_.waitsFor(w->op, x.op)) it->second.posts.push_back(w);
  for (const Access* r : waits_)
    if (r->op != x.op && tokens_.waitsFor(x.op, r->op)) it->second.waits.push_back(r);
  return it->second;
}

// A chain of hand-overs from x to y: a post that waits for `before` in x, the
// wait in the next block that reads its element and ends on its value, a
// post there that waits for that wait, ..., a wait in y that `after` waits for.
bool Locks::handedOver(const Access& before, const BlockId& x, const Access& after, const BlockId& y) const {
  if (!grid_ || (*grid_)[0] * (*grid_)[1] * (*grid_)[2] > Footprints::kMaxBlocks) return false;
  const auto& goal = handoverOf(after).waits;
  if (goal.empty()) return false;
  std::vector<std::pair<BlockId, const Access*>> todo;  // a post that happens after `before`, in its block
  for (const Access* w : handoverOf(before).posts) todo.push_back({x, w});
  std::set<std::pair<BlockId, OpId>> seen;
  for (size_t i = 0; i < todo.size() && i < kChain; ++i) {
    auto [z, post] = todo[i];
    auto offset = lockOffset(*post, z);
    if (!offset) continue;
    std::optional<int64_t> value = written(*post, z);
    for (const Access* r : waits_) {
      if (r->root != post->root) continue;
      auto at = waitersOf(*r).find(*offset);
      if (at == waitersOf(*r).end()) continue;
      for (const BlockId& next : at->second) {
        if (next == z || !ends(*r, next, value)) continue;
        if (next == y && std::find(goal.begin(), goal.end(), r) != goal.end()) return true;
        if (next == x || !seen.insert({next, r->op}).second) continue;
        for (const Access* w : handoverOf(*r).posts) todo.push_back({next, w});
      }
    }
  }
  return false;
}

const std::map<int64_t, std::vector<BlockId>>& Locks::waitersOf(const Access& w) const {
  auto [it, fresh] = waiters_.try_emplace(w.op);
  if (!fresh) return it->second;
  BlockId b{};
  for (b[2] = 0; b[2] < (*grid_)[2]; ++b[2])
    for (b[1] = 0; b[1] < (*grid_)[1]; ++b[1])
      for (b[0] = 0; b[0] < (*grid_)[0]; ++b[0])
        if (auto o = lockOffset(w, b)) it->second[*o].push_back(b);
  return it->second;
}

// The value a post stores in `block`: a scalar, or a one-element tile made
// from one (cuTile reshapes the scalar it stores).
std::optional<int64_t> Locks::written(const Access& post, const BlockId& block) const {
  const Operation& op = p_.op(post.op);
  std::optional<OpKind> n = kindOf(op);
  ValueId v = n == OpKind::StoreViewTko ? operands::tile(op) : n == OpKind::StorePtrTko ? operands::value(op) : kNoId;
  for (const Operation* d = definingOp(p_, v); d && (is(*d, OpKind::Reshape) || is(*d, OpKind::Broadcast));
       d = definingOp(p_, v))
    v = d->operands[0].value;
  if (v == kNoId) return std::nullopt;
  if (auto c = constantInts(p_, v, 1)) return c->front();
  Execution e;
  e.block = block;
  return executions_.value(v, e);
}

// The `if` in the wait's loop body whose condition compares the loaded value
// (reshaped to a scalar) and one of whose regions ends in `break`.
std::optional<Locks::Exit> Locks::exitOf(const Access& wait) const {
  const Operation& op = p_.op(wait.op);
  if (op.results.empty() || op.parent == kNoId || !is(p_.op(op.parent), OpKind::Loop)) return std::nullopt;
  auto loaded = [&](ValueId v) {
    for (const Operation* d = definingOp(p_, v); d && is(*d, OpKind::Reshape); d = definingOp(p_, v))
      v = d->operands[0].value;
    return v == op.results[0];
  };
  auto breaks = [&](const Region& r) {
    return r.blocks.size() == 1 && !r.blocks[0].ops.empty() && is(p_.op(r.blocks[0].ops.back()), OpKind::Break);
  };
  for (const Region& body : p_.op(op.parent).regions)
    for (const Block& blk : body.blocks)
      for (OpId id : blk.ops) {
        const Operation& f = p_.op(id);
        if (!is(f, OpKind::If) || f.regions.size() != 2) continue;
        const Operation* c = definingOp(p_, operands::condition(f));
        if (!c || !is(*c, OpKind::Cmpi) || c->operands.size() != 2 || !predicateOf(*c)) continue;
        bool left = loaded(c->operands[0].value);
        if (!left && !loaded(c->operands[1].value)) continue;
        if (breaks(f.regions[0]) == breaks(f.regions[1])) continue;
        return Exit{c->operands[left ? 1 : 0].value, *predicateOf(*c), left, breaks(f.regions[0])};
      }
  return std::nullopt;
}

// Whether reading `value` (nullopt: not known) ends the wait's loop in `block`.
bool Locks::ends(const Access& wait, const BlockId& block, std::optional<int64_t> value) const {
  auto exit = exitOf(wait);
  if (!exit || !value) return true;
  Execution e;
  e.block = block;
  auto other = executions_.value(exit->other, e);
  if (!other) return true;
  int64_t l = exit->loadedLeft ? *value : *other, r = exit->loadedLeft ? *other : *value;
  return predicateHolds(exit->pred, l, r) == exit->breakOn;
}

bool Locks::maskedOffIn(const Access& lock, const BlockId& block) const {
  if (lock.mask == kNoId) return false;
  Execution e;
  e.block = block;
  auto on = executions_.value(lock.mask, e);
  return on && *on == 0;
}

const Access* Locks::maskedOff(const Access& x, const BlockId& block) const {
  for (const Section& s : sectionsOf(x, false))
    if (maskedOffIn(*s.acquire, block)) return s.acquire;
  return nullptr;
}

}  // namespace tilesight
