#include "analysis/checks/checks.h"

namespace tilesight {

bool CheckOptions::enabled(std::string_view code) const {
  for (std::string_view off : disabled)
    if (code == off || (code.size() > off.size() && code.starts_with(off) && code[off.size()] == '.')) return false;
  return true;
}

void runChecks(const ParseResult& parsed, const CheckOptions& options, DiagSink& diags) {
  CheckContext cx{parsed.program, options};
  if (options.enabled("bounds")) checkBounds(cx, diags);
  if (options.enabled("layout.overlap")) checkOverlap(cx, diags);
  if (options.enabled("subbyte.align")) checkSubbyte(cx, diags);
  if (options.enabled("race")) checkRaces(cx, diags);
}

}  // namespace tilesight
