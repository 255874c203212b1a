// bounds.index and bounds.partial-tile (DESIGN §5) on the view memory ops.
//
// bounds.index: an index of load_view_tko, store_view_tko or
// atomic_red_view_tko outside the view's index space (views.h). First, what
// the launch certainly runs (executions.h): an execution in which the index
// is outside is an error that names it (the tile block, the loop iteration);
// when every execution was seen and none is, the index is proved in range.
// Otherwise the intervals speak: every value out of range is an error; some
// values out of range is a warning, reported only for an end of the index's
// interval that is evidence (value_facts.h): an index nothing is known about
// stays silent.
//
// bounds.partial-tile: a load of a tile that overhangs the tensor's edge
// through a view without padding_value (the overhang reads unspecified
// values). Reported for an execution that loads such a tile, or when the
// index's interval reaches a partial tile through an end that is evidence, so
// an unknown index stays silent here too. The unspecified lanes are followed
// like poison: through element-wise ops they stay in their lanes, and a store
// of the same tile geometry at the same indices masks exactly them (the
// tensor's edge is the same). Only when they reach something observable (a
// reduction, a scan, an mma, a shape op that moves lanes, a scalar, a
// pointer, a loop-carried value, a store elsewhere) is the load reported,
// with a note on that use. Stores are masked at the edge: nothing to report. The fix adds
// `padding_value = zero` to the view's type where the spec allows it (float
// views not used by atomic_red_view_tko), at the definition and every use.
#include <algorithm>
#include <optional>
#include <string>

#include <llvm/ADT/DenseMap.h>

#include "analysis/checks/checks.h"
#include "analysis/checks/executions.h"
#include "analysis/ir/ir_query.h"
#include "analysis/checks/unspecified_lanes.h"
#include "analysis/checks/value_facts.h"
#include "analysis/checks/views.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/op_table.h"
#include "analysis/verify/verify_util.h"

namespace tilesight {

namespace {

bool checkedViewAccess(const Operation& op) { return op.info && !op.broken && isViewAccess(op.info->kind); }

std::string name(const Program& p, ValueId v) { return std::string(p.value(v).name); }

// "0..3", or "0 and up" when the extent is not known, "none" when it is 0.
std::string validText(const views::IndexDim& d) {
  if (!d.extent) return "0 and up";
  if (*d.extent == 0) return "none: the tensor is empty along dimension " + std::to_string(d.tensorDim);
  return "0.." + std::to_string(*d.extent - 1);
}

// The interval a scalar index can take. Its ends are evidence as the base's are.
struct IndexRange {
  Interval range;
  bool loKnown = false;
  bool hiKnown = false;
};

std::optional<IndexRange> indexRange(const ValueFacts& facts, ValueId v, OpId user) {
  const TileFact* t = facts.tileAt(v, user);
  if (!t || t->pointer) return std::nullopt;
  const ScalarFact* s = facts.scalarAt(v, user);
  if (!s) return std::nullopt;
  return IndexRange{s->range, s->loKnown, s->hiKnown};
}

class BoundsChecker final : public CheckPass {
public:
  BoundsChecker(const CheckContext& cx, DiagSink& diags)
      : p_(cx.program), facts_(cx.facts), executions_(cx.executions), diags_(diags), lanes_(cx.program, cx.facts) {}

