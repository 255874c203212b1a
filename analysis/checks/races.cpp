// race.unordered and race.scope (DESIGN §5; spec §7, the memory model).
//
// Two accesses race when they may touch a common element, at least one
// writes, neither waits for the other through a token chain (program order
// and data dependencies order nothing), and they are not morally strong: in
// one tile block, both non-weak (any scope covers the block that runs them);
// across tile blocks, both non-weak with a scope wider than tl_blk. A pair of
// non-weak accesses in different tile blocks whose scope is tl_blk is
// race.scope: the scope does not cover the other party.
//
// Which pairs. Accesses are grouped by root (distinct entry pointer arguments
// do not alias unless --assume-aliasing) and, inside a group, by footprint
// (the same view source and index forms, or the same element box). Each access
// walks back over its footprint to the last write that surely ran before it
// (a write whose block holds it): what that write waits for, it waits for
// through it. A read looks at the writes on the way, a write at every access.
// Each access is also compared with the kNearest latest accesses of other
// footprints of its group, where overlaps are possible rather than proved.
// The walk stops after kWalk accesses, so the work is linear in the number of
// accesses (times kWalk + kNearest); an overlap beyond those bounds goes
// unreported. Each pair is checked in one run, across the iterations of every
// loop holding both, and (with a known grid) across tile blocks.
//
// A proved overlap is an error, a possible one (the same root, indices not
// known to differ) a warning. One diagnostic per op and kind, on the op that
// has to wait; the fix threads the other op's token into it.
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include <llvm/ADT/DenseMap.h>

#include "analysis/checks/checks.h"
#include "analysis/checks/footprints.h"
#include "analysis/ir/ir_query.h"
#include "analysis/checks/locks.h"
#include "analysis/checks/token_graph.h"
#include "analysis/checks/value_facts.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/source/source_text.h"

namespace tilesight {

namespace {

constexpr size_t kNearest = 8;  // accesses of other footprints compared with each access
constexpr size_t kWalk = 64;    // accesses of its own footprint walked back over

std::string_view mnemonic(const Operation& op) { return op.info ? op.info->name : op.name; }

std::string blockText(const std::array<int64_t, 3>& b) {
  return "(" + std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " + std::to_string(b[2]) + ")";
}


enum class Kind { SameRun, Iterations, Blocks, Scope };

struct Finding {
  Overlap overlap = Overlap::No;
  Diagnostic diag;
};

// One side of a pair across tile blocks: the access, the block that runs it,
// and, when it stands for either arm of an `if` (Footprints::twin), the words
// that say so.
struct Party {
  const Access& x;
  BlockId block;
  std::string orTwin;
};

class RaceChecker {
public:
  RaceChecker(const CheckContext& cx, const TokenGraph& tokens, const Footprints& fp, const Locks& locks,
              std::set<std::string_view>& names)
      : p_(cx.program), options_(cx.options), tokens_(tokens), facts_(cx.facts), executions_(cx.executions),
        fp_(fp), locks_(locks), names_(names) {}

  void run(DiagSink& diags);

private:
  void checkPair(const Access& a, const Access& b);  // a first in the text, or a == b
  void sameRun(const Access& a, const Access& b);
  void acrossIterations(const Access& a, const Access& b, OpId loop);
  void acrossBlocks(const Access& a, const Access& b);
  bool interchangeable(const Access& x) const;
  std::string orTwinText(const Access& x) const;
  void unlocked(const Party& held, const Party& on, const Locks::Section& s, const Footprints::BlockResult& r);
  void brokenLock(const Party& a, const Party& b, const Locks::Section& s, const Footprints::BlockResult& r);
  bool improves(OpId at, Kind kind, Overlap o) const;
  void report(OpId at, Kind kind, Overlap o, Diagnostic d);

