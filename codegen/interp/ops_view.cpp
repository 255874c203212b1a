// tensor_view and tile views: making them, their shapes, and loads, stores
// and atomic reductions of one tile at an index.
#include <cstring>
#include <optional>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/ir_query.h"
#include "codegen/interp/access_check.h"
#include "codegen/interp/atomics.h"
#include "codegen/interp/elements.h"
#include "codegen/interp/unspecified.h"
#include "codegen/interp/view_access.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

// Element k of an integer tile read as unsigned: the spec reads view indices
// and dynamic shapes and strides so (an i8 200 is 200, not -56).
int64_t unsignedAt(const Tile& t, int64_t k) { return static_cast<int64_t>(unsignedOf(intBits(t.elem), t.ints()[k])); }

void makeTensorView(BlockExec& x, const Operation& op) {
  auto tv = std::make_shared<TensorViewValue>();
  tv->type = x.typeOf(op.results[0]);
  tv->elem = tv->type->elem;
  tv->base = static_cast<uint64_t>(x.scalar(operands::base(op)));
  auto fill = [&](const Attr* written, llvm::ArrayRef<Operand> dynamic, std::vector<int64_t>& out) {
    size_t next = 0;
    for (const Attr& e : written->elems)
      out.push_back(e.kind == AttrKind::Int ? e.i : unsignedAt(x.tile(dynamic[next++].value), 0));
  };
  MakeTensorViewOp mtv(op);
  fill(mtv.staticShape(), mtv.dynamicShape(), tv->shape);
  fill(mtv.staticStrides(), mtv.dynamicStrides(), tv->strides);
  for (size_t d = 0; d < tv->shape.size(); ++d)
    if (tv->shape[d] < 0) x.fail(op, "dimension " + std::to_string(d) + " of the tensor_view is " + std::to_string(tv->shape[d]));
  x.set(op.results[0], std::shared_ptr<const TensorViewValue>(tv));
}

const ViewValue& viewOf(BlockExec& x, ValueId v) { return *std::get<std::shared_ptr<const ViewValue>>(x.value(v)); }

