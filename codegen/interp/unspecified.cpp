#include "codegen/interp/unspecified.h"

#include <algorithm>
#include <memory>

#include "analysis/checks/ir_query.h"
#include "codegen/interp/block_exec.h"

namespace tilesight::interp {

namespace {

using Lanes = std::vector<uint8_t>;

const Tile* tileAt(BlockExec& x, ValueId v) {
  if (v == kNoId) return nullptr;
  auto* t = std::get_if<TileRef>(&x.value(v));
  return t ? t->get() : nullptr;
}

const Unspecified* of(const Tile* t) { return t ? t->unspecified.get() : nullptr; }

bool any(const Lanes& l) { return std::find(l.begin(), l.end(), 1) != l.end(); }

void attach(const Tile& t, Lanes lanes, const Operation* load) {
  if (!load || !any(lanes)) return;
  auto u = std::make_shared<Unspecified>();
  u->lanes = std::move(lanes);
  u->load = load;
  t.unspecified = std::move(u);
}

// The first load among the operands' unspecified lanes (the finding names one).
const Operation* origin(BlockExec& x, const Operation& op) {
  for (const Operand& o : op.operands)
    if (const Unspecified* u = of(tileAt(x, o.value))) return u->load;
  return nullptr;
}

// Operand v's unspecified lanes at lanes where `active` (a mask; null: all)
// is set: the first such lane, or -1.
int64_t firstLane(const Tile* t, const Tile* active) {
  const Unspecified* u = of(t);
  if (!u) return -1;
  for (size_t k = 0; k < u->lanes.size(); ++k)
    if (u->lanes[k] && (!active || active->ints()[k])) return static_cast<int64_t>(k);
  return -1;
}

void observe(BlockExec& x, const Operation& op, const Tile* t, int64_t lane, const std::string& role) {
  if (lane < 0) return;
  x.sanitizer()->unspecifiedReaches(x, *of(t)->load, op, t->type, lane, role);
}

// Every tainted operand of op except `except` is observed there.
void observeOperands(BlockExec& x, const Operation& op, std::initializer_list<ValueId> except = {}) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    ValueId v = op.operands[i].value;
    if (std::find(except.begin(), except.end(), v) != except.end()) continue;
    const Tile* t = tileAt(x, v);
    observe(x, op, t, firstLane(t, nullptr), "operand " + std::to_string(i));
  }
}

void laneWise(BlockExec& x, const Operation& op) {
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, 0);
  for (const Operand& o : op.operands)
    if (const Unspecified* u = of(tileAt(x, o.value)))
      for (size_t k = 0; k < out.size() && k < u->lanes.size(); ++k) out[k] |= u->lanes[k];
  attach(*r, std::move(out), origin(x, op));
}

// select: the condition's lanes, and the chosen arm's.
void select(BlockExec& x, const Operation& op) {
  const Tile* c = tileAt(x, op.operands[0].value);
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, 0);
  for (int64_t k = 0; k < r->n; ++k) {
    const Unspecified* chosen = of(tileAt(x, op.operands[c->ints()[k] ? 1 : 2].value));
    out[k] = (of(c) && of(c)->lanes[k]) || (chosen && chosen->lanes[k]);
  }
  attach(*r, std::move(out), origin(x, op));
}

// A tile of t's type holding 1 in its unspecified lanes and 0 elsewhere.
TileRef marks(const Tile& t) {
  auto m = Tile::make(t.type, t.n);
  const Unspecified* u = of(&t);
  for (int64_t k = 0; k < t.n; ++k) {
    uint8_t on = u && u->lanes[k];
    switch (m->store) {
      case Store::Int: m->ints()[k] = on; break;
      case Store::F32: m->f32()[k] = on; break;
      case Store::F64: m->f64()[k] = on; break;
    }
  }
  return m;
}