  uint64_t groupKey(const Access& a) const;
  uint64_t footprintKey(const Access& a, size_t index) const;
  Diagnostic make(const Access& on, Severity s, std::string code, std::string message) const;
  void noteOther(Diagnostic& d, const Access& other, const std::string& what) const;
  void noteSameInBlocks(Diagnostic& d, const Access& a) const;
  std::string opText(const Access& a) const { return "'" + std::string(mnemonic(p_.op(a.op))) + "'"; }
  std::string lineText(OpId op) const { return facts_.place(p_.op(op).range.begin); }
  std::string gridText() const;
  std::optional<Fix> threadToken(const Access& later, const Access& earlier) const;
  std::optional<Fix> widenScope(const Access& a, const Access& b) const;
  bool visibleAt(OpId def, OpId use) const;
  std::string freshName(std::string_view stem) const;

  const Program& p_;
  const CheckOptions& options_;
  const TokenGraph& tokens_;
  const ValueFacts& facts_;
  const Executions& executions_;
  const Footprints& fp_;
  const Locks& locks_;
  std::map<std::pair<OpId, Kind>, Finding> findings_;
  std::set<std::string_view>& names_;  // every value name, for fresh ones
};

void RaceChecker::run(DiagSink& diags) {
  const auto& all = fp_.accesses();
  struct Bucket {
    std::vector<size_t> entries, writes;  // in text order
  };
  struct Group {
    std::array<std::pair<size_t, uint64_t>, kNearest> recent;  // the latest accesses and footprints, a ring
    size_t seen = 0;
  };
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, uint32_t> bucketOf;  // (group, footprint) -> buckets
  llvm::DenseMap<uint64_t, uint32_t> groupOf;
  std::vector<Bucket> buckets;
  std::vector<Group> groups;
  llvm::SmallVector<size_t, 16> cands;
  for (size_t i = 0; i < all.size(); ++i) {
    const Access& b = all[i];
    uint64_t gk = groupKey(b), key = footprintKey(b, i);
    auto g = groupOf.try_emplace(gk, static_cast<uint32_t>(groups.size()));
    if (g.second) groups.emplace_back();
    auto bk = bucketOf.try_emplace({gk, key}, static_cast<uint32_t>(buckets.size()));
    if (bk.second) buckets.emplace_back();
    Group& group = groups[g.first->second];
    Bucket& bucket = buckets[bk.first->second];
    // Back to the last write that surely ran before `b` (its block holds b):
    // what that write waits for, `b` waits for through it, and an older
    // access that `b` does not wait for conflicts with that write too. A read
    // needs only the writes; a write, every access. Not when both are
    // non-weak: they are morally strong, so that write stands in for no weak
    // access behind it, and the walk goes on.
    cands.clear();
    const std::vector<size_t>& back = b.writes ? bucket.entries : bucket.writes;
    for (size_t k = back.size(), n = 0; k-- > 0 && n < kWalk; ++n) {
      const Access& w = all[back[k]];
      cands.push_back(back[k]);
      if (w.writes && visibleAt(w.op, b.op) && (w.weak() || b.weak())) break;
    }
    for (size_t n = 0; n < std::min(group.seen, kNearest); ++n)
      if (group.recent[n].second != key) cands.push_back(group.recent[n].first);
    std::sort(cands.begin(), cands.end());
    cands.erase(std::unique(cands.begin(), cands.end()), cands.end());
    for (size_t c : cands) checkPair(all[c], b);
    if (b.writes) checkPair(b, b);
    bucket.entries.push_back(i);
    if (b.writes) bucket.writes.push_back(i);
    group.recent[group.seen++ % kNearest] = {i, key};
  }
  for (auto& [key, f] : findings_) diags.push(std::move(f.diag));
}

// Distinct entry pointer arguments are distinct memory unless --assume-aliasing
// (or a launch says some of them alias: CheckOptions::aliasGroup). Those
// share one group, whose key lies past every value id (and is not ~0,
// DenseMap's empty key).
uint64_t RaceChecker::groupKey(const Access& a) const {
  constexpr uint64_t kEntryArguments = uint64_t(1) << 32;
  const Value& r = p_.value(a.root);
  if (!r.blockArg || r.owner == kNoId || !is(p_.op(r.owner), OpKind::Entry)) return a.root;
  const std::vector<size_t>& group = options_.aliasGroup;
  if (options_.assumeAliasing || std::find(group.begin(), group.end(), size_t(r.index)) != group.end())
    return kEntryArguments;
  return a.root;
}

// Accesses with equal keys touch the same elements (FNV-1a over the view
// source and index forms, or the element box); a footprint not known exactly
// gets a key of its own.
uint64_t RaceChecker::footprintKey(const Access& a, size_t index) const {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * 1099511628211ull;
  };
  auto affine = [&](const Affine& f) {
    mix(static_cast<uint64_t>(f.c0));
    for (const auto& [sym, c] : f.terms) mix(sym), mix(static_cast<uint64_t>(c));
  };
  auto own = [&] { return (uint64_t(1) << 63) | index; };
  if (a.source != kNoId) {
    mix(a.source);
    for (const auto& f : a.forms) {
      if (!f) return own();
      affine(*f);
    }
    return h & ~(uint64_t(1) << 63);
  }
  if (!a.box || !a.box->exact) return own();
  mix(~uint64_t(a.box->width));
  affine(a.box->base);
  for (const auto& [e, st] : a.box->dims) mix(static_cast<uint64_t>(e)), mix(static_cast<uint64_t>(st));
  return h & ~(uint64_t(1) << 63);
}