  void visit(OpId id) override {
    const Operation& op = p_.op(id);
    if (!checkedViewAccess(op)) return;
    const Operand* view = operands::viewOperand(op);
    if (!view) return;
    TypeRef vt = p_.typeOf(view->value);
    const auto& space = facts_.indexSpace(view->value);
    if (!space) return;
    llvm::ArrayRef<Operand> indices = operands::index(op);
    if (indices.size() != space->dims.size()) return;
    bool load = op.info->kind == OpKind::LoadViewTko;
    for (size_t d = 0; d < indices.size(); ++d) {
      const views::IndexDim& dim = space->dims[d];
      // The rows of a gather/scatter may lie outside the tensor (seed 001
      // §5.6.1): loads read padding (or unspecified values), stores are masked.
      if (dim.sparse) continue;
      auto r = indexRange(facts_, indices[d].value, id);
      if (!r) continue;
      Ctx c{id, op, *view, indices[d], *space, d, *r};
      if (checkIndex(c)) continue;
      if (promisedInBounds(op, d)) checkPromise(c, load);
      else if (load && vt->padding == Padding::None) checkPartial(c);
    }
  }

private:
  const Program& p_;
  const ValueFacts& facts_;
  const Executions& executions_;
  DiagSink& diags_;
  UnspecifiedLanes lanes_;
  llvm::DenseMap<ValueId, std::optional<Fix>> fixes_;  // per view: one scan of the program

  struct Ctx {
    OpId id;
    const Operation& op;
    const Operand& view;
    const Operand& index;
    const views::IndexSpace& space;
    size_t dim;
    IndexRange r;
  };

  Diagnostic& report(const Ctx& c, Severity s, std::string code, std::string message) {
    rules::OpRef o{p_, c.op};
    Range at = o.onOpLine(c.index.range);
    Diagnostic& d = diags_.add(s, at, std::move(code), std::move(message));
    if (at.begin != c.index.range.begin) d.notes.push_back({c.index.range, "the index"});
    const views::IndexDim& dim = c.space.dims[c.dim];
    std::string tile = dim.sparse ? "rows" : "tiles of " + std::to_string(dim.tile);
    d.notes.push_back({p_.value(c.view.value).range,
                       name(p_, c.view.value) + " is defined here: index space " + c.space.shapeText() + ", " + tile +
                           " along tensor dimension " + std::to_string(dim.tensorDim) +
                           (dim.tensorSize ? " of size " + std::to_string(*dim.tensorSize) : std::string())});
    evidenceNote(d, c.index.value, c.id);
    return d;
  }

  void evidenceNote(Diagnostic& d, ValueId v, OpId user) {
    const TileFact* t = facts_.tileAt(v, user);
    auto r = facts_.evidenceRange(v, user);
    if (!t || !r || t->base.basis.value == kNoId) return;
    d.notes.push_back({*r, name(p_, t->base.basis.value) + " is defined here"});
  }

  // The first execution of the access in which the index satisfies `bad`,
  // and whether every execution was seen.
  struct Certain {
    std::optional<Execution> at;
    int64_t index = 0;
    bool complete = false;
  };
  Certain certain(const Ctx& c, llvm::function_ref<bool(int64_t)> bad) const {
    Certain out;
    ValueId v = c.index.value;
    bool computedAll = true;
    out.complete = executions_.forEach(c.id, {v}, [&](const Execution& e) {
      auto x = executions_.value(v, e);
      if (!x) return computedAll = false, true;
      if (!bad(*x)) return true;
      out.at = e;
      out.index = *x;
      return false;
    });
    out.complete &= computedAll;
    return out;
  }

  // "; <how the index is known>", from the facts or, for an iter_value, from
  // the executions; empty when neither says.
  std::string derivation(ValueId v, OpId at) const {
    std::string why = facts_.describe(v, at);
    if (why.empty()) why = executions_.explain(v);
    return why.empty() ? "" : "; " + why;
  }

