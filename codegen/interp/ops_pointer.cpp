// Memory through tiles of pointers: offset, masked loads and stores, atomics.
#include <cstring>

#include "analysis/ir/attr_values.h"
#include "analysis/ir/op_accessors.h"
#include "analysis/ir/ir_query.h"
#include "codegen/interp/access_check.h"
#include "codegen/interp/atomics.h"
#include "codegen/interp/elements.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

Elem pointee(const Tile& pointers) { return pointers.type->element->elem; }

// Bytes one element access touches (a 4-bit element: its byte).
uint64_t accessBytes(Elem e) { return runtime::elemBytes(e); }

const Tile* optionalTile(BlockExec& x, ValueId v) {
  return v == kNoId ? nullptr : &x.tile(v);
}

// 4-bit elements move in bytes: lanes 2i and 2i+1 of a pointer access must be
// the low and high nibble of one byte, both active or both masked (seed 001
// §5.2.1). The sanitizer reports the first pair that is not.
void checkNibblePairs(BlockExec& x, const Operation& op, const Tile& pointers, const Tile* mask) {
  if (!runtime::nibblePointers(pointee(pointers))) return;
  for (int64_t k = 0; k < pointers.n; k += 2) {
    bool on0 = !mask || mask->ints()[k], on1 = k + 1 < pointers.n && (!mask || mask->ints()[k + 1]);
    uint64_t p0 = static_cast<uint64_t>(pointers.ints()[k]);
    uint64_t p1 = k + 1 < pointers.n ? static_cast<uint64_t>(pointers.ints()[k + 1]) : 0;
    std::string why = on0 != on1                ? "one is masked off and the other is not"
                      : !on0                    ? ""
                      : p0 % 2 != 0             ? "the first is a high nibble (element offset " + std::to_string(p0 % 2) + " in its byte)"
                      : p1 != p0 + 1            ? "they are not the two nibbles of one byte"
                                                : "";
    if (!why.empty())
      return x.sanitizer()->misaligned(x, op, k, "a 4-bit access must move whole bytes, but " + why);
  }
}

// The sanitizer's record of the active lanes of a pointer access, lanes at
// consecutive elements as one run.
void recordLanes(BlockExec& x, const MemoryEvent& ev, const Tile& pointers, const Tile* mask, TypeRef tile,
                 bool read, bool write) {
  Elem e = pointee(pointers);
  int64_t unit = runtime::pointerUnit(e), width = shadowWidth(e);
  const int64_t* p = pointers.ints();
  for (int64_t k = 0; k < pointers.n;) {
    if (mask && !mask->ints()[k]) {
      ++k;
      continue;
    }
    int64_t count = 1;
    while (k + count < pointers.n && (!mask || mask->ints()[k + count]) &&
           static_cast<uint64_t>(p[k + count]) == static_cast<uint64_t>(p[k]) + count * unit)
      ++count;
    AccessRun run{shadowKey(e, static_cast<uint64_t>(p[k])), width, width, count, k, tile};
    x.sanitizer()->access(x, ev, run, read, write);
    k += count;
  }
}

void offset(BlockExec& x, const Operation& op) {
  const Tile& p = x.tile(op.operands[0].value);
  const Tile& o = x.tile(op.operands[1].value);
  auto r = x.result(op);
  Elem e = pointee(p);
  int64_t unit = runtime::nibblePointers(e) ? 1 : runtime::elemBytes(e);
  unsigned bits = intBits(o.elem);
  for (int64_t k = 0; k < r->n; ++k)
    r->ints()[k] = static_cast<int64_t>(static_cast<uint64_t>(p.ints()[k]) +
                                        static_cast<uint64_t>(signedOf(bits, o.ints()[k]) * unit));
}

void load(BlockExec& x, const Operation& op) {
  const Tile& p = x.tile(operands::source(op));
  const Tile* mask = optionalTile(x, operands::mask(op));
  const Tile* pad = optionalTile(x, operands::paddingValue(op));
  auto r = x.result(op, 0);
  AccessCheck check(x, op);
  Elem e = pointee(p);
  Sanitizer* san = x.sanitizer();
  MemoryEvent ev = san ? san->begin(x, op, x.token(op)) : MemoryEvent{};
  if (san) checkNibblePairs(x, op, p, mask), recordLanes(x, ev, p, mask, r->type, true, false);
  size_t size = r->elementSize();
  for (int64_t k = 0; k < r->n; ++k) {
    if (mask && !mask->ints()[k]) {
      if (pad) std::memcpy(r->data<char>() + k * size, pad->data<char>() + k * size, size);
      else std::memset(r->data<char>() + k * size, 0, size);  // unspecified by the spec
      continue;
    }
    uint64_t ptr = static_cast<uint64_t>(p.ints()[k]);
    check.require(runtime::byteAddress(e, ptr), accessBytes(e), "a load");
    loadAt(*r, k, ptr);
  }
  x.set(op.results[1], san ? san->end(ev) : TokenValue{});
}

