#include "analysis/checks/locks.h"

#include "analysis/checks/ir_query.h"

namespace tilesight {

namespace {


// One element, reached through a pointer: a lock word.
bool lockWord(const Access& a) {
  if (!a.box || a.view != kNoId) return false;
  for (const auto& [extent, stride] : a.box->dims)
    if (extent > 1 && stride != 0) return false;
  return true;
}

}  // namespace

Locks::Locks(const Program& program, const TokenGraph& tokens, const Footprints& footprints,
             const Executions& executions)
    : p_(program), tokens_(tokens), executions_(executions) {
  for (const Access& a : footprints.accesses()) {
    if (!lockWord(a) || a.loose) continue;
    std::optional<OpKind> n = kindOf(p_.op(a.op));
    if ((n == OpKind::AtomicCasTko || n == OpKind::AtomicRmwTko) && spins(a.op)) takes_.push_back(&a);
    if (a.writes) gives_.push_back(&a);  // a plain store counts: as a release that does not release
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
  if (takes_.empty()) return false;
  for (const Section& sa : sectionsOf(a, false))
    for (const Section& sb : sectionsOf(b, false)) {
      if (sa.acquire->root != sb.acquire->root) continue;
      auto la = lockOffset(*sa.acquire, ba), lb = lockOffset(*sb.acquire, bb);
      if (la && lb && *la == *lb) return true;
    }
  return false;
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
