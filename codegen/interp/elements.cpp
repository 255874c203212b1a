#include "codegen/interp/elements.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {

namespace {

// The pointer value of element `offset` of an array at pointer value base.
uint64_t pointerOf(Elem e, uint64_t base, int64_t offset) { return base + offset * runtime::pointerUnit(e); }

uint16_t bits16(const uint8_t* p) {
  uint16_t b;
  std::memcpy(&b, p, 2);
  return b;
}

// `count` consecutive f16 elements to f32 with the CPU's conversion (F16C:
// exact, every f16 value is an f32 value), 8 at a time; a group holding a NaN
// goes through the decode table, so that NaN bits are the table's.
__attribute__((target("avx,f16c"))) void decodeF16Fast(const uint8_t* src, float* dst, int64_t count,
                                                       const float* table) {
  int64_t j = 0;
  for (; j + 8 <= count; j += 8) {
    __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * j));
    __m128i magnitude = _mm_and_si128(h, _mm_set1_epi16(0x7FFF));
    if (_mm_movemask_epi8(_mm_cmpgt_epi16(magnitude, _mm_set1_epi16(0x7C00)))) {
      for (int64_t k = j; k < j + 8; ++k) dst[k] = table[bits16(src + 2 * k)];
      continue;
    }
    _mm256_storeu_ps(dst + j, _mm256_cvtph_ps(h));
  }
  for (; j < count; ++j) dst[j] = table[bits16(src + 2 * j)];
}

// The same for bf16, whose value is its bits in the high half of an f32.
void decodeBf16(const uint8_t* src, float* dst, int64_t count, const float* table) {
  for (int64_t j = 0; j < count; ++j) {
    uint16_t b = bits16(src + 2 * j);
    uint32_t w = uint32_t{b} << 16;
    float v;
    std::memcpy(&v, &w, 4);
    dst[j] = (b & 0x7FFF) > 0x7F80 ? table[b] : v;
  }
}

// Consecutive 16-bit floats at src into dst[0, count).
void decode16(Elem e, const uint8_t* src, float* dst, int64_t count, const float* table) {
  static const bool f16c = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
  if (e == Elem::F16 && f16c) return decodeF16Fast(src, dst, count, table);
  if (e == Elem::BF16) return decodeBf16(src, dst, count, table);
  for (int64_t j = 0; j < count; ++j) dst[j] = table[bits16(src + 2 * j)];
}

}  // namespace

void loadAt(Tile& dst, int64_t k, uint64_t pointer) {
  switch (dst.store) {
    case Store::Int: dst.ints()[k] = runtime::intAt(dst.elem, pointer); return;
    case Store::F32:
      if (dst.elem == Elem::F32) std::memcpy(&dst.f32()[k], runtime::bytesAt(pointer), 4);
      else dst.f32()[k] = static_cast<float>(runtime::decodeFloat(dst.elem, runtime::readBitsAt(dst.elem, pointer)));
      return;
    case Store::F64: std::memcpy(&dst.f64()[k], runtime::bytesAt(pointer), 8); return;
  }
}

void storeAt(const Tile& src, int64_t k, uint64_t pointer) {
  switch (src.store) {
    case Store::Int: runtime::writeBitsAt(src.elem, pointer, unsignedOf(intBits(src.elem), src.ints()[k])); return;
    case Store::F32:
      if (src.elem == Elem::F32) std::memcpy(runtime::bytesAt(pointer), &src.f32()[k], 4);
      else runtime::writeBitsAt(src.elem, pointer, runtime::encodeFloat(src.elem, src.f32()[k]));
      return;
    case Store::F64: std::memcpy(runtime::bytesAt(pointer), &src.f64()[k], 8); return;
  }
}

void loadRun(Tile& dst, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count) {
  if (stride == 1 && dst.elem == Elem::F32) {
    std::memcpy(dst.f32() + k0, runtime::bytesAt(base) + offset * 4, count * 4);
    return;
  }
  if (stride == 1 && dst.elem == Elem::F64) {
    std::memcpy(dst.f64() + k0, runtime::bytesAt(base) + offset * 8, count * 8);
    return;
  }
  const float* table = dst.store == Store::F32 && !runtime::nibblePointers(dst.elem) ? runtime::decodeTable(dst.elem) : nullptr;
  if (table && runtime::elemBytes(dst.elem) == 2 && stride == 1)
    return decode16(dst.elem, runtime::bytesAt(base) + offset * 2, dst.f32() + k0, count, table);
  if (table && runtime::elemBytes(dst.elem) == 2) {
    const uint8_t* src = runtime::bytesAt(base) + offset * 2;
    for (int64_t j = 0; j < count; ++j) {
      uint16_t bits;
      std::memcpy(&bits, src + j * stride * 2, 2);
      dst.f32()[k0 + j] = table[bits];
    }
    return;
  }
  if (table) {
    const uint8_t* src = runtime::bytesAt(base) + offset;
    for (int64_t j = 0; j < count; ++j) dst.f32()[k0 + j] = table[src[j * stride]];
    return;
  }
  for (int64_t j = 0; j < count; ++j) loadAt(dst, k0 + j, pointerOf(dst.elem, base, offset + j * stride));
}

void storeRun(const Tile& src, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count) {
  if (stride == 1 && src.elem == Elem::F32) {
    std::memcpy(runtime::bytesAt(base) + offset * 4, src.f32() + k0, count * 4);
    return;
  }
  if (stride == 1 && src.elem == Elem::F64) {
    std::memcpy(runtime::bytesAt(base) + offset * 8, src.f64() + k0, count * 8);
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
      case Store::F32: dst.f32()[k0 + j] = static_cast<float>(runtime::roundTo(dst.elem, v)); break;
      case Store::F64: dst.f64()[k0 + j] = v; break;
    }
  }
}

void fillDense(Tile& t, const DenseValues& v) {
  int64_t n = v.splat ? std::min<int64_t>(t.n, 1) : t.n;  // a splat: element 0, then copies of it
  for (int64_t k = 0; k < n && v.size(); ++k) {
    size_t i = v.splat ? 0 : static_cast<size_t>(k) % v.size();
    switch (t.store) {
      case Store::Int: t.ints()[k] = runtime::wrapInt(intBits(t.elem), v.ints[i]); break;
      case Store::F32:
      case Store::F64:
        if (v.isBits[i]) setExactBits(t, k, static_cast<uint64_t>(v.ints[i]));
        else if (t.store == Store::F32) t.f32()[k] = static_cast<float>(runtime::roundTo(t.elem, v.floats[i]));
        else t.f64()[k] = v.floats[i];
        break;
    }
  }
  if (n < t.n && v.size()) switch (t.store) {  // copies keep the bits (a NaN's payload too)
      case Store::Int: std::fill(t.ints() + 1, t.ints() + t.n, t.ints()[0]); break;
      case Store::F32: std::fill(t.f32() + 1, t.f32() + t.n, t.f32()[0]); break;
      case Store::F64: std::fill(t.f64() + 1, t.f64() + t.n, t.f64()[0]); break;
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
    case Store::Int: t.ints()[k] = runtime::wrapInt(intBits(t.elem), static_cast<int64_t>(bits)); return;
    case Store::F64: std::memcpy(&t.f64()[k], &bits, 8); return;
    case Store::F32:
      if (t.elem == Elem::F32) std::memcpy(&t.f32()[k], &bits, 4);
      else t.f32()[k] = static_cast<float>(runtime::decodeFloat(t.elem, bits));
      return;
  }
}

}  // namespace tilesight::interp
