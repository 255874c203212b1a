// Google Benchmark: deciding injectivity of layouts of size 2^20..2^30 with
// decide(), next to enumerating the offsets (2^20 and 2^24 only; enumeration
// grows linearly, so 2^28 and 2^30 would take minutes and gigabytes).
#include <benchmark/benchmark.h>

#include <unordered_set>

#include "analysis/layout/layout.h"

namespace {

using tilesight::layout::IntTuple;
using tilesight::layout::Layout;

IntTuple tup(std::initializer_list<IntTuple> e) { return IntTuple::tuple(e); }

// Each family takes log2(size).
Layout compactRowMajor(int k) { return {tup({32, int64_t{1} << (k - 5)}), tup({int64_t{1} << (k - 5), 1})}; }
Layout paddedRows(int k) { return {tup({64, int64_t{1} << (k - 6)}), tup({1, 80})}; }  // gaps of 16 per row
Layout overlapping(int k) { return {tup({4, int64_t{1} << (k - 2)}), tup({3, 2})}; }   // 2*3 == 3*2
// Strides 3, 5, 6 are free of equal subset sums but not superincreasing: the
// block below 16 needs the bitset DP, the rest stacks copies of it.
Layout subsetSumFree(int k) { return {tup({2, 2, 2, int64_t{1} << (k - 3)}), tup({3, 5, 6, 16})}; }
// The same low block under a long stride-13 mode: no block split, but only
// one step of the long mode can meet a difference of the others (mode cap).
Layout cappedLongMode(int k) { return {tup({2, 2, 2, int64_t{1} << (k - 3)}), tup({3, 5, 6, 13})}; }
// (thread, value) -> index in a tile: an MMA-like interleaving of bit fields.
Layout tvLike(int k) {
  int a = (k - 7) / 2, b = k - 7 - a;
  return {tup({tup({4, 8, int64_t{1} << a}), tup({2, 2, int64_t{1} << b})}),
          tup({tup({16, 1, 128}), tup({8, 64, int64_t{1} << (7 + a)})})};
}

using Family = Layout (*)(int);

void BM_Decide(benchmark::State& state, Family family) {
  Layout l = family(static_cast<int>(state.range(0)));
  tilesight::layout::Properties p;
  for (auto _ : state) {
    p = tilesight::layout::decide(l);
    benchmark::DoNotOptimize(p.injective);
  }
  state.SetLabel((p.injective ? "injective by " : "not injective by ") + p.method);
}

// Enumeration as a tool without the decision procedures does it: call the
// layout on every index and insert the offset into a hash set.
void BM_EnumerateHashSet(benchmark::State& state, Family family) {
  Layout l = family(static_cast<int>(state.range(0)));
  bool injective = true;
  for (auto _ : state) {
    std::unordered_set<int64_t> seen;
    int64_t n = tilesight::layout::size(l);
    seen.reserve(static_cast<size_t>(n));
    injective = true;
    for (int64_t i = 0; i < n && injective; ++i) injective = seen.insert(tilesight::layout::call(l, i)).second;
    benchmark::DoNotOptimize(injective);
  }
  state.SetLabel(injective ? "injective" : "not injective (stopped early)");
}

// The fastest enumeration: an odometer over the flattened modes marking a
// bitset over [min, max].
void BM_EnumerateBitset(benchmark::State& state, Family family) {
  Layout l = family(static_cast<int>(state.range(0)));
  std::vector<int64_t> s = tilesight::layout::leaves(l.shape), d = tilesight::layout::leaves(l.stride);
  bool injective = true;
  for (auto _ : state) {
    std::vector<uint64_t> bits(static_cast<size_t>(tilesight::layout::cosize(l) / 64 + 1), 0);
    std::vector<int64_t> x(s.size(), 0);
    int64_t off = 0, n = tilesight::layout::size(l);
    injective = true;
    for (int64_t i = 0; i < n && injective; ++i) {
      uint64_t bit = uint64_t{1} << (off % 64);
      injective = !(bits[off / 64] & bit);
      bits[off / 64] |= bit;
      for (size_t m = 0; m < s.size(); ++m) {
        off += d[m];
        if (++x[m] < s[m]) break;
        off -= s[m] * d[m];
        x[m] = 0;
      }
    }
    benchmark::DoNotOptimize(injective);
  }
  state.SetLabel(injective ? "injective" : "not injective (stopped early)");
}

}  // namespace

#define DECIDE(name) BENCHMARK_CAPTURE(BM_Decide, name, name)->Arg(20)->Arg(24)->Arg(28)->Arg(30)->Unit(benchmark::kMicrosecond)
#define ENUMERATE(bm, name) BENCHMARK_CAPTURE(bm, name, name)->Arg(20)->Arg(24)->Iterations(1)->Unit(benchmark::kMillisecond)
DECIDE(compactRowMajor);
DECIDE(paddedRows);
DECIDE(overlapping);
DECIDE(subsetSumFree);
DECIDE(cappedLongMode);
DECIDE(tvLike);
ENUMERATE(BM_EnumerateHashSet, compactRowMajor);
ENUMERATE(BM_EnumerateHashSet, paddedRows);
ENUMERATE(BM_EnumerateHashSet, overlapping);
ENUMERATE(BM_EnumerateHashSet, subsetSumFree);
ENUMERATE(BM_EnumerateHashSet, cappedLongMode);
ENUMERATE(BM_EnumerateHashSet, tvLike);
ENUMERATE(BM_EnumerateBitset, compactRowMajor);
ENUMERATE(BM_EnumerateBitset, paddedRows);
ENUMERATE(BM_EnumerateBitset, overlapping);
ENUMERATE(BM_EnumerateBitset, subsetSumFree);
ENUMERATE(BM_EnumerateBitset, cappedLongMode);
ENUMERATE(BM_EnumerateBitset, tvLike);
BENCHMARK_MAIN();
