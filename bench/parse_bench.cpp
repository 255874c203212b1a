// Google Benchmark: parse + verify of generated programs, reported per op.
#include <benchmark/benchmark.h>

#include "analysis/analysis.h"
#include "bench/program_gen.h"

namespace {

void BM_ParseVerify(benchmark::State& state, tilesight::bench::Form form) {
  int ops = static_cast<int>(state.range(0));
  std::string text = tilesight::bench::generateProgram(ops, form);
  for (auto _ : state) {
    tilesight::Analysis a = tilesight::analyze(text);
    benchmark::DoNotOptimize(a.diagnostics.data());
  }
  state.counters["us_per_op"] =
      benchmark::Counter(static_cast<double>(ops) * 1e-6, benchmark::Counter::kIsIterationInvariantRate |
                                                              benchmark::Counter::kInvert);
  state.counters["bytes"] = static_cast<double>(text.size());
}

// The dataflow checks' cost: the same memory-heavy program analyzed with
// every check (the default) and with all four turned off.
void BM_Kernels(benchmark::State& state, bool checks) {
  int ops = static_cast<int>(state.range(0));
  std::string text = tilesight::bench::generateKernels(ops);
  tilesight::AnalyzeOptions options;
  if (!checks) options.checks.disabled = {"bounds", "layout.overlap", "subbyte", "race"};
  for (auto _ : state) {
    tilesight::Analysis a = tilesight::analyze(text, options);
    benchmark::DoNotOptimize(a.diagnostics.data());
  }
  state.counters["us_per_op"] =
      benchmark::Counter(static_cast<double>(ops) * 1e-6, benchmark::Counter::kIsIterationInvariantRate |
                                                              benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Kernels, parse_verify, false)->Arg(50000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Kernels, parse_verify_checks, true)->Arg(50000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseVerify, custom, tilesight::bench::Form::Custom)->Arg(1000)->Arg(10000)->Arg(50000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ParseVerify, generic, tilesight::bench::Form::Generic)->Arg(50000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
