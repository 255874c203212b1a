#include "codegen/interp/elements.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "codegen/interp/float_formats.h"

namespace tilesight::interp {

namespace {

uint8_t* at(uint64_t address) { return reinterpret_cast<uint8_t*>(address); }

int64_t readInt(Elem e, uint64_t pointer) {
  uint64_t bits = readBitsAt(e, pointer);
  return e == Elem::I1 ? bits != 0 : wrapInt(elemBits(e), static_cast<int64_t>(bits));
}

// The pointer value of element `offset` of an array at pointer value base.
uint64_t pointerOf(Elem e, uint64_t base, int64_t offset) { return base + offset * pointerUnit(e); }

}  // namespace

uint64_t readBitsAt(Elem e, uint64_t pointer) {
  if (nibblePointers(e)) {
    uint8_t b = *at(pointer / 2);
    return pointer % 2 ? b >> 4 : b & 15;
  }
  uint64_t v = 0;
  std::memcpy(&v, at(pointer), elemBytes(e));  // little-endian hosts only (x86-64, aarch64)
  return v;
}

void writeBitsAt(Elem e, uint64_t pointer, uint64_t bits) {
  if (nibblePointers(e)) {
    uint8_t& b = *at(pointer / 2);
    b = pointer % 2 ? (b & 0x0F) | ((bits & 15) << 4) : (b & 0xF0) | (bits & 15);
    return;
  }
  std::memcpy(at(pointer), &bits, elemBytes(e));
}

double valueAt(Elem e, uint64_t pointer) {
  if (isFloatElem(e)) return decodeFloat(e, readBitsAt(e, pointer));
  return static_cast<double>(readInt(e, pointer));
}

void loadAt(Tile& dst, int64_t k, uint64_t pointer) {
  switch (dst.store) {
    case Store::Int: dst.ints()[k] = readInt(dst.elem, pointer); return;
    case Store::F32:
      if (dst.elem == Elem::F32) std::memcpy(&dst.f32()[k], at(pointer), 4);
      else dst.f32()[k] = static_cast<float>(decodeFloat(dst.elem, readBitsAt(dst.elem, pointer)));
      return;
    case Store::F64: std::memcpy(&dst.f64()[k], at(pointer), 8); return;
  }
}

void storeAt(const Tile& src, int64_t k, uint64_t pointer) {
  switch (src.store) {
    case Store::Int: writeBitsAt(src.elem, pointer, unsignedOf(intBits(src.elem), src.ints()[k])); return;
    case Store::F32:
      if (src.elem == Elem::F32) std::memcpy(at(pointer), &src.f32()[k], 4);
      else writeBitsAt(src.elem, pointer, encodeFloat(src.elem, src.f32()[k]));
      return;
    case Store::F64: std::memcpy(at(pointer), &src.f64()[k], 8); return;
  }
}

void loadRun(Tile& dst, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count) {
  if (stride == 1 && dst.elem == Elem::F32) {
    std::memcpy(dst.f32() + k0, at(base) + offset * 4, count * 4);
    return;
  }
  if (stride == 1 && dst.elem == Elem::F64) {
    std::memcpy(dst.f64() + k0, at(base) + offset * 8, count * 8);
    return;
  }
  const float* table = dst.store == Store::F32 && !nibblePointers(dst.elem) ? decodeTable(dst.elem) : nullptr;
  if (table && elemBytes(dst.elem) == 2) {
    const uint8_t* src = at(base) + offset * 2;
    for (int64_t j = 0; j < count; ++j) {
      uint16_t bits;
      std::memcpy(&bits, src + j * stride * 2, 2);
      dst.f32()[k0 + j] = table[bits];
    }
    return;
  }
  if (table) {
    const uint8_t* src = at(base) + offset;
    for (int64_t j = 0; j < count; ++j) dst.f32()[k0 + j] = table[src[j * stride]];
    return;
  }
  for (int64_t j = 0; j < count; ++j) loadAt(dst, k0 + j, pointerOf(dst.elem, base, offset + j * stride));
}

void storeRun(const Tile& src, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count) {
  if (stride == 1 && src.elem == Elem::F32) {
    std::memcpy(at(base) + offset * 4, src.f32() + k0, count * 4);
    return;
  }
  if (stride == 1 && src.elem == Elem::F64) {
    std::memcpy(at(base) + offset * 8, src.f64() + k0, count * 8);
    return;
  }
  for (int64_t j = 0; j < count; ++j) storeAt(src, k0 + j, pointerOf(src.elem, base, offset + j * stride));
}

void fillPadding(Tile& dst, int64_t k0, int64_t count, Padding p) {
  double v = 0;
  switch (p) {
    case Padding::None:
    case Padding::Unknown:
    case Padding::Zero: v = 0; break;
    case Padding::NegZero: v = -0.0; break;
    case Padding::NaN: v = std::numeric_limits<double>::quiet_NaN(); break;
    case Padding::PosInf: v = std::numeric_limits<double>::infinity(); break;
    case Padding::NegInf: v = -std::numeric_limits<double>::infinity(); break;
  }
  for (int64_t j = 0; j < count; ++j) {
    switch (dst.store) {
      case Store::Int: dst.ints()[k0 + j] = 0; break;
      case Store::F32: dst.f32()[k0 + j] = static_cast<float>(roundTo(dst.elem, v)); break;
      case Store::F64: dst.f64()[k0 + j] = v; break;
    }
  }
}

void fillDense(Tile& t, const DenseValues& v) {
  for (int64_t k = 0; k < t.n && v.size(); ++k) {
    size_t i = v.splat ? 0 : static_cast<size_t>(k) % v.size();
    switch (t.store) {
      case Store::Int: t.ints()[k] = wrapInt(intBits(t.elem), v.ints[i]); break;
      case Store::F32:
      case Store::F64:
        if (v.isBits[i]) setExactBits(t, k, static_cast<uint64_t>(v.ints[i]));
        else if (t.store == Store::F32) t.f32()[k] = static_cast<float>(roundTo(t.elem, v.floats[i]));
        else t.f64()[k] = v.floats[i];
        break;
    }
  }
}

uint64_t exactBits(const Tile& t, int64_t k) {
  uint64_t bits = 0;
  if (t.store == Store::F64) std::memcpy(&bits, &t.f64()[k], 8);
  else if (t.store == Store::F32 && t.elem == Elem::F32) std::memcpy(&bits, &t.f32()[k], 4);
  else bits = storageBits(t, k);
  return bits;
}

void setExactBits(Tile& t, int64_t k, uint64_t bits) {
  switch (t.store) {
    case Store::Int: t.ints()[k] = wrapInt(intBits(t.elem), static_cast<int64_t>(bits)); return;
    case Store::F64: std::memcpy(&t.f64()[k], &bits, 8); return;
    case Store::F32:
      if (t.elem == Elem::F32) std::memcpy(&t.f32()[k], &bits, 4);
      else t.f32()[k] = static_cast<float>(decodeFloat(t.elem, bits));
      return;
  }
}

}  // namespace tilesight::interp
