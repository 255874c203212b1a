// libFuzzer target: any bytes as a layout expression, then every renderer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analysis/layout/expr.h"
#include "analysis/layout/render.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = tilesight::layout::evaluateAttr(text);
  if (!r.ok()) {
    if (r.error().column > size) __builtin_trap();  // errors point inside the text
    return 0;
  }
  const auto& v = r.value().value;
  tilesight::layout::valueProperties(v);
  tilesight::layout::renderTable(v);
  tilesight::layout::renderMarkdown(v);
  tilesight::layout::renderSvg(v);
  return 0;
}