void RaceChecker::checkPair(const Access& a, const Access& b) {
  if (!a.writes && !b.writes) return;
  if (a.op != b.op) sameRun(a, b);
  for (OpId l = tokens_.innermostCommonLoop(a.op, b.op); l != kNoId; l = tokens_.loopOf(l))
    if (fp_.rootFixedIn(a, l) && fp_.rootFixedIn(b, l)) acrossIterations(a, b, l);
  if (options_.grid) acrossBlocks(a, b);
}

// --- in one run ---------------------------------------------------------------------

void RaceChecker::sameRun(const Access& a, const Access& b) {
  if (!a.weak() && !b.weak()) return;  // any scope covers the tile block that runs both
  if (tokens_.waitsFor(b.op, a.op)) return;
  Footprints::Result r = fp_.same(a, b, false);
  if (!improves(b.op, Kind::SameRun, r.kind) || tokens_.exclusive(a.op, b.op)) return;
  r = fp_.same(a, b);
  bool same = r.kind == Overlap::Must;
  // The same memory, but one of them may not run: possible, not certain.
  OpId unsure = same ? executions_.mayNotRun(a.op) : kNoId;
  if (same && unsure == kNoId) unsure = executions_.mayNotRun(b.op);
  bool must = same && unsure == kNoId;
  std::string rw = a.writes && b.writes ? "both write" : "one of them writes";
  std::string parties = opText(b) + " and the " + opText(a) + " at " + lineText(a.op);
  std::string msg =
      must ? parties + " both access " + r.where + " and " + rw +
                 ", but no token orders them (program order does not order token-ordered operations)"
      : same ? parties + " both access " + r.where + " when both run (whether the '" + std::string(mnemonic(p_.op(unsure))) + "'" +
                   " at " + lineText(unsure) + " runs them is not known) and " + rw + ", but no token orders them"
             : parties + " may access the same memory (" + r.where + ") and " + rw + ", but no token orders them";
  Diagnostic d = make(b, must ? Severity::Error : Severity::Warning, "race.unordered", msg);
  noteOther(d, a, same ? r.where : std::string());
  if (auto fix = threadToken(b, a)) d.fixes.push_back(std::move(*fix));
  report(b.op, Kind::SameRun, must ? Overlap::Must : Overlap::May, std::move(d));
}

// --- across iterations --------------------------------------------------------------

