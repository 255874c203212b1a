// Constants and the ops that move elements without computing: iota,
// broadcast, reshape, permute, cat, extract, insert, select, pack, unpack.
#include <cstring>

#include "analysis/ir/dense.h"
#include "analysis/semantics/lane_maps.h"
#include "analysis/semantics/view_geometry.h"
#include "analysis/ir/op_accessors.h"
#include "codegen/interp/block_exec.h"
#include "codegen/interp/elements.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

using semantics::rowMajorStrides;

// dst[dstAt + i . dstStrides] = src[srcAt + i . srcStrides] for every index
// i of `shape`, in row-major order.
void copyStrided(const Tile& src, int64_t srcAt, const std::vector<int64_t>& srcStrides, Tile& dst, int64_t dstAt,
                 const std::vector<int64_t>& dstStrides, const std::vector<int64_t>& shape) {
  size_t size = src.elementSize();
  const char* s = src.data<char>();
  char* d = dst.data<char>();
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t total = 1;
  for (int64_t e : shape) total *= e;
  int64_t at = srcAt, put = dstAt;
  for (int64_t k = 0; k < total; ++k) {
    std::memcpy(d + put * size, s + at * size, size);
    for (size_t dim = shape.size(); dim-- > 0;) {  // odometer, last dim fastest
      at += srcStrides[dim], put += dstStrides[dim];
      if (++idx[dim] < shape[dim]) break;
      at -= srcStrides[dim] * shape[dim], put -= dstStrides[dim] * shape[dim];
      idx[dim] = 0;
    }
  }
}

// dst[k] = src[offset + i . srcStrides] for the k-th index i of `shape`.
void gatherStrided(const Tile& src, Tile& dst, const std::vector<int64_t>& shape,
                   const std::vector<int64_t>& srcStrides, int64_t offset) {
  copyStrided(src, offset, srcStrides, dst, 0, rowMajorStrides(shape), shape);
}

void constant(BlockExec& x, const Operation& op) {
  auto r = x.result(op);
  std::optional<DenseValues> v = denseValues(*attrs::value(op));
  if (!v || v->size() == 0) x.fail(op, "the constant has no value");
  if (!v->splat && static_cast<int64_t>(v->size()) * x.lanes() != r->n && static_cast<int64_t>(v->size()) != r->n)
    x.fail(op, "the literal has " + std::to_string(v->size()) + " values for " + std::to_string(r->n) + " elements");
  fillDense(*r, *v);
}

void broadcast(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  auto r = x.result(op);
  const std::vector<int64_t>& shape = r->type->shape;
  std::vector<int64_t> strides =
      semantics::carriedStrides(semantics::broadcastDims(a.type->shape, shape), rowMajorStrides(a.type->shape));
  gatherStrided(a, *r, shape, strides, 0);
}

void permute(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  auto r = x.result(op);
  const std::vector<int64_t>& shape = r->type->shape;
  semantics::DimSources dims = semantics::permuteDims(*PermuteOp(op).permutation(), shape.size());
  gatherStrided(a, *r, shape, semantics::carriedStrides(dims, rowMajorStrides(a.type->shape)), 0);
}

void cat(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  const Tile& b = x.tile(op.operands[1].value);
  auto r = x.result(op);
  size_t dim = static_cast<size_t>(CatOp(op).dim()->i);
  std::vector<int64_t> rs = rowMajorStrides(r->type->shape);
  // Copy each operand into the result through the result's strides.
  auto place = [&](const Tile& t, int64_t at) {
    std::vector<int64_t> ts = rowMajorStrides(t.type->shape);
    std::vector<int64_t> idx(t.type->shape.size(), 0);
    size_t size = t.elementSize();
    for (int64_t k = 0; k < t.n; ++k) {
      int64_t off = at;
      for (size_t d = 0; d < idx.size(); ++d) off += (k / ts[d] % t.type->shape[d]) * rs[d];
      std::memcpy(r->data<char>() + off * size, t.data<char>() + k * size, size);
    }
  };
  place(a, 0);
  place(b, semantics::catSplit(a.type->shape, dim) * rs[dim]);
}

