// CuTe's Swizzle<B,M,S> (reference/layouts.md §1.13): XOR the B bits at
// M + max(0,S) into the B bits at M - min(0,S).
#include "analysis/layout/swizzle.h"

#include <algorithm>
#include <cstdlib>

namespace tilesight::layout {

// The highest bit a swizzle may touch is B + M + |S| - 1; keeping that below
// bit 62 means masks and shifted values always fit a signed 64-bit offset.
static constexpr int64_t kMaxSwizzleBits = 62;

int64_t Swizzle::apply(int64_t x) const {
  uint64_t ones = (uint64_t{1} << bits) - 1;
  uint64_t yyy = ones << (base + std::max(0, shift));
  uint64_t moved = static_cast<uint64_t>(x) & yyy;
  moved = shift >= 0 ? moved >> shift : moved << -shift;  // a negative shift moves bits up
  return static_cast<int64_t>(static_cast<uint64_t>(x) ^ moved);
}

std::string Swizzle::toString() const {
  return "Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) + ">";
}

Expected<Swizzle> makeSwizzle(int64_t bits, int64_t base, int64_t shift) {
  std::string name = "Sw<" + std::to_string(bits) + "," + std::to_string(base) + "," + std::to_string(shift) + ">";
  if (bits < 0) return fail("swizzle: the bit count B must be non-negative", name + " has B = " + std::to_string(bits));
  if (base < 0) return fail("swizzle: the base M must be non-negative", name + " has M = " + std::to_string(base));
  std::string span = "B + M + |S| must be at most " + std::to_string(kMaxSwizzleBits) + " bits";
  if (base > kMaxSwizzleBits || shift > kMaxSwizzleBits || shift < -kMaxSwizzleBits)
    return fail("swizzle: " + span, name + " is out of range");
  int64_t absShift = std::llabs(shift);
  if (absShift < bits)
    return fail("swizzle: |S| must be at least B (the XOR source and target bits would overlap)",
                name + " has |S| = " + std::to_string(absShift) + " < B = " + std::to_string(bits));
  if (bits + base + absShift > kMaxSwizzleBits)
    return fail("swizzle: " + span, name + " spans " + std::to_string(bits + base + absShift) + " bits");
  return Swizzle{static_cast<int>(bits), static_cast<int>(base), static_cast<int>(shift)};
}

}  // namespace tilesight::layout