  // bounds.index; true when reported (an index out of the space needs no
  // partial-tile warning on top).
  bool checkIndex(const Ctx& c) {
    const views::IndexDim& dim = c.space.dims[c.dim];
    const IndexRange& r = c.r;
    // The last valid index (none above it is known when the extent is not).
    int64_t last = dim.extent ? *dim.extent - 1 : INT64_MAX;
    bool every = (r.loKnown && r.range.lo > last) || (r.hiKnown && r.range.hi < 0);
    if (!dim.extent && lastIteration(c)) return true;
    // The interval is sound whatever its evidence: inside the space, nothing to enumerate.
    if (r.range.lo >= 0 && r.range.hi <= last) return false;
    if (dim.extent && !every) {
      Certain e = certain(c, [&](int64_t x) { return x < 0 || x > last; });
      if (e.at) {
        std::string when = executions_.describe(*e.at);
        report(c, Severity::Error, "bounds.index",
               "index " + std::to_string(e.index) + " of dimension " + std::to_string(c.dim) +
                   " is outside the index space " + c.space.shapeText() + " of " + name(p_, c.view.value) +
                   " (valid: " + validText(dim) + ")" + (when.empty() ? "" : " " + when) +
                   derivation(c.index.value, c.id));
        return true;
      }
      if (e.complete) return false;  // in range in every execution
    }
    bool mayHi = r.hiKnown && r.range.hi > last, mayLo = r.loKnown && r.range.lo < 0;
    if (!every && !mayHi && !mayLo) return false;
    std::string dimText = " of dimension " + std::to_string(c.dim);
    std::string space = "the index space " + c.space.shapeText() + " of " + name(p_, c.view.value) + " (valid: " +
                        validText(dim) + ")";
    std::string why = facts_.describe(c.index.value, c.id);
    bool exact = r.loKnown && r.hiKnown && r.range.single();
    if (every) {
      // Certain only where the access runs: after a guard such as
      // `if n == 0 { return }`, or under `if n > 0`, perhaps nowhere.
      std::string unless;
      if (OpId unsure = executions_.mayNotRun(c.id); unsure != kNoId) {
        const Operation& u = p_.op(unsure);
        bool around = false;
        for (OpId q = c.op.parent; q != kNoId && !around; q = p_.op(q).parent) around = q == unsure;
        const ScalarFact* cond = is(u, OpKind::If) ? facts_.scalar(operands::condition(u)) : nullptr;
        if (around && cond && cond->exact()) return false;  // the other region runs
        if (!around) {  // an earlier op that may return
          bool runs = false;
          bool complete = executions_.forEach(c.id, {}, [&](const Execution&) { return !(runs = true); });
          if (!runs && complete) return false;  // no execution gets there
          if (!runs)
            unless = " if it runs (the '" + std::string(u.info ? u.info->name : u.name) + "' at " +
                     facts_.place(u.range.begin) + " may return before it)";
        }
      }
      std::string msg = exact ? "index " + std::to_string(r.range.lo) + dimText + " is outside " + space + unless + "; " + why
                              : "every index" + dimText + " is outside " + space + unless + ": " + why;
      report(c, unless.empty() ? Severity::Error : Severity::Warning, "bounds.index", msg);
      return true;
    }
    std::string reach = mayHi ? "may reach " + std::to_string(r.range.hi) : "may be " + std::to_string(r.range.lo);
    report(c, Severity::Warning, "bounds.index", "index" + dimText + " " + reach + ", outside " + space + ": " + why);
    return true;
  }