// The flat offset, in a row-major tile of shape `whole`, of the sub-tile of
// shape `sub` that the op's index operands (from `first` on) name.
int64_t subTileOffset(BlockExec& x, const Operation& op, size_t first, const std::vector<int64_t>& whole,
                      const std::vector<int64_t>& sub) {
  std::vector<int64_t> strides = rowMajorStrides(whole);
  int64_t offset = 0;
  for (size_t d = 0; d < whole.size() && first + d < op.operands.size(); ++d) {
    uint64_t slice = unsignedOf(32, x.scalar(op.operands[first + d].value));  // indices are unsigned (the spec)
    int64_t count = whole[d] / sub[d];
    if (slice >= static_cast<uint64_t>(count))
      x.fail(op, std::string(op.info->name) + " index " + std::to_string(slice) + " of dimension " +
                     std::to_string(d) + " is past the last slice (" + std::to_string(count - 1) + ")");
    offset += semantics::sliceStart(static_cast<int64_t>(slice), sub[d]) * strides[d];
  }
  return offset;
}

void extract(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  auto r = x.result(op);
  const std::vector<int64_t>& whole = a.type->shape;
  std::vector<int64_t> strides = rowMajorStrides(whole);
  gatherStrided(a, *r, r->type->shape, strides, subTileOffset(x, op, 1, whole, r->type->shape));
}

// insert: the destination with the source written over one of its sub-tiles.
void insert(BlockExec& x, const Operation& op) {
  const Tile& src = x.tile(op.operands[0].value);
  const Tile& dst = x.tile(op.operands[1].value);
  auto r = x.result(op);
  std::memcpy(r->data<char>(), dst.data<char>(), dst.n * dst.elementSize());
  const std::vector<int64_t>& whole = r->type->shape;
  std::vector<int64_t> strides = rowMajorStrides(whole);
  const std::vector<int64_t>& sub = src.type->shape;
  copyStrided(src, 0, rowMajorStrides(sub), *r, subTileOffset(x, op, 2, whole, sub), strides, sub);
}

void select(BlockExec& x, const Operation& op) {
  const Tile& c = x.tile(op.operands[0].value);
  const Tile& t = x.tile(op.operands[1].value);
  const Tile& f = x.tile(op.operands[2].value);
  auto r = x.result(op);
  size_t size = t.elementSize();
  for (int64_t k = 0; k < r->n; ++k)
    std::memcpy(r->data<char>() + k * size, (c.ints()[k] ? t : f).data<char>() + k * size, size);
}

// pack and unpack: the storage bits read back as the other element type
// (semantics::repackSource says which source bits each piece is).
void repack(BlockExec& x, const Operation& op) {
  const Tile& a = x.tile(op.operands[0].value);
  auto r = x.result(op);
  unsigned sourceBits = elemBits(a.elem), bits = elemBits(r->elem);
  constexpr uint64_t piece = (1u << semantics::kRepackPieceBits) - 1;
  for (int64_t k = 0; k < r->n; ++k) {
    uint64_t v = 0;
    for (unsigned b = 0; b < bits; b += semantics::kRepackPieceBits) {
      semantics::BitPlace at = semantics::repackSource(static_cast<uint64_t>(k), bits, b, sourceBits);
      v |= ((exactBits(a, static_cast<int64_t>(at.element)) >> at.shift) & piece) << b;
    }
    setExactBits(*r, k, v);
  }
}

}  // namespace

void evalShape(BlockExec& x, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::Constant: return constant(x, op);
    case OpKind::Iota: {
      auto r = x.result(op);
      for (int64_t i = 0; i < r->n; ++i) r->ints()[i] = runtime::wrapInt(intBits(r->elem), i);
      return;
    }
    case OpKind::Broadcast: return broadcast(x, op);
    case OpKind::Reshape: {  // the row-major index is kept (semantics/lane_maps.h)
      const Tile& a = x.tile(op.operands[0].value);
      auto r = x.result(op);
      std::memcpy(r->data<char>(), a.data<char>(), a.n * a.elementSize());
      return;
    }
    case OpKind::Permute: return permute(x, op);
    case OpKind::Cat: return cat(x, op);
    case OpKind::Extract: return extract(x, op);
    case OpKind::Insert: return insert(x, op);
    case OpKind::Select: return select(x, op);
    case OpKind::Pack: case OpKind::Unpack: return repack(x, op);
    default: x.fail(op, "not a shape op");
  }
}

}  // namespace tilesight::interp