std::string listText(const std::vector<int64_t>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

// The view index of a view memory op, checked against the index space (the
// spec leaves an index outside it undefined: the run stops, or under the
// sanitizer the finding is kept and the access skipped, nullopt); rows: a
// gather index tile.
std::optional<std::vector<int64_t>> viewIndex(BlockExec& x, const Operation& op, const ViewValue& view,
                                              std::vector<int64_t>& rows) {
  llvm::ArrayRef<Operand> idx = operands::index(op);
  std::vector<int64_t> space = indexSpaceShape(view);
  std::vector<int64_t> index;
  for (size_t i = 0; i < idx.size(); ++i) {
    const Tile& t = x.tile(idx[i].value);
    bool sparse = view.type->kind == TypeKind::GatherScatterView && static_cast<int64_t>(i) == view.type->sparseDim;
    if (sparse) {
      for (int64_t k = 0; k < t.n; ++k) rows.push_back(unsignedAt(t, k));
      index.push_back(0);
      continue;
    }
    index.push_back(unsignedAt(t, 0));
  }
  for (size_t i = 0; i < index.size() && i < space.size(); ++i) {
    std::string message;
    if (index[i] < 0 || index[i] >= space[i])
      message = "index (" + listText(index, ", ") + ") is outside the view's index space " + listText(space, "x") +
                " (dimension " + std::to_string(i) + ")";
    else if (int64_t over = overhang(view, i, index[i]); over > 0 && promisedInBounds(op, i))
      message = "the tile at index (" + listText(index, ", ") + ") overhangs the tensor's edge by " +
                std::to_string(over) + " along dimension " + std::to_string(i) +
                ", but the access is marked inbounds (check_bounds=False)";
    else
      continue;
    if (!x.sanitizer()) x.fail(op, message);
    x.sanitizer()->indexOutside(x, op, message);
    return std::nullopt;
  }
  return index;
}

void checkRun(AccessCheck& check, const TensorViewValue& tv, const ViewRun& r, const char* what) {
  if (r.count == 0) return;
  Elem e = tv.elem;
  int64_t unit = runtime::pointerUnit(e);
  for (int64_t off : {r.offset, r.offset + (r.count - 1) * r.stride})
    check.require(runtime::byteAddress(e, tv.base + off * unit), runtime::elemBytes(e), what);
}

// The sanitizer's record of a run.
void recordRun(BlockExec& x, const MemoryEvent& ev, const TensorViewValue& tv, const ViewRun& run, bool read,
               bool write, TypeRef tile) {
  uint64_t key0 = shadowKey(tv.elem, tv.base + run.offset * runtime::pointerUnit(tv.elem));
  int64_t width = shadowWidth(tv.elem);
  x.sanitizer()->access(x, ev, AccessRun{key0, run.stride * width, width, run.count, run.k, tile}, read, write);
}

void loadView(BlockExec& x, const Operation& op) {
  const ViewValue& view = viewOf(x, operands::view(op));
  std::vector<int64_t> rows;
  std::optional<std::vector<int64_t>> index = viewIndex(x, op, view, rows);
  auto r = x.result(op, 0);
  AccessCheck check(x, op);
  Padding pad = view.type->padding;
  Sanitizer* san = x.sanitizer();
  MemoryEvent ev = san ? san->begin(x, op, x.token(op)) : MemoryEvent{};
  if (!index) fillPadding(*r, 0, r->n, pad);
  else forEachRun(view, *index, rows, [&](const ViewRun& run) {
    checkRun(check, *view.tensor, run, "a load");
    if (san) recordRun(x, ev, *view.tensor, run, true, false, r->type);
    loadRun(*r, run.k, view.tensor->base, run.offset, run.stride, run.count);
    if (run.pad) fillPadding(*r, run.k + run.count, run.pad, pad);
    if (san && run.pad && (pad == Padding::None || pad == Padding::Unknown)) markUnspecified(*r, run.k + run.count, run.pad, op);
  });
  x.set(op.results[1], san ? san->end(ev) : TokenValue{});
}

void storeView(BlockExec& x, const Operation& op) {
  const ViewValue& view = viewOf(x, operands::view(op));
  const Tile& t = x.tile(operands::tile(op));
  std::vector<int64_t> rows;
  std::optional<std::vector<int64_t>> index = viewIndex(x, op, view, rows);
  AccessCheck check(x, op);
  Sanitizer* san = x.sanitizer();
  MemoryEvent ev = san ? san->begin(x, op, x.token(op)) : MemoryEvent{};
  if (index)
    forEachRun(view, *index, rows, [&](const ViewRun& run) {  // elements outside the tensor are masked
      checkRun(check, *view.tensor, run, "a store");
      if (san) recordRun(x, ev, *view.tensor, run, false, true, t.type), reachesMemory(x, op, t, run.k, run.count);
      storeRun(t, run.k, view.tensor->base, run.offset, run.stride, run.count);
    });
  x.launch().writes.fetch_add(1, std::memory_order_relaxed);
  x.set(op.results[0], san ? san->end(ev) : TokenValue{});
}

void atomicReduceView(BlockExec& x, const Operation& op) {
  const ViewValue& view = viewOf(x, operands::view(op));
  const Tile& v = x.tile(operands::value(op));
  std::vector<int64_t> rows;
  std::optional<std::vector<int64_t>> index = viewIndex(x, op, view, rows);
  Sanitizer* san = x.sanitizer();
  MemoryEvent ev = san ? san->begin(x, op, x.token(op)) : MemoryEvent{};
  if (!index) return x.set(op.results[0], san->end(ev));
  AtomicMode mode = attrValue<AtomicMode>(op, attr_names::mode).value_or(AtomicMode::Add);
  AccessCheck check(x, op);
  const TensorViewValue& tv = *view.tensor;
  auto cell = Tile::make(v.type, 1);
  forEachRun(view, *index, rows, [&](const ViewRun& run) {
    checkRun(check, tv, run, "an atomic reduction");
    if (san) recordRun(x, ev, tv, run, true, true, v.type), reachesMemory(x, op, v, run.k, run.count);
    for (int64_t j = 0; j < run.count; ++j) {
      uint64_t ptr = tv.base + (run.offset + j * run.stride) * runtime::pointerUnit(tv.elem);
      std::lock_guard<std::mutex> lock(x.launch().lockFor(runtime::byteAddress(tv.elem, ptr)));
      loadAt(*cell, 0, ptr);
      combineAtomic(mode, *cell, v, run.k + j);
      storeAt(*cell, 0, ptr);
    }
  });
  x.launch().writes.fetch_add(1, std::memory_order_relaxed);
  x.set(op.results[0], san ? san->end(ev) : TokenValue{});
}

void shapeScalars(BlockExec& x, const Operation& op, const std::vector<int64_t>& shape) {
  for (size_t i = 0; i < op.results.size() && i < shape.size(); ++i) {
    auto r = x.result(op, i);
    r->ints()[0] = runtime::wrapInt(intBits(r->elem), shape[i]);
  }
}

}  // namespace

void evalView(BlockExec& x, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::MakeTensorView: return makeTensorView(x, op);
    case OpKind::MakePartitionView:
    case OpKind::MakeStridedView:
    case OpKind::MakeGatherScatterView: {
      auto v = std::make_shared<ViewValue>();
      v->type = x.typeOf(op.results[0]);
      v->tensor = std::get<std::shared_ptr<const TensorViewValue>>(x.value(op.operands[0].value));
      x.set(op.results[0], std::shared_ptr<const ViewValue>(v));
      return;
    }
    case OpKind::GetTensorShape:
      return shapeScalars(x, op, std::get<std::shared_ptr<const TensorViewValue>>(x.value(op.operands[0].value))->shape);
    case OpKind::GetIndexSpaceShape: return shapeScalars(x, op, indexSpaceShape(viewOf(x, op.operands[0].value)));
    case OpKind::LoadViewTko: return loadView(x, op);
    case OpKind::StoreViewTko: return storeView(x, op);
    case OpKind::AtomicRedViewTko: return atomicReduceView(x, op);
    default: x.fail(op, "not a view op");
  }
}

}  // namespace tilesight::interp
