#include "codegen/interp/atomics.h"

#include <algorithm>

#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

// The new value an atomic read-modify-write stores.
double rmwFloat(AtomicMode m, Elem e, double old, double arg) {
  return m == AtomicMode::Xchg ? arg : runtime::roundTo(e, old + arg);
}

int64_t rmwInt(AtomicMode m, unsigned bits, int64_t old, int64_t arg) {
  switch (m) {
    case AtomicMode::And: return old & arg;
    case AtomicMode::Or: return old | arg;
    case AtomicMode::Xor: return old ^ arg;
    case AtomicMode::Add: return runtime::wrapInt(bits, static_cast<int64_t>(static_cast<uint64_t>(old) + static_cast<uint64_t>(arg)));
    case AtomicMode::Max: return std::max(signedOf(bits, old), signedOf(bits, arg)) == signedOf(bits, old) ? old : arg;
    case AtomicMode::Min: return std::min(signedOf(bits, old), signedOf(bits, arg)) == signedOf(bits, old) ? old : arg;
    case AtomicMode::UMax: return unsignedOf(bits, old) >= unsignedOf(bits, arg) ? old : arg;
    case AtomicMode::UMin: return unsignedOf(bits, old) <= unsignedOf(bits, arg) ? old : arg;
    case AtomicMode::Xchg:
    case AtomicMode::AddF: return arg;
  }
  return arg;
}

}  // namespace

void combineAtomic(AtomicMode mode, Tile& cell, const Tile& arg, int64_t k) {
  switch (cell.store) {
    case Store::Int: cell.ints()[0] = rmwInt(mode, intBits(cell.elem), cell.ints()[0], arg.ints()[k]); return;
    case Store::F32: cell.f32()[0] = static_cast<float>(rmwFloat(mode, cell.elem, cell.f32()[0], arg.f32()[k])); return;
    case Store::F64: cell.f64()[0] = rmwFloat(mode, Elem::F64, cell.f64()[0], arg.f64()[k]); return;
  }
}

}  // namespace tilesight::interp
