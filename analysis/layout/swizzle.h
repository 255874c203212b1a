#pragma once
// CuTe's Swizzle<B,M,S>: f(x) = x ^ ((x & yyy_msk) >> S), an involution on
// aligned blocks of 2^(B+M+|S|) offsets (reference/layouts.md §1.13).
#include <cstdint>
#include <string>

#include "analysis/layout/result.h"

namespace tilesight::layout {

struct Swizzle {
  int bits = 0;   // B
  int base = 0;   // M
  int shift = 0;  // S (may be negative)
  int64_t apply(int64_t x) const;
  std::string toString() const;  // Sw<B,M,S>
  bool operator==(const Swizzle&) const = default;
};

// Checks CuTe's preconditions (B >= 0, M >= 0, |S| >= B, a bounded bit range).
Expected<Swizzle> makeSwizzle(int64_t bits, int64_t base, int64_t shift);

}  // namespace tilesight::layout
