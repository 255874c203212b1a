#include "analysis/checks/checks.h"

#include "analysis/checks/value_facts.h"

namespace tilesight {

bool CheckOptions::enabled(std::string_view code) const {
  for (std::string_view off : disabled)
    if (code == off || (code.size() > off.size() && code.starts_with(off) && code[off.size()] == '.')) return false;
  return true;
}

void runChecks(const ParseResult& parsed, const CheckOptions& options, DiagSink& diags) {
  bool any = options.enabled("bounds") || options.enabled("layout.overlap") || options.enabled("subbyte.align") ||
             options.enabled("race");
  if (!any) return;
  ValueFacts facts(parsed.program, options);
  CheckContext cx{parsed.program, options, facts};
  if (options.enabled("bounds")) checkBounds(cx, diags);
  if (options.enabled("layout.overlap")) checkOverlap(cx, diags);
  if (options.enabled("subbyte.align")) checkSubbyte(cx, diags);
  if (options.enabled("race")) checkRaces(cx, diags);
}

}  // namespace tilesight
