#include "codegen/interp/atomics.h"

#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

// The new value an atomic read-modify-write stores.
double rmwFloat(AtomicMode m, Elem e, double old, double arg) {
  return m == AtomicMode::Xchg ? arg : runtime::roundTo(e, old + arg);
}

// An integer mode is the integer op it names (analysis/semantics/int_ops.h).
int64_t rmwInt(AtomicMode m, unsigned bits, int64_t old, int64_t arg) {
  OpKind k = OpKind::Addi;
  switch (m) {
    case AtomicMode::And: k = OpKind::Andi; break;
    case AtomicMode::Or: k = OpKind::Ori; break;
    case AtomicMode::Xor: k = OpKind::Xori; break;
    case AtomicMode::Add: k = OpKind::Addi; break;
    case AtomicMode::Max: case AtomicMode::UMax: k = OpKind::Maxi; break;
    case AtomicMode::Min: case AtomicMode::UMin: k = OpKind::Mini; break;
    case AtomicMode::Xchg:
    case AtomicMode::AddF: return arg;
  }
  bool isSigned = m != AtomicMode::UMax && m != AtomicMode::UMin;
  return wrapInt(bits, evalIntOp(k, {bits, isSigned}, old, arg).value);
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