  // A dynamic extent compared without its value: the index is the induction
  // variable of a `for` with step 1 whose last value is cdiv(n, T) + k (k >= 0)
  // where the view has cdiv(S, T) tiles of T along the dimension and n equals
  // S (equal forms): the last iteration indexes tile cdiv(S, T) + k, past the
  // space whatever S is (cuTile's `range(ct.cdiv(m, T) + 1)`). An error when
  // the access certainly runs in every iteration of a loop that certainly
  // runs (S >= 0, so the loop runs when k >= its lower bound); else a warning.
  bool lastIteration(const Ctx& c) {
    const views::IndexDim& dim = c.space.dims[c.dim];
    const Value& iv = p_.value(c.index.value);
    if (dim.sparse || dim.step != dim.tile || dim.tile <= 0 || !iv.blockArg || iv.index != 0 || iv.owner == kNoId)
      return false;
    const Operation& loop = p_.op(iv.owner);
    if (!loop.info || loop.info->kind != OpKind::For || loop.broken || attrs::unsignedCmp(loop)) return false;
    const ScalarFact *lb = facts_.scalar(operands::lowerBound(loop)),
                     *ub = facts_.scalar(operands::upperBound(loop)),
                     *st = facts_.scalar(operands::step(loop));
    ValueId size = facts_.tensorDimValue(c.view.value, static_cast<size_t>(dim.tensorDim));
    const ScalarFact* sf = facts_.scalar(size);
    if (!lb || !lb->exact() || !st || st->exact() != 1 || !ub || !ub->affine || !sf || !sf->affine) return false;
    // The last value: upper bound - 1 = cdiv(n, T) + k.
    const Affine& u = *ub->affine;
    if (u.terms.size() != 1 || u.terms[0].second != 1) return false;
    ValueId q = u.terms[0].first;
    const CeilDiv* cd = facts_.ceilDiv(q);
    if (!cd || cd->den != dim.tile || cd->bits != sf->bits || cd->num != *sf->affine) return false;
    // |cdiv(n, T)| <= 2^(bits-2) for T >= 2: with a smaller k the bound cannot wrap.
    int64_t k = u.c0 - 1;
    if (k < 0 || cd->den < 2 || ub->bits != cd->bits || ub->bits < 8 || k >= (int64_t(1) << (ub->bits - 2)))
      return false;
    bool certain = k >= *lb->exact() && sf->range.lo >= 0 && runsIn(c.id, iv.owner) && runsIn(iv.owner, kNoId);
    std::string view = name(p_, c.view.value), tile = std::to_string(dim.tile);
    std::string extent = "cdiv(" + name(p_, size) + ", " + tile + ")";
    std::string bound = name(p_, operands::upperBound(loop)) + " = " + name(p_, q) + " + " +
                        std::to_string(u.c0) + ", " + name(p_, q) + " = cdiv(" + dividend(q) + ", " + tile + ")";
    std::string tiles = view + " has " + extent + " tiles of " + tile + " along tensor dimension " +
                        std::to_string(dim.tensorDim) + " (valid: 0.." + extent + " - 1)";
    std::string same = name(p_, size) + " and " + dividend(q) + " are one value (both " + formText(p_, cd->num) + ")";
    std::string at = extent + (k ? " + " + std::to_string(k) : "");
    std::string msg = "index " + name(p_, c.index.value) + " of dimension " + std::to_string(c.dim) +
                      (certain ? " is " : " may be ") + at + " in the last iteration of the loop at " +
                      facts_.place(loop.range.begin) + ", outside the index space of " + view +
                      " whatever its size: the loop runs up to " + bound + ", and " + tiles + "; " + same;
    Diagnostic& d = report(c, certain ? Severity::Error : Severity::Warning, "bounds.index", msg);
    d.notes.push_back({p_.value(size).range, name(p_, size) + " is defined here"});
    return true;
  }

  // The name of the dividend of the division that defines q.
  std::string dividend(ValueId q) const {
    const Operation* div = definingOp(p_, q);
    ValueId n = div ? operands::lhs(*div) : kNoId;
    return n == kNoId ? std::string("its dividend") : name(p_, n);
  }

  // Whether `op` runs in each iteration of `loop` (kNoId: whenever its
  // function runs): it lies directly in its body, no `if` or other loop between.
  bool runsIn(OpId op, OpId loop) const {
    OpId q = p_.op(op).parent;
    if (loop != kNoId) return q == loop;
    return q != kNoId && isFunction(p_.op(q));
  }