// Shape ops move lanes as they move values: run the op again on marks.
void moved(BlockExec& x, const Operation& op, OpKind k, size_t dataOperands) {
  const Operation* load = origin(x, op);
  std::vector<std::pair<ValueId, RtValue>> saved;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    ValueId v = op.operands[i].value;
    const Tile* t = tileAt(x, v);
    if (i >= dataOperands) {
      observe(x, op, t, firstLane(t, nullptr), "an index");
      continue;
    }
    saved.push_back({v, x.value(v)});
    x.set(v, marks(*t));
  }
  RtValue result = x.value(op.results[0]);
  evalShape(x, op, k);
  const Tile* m = tileAt(x, op.results[0]);
  Lanes out(m->n);
  for (int64_t i = 0; i < m->n; ++i) out[i] = m->asDouble(i) != 0;
  for (auto& [v, value] : saved) x.set(v, std::move(value));
  x.set(op.results[0], result);
  attach(*tileAt(x, op.results[0]), std::move(out), load);
}

// pack and unpack keep lane order: result lane i covers the operand lanes
// in the same proportion of the tile.
void repacked(BlockExec& x, const Operation& op) {
  const Tile* s = tileAt(x, op.operands[0].value);
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, 0);
  for (int64_t k = 0; k < s->n; ++k)
    if (of(s)->lanes[k])
      for (int64_t i = k * r->n / s->n; i < std::max((k + 1) * r->n / s->n, k * r->n / s->n + 1); ++i) out[i] = 1;
  attach(*r, std::move(out), of(s)->load);
}

// reduce and scan combine the lanes of each slice along `dim`: a result lane
// is unspecified when an input lane it combines is (for scan, one at or
// before it in scan order).
void combined(BlockExec& x, const Operation& op, bool scan) {
  size_t dim = static_cast<size_t>(op.attr("dim")->i);
  bool reverse = scan && op.attr("reverse") && op.attr("reverse")->i;
  const std::vector<int64_t>& shape = tileAt(x, op.operands[0].value)->type->shape;
  int64_t outer = 1, len = shape[dim], inner = 1;
  for (size_t d = 0; d < shape.size(); ++d) (d < dim ? outer : d > dim ? inner : len) *= d == dim ? 1 : shape[d];
  int64_t lanes = x.lanes();
  Lanes in(outer * len * inner * lanes, 0);
  for (const Operand& o : op.operands)
    if (const Unspecified* u = of(tileAt(x, o.value)))
      for (size_t k = 0; k < in.size() && k < u->lanes.size(); ++k) in[k] |= u->lanes[k];
  Lanes out(scan ? in.size() : outer * inner * lanes, 0);
  for (int64_t o = 0; o < outer * lanes; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      uint8_t seen = 0;
      for (int64_t t = 0; t < len; ++t) {
        int64_t j = reverse ? len - 1 - t : t;
        seen |= in[(o * len + j) * inner + i];
        if (scan) out[(o * len + j) * inner + i] = seen;
      }
      if (!scan) out[o * inner + i] = seen;
    }
  const Operation* load = origin(x, op);
  for (const ValueId r : op.results) attach(*tileAt(x, r), out, load);
}

// mma: result (b, i, j) combines row i of lhs (and its scales), column j of
// rhs (and its scales) and the accumulator's lane.
void multiplied(BlockExec& x, const Operation& op) {
  const Tile* a = tileAt(x, op.operands[0].value);
  const Tile* b = tileAt(x, op.operands[1].value);
  const Tile* r = tileAt(x, op.results[0]);
  const std::vector<int64_t>& as = a->type->shape;
  int64_t m = as[as.size() - 2], n = b->type->shape.back(), batch = r->n / (m * n);
  Lanes rows(batch * m, 0), cols(batch * n, 0);
  auto rowSide = [&](const Tile* t) {  // lhs or its scales: rows of m
    if (const Unspecified* u = of(t))
      for (int64_t k = 0; k < t->n; ++k) rows[k / (t->n / (batch * m))] |= u->lanes[k];
  };
  auto colSide = [&](const Tile* t) {  // rhs or its scales: columns of n
    if (const Unspecified* u = of(t))
      for (int64_t k = 0; k < t->n; ++k) cols[k / (t->n / batch) * n + k % n] |= u->lanes[k];
  };
  rowSide(a);
  colSide(b);
  if (op.operands.size() > 4) rowSide(tileAt(x, op.operands[3].value)), colSide(tileAt(x, op.operands[4].value));
  const Unspecified* acc = of(tileAt(x, op.operands[2].value));
  Lanes out(r->n, 0);
  for (int64_t k = 0; k < r->n; ++k) {
    int64_t q = k / (m * n), i = k / n % m, j = k % n;
    out[k] = rows[q * m + i] | cols[q * n + j] | (acc ? acc->lanes[k] : 0);
  }
  attach(*r, std::move(out), origin(x, op));
}

