#pragma once
// Moving elements between memory (packed, in the pointee's format) and
// tiles (the interpreter's typed buffers, tile.h), a run at a time; one
// element at a pointer is runtime/element_bits.h.
#include <cstdint>

#include "analysis/ir/dense.h"
#include "analysis/ir/types.h"
#include "codegen/interp/tile.h"
#include "codegen/runtime/element_bits.h"

namespace tilesight::interp {

// dst[k0 + j] = element (offset + j * stride) of an array of format dst.elem
// starting at pointer value base, for j in [0, count). Offsets count elements.
void loadRun(Tile& dst, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count);
// The inverse: element (offset + j * stride) = src[k0 + j].
void storeRun(const Tile& src, int64_t k0, uint64_t base, int64_t offset, int64_t stride, int64_t count);
// One element at a pointer value (pointer units: bytes, or nibbles for 4-bit).
void loadAt(Tile& dst, int64_t k, uint64_t pointer);
void storeAt(const Tile& src, int64_t k, uint64_t pointer);
// The sanitizer's key for the element a pointer value designates: twice the
// byte address, plus the nibble for 4-bit elements (two per byte).
inline uint64_t shadowKey(Elem e, uint64_t pointer) { return runtime::nibblePointers(e) ? pointer : pointer * 2; }
// The keys one element of format e spans.
inline int64_t shadowWidth(Elem e) { return runtime::nibblePointers(e) ? 1 : 2 * runtime::elemBytes(e); }

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
