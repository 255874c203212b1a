// reduce and scan. The body runs once per position along the reduced
// dimension, on a whole slice at a time: its scalar values become tiles of
// `lanes` elements (BlockExec::count), so a 64x128 reduction along dim 1 runs
// the body 128 times on 64 lanes, not 8192 times on one.
#include <cstring>

#include "analysis/ir/op_accessors.h"
#include "codegen/interp/block_exec.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

// Element j along the dimension of every (outer, inner) position, as a tile.
TileRef slice(const Tile& src, TypeRef type, const ShapeSplit& s, int64_t j) {
  auto t = Tile::make(type, s.outer * s.inner);
  size_t size = src.elementSize();
  for (int64_t o = 0; o < s.outer; ++o)
    std::memcpy(t->data<char>() + o * s.inner * size, src.data<char>() + ((o * s.len + j) * s.inner) * size,
                s.inner * size);
  return t;
}

void place(Tile& dst, const Tile& part, const ShapeSplit& s, int64_t j) {
  size_t size = dst.elementSize();
  for (int64_t o = 0; o < s.outer; ++o)
    std::memcpy(dst.data<char>() + ((o * s.len + j) * s.inner) * size, part.data<char>() + o * s.inner * size,
                s.inner * size);
}

// An identity as written: `0.0 : f32`, or an integer that a float type reads
// as a bit pattern (`0xFF800000 : f32` is -inf, as MLIR reads it).
TileRef identity(const Attr& a, TypeRef type, int64_t n) {
  auto t = Tile::make(type, n);
  double f = 0;
  if (t->store != Store::Int) f = a.kind == AttrKind::Float ? a.f : runtime::decodeFloat(t->elem, static_cast<uint64_t>(a.i));
  for (int64_t k = 0; k < n; ++k) {
    switch (t->store) {
      case Store::Int: t->ints()[k] = runtime::wrapInt(intBits(t->elem), a.i); break;
      case Store::F32: t->f32()[k] = static_cast<float>(runtime::roundTo(t->elem, f)); break;
      case Store::F64: t->f64()[k] = f; break;
    }
  }
  return t;
}

// The body is not isolated from above: it may use scalars defined before the
// reduce (a cap, a scale). While it runs on `lanes` lanes, each of those is
// splatted to `lanes` elements like every value the body defines, and put
// back afterwards.
class OuterScalars {
public:
  OuterScalars(BlockExec& x, const Operation& op, int64_t lanes) : x_(x), op_(op), lanes_(lanes) {
    if (lanes > 1) collect(op.regions[0].blocks[0]);
  }
  ~OuterScalars() {
    for (auto& [v, old] : saved_) x_.set(v, std::move(old));
  }
  OuterScalars(const OuterScalars&) = delete;
  OuterScalars& operator=(const OuterScalars&) = delete;

private:
  bool definedInside(ValueId v) const {
    for (OpId o = x_.program().value(v).owner; o != kNoId; o = x_.program().op(o).parent)
      if (&x_.program().op(o) == &op_) return true;
    return false;
  }
  void collect(const Block& b) {
    for (OpId id : b.ops) {
      const Operation& o = x_.program().op(id);
      for (const Operand& u : o.operands) splat(u.value);
      for (const Region& r : o.regions)
        for (const Block& nested : r.blocks) collect(nested);
    }
  }
  void splat(ValueId v) {
    if (definedInside(v)) return;
    for (const auto& s : saved_)
      if (s.first == v) return;
    const TileRef* t = std::get_if<TileRef>(&x_.value(v));
    if (!t || (*t)->n != 1) return;
    auto wide = Tile::make((*t)->type, lanes_);
    size_t size = (*t)->elementSize();
    for (int64_t k = 0; k < lanes_; ++k) std::memcpy(wide->data<char>() + k * size, (*t)->data<char>(), size);
    saved_.emplace_back(v, x_.value(v));
    x_.set(v, TileRef(wide));
  }

  BlockExec& x_;
  const Operation& op_;
  int64_t lanes_;
  std::vector<std::pair<ValueId, RtValue>> saved_;
};

// Runs the body on (element_i, accumulator_i) pairs; returns the new accumulators.
std::vector<TileRef> step(BlockExec& x, const Operation& op, const std::vector<TileRef>& elems,
                          const std::vector<TileRef>& accs, int64_t lanes) {
  const Block& body = op.regions[0].blocks[0];
  std::vector<RtValue> args;
  for (size_t i = 0; i < elems.size(); ++i) {
    args.push_back(elems[i]);
    args.push_back(accs[i]);
  }
  int64_t saved = x.lanes();
  x.setLanes(lanes);
  Exit e = x.runBlock(body, args);
  x.setLanes(saved);
  std::vector<TileRef> out;
  for (const RtValue& v : e.values) out.push_back(std::get<TileRef>(v));
  if (out.size() != accs.size()) x.fail(op, "the body yields " + std::to_string(out.size()) + " values, not " +
                                                std::to_string(accs.size()));
  return out;
}

void reduceOrScan(BlockExec& x, const Operation& op, bool scan) {
  size_t dim = static_cast<size_t>(attrs::dim(op)->i);
  bool reverse = scan && attrs::reverse(op) && attrs::reverse(op)->i;
  const Attr* ids = attrs::identities(op);
  const Block& body = op.regions[0].blocks[0];
  size_t n = op.operands.size();
  ShapeSplit s = splitAround(x.tile(op.operands[0].value).type->shape, dim);
  int64_t lanes = s.outer * s.inner;
  std::vector<TileRef> accs;
  std::vector<std::shared_ptr<Tile>> results;
  for (size_t i = 0; i < n; ++i) {
    accs.push_back(identity(ids->elems[i], x.typeOf(body.args[2 * i + 1]), lanes));
    if (scan) results.push_back(x.result(op, i));
  }
  OuterScalars outer(x, op, lanes);
  for (int64_t t = 0; t < s.len; ++t) {
    int64_t j = reverse ? s.len - 1 - t : t;
    std::vector<TileRef> elems;
    for (size_t i = 0; i < n; ++i) elems.push_back(slice(x.tile(op.operands[i].value), x.typeOf(body.args[2 * i]), s, j));
    accs = step(x, op, elems, accs, lanes);
    if (scan)
      for (size_t i = 0; i < n; ++i) place(*results[i], *accs[i], s, j);
  }
  if (scan) return;
  for (size_t i = 0; i < n; ++i) {
    auto r = x.result(op, i);
    std::memcpy(r->data<char>(), accs[i]->data<char>(), r->n * r->elementSize());
  }
}

}  // namespace

void evalReduction(BlockExec& x, const Operation& op, OpKind k) { reduceOrScan(x, op, k == OpKind::Scan); }

}  // namespace tilesight::interp