const Tile* group(BlockExec& x, const Operation& op, const char* name) { return tileAt(x, operandValue(op, name)); }

// Pointer memory ops: pointers and masks decide what is accessed; stored
// values are written at the active lanes.
void pointerAccess(BlockExec& x, const Operation& op, OpKind k) {
  const Tile* mask = group(x, op, "mask");
  observe(x, op, mask, firstLane(mask, nullptr), "the mask");
  const char* where = k == OpKind::LoadPtrTko ? "source" : k == OpKind::StorePtrTko ? "destination" : "pointers";
  const Tile* p = group(x, op, where);
  observe(x, op, p, firstLane(p, mask), "a pointer");
  for (const char* value : {"value", "arg", "val", "cmp"}) {
    const Tile* v = group(x, op, value);
    observe(x, op, v, firstLane(v, mask), "the stored value");
  }
  if (k != OpKind::LoadPtrTko) return;
  const Tile* pad = group(x, op, "paddingValue");  // lands in the masked-off lanes
  if (!of(pad) || !mask) return;
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, 0);
  for (int64_t i = 0; i < r->n; ++i) out[i] = !mask->ints()[i] && of(pad)->lanes[i];
  attach(*r, std::move(out), of(pad)->load);
}

bool laneWiseKind(const Operation& op, OpKind k) {
  return (op.info->traits & kElementwise) || k == OpKind::Offset || k == OpKind::PtrToInt ||
         k == OpKind::IntToPtr || k == OpKind::PtrToPtr;
}

}  // namespace

void markUnspecified(const Tile& t, int64_t k0, int64_t count, const Operation& load) {
  if (count <= 0) return;
  auto u = std::make_shared<Unspecified>(t.unspecified ? *t.unspecified : Unspecified{Lanes(t.n, 0), &load});
  std::fill(u->lanes.begin() + k0, u->lanes.begin() + k0 + count, 1);
  t.unspecified = std::move(u);
}

void followUnspecified(BlockExec& x, const Operation& op, OpKind k) {
  if (!origin(x, op)) return;
  if (k == OpKind::Select) return select(x, op);
  if (laneWiseKind(op, k)) return laneWise(x, op);
  switch (k) {
    case OpKind::Broadcast: case OpKind::Reshape: case OpKind::Permute: return moved(x, op, k, 1);
    case OpKind::Extract: return moved(x, op, k, 1);
    case OpKind::Cat: return moved(x, op, k, 2);
    case OpKind::Pack: case OpKind::Unpack: return repacked(x, op);
    case OpKind::Reduce: case OpKind::Scan: return combined(x, op, k == OpKind::Scan);
    case OpKind::Mmaf: case OpKind::Mmai: case OpKind::MmafScaled: return multiplied(x, op);
    case OpKind::LoadPtrTko: case OpKind::StorePtrTko: case OpKind::AtomicRmwTko: case OpKind::AtomicCasTko:
      return pointerAccess(x, op, k);
    case OpKind::StoreViewTko: return observeOperands(x, op, {operandValue(op, "tile")});
    case OpKind::AtomicRedViewTko: return observeOperands(x, op, {operandValue(op, "value")});
    default: return observeOperands(x, op);  // indices, shapes, prints, asserts: observed
  }
}

void unspecifiedControl(BlockExec& x, const Operation& op, OpKind k) {
  if (k == OpKind::If) return observe(x, op, tileAt(x, op.operands[0].value), firstLane(tileAt(x, op.operands[0].value), nullptr), "the condition");
  if (k != OpKind::For) return;
  for (size_t i = 0; i < 3 && i < op.operands.size(); ++i) {
    const Tile* t = tileAt(x, op.operands[i].value);
    observe(x, op, t, firstLane(t, nullptr), "a loop bound");
  }
}

void reachesMemory(BlockExec& x, const Operation& op, const Tile& t, int64_t k0, int64_t count) {
  const Unspecified* u = of(&t);
  if (!u) return;
  for (int64_t k = k0; k < k0 + count; ++k)
    if (u->lanes[k]) return observe(x, op, &t, k, "the stored value");
}

}  // namespace tilesight::interp