  // bounds.index for a promise broken: a tile of dimension d that overhangs
  // the tensor's edge, accessed with the promise that it does not (undefined
  // behaviour for loads and stores alike: nothing masks the overhang).
  void checkPromise(const Ctx& c, bool load) {
    const views::IndexDim& dim = c.space.dims[c.dim];
    const IndexRange& r = c.r;
    if (!dim.extent || !dim.firstPartial || *dim.firstPartial >= *dim.extent || r.range.hi < *dim.firstPartial) return;
    Certain e = certain(c, [&](int64_t x) { return x >= *dim.firstPartial && x < *dim.extent; });
    if (!e.at && e.complete) return;  // no execution reaches a partial tile
    bool reaches = (r.hiKnown && r.range.hi >= *dim.firstPartial) || (r.loKnown && r.range.lo >= *dim.firstPartial);
    if (!e.at && !reaches) return;
    int64_t k = e.at ? e.index : std::max(r.range.lo, *dim.firstPartial);
    int64_t begin = k * dim.step;
    std::string when = e.at ? executions_.describe(*e.at) : "";
    std::string msg = std::string(load ? "load" : "store") + (e.at ? " of" : " may reach") + " tile " + std::to_string(k) +
                      " of dimension " + std::to_string(c.dim) + (when.empty() ? "" : " " + when) +
                      ", which covers elements " + std::to_string(begin) + ".." + std::to_string(begin + dim.tile - 1) +
                      " of tensor dimension " + std::to_string(dim.tensorDim) + ", size " +
                      std::to_string(*dim.tensorSize) + " (" + std::to_string(dim.overhang(k)) +
                      " past the edge), but the access is marked `inbounds` (cuTile's check_bounds=False), which "
                      "promises that its tile lies inside the tensor: nothing masks the overhang, so the " +
                      (load ? "load reads" : "store writes") + " past the edge" + derivation(c.index.value, c.id);
    report(c, e.at ? Severity::Error : Severity::Warning, "bounds.index", msg);
  }

  // bounds.partial-tile: the first partial tile the index can reach.
  void checkPartial(const Ctx& c) {
    const views::IndexDim& dim = c.space.dims[c.dim];
    const IndexRange& r = c.r;
    if (!dim.extent || !dim.firstPartial || *dim.firstPartial >= *dim.extent) return;
    if (r.range.hi < *dim.firstPartial) return;  // no value reaches a partial tile
    Certain e = certain(c, [&](int64_t x) { return x >= *dim.firstPartial && x < *dim.extent; });
    if (e.at) return partialTile(c, e.index, executions_.describe(*e.at));
    if (e.complete) return;  // no execution loads a partial tile
    int64_t k = std::max(r.range.lo, *dim.firstPartial);
    // Evidence that a partial tile is reached: the upper end reaches one, or
    // the lower end is one already.
    bool reaches = (r.hiKnown && r.range.hi >= *dim.firstPartial) || (r.loKnown && r.range.lo >= *dim.firstPartial);
    if (!reaches && *dim.firstPartial == 0) return everyTilePartial(c);
    if (!reaches || k > std::min(r.range.hi, *dim.extent - 1)) return;
    bool exact = r.loKnown && r.hiKnown && r.range.single();
    partialTile(c, k, exact ? "" : "may");
  }

  // A load of partial tile k: `when` is "may" (some value of the index
  // reaches it), the execution that loads it (executions.h), or empty.
  void partialTile(const Ctx& c, int64_t k, const std::string& when) {
    OpId use = lanes_.observableUse(c.id, c.space, c.dim);
    if (use == kNoId) return;  // only masked stores of the same lanes read them
    const views::IndexDim& dim = c.space.dims[c.dim];
    int64_t begin = k * dim.step, over = dim.overhang(k);
    std::string tile = "tile " + std::to_string(k) + " of dimension " + std::to_string(c.dim);
    std::string covers = "(it covers elements " + std::to_string(begin) + ".." + std::to_string(begin + dim.tile - 1) +
                         " of tensor dimension " + std::to_string(dim.tensorDim) + ", size " +
                         std::to_string(*dim.tensorSize) + ")";
    std::string view = name(p_, c.view.value);
    std::string reads = std::to_string(over) + " element" + (over == 1 ? "" : "s") + " past the tensor's edge " + covers;
    std::string msg = when == "may" ? "load may reach " + tile + ", which reads " + reads
                      : when.empty() ? "load of " + tile + " reads " + reads
                                     : "load of " + tile + " " + when + " reads " + reads;
    msg += ", and " + view + " has no padding_value, so they are unspecified; " + facts_.describe(c.index.value, c.id);
    Diagnostic& d = report(c, Severity::Warning, "bounds.partial-tile", msg);
    noteUse(d, use);
    if (auto fix = paddingFix(c.view.value)) d.fixes.push_back(std::move(*fix));
  }