void RaceChecker::acrossIterations(const Access& a, const Access& b, OpId loop) {
  if (!a.weak() && !b.weak()) return;
  Footprints::Result r = fp_.acrossIterations(a, b, loop, false);
  if (r.kind == Overlap::No) return;
  // r.distance: a's iteration minus b's (0: any). The later instance has to
  // wait; with any distance, either may be the one that does not.
  bool aWaits = r.distance >= 0 && !tokens_.waitsAcross(a.op, b.op, loop, static_cast<uint32_t>(r.distance));
  bool bWaits = !aWaits && r.distance <= 0 && a.op != b.op &&
                !tokens_.waitsAcross(b.op, a.op, loop, static_cast<uint32_t>(-r.distance));
  if (!aWaits && !bWaits) return;
  const Access& waiter = aWaits ? a : b;
  const Access& other = aWaits ? b : a;
  if (!improves(waiter.op, Kind::Iterations, r.kind)) return;
  r = fp_.acrossIterations(a, b, loop);
  bool must = r.kind == Overlap::Must;
  std::string loopAt = "the loop at " + lineText(loop);
  std::string when = r.distance ? std::to_string(r.distance < 0 ? -r.distance : r.distance) + " iteration" +
                                      (r.distance == 1 || r.distance == -1 ? "" : "s") + " apart"
                                : "in different iterations";
  std::string rw = a.writes && b.writes ? "both write" : "one of them writes";
  std::string msg;
  if (a.op == b.op) {
    msg = opText(a) + (must ? " writes " : " may write ") +
          (must ? r.where : "the same memory (" + r.where + ")") + " " + when + " of " + loopAt +
          ", and no token carried from one iteration to the next orders the writes";
  } else if (!r.whereOther.empty()) {
    // The indices read differently in the two iterations: name each side's tile.
    const std::string& mine = waiter.op == a.op ? r.where : r.whereOther;
    const std::string& theirs = waiter.op == a.op ? r.whereOther : r.where;
    msg = opText(waiter) + " (" + mine + ") and the " + opText(other) + " at " + lineText(other.op) + " (" +
          theirs + ")" + (must ? " access the same tile " : " may access the same tile ") + when + " in " +
          loopAt + " and " + rw + ", but no token carried from one iteration to the next orders them";
  } else {
    msg = opText(waiter) + " and the " + opText(other) + " at " + lineText(other.op) +
          (must ? " both access " : " may both access ") + r.where + " " + when + " of " + loopAt + " and " +
          rw + ", but no token carried from one iteration to the next orders them";
  }
  Diagnostic d = make(waiter, must ? Severity::Error : Severity::Warning, "race.unordered", msg);
  if (a.op != b.op)
    noteOther(d, other,
              must ? (other.op == a.op || r.whereOther.empty() ? r.where : r.whereOther) : std::string());
  d.notes.push_back(
      {p_.op(loop).nameRange, "the loop: carry a token through its iter_values to order its iterations"});
  report(waiter.op, Kind::Iterations, r.kind, std::move(d));
}

// --- across tile blocks -------------------------------------------------------------

std::string RaceChecker::gridText() const { return tilesight::gridText(options_); }

// Whether x and its twin in the other arm of an `if` are alike for the
// question across blocks: the same lock sections, so the same blocks order them.
bool RaceChecker::interchangeable(const Access& x) const {
  const Access* t = fp_.twin(x);
  if (!t) return false;
  auto same = [](const Locks::Section* s, const Locks::Section* u) {
    return (!s && !u) || (s && u && s->acquire == u->acquire && s->release == u->release);
  };
  return same(locks_.sectionOf(x), locks_.sectionOf(*t)) &&
         same(locks_.brokenSectionOf(x), locks_.brokenSectionOf(*t));
}

// " (or the one at line 537 in the other arm of the 'if' at line 528, whichever runs)"
std::string RaceChecker::orTwinText(const Access& x) const {
  const Access* t = fp_.twin(x);
  return " (or the one at " + lineText(t->op) + " in the other arm of the 'if' at " + lineText(p_.op(x.op).parent) +
         ", whichever runs)";
}

