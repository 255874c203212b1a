#include "codegen/interp/unspecified.h"

#include <algorithm>
#include <memory>

#include "analysis/ir/ir_query.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/interp/block_exec.h"

namespace tilesight::interp {

namespace {

using Lanes = std::vector<const Operation*>;

const Tile* tileAt(BlockExec& x, ValueId v) {
  if (v == kNoId) return nullptr;
  auto* t = std::get_if<TileRef>(&x.value(v));
  return t ? t->get() : nullptr;
}

const Unspecified* of(const Tile* t) { return t ? t->unspecified.get() : nullptr; }

// Lane k's source in t (null: specified).
const Operation* at(const Tile* t, int64_t k) {
  const Unspecified* u = of(t);
  return u && k < static_cast<int64_t>(u->from.size()) ? u->from[k] : nullptr;
}

void keep(const Operation*& dst, const Operation* src) {
  if (!dst) dst = src;
}

void attach(const Tile& t, Lanes from) {
  if (std::all_of(from.begin(), from.end(), [](const Operation* o) { return !o; })) return;
  auto u = std::make_shared<Unspecified>();
  u->from = std::move(from);
  t.unspecified = std::move(u);
}

bool anyOperand(BlockExec& x, const Operation& op) {
  for (const Operand& o : op.operands)
    if (of(tileAt(x, o.value))) return true;
  return false;
}

// The unspecified lanes of t in [k0, k1) (k1 < 0: to the end) where
// `active` (a mask; null: all) is set are observed by op: one finding per
// load they come from, at its first lane.
void observe(BlockExec& x, const Operation& op, const Tile* t, const Tile* active, const std::string& role,
             int64_t k0 = 0, int64_t k1 = -1) {
  const Unspecified* u = of(t);
  if (!u) return;
  std::vector<const Operation*> seen;
  for (int64_t k = k0; k < (k1 < 0 ? static_cast<int64_t>(u->from.size()) : k1); ++k) {
    const Operation* load = u->from[k];
    if (!load || (active && !active->ints()[k]) || std::find(seen.begin(), seen.end(), load) != seen.end()) continue;
    seen.push_back(load);
    x.sanitizer()->unspecifiedReaches(x, *load, op, t->type, k, role);
  }
}

// Every unspecified operand of op except `except` is observed there.
void observeOperands(BlockExec& x, const Operation& op, std::initializer_list<ValueId> except = {}) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    ValueId v = op.operands[i].value;
    if (std::find(except.begin(), except.end(), v) != except.end()) continue;
    const Tile* t = tileAt(x, v);
    observe(x, op, t, nullptr, "operand " + std::to_string(i));
  }
}

void laneWise(BlockExec& x, const Operation& op) {
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, nullptr);
  for (const Operand& o : op.operands)
    if (const Tile* t = tileAt(x, o.value); of(t))
      for (int64_t k = 0; k < r->n; ++k) keep(out[k], at(t, k));
  attach(*r, std::move(out));
}

// select: the condition's lanes, and the chosen arm's.
void select(BlockExec& x, const Operation& op) {
  const Tile* c = tileAt(x, op.operands[0].value);
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, nullptr);
  for (int64_t k = 0; k < r->n; ++k) {
    keep(out[k], at(c, k));
    keep(out[k], at(tileAt(x, op.operands[c->ints()[k] ? 1 : 2].value), k));
  }
  attach(*r, std::move(out));
}

// A tile of t's type holding 1 in the lanes that hold `load`'s unspecified
// values and 0 elsewhere.
TileRef marks(const Tile& t, const Operation* load) {
  auto m = Tile::make(t.type, t.n);
  for (int64_t k = 0; k < t.n; ++k) {
    bool on = at(&t, k) == load;
    switch (m->store) {
      case Store::Int: m->ints()[k] = on; break;
      case Store::F32: m->f32()[k] = on; break;
      case Store::F64: m->f64()[k] = on; break;
    }
  }
  return m;
}