void store(BlockExec& x, const Operation& op) {
  const Tile& p = x.tile(operands::destination(op));
  const Tile& v = x.tile(operands::value(op));
  const Tile* mask = optionalTile(x, operands::mask(op));
  AccessCheck check(x, op);
  Elem e = pointee(p);
  Sanitizer* san = x.sanitizer();
  MemoryEvent ev = san ? san->begin(x, op, x.token(op)) : MemoryEvent{};
  if (san) checkNibblePairs(x, op, p, mask), recordLanes(x, ev, p, mask, v.type, false, true);
  for (int64_t k = 0; k < v.n; ++k) {
    if (mask && !mask->ints()[k]) continue;
    uint64_t ptr = static_cast<uint64_t>(p.ints()[k]);
    check.require(runtime::byteAddress(e, ptr), accessBytes(e), "a store");
    storeAt(v, k, ptr);
  }
  x.launch().writes.fetch_add(1, std::memory_order_relaxed);
  x.set(op.results[0], san ? san->end(ev) : TokenValue{});
}

// Atomic ops: one lane at a time, each under the lock of its address.
void atomic(BlockExec& x, const Operation& op, bool cas) {
  const Tile& p = x.tile(operands::pointers(op));
  const Tile& arg = x.tile(cas ? operands::val(op) : operands::arg(op));
  const Tile* cmp = cas ? &x.tile(operands::cmp(op)) : nullptr;
  const Tile* mask = optionalTile(x, operands::mask(op));
  AtomicMode mode = attrValue<AtomicMode>(op, attr_names::mode).value_or(AtomicMode::Xchg);
  auto r = x.result(op, 0);
  auto cell = Tile::make(r->type, 1);  // the old value at one address
  AccessCheck check(x, op);
  Elem e = pointee(p);
  Sanitizer* san = x.sanitizer();
  MemoryEvent ev = san ? san->begin(x, op, x.token(op)) : MemoryEvent{};
  if (san) recordLanes(x, ev, p, mask, r->type, true, true);
  size_t size = r->elementSize();
  bool changed = false;
  for (int64_t k = 0; k < r->n; ++k) {
    if (mask && !mask->ints()[k]) {
      // A masked-off lane returns cmp[k] from a CAS (Ops.td); what an RMW
      // returns there is implementation-defined: 0.
      if (cas) std::memcpy(r->data<char>() + k * size, cmp->data<char>() + k * size, size);
      else std::memset(r->data<char>() + k * size, 0, size);
      continue;
    }
    uint64_t ptr = static_cast<uint64_t>(p.ints()[k]);
    check.require(runtime::byteAddress(e, ptr), accessBytes(e), "an atomic access");
    std::lock_guard<std::mutex> lock(x.launch().lockFor(runtime::byteAddress(e, ptr)));
    loadAt(*cell, 0, ptr);
    std::memcpy(r->data<char>() + k * size, cell->data<char>(), size);
    bool write = !cas || exactBits(*cell, 0) == exactBits(*cmp, k);  // bitwise, signaling NaNs included
    if (!write) continue;
    if (cas) std::memcpy(cell->data<char>(), arg.data<char>() + k * size, size);
    else combineAtomic(mode, *cell, arg, k);
    changed |= exactBits(*cell, 0) != exactBits(*r, k);
    storeAt(*cell, 0, ptr);
  }
  if (changed) x.launch().writes.fetch_add(1, std::memory_order_relaxed);
  x.set(op.results[1], san ? san->end(ev) : TokenValue{});
}

}  // namespace

void evalPointerMemory(BlockExec& x, const Operation& op, OpKind k) {
  switch (k) {
    case OpKind::Offset: return offset(x, op);
    case OpKind::LoadPtrTko: return load(x, op);
    case OpKind::StorePtrTko: return store(x, op);
    case OpKind::AtomicRmwTko: return atomic(x, op, false);
    case OpKind::AtomicCasTko: return atomic(x, op, true);
    default: x.fail(op, "not a pointer memory op");
  }
}

}  // namespace tilesight::interp