void RaceChecker::acrossBlocks(const Access& a, const Access& b) {
  bool scoped = !a.weak() && !b.weak();
  if (scoped && a.coversBlocks() && b.coversBlocks()) return;
  bool eitherA = interchangeable(a), eitherB = interchangeable(b);
  // Twins stand for each other: the first one's pair with itself says it all.
  if (eitherA && (fp_.twin(a) == &b || (a.op == b.op && fp_.twin(a)->op < a.op))) return;
  Footprints::BlockResult r = fp_.acrossBlocks(
      a, b, [&](const BlockId& x, const BlockId& y) { return locks_.ordered(a, x, b, y); }, eitherA, eitherB);
  if (r.kind == Overlap::No) return;
  // A lock whose address no execution fixes may order what an unknown
  // divisor makes meet: nothing is known either way.
  if (r.divisor != kNoId && (locks_.sectionOf(a) || locks_.sectionOf(b))) return;
  if (a.op == b.op && r.blockB < r.blockA) std::swap(r.blockA, r.blockB);
  Party pa{a, r.blockA, r.twinA ? orTwinText(a) : ""}, pb{b, r.blockB, r.twinB ? orTwinText(b) : ""};
  // When one of them holds a lock and the other does not, the other is the
  // one to fix: the diagnostic goes there and says what it misses.
  if (a.op != b.op && !scoped) {
    const Locks::Section *sa = locks_.sectionOf(a), *sb = locks_.sectionOf(b);
    if (sa && !sb) return unlocked(pa, pb, *sa, r);
    if (sb && !sa) return unlocked(pb, pa, *sb, r);
    if (!sa && !sb) {
      const Locks::Section *ba = locks_.brokenSectionOf(a), *bb = locks_.brokenSectionOf(b);
      if (ba && bb && ba->acquire->root == bb->acquire->root) return brokenLock(pa, pb, *ba, r);
    }
  }
  bool must = r.kind == Overlap::Must;
  Severity severity = must ? Severity::Error : Severity::Warning;
  std::string access = must ? " both access " : " may both access ";
  std::string maybe = must              ? ""
                      : r.why.empty() ? " (one of them is under a branch that may not run there)"
                                      : r.why;
  std::string blocks =
      "tile blocks " + blockText(r.blockA) + " and " + blockText(r.blockB) + " (" + gridText() + ")";
  std::string parties = a.op == b.op ? opText(b) + pb.orTwin + " in " + blocks
                                     : opText(b) + pb.orTwin + " in tile block " + blockText(r.blockB) +
                                           " and the " + opText(a) + " at " + lineText(a.op) + pa.orTwin +
                                           " in tile block " + blockText(r.blockA) + " (" + gridText() + ")";
  Diagnostic d;
  if (scoped) {
    const Access& narrow = b.coversBlocks() ? a : b;
    std::string msg = parties + access + r.where + maybe + ", but the " + opText(narrow) + " has scope " +
                      std::string(keywordName(*narrow.scope)) + ", which covers only the tile block that runs it: its " +
                      std::string(keywordName(narrow.ordering)) + " access does not communicate with the other tile block";
    d = make(b, severity, "race.scope", msg);
    if (a.op != b.op) noteOther(d, a, r.where);
    if (const Attr* s = attrs::memoryScope(p_.op(narrow.op)); s && !s->range.empty())
      d.notes.push_back({s->range, "tl_blk: only the tile block that runs this " + opText(narrow)});
    if (auto fix = widenScope(a, b)) d.fixes.push_back(std::move(*fix));
    report(b.op, Kind::Scope, r.kind, std::move(d));
    return;
  }
  std::string msg = parties + access + r.where + maybe + " and " +
                    (a.writes && b.writes ? "both write" : "one of them writes") +
                    "; tokens order accesses only within one tile block, and weak accesses cannot "
                    "communicate between blocks";
  const Access* off = nullptr;
  BlockId offIn{};
  for (const Party* q : {&pb, &pa})
    if (!off && (off = locks_.maskedOff(q->x, q->block))) offIn = q->block;
  if (off)
    msg += "; the lock is not taken in tile block " + blockText(offIn) + ": the mask of the " + opText(*off) +
           " at " + lineText(off->op) + " is false there";
  d = make(b, severity, "race.unordered", msg);
  if (off) d.notes.push_back({p_.op(off->op).nameRange, "masked off in tile block " + blockText(offIn) +
                                                            ": this lock op does not run there"});
  if (a.op != b.op)
    noteOther(d, a, r.where);
  else
    noteSameInBlocks(d, a);
  report(b.op, Kind::Blocks, r.kind, std::move(d));
}

