#pragma once
// tilus SharedLayout (seed 000; reference/layouts.md §5) as CuTe values.
// tilus splits each dimension into modes listed slowest first (row-major);
// CuTe lists them fastest first, so each dimension's modes are reversed.
// The result has one top-level mode per dimension, e.g. shape (64,32),
// mode_shape (8,8,16,2), mode_strides (256,2,16,1) is
// ((8,8),(2,16)):((2,256),(1,16)), and (i,j) = (9,3) maps to 275.
#include <optional>

#include "analysis/layout/value.h"

namespace tilesight::layout {

// shared(shape=, mode_shape=, mode_strides= [, swizzle=(base,bits,shift)]).
// The tilus swizzle (base, bits, shift) is CuTe's Sw<bits, base, shift>;
// bits = 0 means no swizzle.
Expected<Value> tilusShared(const IntTuple& shape, const IntTuple& modeShape, const IntTuple& modeStrides,
                            const std::optional<IntTuple>& swizzle = std::nullopt);
// Compact layouts: the last dimension fastest (row-major) or the first.
Expected<Value> tilusSharedRowMajor(const IntTuple& shape);
Expected<Value> tilusSharedColumnMajor(const IntTuple& shape);
// Per dimension: a's modes (slow) with strides times b's count size, then
// b's modes (fast). Top-level modes of a and b are the dimensions.
Expected<Value> tilusSharedCompose(const Value& a, const Value& b);

}  // namespace tilesight::layout
