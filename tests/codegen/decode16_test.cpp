// Loads of consecutive 16-bit floats take a vector path (F16C for f16, a
// shift for bf16); every one of the 65536 bit patterns must decode to the bits
// of the decode table, which the strided path and every other load use.
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "analysis/ir/types.h"
#include "codegen/interp/elements.h"
#include "codegen/interp/tile.h"
#include "codegen/runtime/float_formats.h"

namespace tilesight::interp {
namespace {

void expectEveryPatternAsTheTable(Elem e) {
  TypeContext types;
  const int64_t n = 1 << 16;
  std::vector<uint16_t> memory(n + 3);  // an odd start: unaligned runs of 8
  for (int64_t b = 0; b < n; ++b) memory[b + 3] = static_cast<uint16_t>(b);
  auto tile = Tile::make(types.tile({n}, e), n);
  uint64_t base = reinterpret_cast<uint64_t>(memory.data());
  loadRun(*tile, 0, base, 3, 1, n);
  const float* table = runtime::decodeTable(e);
  int64_t wrong = 0, first = -1;
  for (int64_t b = 0; b < n; ++b) {
    uint32_t got, want;
    std::memcpy(&got, &tile->f32()[b], 4);
    std::memcpy(&want, &table[b], 4);
    if (got != want && !wrong++) first = b;
  }
  EXPECT_EQ(wrong, 0) << elemName(e) << ": first at bits 0x" << std::hex << first;
}

TEST(Decode16, F16RunsDecodeEveryPatternAsTheTable) { expectEveryPatternAsTheTable(Elem::F16); }
TEST(Decode16, Bf16RunsDecodeEveryPatternAsTheTable) { expectEveryPatternAsTheTable(Elem::BF16); }

}  // namespace
}  // namespace tilesight::interp