// `on` races with `held`, which lies in critical section `s` of a lock that
// `on` does not hold.
void RaceChecker::unlocked(const Party& held, const Party& on, const Locks::Section& s,
                           const Footprints::BlockResult& r) {
  const std::string& where = r.where;
  bool must = r.kind == Overlap::Must;
  bool afterAcquire = tokens_.waitsFor(on.x.op, s.acquire->op);
  bool beforeRelease = tokens_.waitsFor(s.release->op, on.x.op);
  std::string misses = !afterAcquire && !beforeRelease ? "does not wait for the acquire and the release does not wait for it"
                       : !afterAcquire                 ? "does not wait for the acquire"
                                                       : "is not waited for by the release";
  std::string msg = opText(on.x) + on.orTwin + " in tile block " + blockText(on.block) + " and the " +
                    opText(held.x) + " at " + lineText(held.x.op) + held.orTwin + " in tile block " +
                    blockText(held.block) + " (" + gridText() + (must ? ") both access " : ") may both access ") +
                    where + " and " + (held.x.writes && on.x.writes ? "both write" : "one of them writes") +
                    "; the " + opText(held.x) + " is inside the critical section of the lock acquired at " +
                    lineText(s.acquire->op) + " and released at " + lineText(s.release->op) + ", but this " +
                    opText(on.x) + " " + misses + ", so the lock does not order it";
  Diagnostic d = make(on.x, must ? Severity::Error : Severity::Warning, "race.unordered", msg);
  noteOther(d, held.x, where);
  d.notes.push_back({p_.op(s.acquire->op).nameRange, "the lock is acquired here"});
  d.notes.push_back({p_.op(s.release->op).nameRange, "and released here"});
  if (!afterAcquire)
    if (auto fix = threadToken(on.x, *s.acquire)) d.fixes.push_back(std::move(*fix));
  report(on.x.op, Kind::Blocks, r.kind, std::move(d));
}

// Both lie between the ops of a lock that does not order them. The first
// fault found is reported, on the access next to it: one of them does not
// wait for the acquire (the earlier one first), or the release does not wait
// for one of them (the later one first), or the acquire does not acquire, or
// the release does not release (relaxed, or block-scoped).
void RaceChecker::brokenLock(const Party& pa, const Party& pb, const Locks::Section& s,
                             const Footprints::BlockResult& r) {
  const std::string& where = r.where;
  const Access &a = pa.x, &b = pb.x;
  bool must = r.kind == Overlap::Must;
  const Access &acq = *s.acquire, &rel = *s.release;
  bool aAfter = tokens_.waitsFor(a.op, acq.op), bAfter = tokens_.waitsFor(b.op, acq.op);
  bool aBefore = tokens_.waitsFor(rel.op, a.op), bBefore = tokens_.waitsFor(rel.op, b.op);
  auto semantics = [](const Access& x) {
    return std::string(keywordName(x.ordering)) + (x.scope ? " " + std::string(keywordName(*x.scope)) : "");
  };
  bool onA;
  std::string why;
  const Access* faulty;
  if (!aAfter || !bAfter) {
    onA = !aAfter;
    faulty = &acq;
    why = "takes the lock, but this " + opText(onA ? a : b) + " does not wait for it" +
          (Locks::acquires(acq) ? "" : " (and it is " + semantics(acq) + ", which would not acquire anyway)");
  } else if (!aBefore || !bBefore) {
    onA = bBefore;
    faulty = &rel;
    why = "gives the lock back without waiting for this " + opText(onA ? a : b) +
          (Locks::releases(rel) ? "" : " (and it is " + semantics(rel) + ", which would not release anyway)");
  } else if (!Locks::acquires(acq)) {
    onA = true;
    faulty = &acq;
    why = "(" + semantics(acq) + ") does not acquire, so winning the lock does not order this " + opText(a) +
          " after the previous owner's accesses (an acquire with scope device is needed)";
  } else {
    onA = false;
    faulty = &rel;
    why = "(" + semantics(rel) + ") does not release, so the next owner's accesses are not ordered after this " +
          opText(b) + " (a release with scope device is needed)";
  }
  const Party &pon = onA ? pa : pb, &pother = onA ? pb : pa;
  const Access &on = pon.x, &other = pother.x;
  std::string msg = opText(on) + pon.orTwin + " in tile block " + blockText(pon.block) + " and the " +
                    opText(other) + " at " + lineText(other.op) + pother.orTwin + " in tile block " +
                    blockText(pother.block) + " (" + gridText() +
                    (must ? ") both access " : ") may both access ") + where + " and " +
                    (on.writes && other.writes ? "both write" : "one of them writes") + " inside a lock, but the " +
                    opText(*faulty) + " at " + lineText(faulty->op) + " " + why;
  Diagnostic d = make(on, must ? Severity::Error : Severity::Warning, "race.unordered", msg);
  noteOther(d, other, where);
  d.notes.push_back({p_.op(faulty->op).nameRange, faulty == &acq ? "the lock is taken here" : "the lock is given back here"});
  if (faulty == &acq && !(onA ? aAfter : bAfter))
    if (auto fix = threadToken(on, acq)) d.fixes.push_back(std::move(*fix));
  report(on.op, Kind::Blocks, r.kind, std::move(d));
}