// Shape ops move lanes as they move values: run the op again on marks, once
// per load the data operands' unspecified lanes come from.
void moved(BlockExec& x, const Operation& op, OpKind k, size_t dataOperands) {
  std::vector<const Operation*> loads;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Tile* t = tileAt(x, op.operands[i].value);
    if (i >= dataOperands) {
      observe(x, op, t, nullptr, "an index");
      continue;
    }
    if (const Unspecified* u = of(t))
      for (const Operation* o : u->from)
        if (o && std::find(loads.begin(), loads.end(), o) == loads.end()) loads.push_back(o);
  }
  RtValue result = x.value(op.results[0]);
  Lanes out(tileAt(x, op.results[0])->n, nullptr);
  for (const Operation* load : loads) {
    std::vector<std::pair<ValueId, RtValue>> saved;
    for (size_t i = 0; i < dataOperands && i < op.operands.size(); ++i) {
      ValueId v = op.operands[i].value;
      saved.push_back({v, x.value(v)});
      x.set(v, marks(*tileAt(x, v), load));
    }
    evalShape(x, op, k);
    const Tile* m = tileAt(x, op.results[0]);
    for (int64_t i = 0; i < m->n; ++i)
      if (m->asDouble(i) != 0) keep(out[i], load);
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) x.set(it->first, it->second);
  }
  x.set(op.results[0], result);
  attach(*tileAt(x, op.results[0]), std::move(out));
}

// pack and unpack keep lane order: result lane i covers the operand lanes
// in the same proportion of the tile.
void repacked(BlockExec& x, const Operation& op) {
  const Tile* s = tileAt(x, op.operands[0].value);
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, nullptr);
  for (int64_t k = 0; k < s->n; ++k)
    if (const Operation* o = at(s, k))
      for (int64_t i = k * r->n / s->n; i < std::max((k + 1) * r->n / s->n, k * r->n / s->n + 1); ++i) keep(out[i], o);
  attach(*r, std::move(out));
}

// reduce and scan combine the lanes of each slice along `dim`: a result lane
// is unspecified when an input lane it combines is (for scan, one at or
// before it in scan order).
void combined(BlockExec& x, const Operation& op, bool scan) {
  size_t dim = static_cast<size_t>(attrs::dim(op)->i);
  bool reverse = scan && attrs::reverse(op) && attrs::reverse(op)->i;
  const std::vector<int64_t>& shape = tileAt(x, op.operands[0].value)->type->shape;
  int64_t outer = 1, len = shape[dim], inner = 1;
  for (size_t d = 0; d < shape.size(); ++d)
    if (d != dim) (d < dim ? outer : inner) *= shape[d];
  outer *= x.lanes();
  Lanes in(outer * len * inner, nullptr);
  for (const Operand& o : op.operands)
    if (const Tile* t = tileAt(x, o.value); of(t))
      for (size_t k = 0; k < in.size(); ++k) keep(in[k], at(t, static_cast<int64_t>(k)));
  Lanes out(scan ? in.size() : outer * inner, nullptr);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const Operation* seen = nullptr;
      for (int64_t t = 0; t < len; ++t) {
        int64_t j = reverse ? len - 1 - t : t;
        keep(seen, in[(o * len + j) * inner + i]);
        if (scan) out[(o * len + j) * inner + i] = seen;
      }
      if (!scan) out[o * inner + i] = seen;
    }
  for (const ValueId r : op.results) attach(*tileAt(x, r), out);
}

// mma: result (b, i, j) combines row i of lhs (and its scales), column j of
// rhs (and its scales) and the accumulator's lane.
void multiplied(BlockExec& x, const Operation& op) {
  const Tile* a = tileAt(x, op.operands[0].value);
  const Tile* b = tileAt(x, op.operands[1].value);
  const Tile* r = tileAt(x, op.results[0]);
  const std::vector<int64_t>& as = a->type->shape;
  int64_t m = as[as.size() - 2], n = b->type->shape.back(), batch = r->n / (m * n);
  Lanes rows(batch * m, nullptr), cols(batch * n, nullptr);
  auto rowSide = [&](const Tile* t) {  // lhs or its scales: rows of m
    if (of(t))
      for (int64_t k = 0; k < t->n; ++k) keep(rows[k / (t->n / (batch * m))], at(t, k));
  };
  auto colSide = [&](const Tile* t) {  // rhs or its scales: columns of n
    if (of(t))
      for (int64_t k = 0; k < t->n; ++k) keep(cols[k / (t->n / batch) * n + k % n], at(t, k));
  };
  rowSide(a);
  colSide(b);
  if (op.operands.size() > 4) rowSide(tileAt(x, op.operands[3].value)), colSide(tileAt(x, op.operands[4].value));
  const Tile* acc = tileAt(x, op.operands[2].value);
  Lanes out(r->n, nullptr);
  for (int64_t k = 0; k < r->n; ++k) {
    int64_t q = k / (m * n), i = k / n % m, j = k % n;
    keep(out[k], at(acc, k));
    keep(out[k], rows[q * m + i]);
    keep(out[k], cols[q * n + j]);
  }
  attach(*r, std::move(out));
}