  void noteUse(Diagnostic& d, OpId use) const {
    const Operation& op = p_.op(use);
    d.notes.push_back({op.nameRange, "the unspecified values reach this '" + std::string(op.info ? op.info->name : op.name) +
                                         "', where they matter"});
  }

  // Every tile overhangs (the tensor is smaller than a tile, or strided tiles
  // reach past it from the first): any index the load may use, known or not.
  void everyTilePartial(const Ctx& c) {
    OpId use = lanes_.observableUse(c.id, c.space, c.dim);
    if (use == kNoId) return;
    const views::IndexDim& dim = c.space.dims[c.dim];
    int64_t over = dim.overhang(0);
    std::string view = name(p_, c.view.value);
    std::string msg = "load reads past the tensor's edge whatever its index: every tile of dimension " +
                      std::to_string(c.dim) + " overhangs it (tile 0 covers elements 0.." +
                      std::to_string(dim.tile - 1) + " of tensor dimension " + std::to_string(dim.tensorDim) + ", size " +
                      std::to_string(*dim.tensorSize) + ", " + std::to_string(over) + " past the edge), and " + view +
                      " has no padding_value, so those elements are unspecified";
    Diagnostic& d = report(c, Severity::Warning, "bounds.partial-tile", msg);
    noteUse(d, use);
    if (auto fix = paddingFix(c.view.value)) d.fixes.push_back(std::move(*fix));
  }

  // Inserts `padding_value = zero, ` before the tensor_view inside the view
  // type spelled in `op`'s text; false when the text is not as expected.
  bool insertPadding(const Operation& op, std::vector<TextEdit>& edits) const {
    std::string_view text = p_.source.substr(op.range.begin, op.range.end - op.range.begin);
    size_t at = std::string_view::npos;
    for (std::string_view kind : {"partition_view<", "strided_view<", "gather_scatter_view<"}) {
      size_t pos = text.find(kind);
      if (pos == std::string_view::npos) continue;
      size_t tv = text.find("tensor_view<", pos + kind.size());
      if (tv == std::string_view::npos) return false;
      if (tv >= 11 && text.substr(tv - 11, 11) == "!cuda_tile.") tv -= 11;
      at = tv;
      break;
    }
    if (at == std::string_view::npos) return false;
    uint32_t off = op.range.begin + static_cast<uint32_t>(at);
    edits.push_back({{off, off}, "padding_value = zero, "});
    return true;
  }

  // The view's defining make_*_view op and every op that names the view in
  // its type: all spell the same type, so all must change together.
  std::optional<Fix> paddingFix(ValueId view) {
    auto [it, fresh] = fixes_.try_emplace(view);
    if (fresh) it->second = buildPaddingFix(view);
    return it->second;
  }

  std::optional<Fix> buildPaddingFix(ValueId view) const {
    TypeRef vt = p_.typeOf(view);
    if (!vt || !vt->tensorView || !isFloatElem(vt->tensorView->elem)) return std::nullopt;
    const Value& v = p_.value(view);
    if (v.blockArg || v.owner == kNoId) return std::nullopt;
    Fix fix{"add padding_value = zero to the type of " + name(p_, view), {}};
    if (!insertPadding(p_.op(v.owner), fix.edits)) return std::nullopt;
    for (const Operation& op : p_.ops) {
      auto usesView = [&](const Operand& o) { return o.value == view; };
      if (std::none_of(op.operands.begin(), op.operands.end(), usesView)) continue;
      if (op.info && op.info->kind == OpKind::AtomicRedViewTko) return std::nullopt;  // no padding allowed there
      if (!insertPadding(op, fix.edits)) return std::nullopt;
    }
    return fix;
  }
};

}  // namespace

std::unique_ptr<CheckPass> boundsCheck(const CheckContext& cx, DiagSink& diags) {
  return std::make_unique<BoundsChecker>(cx, diags);
}

}  // namespace tilesight