// --- diagnostics --------------------------------------------------------------------

// On the op's first line: the memory operand when it is there, else the op name.
Diagnostic RaceChecker::make(const Access& on, Severity s, std::string code, std::string message) const {
  const Operation& op = p_.op(on.op);
  Range r = fp_.at(on);
  bool sameLine =
      !r.empty() && r.begin >= op.range.begin &&
      !hasLineEnd(p_.source.substr(op.range.begin, r.begin - op.range.begin));
  Diagnostic d{sameLine ? r : op.nameRange, s, std::move(code), std::move(message), {}, {}};
  if (!sameLine && !r.empty()) d.notes.push_back({r, "the access"});
  return d;
}

// "the other access: this 'store_view_tko' writes tile (0, 1) of %pv"
void RaceChecker::noteOther(Diagnostic& d, const Access& other, const std::string& where) const {
  std::string does = other.reads && other.writes ? "reads and writes" : other.writes ? "writes" : "reads";
  Range at = fp_.at(other);
  d.notes.push_back(
      {at.empty() ? p_.op(other.op).nameRange : at,
       "the other access: this " + opText(other) + " " + does + (where.empty() ? "" : " " + where)});
}

// One op in two tile blocks: point at the index (or pointer) that does not tell them apart.
void RaceChecker::noteSameInBlocks(Diagnostic& d, const Access& a) const {
  ValueId v = !a.indices.empty() ? a.indices.front() : kNoId;
  if (v == kNoId) {
    const Operation& op = p_.op(a.op);
    if (!op.operands.empty()) v = op.operands.front().value;
  }
  if (v == kNoId || p_.value(v).range.empty()) return;
  std::string name(p_.value(v).name);
  d.notes.push_back({p_.value(v).range, a.indices.empty()
                                            ? name + " points at the same element in both tile blocks"
                                            : name + " selects the same tile in both tile blocks"});
}

// Whether a finding of this overlap would replace what `at` has for `kind`.
bool RaceChecker::improves(OpId at, Kind kind, Overlap o) const {
  auto it = findings_.find({at, kind});
  return o != Overlap::No && (it == findings_.end() || o > it->second.overlap);
}

void RaceChecker::report(OpId at, Kind kind, Overlap o, Diagnostic d) {
  Finding& f = findings_[{at, kind}];
  if (o > f.overlap) f = {o, std::move(d)};
}

// Whether `def`'s results are in scope at `use`: `use` lies after it in the
// region that holds it.
bool RaceChecker::visibleAt(OpId def, OpId use) const {
  const Operation& d = p_.op(def);
  if (d.parent == kNoId) return false;
  uint32_t at = p_.op(use).range.begin;
  for (const Region& r : p_.op(d.parent).regions)
    if (r.range.begin <= d.range.begin && d.range.begin < r.range.end)
      return r.range.begin <= at && at < r.range.end && d.range.end <= at;
  return false;
}

