#pragma once
// Elements in memory, one at a time: how many bytes an element of each
// format takes, the pointer values that address them (bytes, or nibbles for
// 4-bit formats) and their storage bits and values. Argument binding, the
// result comparison and the interpreter's loads and stores all read and
// write buffers through these.
#include <cstdint>

#include "analysis/ir/types.h"
#include "analysis/semantics/int_ops.h"

namespace tilesight::runtime {

// How loads, stores and the interpreter hold a `bits`-bit integer: i1 as 0/1,
// others in analysis/semantics/int_ops.h's canonical form (sign-extended).
inline int64_t wrapInt(unsigned bits, int64_t v) { return bits == 1 ? v & 1 : wrapToWidth(bits, v); }

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
// The byte address a pointer value of pointee e designates.
inline uint64_t byteAddress(Elem e, uint64_t pointer) { return nibblePointers(e) ? pointer / 2 : pointer; }

// Pointer units one element advances a pointer of pointee e by.
inline int64_t pointerUnit(Elem e) { return nibblePointers(e) ? 1 : elemBytes(e); }

// The host memory at a byte address.
inline uint8_t* bytesAt(uint64_t address) { return reinterpret_cast<uint8_t*>(address); }

// The storage bits of the element of format e at a pointer value (low bits;
// 4-bit formats: its nibble), and the inverse.
uint64_t readBitsAt(Elem e, uint64_t pointer);
void writeBitsAt(Elem e, uint64_t pointer, uint64_t bits);
// The integer element of format e at a pointer value, in canonical form.
int64_t intAt(Elem e, uint64_t pointer);
// The value of that element, as a double (integers: signed).
double valueAt(Elem e, uint64_t pointer);

}  // namespace tilesight::runtime
