// The WMMA maps as data: for each of lane % 16, lane / 16 and local, the step
// it adds to the tile row i and column j (the seed's reverse maps).
#include "analysis/layout/wmma.h"

#include <array>
#include <string>

namespace tilesight::layout {

namespace {

constexpr int64_t kTile = 16;

struct Step {
  int64_t i = 0, j = 0;
};

struct FragmentMap {
  std::string_view target, matrix;
  Step laneLow, laneHigh, local;  // lane % 16, lane / 16, local index
  int64_t localSize;
};

// gfx12: 8 locals; the half-wave picks the K (A, B) or M (C) half.
// gfx11: A and B hold the whole K in 16 locals and ignore the half-wave;
// C interleaves rows: M = lane / 16 + 2 * local.
constexpr std::array<FragmentMap, 6> kMaps = {{
    {"gfx12", "A", {1, 0}, {0, 8}, {0, 1}, 8},   // M = t%16, K = (t/16)*8 + l
    {"gfx12", "B", {0, 1}, {8, 0}, {1, 0}, 8},   // K = (t/16)*8 + l, N = t%16
    {"gfx12", "C", {0, 1}, {8, 0}, {1, 0}, 8},   // M = (t/16)*8 + l, N = t%16
    {"gfx11", "A", {1, 0}, {0, 0}, {0, 1}, 16},  // M = t%16, K = l
    {"gfx11", "B", {0, 1}, {0, 0}, {1, 0}, 16},  // K = l, N = t%16
    {"gfx11", "C", {0, 1}, {1, 0}, {2, 0}, 8},   // M = t/16 + 2l, N = t%16
}};

int64_t colexStride(Step s, bool colMajor) { return colMajor ? s.j + kTile * s.i : s.i + kTile * s.j; }

}  // namespace

Expected<Value> wmmaLayout(std::string_view target, std::string_view matrix, bool colMajor) {
  if (target != "gfx11" && target != "gfx12")
    return fail("wmma: the target must be gfx11 or gfx12", "got '" + std::string(target) + "'");
  if (matrix != "A" && matrix != "B" && matrix != "C")
    return fail("wmma: the matrix must be A, B or C", "got '" + std::string(matrix) + "'");
  if (matrix == "C" && colMajor)
    return fail("wmma: only A and B have column-major variants",
                "the seed defines no transposed C/D map for " + std::string(target));
  const FragmentMap* map = nullptr;
  for (const FragmentMap& m : kMaps)
    if (m.target == target && m.matrix == matrix) map = &m;
  Value v;
  v.kind = Value::TvValue;
  v.tvTiler = IntTuple::tuple({kTile, kTile});
  IntTuple lane = IntTuple::tuple({kTile, 2});
  IntTuple laneStride = IntTuple::tuple({colexStride(map->laneLow, colMajor), colexStride(map->laneHigh, colMajor)});
  v.layout = {IntTuple::tuple({lane, map->localSize}),
              IntTuple::tuple({laneStride, colexStride(map->local, colMajor)})};
  if (map->laneHigh.i == 0 && map->laneHigh.j == 0)
    v.note = "lanes 16..31 hold a copy of lanes 0..15 (" + std::string(target) + " WMMA " + std::string(matrix) +
             " replication by design): the stride-0 half-wave mode is a broadcast, so the map is 2-to-1";
  return v;
}

}  // namespace tilesight::layout
