// libFuzzer target: any bytes through the bytecode reader; when they decode,
// the printed text through parse, verify and the checks. Invariants: a
// failed read is one `syntax` diagnostic at an offset inside the input; a
// good one has a location per op and text whose diagnostics lie inside it.
// Build: scripts/fuzz.sh SECONDS bytecode (seeded with tests/corpus/cutile).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/analysis.h"
#include "analysis/bytecode/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  tilesight::bytecode::Decoded d = tilesight::bytecode::readBytecode(bytes);
  if (!d.ok()) {
    if (d.diagnostics.size() != 1 || d.diagnostics[0].code != "syntax" || d.errorOffset > size) __builtin_trap();
    return 0;
  }
  if (d.locations.size() != d.program.ops.size() || d.text.empty()) __builtin_trap();
  tilesight::Analysis a = tilesight::analyze(d.text);
  for (const auto& diag : a.diagnostics)
    if (diag.range.begin > d.text.size() || diag.range.end > d.text.size() || diag.range.end < diag.range.begin)
      __builtin_trap();
  return 0;
}
