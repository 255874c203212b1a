#pragma once
// A tile value of the interpreter: its type and its elements in one typed
// buffer, processed a whole tile at a time. Integers are held as int64 in
// canonical form for their width (sign-extended; i1 as 0 or 1), pointers as
// addresses in int64, f64 as double, and every narrower float format as the
// f32 that holds its value exactly (ops round results back to the format).
#include <cstdint>
#include <memory>

#include "analysis/ir/types.h"
#include "analysis/semantics/int_ops.h"
#include "codegen/runtime/element_bits.h"

namespace tilesight::interp {

struct Unspecified;

enum class Store : uint8_t { Int, F32, F64 };

// How elements of type `element` (a scalar or pointer type) are held.
Store storeOf(TypeRef element);

struct Tile {
  TypeRef type = nullptr;  // the tile type (shape, element)
  Elem elem = Elem::None;  // the scalar element; Elem::I64 for pointer tiles
  Store store = Store::Int;
  int64_t n = 0;           // elements (the type's count, times lanes in reduce bodies)
  size_t elementSize() const { return store == Store::F32 ? 4 : 8; }  // bytes per held element

  template <class T> T* data() { return static_cast<T*>(static_cast<void*>(bytes_.get())); }
  template <class T> const T* data() const { return static_cast<const T*>(static_cast<const void*>(bytes_.get())); }
  int64_t* ints() { return data<int64_t>(); }
  const int64_t* ints() const { return data<int64_t>(); }
  float* f32() { return data<float>(); }
  const float* f32() const { return data<float>(); }
  double* f64() { return data<double>(); }
  const double* f64() const { return data<double>(); }

  // Element k as a double (floats) or integer value converted (ints).
  double asDouble(int64_t k) const;

  // A tile of `type` with n elements, uninitialised.
  static std::shared_ptr<Tile> make(TypeRef type, int64_t n);

  // Under the sanitizer: its lanes that hold unspecified values (unspecified.h);
  // null when all are specified. Set after the op that made it ran.
  mutable std::shared_ptr<const Unspecified> unspecified;

private:
  std::unique_ptr<uint64_t[]> bytes_;  // 8-byte aligned storage
};

using TileRef = std::shared_ptr<const Tile>;

// The storage bits of element k (integers zero-extended from their width,
// floats encoded exactly in their format).
uint64_t storageBits(const Tile& t, int64_t k);

// --- integers of a width ------------------------------------------------------
// What integers of a width are and what ops compute on them is
// analysis/semantics/int_ops.h; how the interpreter holds them (i1 as 0/1) is
// runtime::wrapInt, which loads and stores share.
using runtime::wrapInt;
// Integer width of a runtime element (64 for pointers). The runtime's Elem is
// how the interpreter holds values; semantics::intBits answers the same for
// an IR type.
unsigned intBits(Elem e);

}  // namespace tilesight::interp
