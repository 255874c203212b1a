// reanalyze(): an edit inside one module item (an entry's body) re-parses,
// verifies and checks that item alone, into the previous program. The item's
// new ops, values and side-table run take the old ones' places, so ids stay
// in source order as a whole parse numbers them; what follows moves by the
// differences (ids) and by the edit's length (offsets, and the views into
// the text, which move to the new text).
#include <algorithm>
#include <cstring>

#include "analysis/analysis.h"
#include "analysis/checks/checks.h"
#include "analysis/diag/suppressions.h"
#include "analysis/found.h"
#include "analysis/ir/op_table.h"
#include "analysis/verify/verifier.h"

namespace tilesight {

namespace {

// The edit between two versions: old [begin, oldEnd) became new [begin, newEnd).
struct Edit {
  uint32_t begin = 0, oldEnd = 0, newEnd = 0;
  int64_t delta() const { return static_cast<int64_t>(newEnd) - oldEnd; }
};

// Texts of megabytes are compared a block at a time (memcmp), then byte by
// byte inside the block that differs.
Edit findEdit(std::string_view a, std::string_view b) {
  constexpr size_t kBlock = 4096;
  size_t n = std::min(a.size(), b.size()), prefix = 0, suffix = 0;
  while (prefix + kBlock <= n && std::memcmp(a.data() + prefix, b.data() + prefix, kBlock) == 0) prefix += kBlock;
  while (prefix < n && a[prefix] == b[prefix]) ++prefix;
  size_t room = n - prefix;  // the suffix may not overlap the prefix
  while (suffix + kBlock <= room &&
         std::memcmp(a.data() + a.size() - suffix - kBlock, b.data() + b.size() - suffix - kBlock, kBlock) == 0)
    suffix += kBlock;
  while (suffix < room && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) ++suffix;
  return {static_cast<uint32_t>(prefix), static_cast<uint32_t>(a.size() - suffix), static_cast<uint32_t>(b.size() - suffix)};
}

// The line breaks in text[begin, end) ("\r\n" is one), counted from one
// character before to one after, where an edit can split or join a pair.
size_t lineBreaks(std::string_view text, uint32_t begin, uint32_t end) {
  size_t from = begin > 0 ? begin - 1 : 0, to = std::min<size_t>(end + 1, text.size()), n = 0;
  for (size_t i = from; i < to; ++i)
    n += text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'));
  return n;
}

// Whether a diagnostic's text can name a line ("the loop at line 25"): the
// checks' messages, notes and fix titles do.
bool mayNameALine(const Diagnostic& d) {
  auto names = [](const std::string& s) { return s.find("line ") != std::string::npos; };
  if (names(d.message)) return true;
  for (const RelatedNote& n : d.notes)
    if (names(n.message)) return true;
  for (const Fix& f : d.fixes)
    if (names(f.title)) return true;
  return false;
}

// Whether text[begin, end) holds no token (only blanks and comments).
bool noToken(std::string_view text, uint32_t begin, uint32_t end) {
  if (begin > end) return false;
  Lexer lex(text, begin, end);
  return lex.next().is(Tok::Eof);
}

// Moves what follows an edit: offsets after it by its length, ids after the
// replaced item by the difference in counts, views into the old text to the
// new one. Ids of the item's new parse (appended at the end) move to the
// item's place.
class Mover {
public:
  struct Ids {
    uint32_t at, oldEnd, appended;  // the old item's [at, oldEnd); its new parse starts at `appended`
    uint32_t total;                 // the count with the new parse appended
    uint32_t operator()(uint32_t id) const {
      if (id == kNoId || id < at) return id;
      if (id >= appended) return id - appended + at;  // the new parse
      if (id >= oldEnd) return id - (oldEnd - at) + (total - appended);  // after the item
      return id == at ? at : kNoId;  // the item itself (its module lists it); nothing else refers into it
    }
  };

  Mover(const Edit& e, std::string_view oldText, std::string_view newText, Ids ops, Ids values)
      : edit_(e), oldText_(oldText), newText_(newText), op(ops), value(values) {}

