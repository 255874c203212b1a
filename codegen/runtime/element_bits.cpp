#include "codegen/runtime/element_bits.h"

#include <cstring>

#include "codegen/runtime/float_formats.h"

namespace tilesight::runtime {

uint64_t readBitsAt(Elem e, uint64_t pointer) {
  if (nibblePointers(e)) {
    uint8_t b = *bytesAt(pointer / 2);
    return pointer % 2 ? b >> 4 : b & 15;
  }
  uint64_t v = 0;
  std::memcpy(&v, bytesAt(pointer), elemBytes(e));  // little-endian hosts only (x86-64, aarch64)
  return v;
}

void writeBitsAt(Elem e, uint64_t pointer, uint64_t bits) {
  if (nibblePointers(e)) {
    uint8_t& b = *bytesAt(pointer / 2);
    b = pointer % 2 ? (b & 0x0F) | ((bits & 15) << 4) : (b & 0xF0) | (bits & 15);
    return;
  }
  std::memcpy(bytesAt(pointer), &bits, elemBytes(e));
}

int64_t intAt(Elem e, uint64_t pointer) {
  uint64_t bits = readBitsAt(e, pointer);
  return e == Elem::I1 ? bits != 0 : wrapInt(elemBits(e), static_cast<int64_t>(bits));
}

double valueAt(Elem e, uint64_t pointer) {
  if (isFloatElem(e)) return decodeFloat(e, readBitsAt(e, pointer));
  return static_cast<double>(intAt(e, pointer));
}

}  // namespace tilesight::runtime
