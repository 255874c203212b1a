// libFuzzer target: any bytes through parse, verify and the checks: the whole
// file without options, and split into chunks with a launch grid and aliasing
// (so the cross-block checks run too).
// Build: scripts/fuzz.sh (clang-14, -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/analysis.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  tilesight::Analysis whole = tilesight::analyze(text);
  tilesight::AnalyzeOptions options{.splitInputFile = true,
                                    .layoutWorkBudget = tilesight::layout::kInteractiveWorkBudget,
                                    .layoutTotalBudget = tilesight::layout::kInteractiveTotalBudget,
                                    .checks = {.grid = {{4, 2, 1}}, .assumeAliasing = true, .disabled = {}}};
  tilesight::Analysis split = tilesight::analyze(text, options);
  // Every diagnostic must carry a location inside the text.
  for (const auto* a : {&whole, &split})
    for (const auto& d : a->diagnostics)
      if (d.range.begin > size || d.range.end > size || d.range.end < d.range.begin) __builtin_trap();
  return 0;
}