  // The same ids, offsets left alone: for the new parse, made in the new text.
  Mover idsOnly() const {
    Mover m = *this;
    m.moveOffsets_ = false;
    return m;
  }

  void offset(uint32_t& x) const {
    if (moveOffsets_ && x >= edit_.oldEnd) x = static_cast<uint32_t>(x + edit_.delta());
  }
  void range(Range& r) const {
    offset(r.begin);
    offset(r.end);
  }
  // A view into the old text moves to the same bytes of the new one; views
  // of other storage (the op table, Program::names) stay.
  void view(std::string_view& s) const {
    const char* old = oldText_.data();
    if (s.data() < old || s.data() >= old + oldText_.size()) return;
    uint32_t at = static_cast<uint32_t>(s.data() - old);
    offset(at);
    s = std::string_view(newText_.data() + at, s.size());
  }
  void attr(Attr& a) const {
    range(a.range);
    for (Attr& e : a.elems) attr(e);
    for (AttrEntry& e : a.dict) attr(e.value);
  }
  void operation(Operation& o) const {
    view(o.name);
    range(o.range);
    range(o.nameRange);
    for (ValueId& v : o.results) v = value(v);
    for (Operand& x : o.operands) {
      x.value = value(x.value);
      range(x.range);
    }
    for (NamedAttr& a : o.attrs) {
      view(a.name);
      range(a.nameRange);
      attr(a.attr);
    }
    for (Region& r : o.regions) {
      range(r.range);
      for (Block& b : r.blocks) {
        range(b.range);
        for (ValueId& v : b.args) v = value(v);
        for (OpId& id : b.ops) id = op(id);
      }
    }
    o.parent = op(o.parent);
  }
  void val(Value& v) const {
    view(v.name);
    range(v.range);
    v.owner = op(v.owner);
  }
  void occurrence(Occurrence& o) const {
    range(o.range);
    o.value = value(o.value);
    o.op = op(o.op);
  }
  void diagnostic(Diagnostic& d) const {
    range(d.range);
    for (RelatedNote& n : d.notes) range(n.range);
    for (Fix& f : d.fixes)
      for (TextEdit& e : f.edits) range(e.range);
  }

private:
  Edit edit_;
  std::string_view oldText_, newText_;
  bool moveOffsets_ = true;

public:
  Ids op, value;
};

// Puts the appended tail [appended, end) of `v` in place of [at, oldEnd).
template <typename T>
void splice(std::vector<T>& v, size_t at, size_t oldEnd, size_t appended) {
  size_t added = v.size() - appended;
  if (added == oldEnd - at) {  // as many as before (typing inside an op): no rotation
    std::move(v.begin() + static_cast<long>(appended), v.end(), v.begin() + static_cast<long>(at));
    v.resize(appended);
    return;
  }
  std::rotate(v.begin() + static_cast<long>(at), v.begin() + static_cast<long>(appended), v.end());
  v.erase(v.begin() + static_cast<long>(at + added), v.begin() + static_cast<long>(at + added + (oldEnd - at)));
}

// The item the edit lies in: its body's braces enclose the edit.
const ItemParse* editedItem(const ParseResult& pr, const Edit& e) {
  auto it = std::upper_bound(pr.items.begin(), pr.items.end(), e.begin, [&](uint32_t at, const ItemParse& item) {
    return item.op != kNoId && at < pr.program.op(item.op).range.begin;
  });
  if (it == pr.items.begin()) return nullptr;
  const ItemParse& item = *std::prev(it);
  if (item.op == kNoId || !item.ok) return nullptr;
  // Only an isolated item (an entry) parses alike on its own: another op of
  // the module's body sees the values its neighbours define.
  const Operation& op = pr.program.op(item.op);
  if (!op.info || !(op.info->traits & kIsolated) || op.regions.size() != 1) return nullptr;
  Range body = op.regions[0].range;  // '{' ... '}'
  return e.begin > body.begin && e.oldEnd < body.end ? &item : nullptr;
}

// Whether the item's module is one a whole parse reaches as parseModuleItem
// assumes: a custom-form cuda_tile.module at the top level (or in a builtin
// module wrapper there), and whether the item is cut off from its neighbours
// by nothing but blanks (no recovery ran into or out of it).
bool reparsable(const ParseResult& pr, const ItemParse& item, std::string_view text, uint32_t& lastEnd) {
  const Program& p = pr.program;
  const Operation& op = p.op(item.op);
  if (op.parent == kNoId) return false;
  const Operation& module = p.op(op.parent);
  if (!module.info || module.info->kind != OpKind::Module || module.generic || module.regions.size() != 1) return false;
  if (module.parent != kNoId) {
    const Operation& outer = p.op(module.parent);
    if (outer.info || outer.name != "builtin.module" || outer.parent != kNoId) return false;
  }
  size_t k = static_cast<size_t>(&item - pr.items.data());
  if (k > 0) {
    const ItemParse& before = pr.items[k - 1];
    if (before.op == kNoId || !before.ok) return false;
    lastEnd = p.op(before.op).range.end;
  } else {
    lastEnd = module.regions[0].range.begin + 1;  // after '{'
  }
  uint32_t next = module.regions[0].range.end - 1;  // '}'
  if (k + 1 < pr.items.size()) {
    const ItemParse& after = pr.items[k + 1];
    if (after.op == kNoId) return false;
    next = p.op(after.op).range.begin;
  }
  return noToken(text, lastEnd, op.range.begin) && noToken(text, op.range.end, next);
}

// The ancestors of an op (its module, the wrapper): the ops outside the
// moved tail that hold ids and offsets of it.
std::vector<OpId> ancestors(const Program& p, OpId id) {
  std::vector<OpId> out;
  for (OpId a = p.op(id).parent; a != kNoId; a = p.op(a).parent) out.push_back(a);
  return out;
}

// The item's diagnostics, in the order a whole analysis makes them.
void itemDiagnostics(const ChunkAnalysis& ca, const ItemParse& item, DiagSink& parseSink, const AnalyzeOptions& options,
                     layout::WorkBudget& budget, std::vector<Diagnostic>& found, std::vector<DiagOrigin>& origins) {
  const ParseResult& pr = ca.parsed;
  size_t parsed = parseSink.all().size();
  verifyWrittenTypes(pr.side, item.sideBegin, item.sideEnd, parseSink);
  size_t written = parseSink.all().size();
  verifyOps(pr.program, item.op, item.opEnd, parseSink);
  size_t rules = parseSink.all().size();
  std::vector<CheckUnit> unit{{item.op, item.opEnd}};
  runChecks(pr, options.checks, budget, parseSink, &unit);
  size_t all = parseSink.all().size();
  std::vector<DiagOrigin> made(all, {item.op, DiagOrigin::Checks});
  for (size_t i = 0; i < rules; ++i)
    made[i].pass = i < parsed ? DiagOrigin::Parse : i < written ? DiagOrigin::WrittenTypes : DiagOrigin::OpRules;
  appendFound(parseSink.take(), made, options.checks, found, origins);
}

// Where the item's new parse (appended to the program) and the old item are.
struct Placement {
  ItemParse old, fresh;
  size_t index;  // the item's place in ParseResult::items
  uint32_t ops, values;  // the program's counts with the new parse appended
};

// Moves ids, offsets and views, and puts the new parse in the old item's place.
void moveProgram(ChunkAnalysis& ca, const Placement& pl, const Mover& move) {
  ParseResult& pr = ca.parsed;
  Program& p = pr.program;
  const ItemParse &old = pl.old, &fresh = pl.fresh;
  Mover ids = move.idsOnly();  // the new parse's offsets and views are the new text's already
  std::vector<OpId> outer = ancestors(p, old.op);
  for (OpId id = 0; id < old.op; ++id)
    if (std::find(outer.begin(), outer.end(), id) == outer.end()) {
      Operation& o = p.op(id);  // before the edit: only its views move
      move.view(o.name);
      for (NamedAttr& at : o.attrs) move.view(at.name);
    }
  for (OpId id : outer) move.operation(p.op(id));
  for (OpId& id : p.topLevel) id = move.op(id);
  for (OpId id = old.opEnd; id < fresh.op; ++id) move.operation(p.op(id));
  for (OpId id = fresh.op; id < pl.ops; ++id) ids.operation(p.op(id));
  for (ValueId v = 0; v < old.valueBegin; ++v) move.view(p.values[v].name);
  for (ValueId v = old.valueEnd; v < fresh.valueBegin; ++v) move.val(p.values[v]);
  for (ValueId v = fresh.valueBegin; v < pl.values; ++v) ids.val(p.values[v]);
  std::vector<Occurrence>& side = pr.side.occurrences;
  for (size_t i = old.sideEnd; i < fresh.sideBegin; ++i) move.occurrence(side[i]);
  for (size_t i = fresh.sideBegin; i < side.size(); ++i) ids.occurrence(side[i]);
  splice(p.ops, old.op, old.opEnd, fresh.op);
  splice(p.values, old.valueBegin, old.valueEnd, fresh.valueBegin);
  splice(side, old.sideBegin, old.sideEnd, fresh.sideBegin);
  for (AliasDef& d : pr.aliases) {
    move.view(d.name);
    move.range(d.nameRange);
    move.attr(d.value);
  }
  for (TypeAliasDef& t : pr.typeAliases) move.offset(t.at);
  for (LayoutAliasFact& f : ca.layouts) {
    move.view(f.name);
    move.range(f.nameRange);
    move.range(f.bodyRange);
  }
}

// The item records: the new one in the old one's place, the later ones moved.
void moveItems(std::vector<ItemParse>& items, const Placement& pl) {
  const ItemParse &old = pl.old, &fresh = pl.fresh;
  uint32_t ops = pl.ops - fresh.op, values = pl.values - fresh.valueBegin, side = fresh.sideEnd - fresh.sideBegin;
  int64_t dOps = static_cast<int64_t>(ops) - (old.opEnd - old.op);
  int64_t dValues = static_cast<int64_t>(values) - (old.valueEnd - old.valueBegin);
  int64_t dSide = static_cast<int64_t>(side) - (old.sideEnd - old.sideBegin);
  items[pl.index] = {old.op, old.op + ops, old.valueBegin, old.valueBegin + values, old.sideBegin,
                     old.sideBegin + side, 0, 0, true, fresh.recovered};
  for (size_t j = pl.index + 1; j < items.size(); ++j) {
    ItemParse& it = items[j];
    if (it.op != kNoId) it.op = static_cast<OpId>(it.op + dOps);
    it.opEnd = static_cast<OpId>(it.opEnd + dOps);
    it.valueBegin = static_cast<ValueId>(it.valueBegin + dValues);
    it.valueEnd = static_cast<ValueId>(it.valueEnd + dValues);
    it.sideBegin = static_cast<uint32_t>(it.sideBegin + dSide);
    it.sideEnd = static_cast<uint32_t>(it.sideEnd + dSide);
  }
}

// The old diagnostics but the item's, moved, merged with the item's new ones
// in (offset, pass) order.
void mergeDiagnostics(Analysis& a, OpId item, const Mover& move, std::vector<Diagnostic> mine,
                      const std::vector<DiagOrigin>& mineOrigins) {
  std::vector<Diagnostic> kept;
  std::vector<DiagOrigin> keptOrigins;
  for (size_t i = 0; i < a.found.size(); ++i) {
    if (a.origins[i].item == item) continue;
    move.diagnostic(a.found[i]);
    kept.push_back(std::move(a.found[i]));
    keptOrigins.push_back({move.op(a.origins[i].item), a.origins[i].pass});
  }
  a.found.clear();
  a.origins.clear();
  auto before = [&](size_t k, size_t m) {
    const Diagnostic &x = kept[k], &y = mine[m];
    return x.range.begin != y.range.begin ? x.range.begin < y.range.begin : keptOrigins[k].pass < mineOrigins[m].pass;
  };
  size_t i = 0, j = 0;
  while (i < kept.size() || j < mine.size()) {
    // On a tie the item's come first: a whole parse reports what the item's
    // parse found at an offset before what the parse after it found there.
    if (j < mine.size() && (i == kept.size() || !before(i, j))) {
      a.found.push_back(std::move(mine[j]));
      a.origins.push_back(mineOrigins[j++]);
    } else {
      a.found.push_back(std::move(kept[i]));
      a.origins.push_back(keptOrigins[i++]);
    }
  }
}

}  // namespace

std::optional<Analysis> reanalyze(Analysis a, std::string_view oldText, std::string_view newText,
                                  const AnalyzeOptions& options) {
  if (!a.reusable || options.splitInputFile || a.chunks.size() != 1 || oldText == newText) return std::nullopt;
  if (a.layoutSpent + options.layoutWorkBudget > options.layoutTotalBudget) return std::nullopt;
  ChunkAnalysis& ca = a.chunks[0];
  ParseResult& pr = ca.parsed;
  Program& p = pr.program;
  Edit e = findEdit(oldText, newText);
  const ItemParse* edited = editedItem(pr, e);
  uint32_t lastEnd = 0;
  if (!edited || !reparsable(pr, *edited, oldText, lastEnd)) return std::nullopt;
  // A message that names a line after an edit that adds or removes lines
  // would be stale: such an edit re-analyses the file.
  if (lineBreaks(oldText, e.begin, e.oldEnd) != lineBreaks(newText, e.begin, e.newEnd))
    for (size_t i = 0; i < a.found.size(); ++i)
      if (a.origins[i].item != edited->op && a.found[i].range.begin >= e.oldEnd && mayNameALine(a.found[i]))
        return std::nullopt;
  Placement pl{*edited, {}, static_cast<size_t>(edited - pr.items.data()), 0, 0};
  uint32_t oldEnd = p.op(pl.old.op).range.end;

  // The item's new parse, appended: it must end where the old one did, moved.
  DiagSink sink;
  pl.fresh = parseModuleItem(newText, p.op(pl.old.op).range.begin, static_cast<uint32_t>(newText.size()),
                             p.op(pl.old.op).parent, lastEnd, pr, sink);
  if (!pl.fresh.ok || pl.fresh.op == kNoId || p.op(pl.fresh.op).range.end != static_cast<uint32_t>(oldEnd + e.delta()))
    return std::nullopt;
  pl.ops = static_cast<uint32_t>(p.ops.size());
  pl.values = static_cast<uint32_t>(p.values.size());
  Mover move(e, oldText, newText, {pl.old.op, pl.old.opEnd, pl.fresh.op, pl.ops},
             {pl.old.valueBegin, pl.old.valueEnd, pl.fresh.valueBegin, pl.values});
  moveProgram(ca, pl, move);
  moveItems(pr.items, pl);
  p.source = newText;
  ca.chunk.end = static_cast<uint32_t>(newText.size());

  layout::WorkBudget budget(options.layoutWorkBudget, options.layoutTotalBudget - a.layoutSpent);
  std::vector<Diagnostic> mine;
  std::vector<DiagOrigin> mineOrigins;
  itemDiagnostics(ca, pr.items[pl.index], sink, options, budget, mine, mineOrigins);
  a.layoutSpent += budget.spent();
  if (a.layoutSpent + options.layoutWorkBudget > options.layoutTotalBudget) return std::nullopt;
  mergeDiagnostics(a, pl.old.op, move, std::move(mine), mineOrigins);
  a.reparsedItem = pl.index;
  a.diagnostics = a.found;
  applySuppressions(newText, a.diagnostics, [&](std::string_view code) { return options.checks.enabled(code); },
                    !parseRecovered(a));
  return a;
}

}  // namespace tilesight