// Pointer memory ops: pointers and masks decide what is accessed; stored
// values are written at the active lanes.
void pointerAccess(BlockExec& x, const Operation& op, OpKind k) {
  const Tile* mask = tileAt(x, operands::mask(op));
  observe(x, op, mask, nullptr, "the mask");
  const Tile* p = tileAt(x, valueAt(memoryPointers(op), 0));
  observe(x, op, p, mask, "a pointer");
  for (ValueId stored : {operands::value(op), operands::arg(op), operands::val(op), operands::cmp(op)}) {
    const Tile* v = tileAt(x, stored);
    observe(x, op, v, mask, "the stored value");
  }
  if (k != OpKind::LoadPtrTko) return;
  const Tile* pad = tileAt(x, operands::paddingValue(op));  // lands in the masked-off lanes
  if (!of(pad) || !mask) return;
  const Tile* r = tileAt(x, op.results[0]);
  Lanes out(r->n, nullptr);
  for (int64_t i = 0; i < r->n; ++i)
    if (!mask->ints()[i]) out[i] = at(pad, i);
  attach(*r, std::move(out));
}

bool laneWiseKind(const Operation& op, OpKind k) {
  return (op.info->traits & kElementwise) || k == OpKind::Offset || k == OpKind::PtrToInt ||
         k == OpKind::IntToPtr || k == OpKind::PtrToPtr;
}

}  // namespace

void markUnspecified(const Tile& t, int64_t k0, int64_t count, const Operation& load) {
  if (count <= 0) return;
  auto u = std::make_shared<Unspecified>(t.unspecified ? *t.unspecified : Unspecified{Lanes(t.n, nullptr)});
  std::fill(u->from.begin() + k0, u->from.begin() + k0 + count, &load);
  t.unspecified = std::move(u);
}

void followUnspecified(BlockExec& x, const Operation& op, OpKind k) {
  if (!anyOperand(x, op)) return;
  if (k == OpKind::Select) return select(x, op);
  if (laneWiseKind(op, k)) return laneWise(x, op);
  switch (k) {
    case OpKind::Broadcast: case OpKind::Reshape: case OpKind::Permute: return moved(x, op, k, 1);
    case OpKind::Extract: return moved(x, op, k, 1);
    case OpKind::Cat: case OpKind::Insert: return moved(x, op, k, 2);
    case OpKind::Pack: case OpKind::Unpack: return repacked(x, op);
    case OpKind::Reduce: case OpKind::Scan: return combined(x, op, k == OpKind::Scan);
    case OpKind::Mmaf: case OpKind::Mmai: case OpKind::MmafScaled: return multiplied(x, op);
    case OpKind::LoadPtrTko: case OpKind::StorePtrTko: case OpKind::AtomicRmwTko: case OpKind::AtomicCasTko:
      return pointerAccess(x, op, k);
    case OpKind::StoreViewTko: return observeOperands(x, op, {operands::tile(op)});
    case OpKind::AtomicRedViewTko: return observeOperands(x, op, {operands::value(op)});
    default: return observeOperands(x, op);  // indices, shapes, prints, asserts: observed
  }
}

void unspecifiedControl(BlockExec& x, const Operation& op, OpKind k) {
  if (k == OpKind::If) return observe(x, op, tileAt(x, op.operands[0].value), nullptr, "the condition");
  if (k != OpKind::For) return;
  for (size_t i = 0; i < 3 && i < op.operands.size(); ++i)
    observe(x, op, tileAt(x, op.operands[i].value), nullptr, "a loop bound");
}

void reachesMemory(BlockExec& x, const Operation& op, const Tile& t, int64_t k0, int64_t count) {
  observe(x, op, &t, nullptr, "the stored value", k0, k0 + count);
}

}  // namespace tilesight::interp