std::string RaceChecker::freshName(std::string_view stem) const {
  if (names_.empty())
    for (const Value& v : p_.values) names_.insert(v.name);
  std::string name(stem);
  for (int k = 1; names_.count(name); ++k) name = std::string(stem) + std::to_string(k);
  return name;
}

// `token = %t` on the op that has to wait, or a join_tokens of its token and %t.
std::optional<Fix> RaceChecker::threadToken(const Access& later, const Access& earlier) const {
  const Operation& op = p_.op(later.op);
  ValueId t = tokens_.tokenOut(earlier.op);
  if (op.generic || t == kNoId || p_.value(t).name.empty() || !visibleAt(earlier.op, later.op))
    return std::nullopt;
  std::string tok(p_.value(t).name);
  ValueId in = tokens_.tokenIn(later.op);
  std::string title = "wait for the " + opText(earlier) + " at " + lineText(earlier.op);
  if (in == kNoId) {
    // The token clause follows the last memory operand (and the `]` of view indices).
    uint32_t end = 0;
    for (const Operand& o : op.operands) end = std::max(end, o.range.end);
    if (end == 0) return std::nullopt;
    if (end < p_.source.size() && p_.source[end] == ']') ++end;
    return Fix{title, {{{end, end}, " token = " + tok}}};
  }
  // The token operand comes last in every memory op.
  const Operand* use = op.operands.empty() || op.operands.back().value != in ? nullptr : &op.operands.back();
  if (!use) return std::nullopt;
  uint32_t lineStart = static_cast<uint32_t>(lineStartOf(p_.source, op.range.begin));
  std::string_view indent = p_.source.substr(lineStart, op.range.begin - lineStart);
  if (indent.find_first_not_of(" \t") != std::string_view::npos) return std::nullopt;
  std::string joined = freshName("%joined");
  std::string line = std::string(indent) + joined + " = join_tokens " + std::string(p_.value(in).name) +
                     ", " + tok + " : token\n";
  return Fix{title + " (join it with " + std::string(p_.value(in).name) + ")",
             {{{lineStart, lineStart}, line}, {use->range, joined}}};
}

// Scope `device` instead of `tl_blk` on the op(s) that have it.
std::optional<Fix> RaceChecker::widenScope(const Access& a, const Access& b) const {
  Fix f{"use scope device", {}};
  for (const Access* x : {&a, &b}) {
    if (x->scope != MemoryScope::TlBlk) continue;
    const Attr* s = attrs::memoryScope(p_.op(x->op));
    if (!s || s->range.empty() || p_.source.substr(s->range.begin, s->range.end - s->range.begin) != "tl_blk")
      return std::nullopt;
    if (f.edits.empty() || f.edits.back().range.begin != s->range.begin)
      f.edits.push_back({s->range, "device"});
  }
  if (f.edits.empty()) return std::nullopt;
  return f;
}

}  // namespace

// Per entry: its token relation, its accesses and locks, then its pairs.
class RaceCheck final : public CheckPass {
public:
  RaceCheck(const CheckContext& cx, DiagSink& diags) : cx_(cx), diags_(diags), tokens_(cx.program) {}

  void endUnit(OpId unit) override {
    llvm::ArrayRef<OpId> ops = tokens_.addFunction(unit);
    if (ops.empty()) return;
    Footprints fp(cx_.program, cx_.facts, cx_.executions, ops, cx_.layoutBudget);
    Locks locks(cx_.program, tokens_, fp, cx_.executions, cx_.options.grid);
    RaceChecker(cx_, tokens_, fp, locks, names_).run(diags_);
  }

private:
  const CheckContext& cx_;
  DiagSink& diags_;
  TokenGraph tokens_;
  std::set<std::string_view> names_;  // every value name, for fresh ones (filled on first use)
};

std::unique_ptr<CheckPass> raceCheck(const CheckContext& cx, DiagSink& diags) {
  return std::make_unique<RaceCheck>(cx, diags);
}

}  // namespace tilesight
