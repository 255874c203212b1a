#pragma once
// Moving elements between memory (packed, in the pointee's format) and
// tiles (the interpreter's typed buffers, tile.h), a run at a time.
#include <cstdint>

#include "analysis/ir/dense.h"
#include "analysis/ir/types.h"
#include "codegen/interp/tile.h"

namespace tilesight::interp {

// Bytes that element offsets [0, count) of format e span from a byte base
// (4-bit formats: two elements per byte).
inline uint64_t byteSpanOf(Elem e, int64_t count) {
  unsigned bits = elemBits(e);
  return bits == 4 ? static_cast<uint64_t>(count + 1) / 2 : static_cast<uint64_t>(count) * (bits / 8 + (bits == 1));
}
// Byte size of one element (1 for i1 and, as a unit of pointers, for 4-bit types).
inline unsigned elemBytes(Elem e) {
  unsigned bits = elemBits(e);
  return bits <= 8 ? 1 : bits / 8;
}
// Whether pointer values of pointee e count nibbles (see runtime/buffers.h).
inline bool nibblePointers(Elem e) { return elemBits(e) == 4; }

// The pointer value of byte address `address` for pointee e (the inverse of byteAddress).
inline uint64_t pointerTo(Elem e, uint64_t address) { return nibblePointers(e) ? address * 2 : address; }

// The storage bits of the element of format e at a pointer value (low bits;
// 4-bit formats: its nibble), and the inverse.
uint64_t readBitsAt(Elem e, uint64_t pointer);
void writeBitsAt(Elem e, uint64_t pointer, uint64_t bits);
// The value of that element, as a double (integers: signed).
double valueAt(Elem e, uint64_t pointer);

// Pointer units one element advances a pointer of pointee e by.
inline int64_t pointerUnit(Elem e) { return nibblePointers(e) ? 1 : elemBytes(e); }

// dst[k0 + j] = element (offset + j * stride) of an array of format dst.elem
// starting at pointer value base, for j in [0, count). Offsets count elements.
void loadRun(Tile& dst, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count);
// The inverse: element (offset + j * stride) = src[k0 + j].
void storeRun(const Tile& src, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count);
// One element at a pointer value (pointer units: bytes, or nibbles for 4-bit).
void loadAt(Tile& dst, int64_t k, uint64_t pointer);
void storeAt(const Tile& src, int64_t k, uint64_t pointer);
// The byte address a pointer value of pointee e designates.
inline uint64_t byteAddress(Elem e, uint64_t pointer) { return nibblePointers(e) ? pointer / 2 : pointer; }

// The sanitizer's key for the element a pointer value designates: twice the
// byte address, plus the nibble for 4-bit elements (two per byte).
inline uint64_t shadowKey(Elem e, uint64_t pointer) { return nibblePointers(e) ? pointer : pointer * 2; }
// The keys one element of format e spans.
inline int64_t shadowWidth(Elem e) { return nibblePointers(e) ? 1 : 2 * elemBytes(e); }

// Every element of t from a dense literal (its one value splatted, or its
// values in order, repeated when t holds more lanes): integers wrapped to the
// width, floats rounded to the format, bit patterns kept exactly.
void fillDense(Tile& t, const DenseValues& v);

// Fills dst[k0, k0 + count) with the padding value (or 0 for Padding::None,
// whose elements the spec leaves unspecified, and for Padding::Unknown).
void fillPadding(Tile& dst, int64_t k0, int64_t count, Padding p);

// The storage bits of element k of t, exactly: storageBits, except that f32
// and f64 elements keep their bits as they are held (a trip through double
// would quiet a signaling NaN). For the ops defined on bits: bitcast, pack,
// unpack, atomic_cas, constants written as bit patterns.
uint64_t exactBits(const Tile& t, int64_t k);
// Sets element k of t to the element whose storage bits are `bits`.
void setExactBits(Tile& t, int64_t k, uint64_t bits);

}  // namespace tilesight::interp
