#include "codegen/interp/sanitizer.h"

#include <algorithm>
#include <iterator>

#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/interp/block_exec.h"

namespace tilesight::interp {

namespace {

std::string blockText(const std::array<int64_t, 3>& b) {
  return "(" + std::to_string(b[0]) + ", " + std::to_string(b[1]) + ", " + std::to_string(b[2]) + ")";
}


std::string lineOf(const Program& p, const Operation& op) {
  std::string_view before = p.source.substr(0, std::min<size_t>(op.range.begin, p.source.size()));
  return std::to_string(std::count(before.begin(), before.end(), '\n') + 1);
}

// " (lane [3, 1])", or nothing when the lane is not known.
std::string laneText(TypeRef tile, std::optional<int64_t> lane) {
  return lane ? " (lane " + laneCoordinates(tile, *lane) + ")" : "";
}

std::string opName(const Operation& op) { return op.info ? std::string(op.info->name) : std::string(op.name); }

bool releases(MemoryOrdering o) { return o == MemoryOrdering::Release || o == MemoryOrdering::AcqRel; }
bool acquires(MemoryOrdering o) { return o == MemoryOrdering::Acquire || o == MemoryOrdering::AcqRel; }

bool readModifyWrite(OpKind k) {
  return k == OpKind::AtomicRmwTko || k == OpKind::AtomicCasTko || k == OpKind::AtomicRedViewTko;
}

}  // namespace

std::string laneCoordinates(TypeRef tile, int64_t k) {
  if (!tile || tile->shape.empty()) return "[]";
  std::vector<int64_t> c(tile->shape.size());
  for (size_t d = tile->shape.size(); d-- > 0;) {
    c[d] = k % tile->shape[d];
    k /= tile->shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < c.size(); ++d) s += (d ? ", " : "") + std::to_string(c[d]);
  return s + "]";
}

std::string Sanitizer::placeOf(const Operation& op) const {
  return placeName_ ? placeName_(program_, op.range.begin) : "line " + lineOf(program_, op);
}

MemoryEvent Sanitizer::begin(BlockExec& x, const Operation& op, const TokenValue& after) {
  MemoryEvent e;
  e.id = x.clock().nextEvent++;
  e.after = after;
  e.op = &op;
  e.ordering = orderingOf(op).value_or(MemoryOrdering::Weak);
  e.scope = scopeOf(op).value_or(MemoryScope::Device);
  e.atomic = readModifyWrite(op.info->kind) || e.ordering != MemoryOrdering::Weak;  // relaxed and stronger are morally strong
  return e;
}

TokenValue Sanitizer::end(const MemoryEvent& e) const {
  auto bits = std::make_shared<std::vector<uint64_t>>(e.after.events ? *e.after.events : std::vector<uint64_t>{});
  if (bits->size() <= e.id / 64) bits->resize(e.id / 64 + 1, 0);
  (*bits)[e.id / 64] |= uint64_t{1} << (e.id % 64);
  return TokenValue{bits};
}

bool Sanitizer::ordered(const Access& before, BlockExec& x, const MemoryEvent& now) const {
  if (before.block == x.linearId()) return now.after.covers(before.event);
  auto it = x.clock().knows.find(before.block);
  return it != x.clock().knows.end() && before.event < it->second;
}

void Sanitizer::access(BlockExec& x, const MemoryEvent& e, const AccessRun& run, bool read, bool write) {
  if (run.count <= 0) return;
  Access now{x.linearId(), e.id, e.op, e.atomic, e.scope, run};
  if (write && releases(e.ordering) && e.scope != MemoryScope::TlBlk) {
    release_ = std::make_shared<std::unordered_map<int64_t, uint32_t>>(x.clock().knows);
    (*release_)[now.block] = e.id + 1;
  } else {
    release_.reset();
  }
  if (run.step == run.width) return accessRange(x, e, now, run.key0, run.key0 + run.step * run.count, read, write);
  for (int64_t j = 0; j < run.count; ++j) {  // gaps or overlaps between elements: one at a time
    Access one = now;
    one.run = AccessRun{run.key0 + run.step * j, run.width, run.width, 1, run.lane0 + j, run.tile};
    accessRange(x, e, one, one.run.key0, one.run.key0 + run.width, read, write);
  }
}

// The segment that starts at `key` (splitting the one that spans it), or
// the first segment after it.
Sanitizer::Shadow::iterator Sanitizer::splitAt(uint64_t key) {
  auto it = shadow_.lower_bound(key);
  if ((it != shadow_.end() && it->first == key) || it == shadow_.begin()) return it;
  auto before = std::prev(it);
  if (before->second.end <= key) return it;
  Segment tail = before->second;
  before->second.end = key;
  return shadow_.emplace_hint(it, key, std::move(tail));
}

void Sanitizer::accessRange(BlockExec& x, const MemoryEvent& e, const Access& now, uint64_t lo, uint64_t hi,
                            bool read, bool write) {
  auto it = splitAt(lo);
  splitAt(hi);
  for (uint64_t at = lo; at < hi;) {
    if (it == shadow_.end() || it->first > at) {  // keys nobody accessed yet
      uint64_t gapEnd = it == shadow_.end() ? hi : std::min(it->first, hi);
      it = shadow_.emplace_hint(it, at, Segment{gapEnd, {}, {}, nullptr, {}});
    }
    update(x, e, now, at, it->second, read, write);
    at = it->second.end;
    auto next = std::next(it);
    mergeLeft(it);
    it = next;
  }
}

// Joins the segment at `it` to its left neighbour when the same events
// touched both (their lanes are then no longer known).
void Sanitizer::mergeLeft(Shadow::iterator it) {
  if (it == shadow_.begin()) return;
  auto left = std::prev(it);
  Segment& l = left->second;
  const Segment& r = it->second;
  if (l.end != it->first || l.release != r.release || l.reads.size() != r.reads.size() ||
      l.hidden.size() != r.hidden.size())
    return;
  if (!l.write.sameEvent(r.write)) return;
  for (size_t i = 0; i < l.reads.size(); ++i)
    if (!l.reads[i].sameEvent(r.reads[i])) return;
  for (size_t i = 0; i < l.hidden.size(); ++i)
    if (!l.hidden[i].sameEvent(r.hidden[i])) return;
  auto join = [](Access& a, const Access& b) {
    if (a.run.key0 != b.run.key0 || a.run.lane0 != b.run.lane0 || a.run.step != b.run.step) a.lanes = false;
  };
  join(l.write, r.write);
  for (size_t i = 0; i < l.reads.size(); ++i) join(l.reads[i], r.reads[i]);
  for (size_t i = 0; i < l.hidden.size(); ++i) join(l.hidden[i], r.hidden[i]);
  l.end = r.end;
  shadow_.erase(it);
}

void Sanitizer::update(BlockExec& x, const MemoryEvent& e, const Access& now, uint64_t at, Segment& s, bool read,
                       bool write) {
  // An acquire synchronizes-with the last release here when its scope covers
  // both tile blocks: tl_blk does not reach another block's release.
  if (read && acquires(e.ordering) && e.scope != MemoryScope::TlBlk && s.release)
    for (const auto& [b, ev] : *s.release) x.clock().knows[b] = std::max(x.clock().knows[b], ev);
  auto clash = [&](const Access& other, bool otherWrites) {
    if (other.block < 0) return;
    if (other.block == now.block && other.event == now.event) {  // two lanes of one access
      if (write && otherWrites && !readModifyWrite(e.op->info->kind)) conflict(x, now, other, at, true);
      return;
    }
    bool strong = e.atomic && other.atomic &&
                  (other.block == now.block || (e.scope != MemoryScope::TlBlk && other.scope != MemoryScope::TlBlk));
    if (!strong && !ordered(other, x, e)) conflict(x, now, other, at, write);
  };
  clash(s.write, true);
  if (e.atomic)
    for (const Access& h : s.hidden) clash(h, h.wrote);
  if (write) {
    for (const Access& r : s.reads) clash(r, false);
    if (e.atomic) {  // the weak accesses this write replaces, for the atomics after it
      if (s.write.block >= 0 && !s.write.atomic && s.hidden.size() < 8) {
        s.hidden.push_back(s.write);
        s.hidden.back().wrote = true;
      }
      for (const Access& r : s.reads)
        if (!r.atomic && s.hidden.size() < 8) s.hidden.push_back(r);
    } else {
      s.hidden.clear();
    }
    s.reads.clear();
    s.write = now;
    s.release = release_;
  } else if (read) {
    bool known = false;
    for (Access& r : s.reads)
      if (r.block == now.block && r.op == now.op) r = now, known = true;
    if (!known && s.reads.size() < 8) s.reads.push_back(now);
  }
}

void Sanitizer::conflict(BlockExec& x, const Access& now, const Access& other, uint64_t key, bool write) {
  const Operation& op = *now.op;
  bool overlap = other.block == now.block && other.event == now.event;
  bool crossScope = !overlap && other.block != now.block && now.atomic && other.atomic;
  const char* code = overlap ? "layout.overlap" : crossScope ? "race.scope" : "race.unordered";
  if (seen_.count(std::make_tuple(std::string(code), &op, overlap ? nullptr : other.op))) return;  // reported
  std::string here = opName(op) + " at " + placeOf(op) + " in tile block " + blockText(x.blockId()) +
                     laneText(now.run.tile, now.laneAt(key));
  std::string there = opName(*other.op) + " at " + placeOf(*other.op) + " in tile block " +
                      blockText(blockAt(x.launch().grid, other.block)) + laneText(other.run.tile, other.laneAt(key));
  std::string at = memory_.describe(key / 2) + (key % 2 ? " (its high nibble)" : "");
  if (overlap) {
    report("layout.overlap", op, nullptr,
           here + " and" + (other.lanes ? " its lane " + laneCoordinates(other.run.tile, *other.laneAt(key)) : " another lane") +
               " both write " + at +
               ": the destination maps two elements of the tile to one address",
           "");
    return;
  }
  std::string why = other.block == now.block
                        ? "no token chain orders them"
                        : crossScope ? "both are atomic, but with tl_blk scope, which does not cover two tile blocks"
                                     : "no release/acquire synchronization orders them across the tile blocks";
  report(code, op, other.op,
         here + (write ? " writes " : " reads ") + at + ", which " + there + " also accesses; " + why,
         "the other access: " + there);
}

void Sanitizer::indexOutside(BlockExec& x, const Operation& op, const std::string& message) {
  report("bounds.index", op, nullptr, "tile block " + blockText(x.blockId()) + ": " + message, "");
}

void Sanitizer::misaligned(BlockExec& x, const Operation& op, int64_t lane, const std::string& message) {
  report("subbyte.align", op, nullptr,
         "tile block " + blockText(x.blockId()) + ", lanes " + std::to_string(lane) + " and " + std::to_string(lane + 1) +
             ": " + message,
         "");
}

void Sanitizer::unspecifiedReaches(BlockExec& x, const Operation& load, const Operation& use, TypeRef tile,
                                   int64_t lane, const std::string& role) {
  if (seen_.count(std::make_tuple(std::string("bounds.partial-tile"), &load, &use))) return;
  std::string there = opName(use) + " at " + placeOf(use);
  TypeRef view = program_.typeOf(operands::view(load));
  std::string how = view && view->padding == Padding::Unknown
                        ? "a `masked` view, whose padding value the text does not give"
                        : "a view without padding_value";
  report("bounds.partial-tile", load, &use,
         "tile block " + blockText(x.blockId()) + ": " + opName(load) + " at " + placeOf(load) +
             " reads past the tensor's edge through " + how + ", and an unspecified value it read "
             "reaches " + there + " as " + role + " (lane " + laneCoordinates(tile, lane) + ")",
         "the unspecified value is observed here: " + there);
}

void Sanitizer::report(const std::string& code, const Operation& op, const Operation* other, std::string message,
                       std::string note) {
  auto key = std::make_tuple(code, &op, other);
  if (seen_.count(key)) return;
  seen_[key] = findings_.size();
  Diagnostic d{op.range, Severity::Error, code, std::move(message), {}, {}};
  if (other) d.notes.push_back({other->range, std::move(note)});
  findings_.push_back(std::move(d));
}

std::vector<Diagnostic> Sanitizer::diagnostics() const { return findings_; }

}  // namespace tilesight::interp
